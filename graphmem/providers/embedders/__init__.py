"""Embedders: MiniLM in numpy (default), sentence-transformers (optional), hashing (tests)."""
