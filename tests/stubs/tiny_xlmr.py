"""A tiny, randomly initialised XLM-RoBERTa written to disk as a sentence-transformers directory
(the layout of multilingual-e5-base or bge-m3, at toy size), for the ``local`` embedder's tests.

What differs from `tests.stubs.tiny_bert`: ``model_type: xlm-roberta``, ``roberta.``-prefixed
weights with one token type, ``max_position_embeddings`` = the longest text + ``pad_token_id`` + 1
(RoBERTa's positions start after the padding index), ``<pad>`` = 1, and a SentencePiece Unigram
``tokenizer.json`` (Metaspace ``▁`` pieces, ``<s> … </s>``) built with the ``tokenizers`` library.
`tests.stubs.tiny_bert.reference_embed` with ``padding_idx=1`` is its independent forward pass.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

from tests.stubs.tiny_bert import TinyShape, random_weights, write_st_modules

PAD_ID = 1
SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]
PIECES = (
    "▁alice ▁bob ▁lives ▁in ▁paris ▁where ▁does ▁live ▁moved ▁to ▁the ▁a ▁friend ▁city ▁new ▁york "
    "▁ s ed ing ▁我 我 昨天 去 了 北京 见 到 老 朋友 她 住在 上海 , 。"
).split()
SHAPE = TinyShape(
    hidden=32,
    layers=2,
    heads=4,
    intermediate=48,
    max_positions=12 + PAD_ID + 1,
    max_seq_length=12,
    pooling="mean",
)


def write_tokenizer(path: Path) -> int:
    """The Unigram tokenizer; returns its vocabulary size."""
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram

    vocab = [(t, 0.0) for t in SPECIALS] + [(p, -2.0 - 0.01 * i) for i, p in enumerate(PIECES)]
    vocab += [(c, -8.0) for c in string.ascii_lowercase] + [("▁" + c, -8.5) for c in string.ascii_lowercase]
    tok = Tokenizer(Unigram(vocab, unk_id=SPECIALS.index("<unk>")))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", 0), ("</s>", 2)]
    )
    tok.decoder = decoders.Metaspace()
    tok.save(str(path))
    return len(vocab)


def write_tiny_xlmr(
    root: Path, shape: TinyShape = SHAPE, *, seed: int = 0, max_seq_length: int | None = None
) -> Path:
    """The directory; without ``max_seq_length`` there is no ``sentence_bert_config.json`` and the
    usable length is what the positions allow (``max_positions - pad_token_id - 1``)."""
    from safetensors.numpy import save_file

    root.mkdir(parents=True, exist_ok=True)
    vocab_size = write_tokenizer(root / "tokenizer.json")
    weights = {
        "roberta." + k.removeprefix("bert."): v
        for k, v in random_weights(shape, vocab_size, seed).items()
        if k != "bert.embeddings.position_ids"
    }
    weights["roberta.embeddings.token_type_embeddings.weight"] = weights[
        "roberta.embeddings.token_type_embeddings.weight"
    ][:1]
    save_file(weights, str(root / "model.safetensors"))
    config = {
        "architectures": ["XLMRobertaModel"],
        "model_type": "xlm-roberta",
        "hidden_act": "gelu",
        "hidden_size": shape.hidden,
        "num_hidden_layers": shape.layers,
        "num_attention_heads": shape.heads,
        "intermediate_size": shape.intermediate,
        "max_position_embeddings": shape.max_positions,
        "layer_norm_eps": 1e-5,
        "type_vocab_size": 1,
        "vocab_size": vocab_size,
        "pad_token_id": PAD_ID,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "position_embedding_type": "absolute",
    }
    (root / "config.json").write_text(json.dumps(config))
    (root / "tokenizer_config.json").write_text(json.dumps({"pad_token": "<pad>", "model_max_length": 512}))
    if max_seq_length is not None:
        (root / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length}))
    write_st_modules(root, shape)
    return root
