"""A BERT-family sentence-transformers directory, read into what the numpy and ONNX backends need.

The directory holds ``config.json`` (hidden size, layers, heads, max positions, layer-norm epsilon),
``model.safetensors``, ``tokenizer.json`` and, as sentence-transformers saves it, ``modules.json``
naming the Transformer, Pooling and Normalize modules, the pooling config (``1_Pooling/config.json``:
mean or CLS) and ``sentence_bert_config.json`` (``max_seq_length``). all-MiniLM-L6-v2 (bundled),
bge-small-zh, gte-small and multilingual-e5-small have this shape. Vectors are always
L2-normalised (the ``Embedder`` port promises unit vectors; cosine ranking is the same either way).

RoBERTa and XLM-RoBERTa (``model_type`` ``roberta``/``xlm-roberta``: multilingual-e5-base and -large,
bge-m3, paraphrase-multilingual-mpnet) are the same encoder with three differences, all handled
here: weights under ``roberta.``; positions that start after the padding index (RoBERTa numbers a
text's tokens ``pad_token_id + 1, + 2, ...``; padding sits at the right end and is masked, so the
position of token i is ``pad_token_id + 1 + i``, `ModelSpec.position_offset`), which also takes
``pad_token_id + 1`` off the usable length; and one token type (row 0). Their tokenizer
(SentencePiece Unigram or byte-level BPE, ``<s> … </s>``) is whatever ``tokenizer.json`` says.

`BertBase` is what the backends share: a lazily read `ModelSpec`, thread-safe loading, the model's own
tokenizer (truncating to the model's limit, padding to the longest text of a batch), batches of 32
sorted by length, and the passage and query prefixes of e5-style models ("passage: ", "query: ").
A backend loads its model in ``_load_model`` and embeds one padded batch in ``_embed_batch``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from graphmem.errors import ConfigError

FIELD = "GRAPHMEM_EMBED_MODEL_DIR"
Pooling = Literal["mean", "cls"]
_POOLING_KEYS: dict[str, Pooling] = {"pooling_mode_mean_tokens": "mean", "pooling_mode_cls_token": "cls"}
_UNSUPPORTED_POOLING = (
    "pooling_mode_max_tokens",
    "pooling_mode_mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens",
    "pooling_mode_lasttoken",
)
_WEIGHT_PREFIXES = ("bert.", "roberta.", "model.")
# model_type -> whether positions start after the padding index (RoBERTa's numbering)
_FAMILIES = {"bert": False, "roberta": True, "xlm-roberta": True}


@dataclass(frozen=True)
class ModelSpec:
    """What the graph builder and the numpy forward pass need to know about one model directory."""

    root: Path  # the Transformer module's folder (config.json, model.safetensors, tokenizer.json)
    hidden: int
    layers: int
    heads: int
    intermediate: int
    max_positions: int
    eps: float
    pooling: Pooling
    max_tokens: int
    pad_token: str
    pad_id: int
    position_offset: int = 0  # position of a text's first token (RoBERTa: pad_token_id + 1)

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


def _bad(message: str, root: Path) -> ConfigError:
    return ConfigError(f"{root}: {message}", details={"field": FIELD, "path": str(root)})


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise _bad(f"cannot read {path.name} ({type(exc).__name__})", path.parent) from None


def _modules(root: Path) -> tuple[Path, Path | None]:
    """The Transformer module's folder and the Pooling module's folder (None: no modules.json)."""
    modules = _json(root / "modules.json")
    if modules is None:
        return root, None
    by_kind = {str(m.get("type", "")).rsplit(".", 1)[-1]: str(m.get("path", "")) for m in modules}
    unknown = set(by_kind) - {"Transformer", "Pooling", "Normalize"}
    if unknown:
        raise _bad(f"modules.json has modules this loader does not run: {sorted(unknown)}", root)
    pooling = by_kind.get("Pooling")
    return root / by_kind.get("Transformer", ""), (root / pooling if pooling is not None else None)


def _pooling(folder: Path | None, root: Path) -> Pooling:
    if folder is None:
        return "mean"  # what sentence-transformers uses for a plain transformers checkpoint
    cfg = _json(folder / "config.json") or {}
    mode = cfg.get("pooling_mode")
    if isinstance(mode, str) and mode in ("mean", "cls"):
        return "mean" if mode == "mean" else "cls"
    chosen = [mode for key, mode in _POOLING_KEYS.items() if cfg.get(key)]
    other = [key for key in _UNSUPPORTED_POOLING if cfg.get(key)]
    if len(chosen) != 1 or other:
        raise _bad(
            f"pooling must be exactly one of mean or CLS tokens; the config sets {other or chosen}", root
        )
    return chosen[0]


def _pad(folder: Path, cfg: dict[str, Any], tokenizer: Any) -> tuple[str, int]:
    pad: Any = None
    for name in ("tokenizer_config.json", "special_tokens_map.json"):
        pad = pad or (_json(folder / name) or {}).get("pad_token")
    if isinstance(pad, dict):
        pad = pad.get("content")
    token = pad if isinstance(pad, str) and pad else "[PAD]"
    pad_id = tokenizer.token_to_id(token)
    if pad_id is None:
        pad_id = int(cfg.get("pad_token_id") or 0)
    return token, int(pad_id)


def read_spec(root: Path) -> ModelSpec:
    """The directory's model, checked: ConfigError (field GRAPHMEM_EMBED_MODEL_DIR) saying what is wrong."""
    from tokenizers import Tokenizer

    root = Path(root)
    if not root.is_dir():
        raise _bad("not a directory", root)
    folder, pooling_folder = _modules(root)
    cfg = _json(folder / "config.json")
    if not isinstance(cfg, dict):
        raise _bad("no config.json", folder)
    for name in ("model.safetensors", "tokenizer.json"):
        if not (folder / name).is_file():
            raise _bad(f"no {name} (save the model with safe_serialization and a fast tokenizer)", folder)
    model_type = cfg.get("model_type", "bert")
    if model_type not in _FAMILIES or cfg.get("position_embedding_type", "absolute") != "absolute":
        raise _bad(
            f"model_type {cfg.get('model_type')!r} with {cfg.get('position_embedding_type')!r} positions: "
            f"only BERT-family models ({', '.join(_FAMILIES)}) with absolute positions load here",
            folder,
        )
    if cfg.get("hidden_act", "gelu") != "gelu":
        raise _bad(f"hidden_act {cfg.get('hidden_act')!r}: only the exact (erf) gelu is supported", folder)
    try:
        hidden, heads = int(cfg["hidden_size"]), int(cfg["num_attention_heads"])
        max_positions = int(cfg["max_position_embeddings"])
        layers, intermediate = int(cfg["num_hidden_layers"]), int(cfg["intermediate_size"])
        eps = float(cfg.get("layer_norm_eps", 1e-12))
        offset = int(cfg.get("pad_token_id", 1)) + 1 if _FAMILIES[model_type] else 0
    except (KeyError, TypeError, ValueError) as exc:
        raise _bad(f"config.json lacks a usable {exc}", folder) from None
    if min(hidden, heads, layers, intermediate, max_positions) < 1 or hidden % heads:
        raise _bad(f"hidden_size {hidden} must be a positive multiple of num_attention_heads {heads}", folder)
    if not 0 <= offset < max_positions:
        raise _bad(f"pad_token_id {offset - 1} leaves no positions of {max_positions}", folder)
    st = _json(root / "sentence_bert_config.json") or _json(folder / "sentence_bert_config.json") or {}
    usable = max_positions - offset
    max_tokens = min(int(st.get("max_seq_length") or usable), usable)
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    pad_token, pad_id = _pad(folder, cfg, tokenizer)
    return ModelSpec(
        root=folder,
        hidden=hidden,
        layers=layers,
        heads=heads,
        intermediate=intermediate,
        max_positions=max_positions,
        eps=eps,
        pooling=_pooling(pooling_folder, root),
        max_tokens=max_tokens,
        pad_token=pad_token,
        pad_id=pad_id,
        position_offset=offset,
    )


def prepare_weights(raw: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Cast to float32, drop a ``bert.``/``roberta.`` prefix, store dense weights as (in, out), fuse
    Q/K/V."""
    w: dict[str, np.ndarray] = {}
    for key, value in raw.items():
        name = next((key[len(p) :] for p in _WEIGHT_PREFIXES if key.startswith(p)), key)
        arr = value.astype(np.float32)
        if name.startswith("encoder.") and name.endswith("dense.weight"):
            arr = np.ascontiguousarray(arr.T)
        w[name] = arr
    layers = {k.split(".attention.self.")[0] for k in w if ".attention.self." in k}
    for layer in layers:
        parts = [f"{layer}.attention.self.{n}" for n in ("query", "key", "value")]
        w[f"{layer}.qkv.weight"] = np.ascontiguousarray(
            np.concatenate([w[p + ".weight"].T for p in parts], 1)
        )
        w[f"{layer}.qkv.bias"] = np.concatenate([w[p + ".bias"] for p in parts])
    return w


def load_weights(spec: ModelSpec) -> dict[str, np.ndarray]:
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    try:
        raw = load_file(str(spec.root / "model.safetensors"))
    except (SafetensorError, OSError, TypeError, ValueError) as exc:  # bad file; bfloat16 (numpy lacks it)
        raise _bad(
            f"cannot read model.safetensors ({type(exc).__name__}: {str(exc)[:120]})", spec.root
        ) from None
    w = prepare_weights(raw)
    missing = [k for k in _required(spec) if k not in w]
    if missing:
        raise _bad(f"model.safetensors lacks {len(missing)} BERT weights, e.g. {missing[0]}", spec.root)
    return w


def _required(spec: ModelSpec) -> list[str]:
    emb = [f"embeddings.{n}_embeddings.weight" for n in ("word", "position", "token_type")]
    per_layer = (
        "qkv.weight",
        "attention.output.dense.weight",
        "attention.output.LayerNorm.weight",
        "intermediate.dense.weight",
        "output.dense.weight",
        "output.LayerNorm.weight",
    )
    return emb + [f"encoder.layer.{i}.{n}" for i in range(spec.layers) for n in per_layer]


def load_tokenizer(spec: ModelSpec) -> Any:
    """The model's own tokenizer, truncating to the model's limit and padding to the longest in a batch."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(spec.root / "tokenizer.json"))
    tok.enable_truncation(max_length=spec.max_tokens)
    tok.enable_padding(pad_id=spec.pad_id, pad_token=spec.pad_token)
    return tok


class BertBase:
    """What the BERT backends share (module docstring). ``name`` is recorded in the graph."""

    def __init__(
        self,
        model_dir: Path | None,
        *,
        name: str,
        threads: int | None = 1,
        passage_prefix: str = "",
        query_prefix: str = "",
    ) -> None:
        self._dir = Path(model_dir) if model_dir is not None else None
        self._name = name
        self._threads = threads
        self.passage_prefix = passage_prefix
        self.query_prefix = query_prefix
        self._lock = threading.Lock()
        self._spec_cache: ModelSpec | None = None
        self._tok: Any = None

    @property
    def model_name(self) -> str:
        return self._name

    @property
    def spec(self) -> ModelSpec:
        """The directory's model (read on first use: config files only, not the weights)."""
        if self._spec_cache is None:
            with self._lock:
                if self._spec_cache is None:
                    self._spec_cache = read_spec(self._model_dir())
        return self._spec_cache

    @property
    def dimension(self) -> int:
        return self.spec.hidden

    def load(self) -> None:
        if self._tok is not None:  # set last, once the model is ready
            return
        spec = self.spec
        with self._lock:
            if self._tok is not None:
                return
            self._load_model(spec, load_weights(spec))
            self._tok = load_tokenizer(spec)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        prefix = self.passage_prefix
        return self._embed([prefix + t for t in texts] if prefix else list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        """One query's vector (1 x dimension), with the query prefix of e5-style models."""
        return self.embed_queries([text])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Search queries' vectors, with the query prefix (and not the passage prefix)."""
        return self._embed([self.query_prefix + t for t in texts])

    def _embed(self, texts: list[str]) -> np.ndarray:
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

    def _model_dir(self) -> Path:
        if self._dir is None:
            raise ConfigError(f"{FIELD} is required for the local embedder", details={"field": FIELD})
        return self._dir

    def _load_model(self, spec: ModelSpec, weights: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError
