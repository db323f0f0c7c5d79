"""Embedders: MiniLM on ONNX Runtime (default; the numpy forward pass where onnxruntime is missing),
hashing (tests)."""
