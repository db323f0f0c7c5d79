"""BERT encoders on ONNX Runtime: all-MiniLM-L6-v2 (the default ``minilm`` backend when onnxruntime is
installed) and any BERT-family sentence-transformers directory (the ``local`` embedder).

There is no exported ONNX file for these models and no torch to export one, so the graph is written
here with ``onnx.helper`` from the same safetensors weights the numpy backend reads (fused Q/K/V,
dense weights as (in, out): `model_dir.prepare_weights`), shaped by the directory's `ModelSpec`
(hidden size, layers, heads, epsilon, mean or CLS pooling). The encoder uses ORT's fused CPU kernels
(com.microsoft Attention, SkipLayerNormalization, BiasGelu: exact erf GELU), and masked mean pooling
(or the CLS token) plus L2 normalisation run inside the graph. The weights travel as external initializers, so the
serialised graph is ~12 KB and building it plus the session takes 0.2-0.5 s; ORT copies (and
prepacks) them, so nothing here keeps them. Numerics match the numpy backend (cosine ≥ 0.9999996,
fp32). One short query: 8.3 ms p50 against 15.7 ms in numpy, one thread (docs/design-notes.md).
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.providers.embedders.minilm_numpy import MODEL_NAME, bundled_model_dir
from graphmem.providers.embedders.model_dir import BertBase, ModelSpec

# The usearch wheel links a static libstdc++ whose locale facet ids clash with the shared libstdc++
# that onnxruntime loads: importing onnxruntime *after* usearch segfaults (usearch 2.26.6,
# onnxruntime 1.32.0); the other order works. So onnxruntime is imported with this module, which
# graphmem/retrieval/tenant_index/vectors.py imports before usearch; a process that loaded usearch
# first by itself gets the numpy backend instead of a crash.
_USEARCH_FIRST = "usearch.compiled" in sys.modules and "onnxruntime" not in sys.modules


def _import_onnxruntime() -> Any:
    if _USEARCH_FIRST:
        return None
    try:
        return importlib.import_module("onnxruntime")
    except ImportError:  # not installed: the numpy backend serves (factory.build_embedder)
        return None


ort = _import_onnxruntime()

INPUTS = ("input_ids", "attention_mask")


def onnx_runtime_available() -> bool:
    if _USEARCH_FIRST:
        logging.getLogger(__name__).warning(
            "usearch was imported before onnxruntime, which would crash: MiniLM runs in numpy"
        )
    return ort is not None and importlib.util.find_spec("onnx") is not None


def build_graph(w: dict[str, np.ndarray], spec: ModelSpec) -> tuple[bytes, dict[str, np.ndarray]]:
    """The serialised model, and its weights by initializer name (declared external in the graph).

    Inputs ``input_ids`` and ``attention_mask`` (int64, batch x seq); output ``embedding``
    (float32, batch x hidden), pooled as the spec says (masked mean or CLS) and L2-normalised.
    """
    from onnx import TensorProto, helper, numpy_helper

    eps, heads, hidden = spec.eps, spec.heads, spec.hidden
    inits: list[Any] = []
    weights: dict[str, np.ndarray] = {}
    nodes: list[Any] = []

    def const(name: str, value: Any, dtype: type = np.int64) -> str:
        inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def weight(key: str) -> str:
        arr = np.ascontiguousarray(w[key], dtype=np.float32)
        t = TensorProto(name=key, data_type=TensorProto.FLOAT, dims=arr.shape)
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", "memory"), ("offset", "0"), ("length", str(arr.nbytes))):
            entry = t.external_data.add()
            entry.key, entry.value = k, v
        inits.append(t)
        weights[key] = arr
        return key

    def op(kind: str, *inputs: str, ms: bool = False, **attrs: Any) -> str:
        out = f"n{len(nodes)}_{kind}"
        domain = "com.microsoft" if ms else ""
        nodes.append(helper.make_node(kind, list(inputs), [out], name=out, domain=domain, **attrs))
        return out

    # embeddings: word + position (offset..offset+seq-1; RoBERTa's start after the padding index)
    # + token type 0, then layer norm
    seq = op("Slice", op("Shape", "input_ids"), const("one", [1]), const("two", [2]))
    first = const("first_position", [spec.position_offset])
    pos = op("Slice", weight("embeddings.position_embeddings.weight"), first, op("Add", seq, first))
    x = op("Add", op("Gather", weight("embeddings.word_embeddings.weight"), "input_ids"), pos)
    tt = w["embeddings.token_type_embeddings.weight"][0]
    x = op("Add", x, const("token_type_0", tt, np.float32))
    ln = "embeddings.LayerNorm."
    x = op("LayerNormalization", x, weight(ln + "weight"), weight(ln + "bias"), axis=-1, epsilon=eps)
    mask_i32 = op("Cast", "attention_mask", to=TensorProto.INT32)

    def add_norm(y: str, residual: str, dense: str, norm: str) -> str:
        """LayerNorm(y + dense bias + residual), one fused kernel."""
        gamma, beta, bias = weight(norm + "weight"), weight(norm + "bias"), weight(dense + "bias")
        return op("SkipLayerNormalization", y, residual, gamma, beta, bias, ms=True, epsilon=eps)

    for i in range(spec.layers):
        p = f"encoder.layer.{i}."
        qkv = (weight(p + "qkv.weight"), weight(p + "qkv.bias"))
        ctx = op("Attention", x, *qkv, mask_i32, ms=True, num_heads=heads)
        att = op("MatMul", ctx, weight(p + "attention.output.dense.weight"))
        x = add_norm(att, x, p + "attention.output.dense.", p + "attention.output.LayerNorm.")
        h = op("MatMul", x, weight(p + "intermediate.dense.weight"))
        h = op("BiasGelu", h, weight(p + "intermediate.dense.bias"), ms=True)
        h = op("MatMul", h, weight(p + "output.dense.weight"))
        x = add_norm(h, x, p + "output.dense.", p + "output.LayerNorm.")

    # sentence-transformers pooling: attention-masked mean or the CLS token, then L2 normalisation
    if spec.pooling == "cls":
        pooled = op("Gather", x, const("first", 0), axis=1)
    else:
        mask = op("Unsqueeze", op("Cast", "attention_mask", to=TensorProto.FLOAT), const("last", [-1]))
        summed = op("ReduceSum", op("Mul", x, mask), "one", keepdims=0)
        count = op("Max", op("ReduceSum", mask, "one", keepdims=0), const("min_count", 1e-9, np.float32))
        pooled = op("Div", summed, count)
    norm = op("Max", op("ReduceL2", pooled, axes=[-1], keepdims=1), const("min_norm", 1e-12, np.float32))
    nodes.append(helper.make_node("Div", [pooled, norm], ["embedding"], name="embedding"))

    ids_type = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"]) for n in INPUTS]
    out_type = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", hidden])
    graph = helper.make_graph(nodes, "bert-encoder", ids_type, [out_type], initializer=inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="graphmem", ir_version=8)
    return model.SerializeToString(), weights


class BertOnnxEmbedder(BertBase):
    """Thread-safe, lazy-loading BERT embedder on ONNX Runtime (L2-normalised float32)."""

    _session: Any = None

    def _load_model(self, spec: ModelSpec, weights: dict[str, np.ndarray]) -> None:
        if ort is None:
            raise ImportError("onnxruntime is not installed; use the numpy BertNumpyEmbedder")

        graph, weights = build_graph(weights, spec)
        opts = ort.SessionOptions()
        # one thread by default, as for numpy: a query's matrices are too small to share, and on a
        # busy host extra threads multiply latency; None lets ORT choose, without spinning
        opts.intra_op_num_threads = self._threads or 0
        opts.inter_op_num_threads = 1
        if self._threads != 1:
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.log_severity_level = 3
        names = list(weights)
        opts.add_external_initializers(names, [ort.OrtValue.ortvalue_from_numpy(weights[n]) for n in names])
        self._session = ort.InferenceSession(graph, opts, providers=["CPUExecutionProvider"])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        ids, mask = self._encode(texts)
        out: np.ndarray = self._session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})[0]
        return out


class MiniLMOnnxEmbedder(BertOnnxEmbedder):
    """all-MiniLM-L6-v2 (384-d) on ONNX Runtime, from the bundled weights unless ``model_dir`` says otherwise."""

    def __init__(self, model_dir: Path | None = None, *, threads: int | None = 1) -> None:
        super().__init__(model_dir, name=MODEL_NAME, threads=threads)

    def _model_dir(self) -> Path:
        return self._dir or bundled_model_dir()
