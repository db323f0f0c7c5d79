"""A tiny, randomly initialised BERT written to disk as a sentence-transformers directory, and an
independent numpy forward pass to check the loaders against.

`write_tiny_bert` lays out what sentence-transformers saves (``config.json``, ``model.safetensors``
with ``bert.``-prefixed keys and a pooler, ``tokenizer.json`` built with the ``tokenizers`` library,
``modules.json``, ``1_Pooling/config.json``, ``sentence_bert_config.json``), of a shape unlike
MiniLM's. `reference_embed` runs the textbook BERT encoder on the raw (torch-layout) weights, one
text at a time with no padding: no fused Q/K/V, no ONNX, no shared code with graphmem's backends.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = (
    "alice bob lives in paris works at acme where does live moved to the a of and ##s ##ed "
    "bakery city new york friend met yesterday went museum"
).split()
CHINESE = list("我昨天去了北京见到老朋友她住在上海工作喜欢猫狗")


@dataclass(frozen=True)
class TinyShape:
    hidden: int = 24
    layers: int = 3
    heads: int = 4
    intermediate: int = 40
    max_positions: int = 40
    max_seq_length: int = 16
    pooling: str = "cls"  # or "mean"


def _vocab() -> dict[str, int]:
    return {token: i for i, token in enumerate(SPECIALS + WORDS + CHINESE)}


def write_tokenizer(path: Path) -> None:
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    vocab = _vocab()
    tok = Tokenizer(WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, handle_chinese_chars=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])]
    )
    tok.save(str(path))


def random_weights(shape: TinyShape, vocab_size: int, seed: int) -> dict[str, np.ndarray]:
    """BERT weights in the torch layout ((out, in) dense matrices), ``bert.``-prefixed."""
    rng = np.random.default_rng(seed)
    h, f = shape.hidden, shape.intermediate

    def rand(*dims: int, scale: float = 0.2) -> np.ndarray:
        return (rng.standard_normal(dims) * scale).astype(np.float32)

    def norm(p: str) -> dict[str, np.ndarray]:
        return {p + "weight": 1 + rand(h, scale=0.1), p + "bias": rand(h, scale=0.1)}

    w: dict[str, np.ndarray] = {
        "bert.embeddings.word_embeddings.weight": rand(vocab_size, h, scale=1.0),
        "bert.embeddings.position_embeddings.weight": rand(shape.max_positions, h, scale=0.5),
        "bert.embeddings.token_type_embeddings.weight": rand(2, h, scale=0.5),
        "bert.embeddings.position_ids": np.arange(shape.max_positions, dtype=np.int64)[None],
        **norm("bert.embeddings.LayerNorm."),
        "bert.pooler.dense.weight": rand(h, h),
        "bert.pooler.dense.bias": rand(h),
    }
    for i in range(shape.layers):
        p = f"bert.encoder.layer.{i}."
        for name in ("query", "key", "value"):
            w[f"{p}attention.self.{name}.weight"] = rand(h, h)
            w[f"{p}attention.self.{name}.bias"] = rand(h)
        w[p + "attention.output.dense.weight"] = rand(h, h)
        w[p + "attention.output.dense.bias"] = rand(h)
        w.update(norm(p + "attention.output.LayerNorm."))
        w[p + "intermediate.dense.weight"] = rand(f, h)
        w[p + "intermediate.dense.bias"] = rand(f)
        w[p + "output.dense.weight"] = rand(h, f)
        w[p + "output.dense.bias"] = rand(h)
        w.update(norm(p + "output.LayerNorm."))
    return w


def write_st_modules(root: Path, shape: TinyShape) -> None:
    """The sentence-transformers modules of a tiny model: Transformer, Pooling (``shape.pooling``),
    Normalize."""
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ]
    (root / "modules.json").write_text(json.dumps(modules))
    (root / "1_Pooling").mkdir(exist_ok=True)
    pooling = {
        "word_embedding_dimension": shape.hidden,
        "pooling_mode_cls_token": shape.pooling == "cls",
        "pooling_mode_mean_tokens": shape.pooling == "mean",
        "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False,
    }
    (root / "1_Pooling" / "config.json").write_text(json.dumps(pooling))


def write_tiny_bert(root: Path, shape: TinyShape = TinyShape(), *, seed: int = 0) -> Path:
    from safetensors.numpy import save_file

    root.mkdir(parents=True, exist_ok=True)
    vocab_size = len(_vocab())
    config = {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_act": "gelu",
        "hidden_size": shape.hidden,
        "num_hidden_layers": shape.layers,
        "num_attention_heads": shape.heads,
        "intermediate_size": shape.intermediate,
        "max_position_embeddings": shape.max_positions,
        "layer_norm_eps": 1e-12,
        "type_vocab_size": 2,
        "vocab_size": vocab_size,
        "pad_token_id": 0,
        "position_embedding_type": "absolute",
    }
    (root / "config.json").write_text(json.dumps(config))
    save_file(random_weights(shape, vocab_size, seed), str(root / "model.safetensors"))
    write_tokenizer(root / "tokenizer.json")
    (root / "tokenizer_config.json").write_text(json.dumps({"pad_token": "[PAD]", "do_lower_case": True}))
    (root / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": shape.max_seq_length}))
    write_st_modules(root, shape)
    return root


# ---------------------------------------------------------------------- reference forward pass

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def _dense(x: np.ndarray, w: dict[str, np.ndarray], p: str) -> np.ndarray:
    return x @ w[p + "weight"].astype(np.float64).T + w[p + "bias"]


def reference_embed(
    root: Path, texts: list[str], shape: TinyShape = TinyShape(), *, padding_idx: int | None = None
) -> np.ndarray:
    """One text at a time, float64, straight from the saved files. ``padding_idx``: RoBERTa's
    position ids, as transformers' ``create_position_ids_from_input_ids`` makes them."""
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    w = {
        k.removeprefix("bert.").removeprefix("roberta."): v.astype(np.float64)
        for k, v in load_file(str(root / "model.safetensors")).items()
    }
    tok = Tokenizer.from_file(str(root / "tokenizer.json"))
    tok.enable_truncation(max_length=shape.max_seq_length)
    eps = float(json.loads((root / "config.json").read_text()).get("layer_norm_eps", 1e-12))
    heads, hd = shape.heads, shape.hidden // shape.heads
    out = []
    for text in texts:
        ids = np.array(tok.encode(text).ids)
        if padding_idx is None:
            positions = np.arange(len(ids))
        else:
            real = (ids != padding_idx).astype(np.int64)
            positions = np.cumsum(real) * real + padding_idx
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions]
        )
        x = _layer_norm(
            x + w["embeddings.token_type_embeddings.weight"][0], *_ln(w, "embeddings.LayerNorm."), eps
        )
        for i in range(shape.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                _dense(x, w, f"{p}attention.self.{n}.").reshape(len(ids), heads, hd).transpose(1, 0, 2)
                for n in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
            probs = np.exp(scores - scores.max(-1, keepdims=True))
            probs /= probs.sum(-1, keepdims=True)
            ctx = (probs @ v).transpose(1, 0, 2).reshape(len(ids), shape.hidden)
            x = _layer_norm(
                x + _dense(ctx, w, p + "attention.output.dense."),
                *_ln(w, p + "attention.output.LayerNorm."),
                eps,
            )
            inner = _dense(x, w, p + "intermediate.dense.")
            inner = 0.5 * inner * (1 + _erf(inner / math.sqrt(2)))
            x = _layer_norm(x + _dense(inner, w, p + "output.dense."), *_ln(w, p + "output.LayerNorm."), eps)
        pooled = x[0] if shape.pooling == "cls" else x.mean(0)
        out.append(pooled / np.linalg.norm(pooled))
    return np.array(out)


def _ln(w: dict[str, np.ndarray], p: str) -> tuple[np.ndarray, np.ndarray]:
    return w[p + "weight"], w[p + "bias"]
