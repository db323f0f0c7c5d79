"""The ``local`` embedder: any BERT-family sentence-transformers directory on the MiniLM ONNX and numpy
paths. Checked with the bundled MiniLM weights (the same vectors as the ``minilm`` embedder) and with
a tiny random BERT of another shape, against an independent numpy forward pass."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.providers.embedders import embed_query
from graphmem.providers.embedders.coalescing import CoalescingEmbedder
from graphmem.providers.embedders.factory import embedder_from_settings, local_embedder
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.minilm_numpy import BertNumpyEmbedder, bundled_model_dir
from graphmem.providers.embedders.minilm_onnx import BertOnnxEmbedder, MiniLMOnnxEmbedder
from graphmem.providers.embedders.model_dir import load_tokenizer, read_spec
from tests.stubs.tiny_bert import TinyShape, reference_embed, write_tiny_bert
from tests.stubs.tiny_xlmr import PAD_ID, SHAPE, write_tiny_xlmr

TEXTS = [
    "Alice lives in Paris.",
    "where does Bob live?",
    "我昨天去了北京，见到了老朋友。",
    "",
    "alice moved to new york and works at a bakery in the city " * 3,  # > 16 tokens: truncated
    "Bob met a friend yesterday",
    "qwerty zxcv",  # unknown words
]
BACKENDS = [BertOnnxEmbedder, BertNumpyEmbedder]


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))


@pytest.fixture(scope="module", params=["cls", "mean"])
def tiny(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TinyShape]:
    shape = TinyShape(pooling=request.param)
    return write_tiny_bert(tmp_path_factory.mktemp(f"tiny-{request.param}"), shape, seed=3), shape


def test_bundled_minilm_directory_gives_todays_vectors() -> None:
    minilm = MiniLMOnnxEmbedder()
    texts = [*TEXTS, *(f"note {i}: " + "word " * i for i in range(40))]  # two padded mini-batches
    want = minilm.embed(texts)
    for backend in BACKENDS:
        local = backend(bundled_model_dir(), name="local:minilm")
        assert local.dimension == 384
        assert cosines(local.embed(texts), want).min() >= 0.9999, backend.__name__


def test_the_minilm_spec_maps_its_config() -> None:
    spec = read_spec(bundled_model_dir())
    assert (spec.hidden, spec.layers, spec.heads, spec.intermediate) == (384, 6, 12, 1536)
    assert (spec.max_positions, spec.max_tokens, spec.pooling, spec.pad_id) == (512, 256, "mean", 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tiny_bert_matches_the_reference_forward_pass(tiny: tuple[Path, TinyShape], backend: type) -> None:
    root, shape = tiny
    embedder = backend(root, name="local:tiny")
    got = embedder.embed(TEXTS)  # one padded batch, sorted by length
    want = reference_embed(root, TEXTS, shape)
    assert got.shape == (len(TEXTS), shape.hidden) and got.dtype == np.float32
    assert cosines(got, want).min() >= 0.9999
    assert np.allclose(got, want, atol=1e-4)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    one_by_one = np.concatenate([embedder.embed([t]) for t in TEXTS])
    assert np.allclose(got, one_by_one, atol=1e-5)  # padding never leaks into a vector


def test_tiny_spec_maps_shape_pooling_and_truncation(tiny: tuple[Path, TinyShape]) -> None:
    root, shape = tiny
    spec = read_spec(root)
    assert (spec.hidden, spec.layers, spec.heads, spec.max_positions) == (24, 3, 4, 40)
    assert spec.pooling == shape.pooling and spec.max_tokens == shape.max_seq_length
    embedder = BertOnnxEmbedder(root, name="local:tiny")
    embedder.load()
    ids, mask = embedder._encode([TEXTS[4], "bob"])
    assert ids.shape == (2, 16) and mask[0].sum() == 16 and mask[1].sum() == 3


def test_settings_build_the_local_embedder(
    tiny: tuple[Path, TinyShape], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = tiny
    monkeypatch.setenv("GRAPHMEM_EMBEDDER", "local")
    monkeypatch.setenv("GRAPHMEM_EMBED_MODEL_DIR", str(root))
    embedder = embedder_from_settings(Settings())
    assert embedder.dimension == 24 and embedder.model_name == f"local:{root.name}"
    named = embedder_from_settings(Settings(embed_model="tiny-zh"))
    assert named.model_name == "local:tiny-zh"
    assert np.allclose(embedder.embed(TEXTS[:2]), named.embed(TEXTS[:2]))


def test_a_set_dimension_must_agree_with_the_model(tiny: tuple[Path, TinyShape]) -> None:
    root, _ = tiny
    with pytest.raises(ConfigError) as info:
        embedder_from_settings(Settings(embedder="local", embed_model_dir=root, embedding_dimension=384))
    assert info.value.details["field"] == "GRAPHMEM_EMBED_DIMENSION"
    ok = embedder_from_settings(Settings(embedder="local", embed_model_dir=root, embedding_dimension=24))
    assert ok.dimension == 24


def test_the_local_embedder_needs_a_directory() -> None:
    with pytest.raises(ConfigError) as info:
        embedder_from_settings(Settings(embedder="local"))
    assert info.value.details["field"] == "GRAPHMEM_EMBED_MODEL_DIR"


def test_passage_and_query_prefixes(tiny: tuple[Path, TinyShape]) -> None:
    root, _ = tiny
    plain = local_embedder(root)
    e5 = local_embedder(root, passage_prefix="passage: ", query_prefix="query: ")
    assert np.allclose(
        e5.embed(["alice lives in paris"]), plain.embed(["passage: alice lives in paris"]), atol=1e-6
    )
    assert np.allclose(
        e5.embed_query("where does alice live"), plain.embed(["query: where does alice live"]), atol=1e-6
    )


def _broken(tmp_path: Path, tiny: tuple[Path, TinyShape]) -> Path:
    root = tmp_path / "model"
    shutil.copytree(tiny[0], root)
    return root


def _edit(path: Path, **changes: object) -> None:
    path.write_text(json.dumps(json.loads(path.read_text()) | changes))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda r: shutil.rmtree(r), "not a directory"),
        (lambda r: (r / "model.safetensors").unlink(), "no model.safetensors"),
        (lambda r: (r / "tokenizer.json").unlink(), "no tokenizer.json"),
        (lambda r: (r / "config.json").unlink(), "no config.json"),
        (lambda r: _edit(r / "config.json", model_type="deberta-v2"), "only BERT-family"),
        (lambda r: _edit(r / "config.json", hidden_act="gelu_new"), "hidden_act"),
        (lambda r: _edit(r / "config.json", num_attention_heads=5), "multiple of num_attention_heads"),
        (lambda r: _edit(r / "1_Pooling" / "config.json", pooling_mode_max_tokens=True), "pooling"),
        (lambda r: (r / "config.json").write_text("{"), "cannot read config.json"),
    ],
)
def test_unusable_directories_are_clear_config_errors(
    tmp_path: Path, tiny: tuple[Path, TinyShape], damage: object, message: str
) -> None:
    root = _broken(tmp_path, tiny)
    damage(root)  # type: ignore[operator]
    with pytest.raises(ConfigError, match=message) as info:
        local_embedder(root).embed(["x"])
    assert info.value.details["field"] == "GRAPHMEM_EMBED_MODEL_DIR"


def test_missing_weights_are_named(tmp_path: Path, tiny: tuple[Path, TinyShape]) -> None:
    from safetensors.numpy import load_file, save_file

    root = _broken(tmp_path, tiny)
    weights = load_file(str(root / "model.safetensors"))
    save_file({k: v for k, v in weights.items() if "layer.2." not in k}, str(root / "model.safetensors"))
    with pytest.raises(ConfigError, match=r"lacks .* BERT weights"):
        local_embedder(root).embed(["x"])


def test_a_directory_without_modules_json_mean_pools(tmp_path: Path, tiny: tuple[Path, TinyShape]) -> None:
    """A plain transformers checkpoint: sentence-transformers would mean-pool it, and so do we."""
    root = _broken(tmp_path, tiny)
    (root / "modules.json").unlink()
    assert read_spec(root).pooling == "mean"
    got = local_embedder(root).embed(TEXTS)
    assert cosines(got, reference_embed(root, TEXTS, TinyShape(pooling="mean"))).min() >= 0.9999


def test_float16_weights_are_read_as_float32(tmp_path: Path, tiny: tuple[Path, TinyShape]) -> None:
    from safetensors.numpy import load_file, save_file

    root, shape = _broken(tmp_path, tiny), tiny[1]
    weights = load_file(str(root / "model.safetensors"))
    half = {k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in weights.items()}
    save_file(half, str(root / "model.safetensors"))
    got = local_embedder(root).embed(TEXTS)
    assert got.dtype == np.float32
    assert (
        cosines(got, reference_embed(root, TEXTS, shape)).min() >= 0.9999
    )  # the reference reads the same halves


def test_an_unreadable_weights_file_is_a_config_error(tmp_path: Path, tiny: tuple[Path, TinyShape]) -> None:
    root = _broken(tmp_path, tiny)
    (root / "model.safetensors").write_bytes(b"not safetensors")
    with pytest.raises(ConfigError, match=r"cannot read model\.safetensors") as info:
        local_embedder(root).embed(["x"])
    assert info.value.details["field"] == "GRAPHMEM_EMBED_MODEL_DIR"


def test_search_embeds_queries_with_the_query_prefix(tiny: tuple[Path, TinyShape]) -> None:
    """`embed_query` (what the search pipeline calls) uses the embedder's own query method where
    there is one, and plain ``embed`` for embedders without prefixes (hashing, test fakes)."""
    root, _ = tiny
    e5 = local_embedder(root, passage_prefix="passage: ", query_prefix="query: ")
    assert np.allclose(embed_query(e5, "where"), local_embedder(root).embed(["query: where"]), atol=1e-6)
    hashing = HashingEmbedder(8)
    assert np.array_equal(embed_query(hashing, "where"), hashing.embed(["where"]))


def test_coalesced_queries_get_the_query_prefix_only(tiny: tuple[Path, TinyShape]) -> None:
    """Regression: the query coalescer added the query prefix and then called ``embed``, which added
    the passage prefix too ("passage: query: ..."); it embeds through ``embed_queries``."""
    root, _ = tiny
    e5 = local_embedder(root, passage_prefix="passage: ", query_prefix="query: ")
    coalesced = CoalescingEmbedder(e5, window_s=0).embed_query("where")
    assert np.allclose(coalesced, local_embedder(root).embed(["query: where"]), atol=1e-6)


# ------------------------------------------------------------------ XLM-RoBERTa


@pytest.fixture(scope="module", params=["mean", "cls"])
def tiny_xlmr(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, TinyShape]:
    shape = replace(SHAPE, pooling=request.param)
    return write_tiny_xlmr(tmp_path_factory.mktemp(f"xlmr-{request.param}"), shape, seed=11), shape


@pytest.mark.parametrize("backend", BACKENDS)
def test_tiny_xlm_roberta_matches_the_reference_forward_pass(
    tiny_xlmr: tuple[Path, TinyShape], backend: type
) -> None:
    """RoBERTa's positions start after the padding index: reading them from 0, as BERT does,
    gives other vectors (and a text as long as the positions allow would run off the table)."""
    root, shape = tiny_xlmr
    embedder = backend(root, name="local:tiny-xlmr")
    got = embedder.embed(TEXTS)  # includes a text truncated to the 12 usable positions
    want = reference_embed(root, TEXTS, shape, padding_idx=PAD_ID)
    assert got.shape == (len(TEXTS), shape.hidden)
    assert np.allclose(got, want, atol=1e-4)
    one_by_one = np.concatenate([embedder.embed([t]) for t in TEXTS])
    assert np.allclose(got, one_by_one, atol=1e-5)  # right padding never leaks into a vector
    bert_positions = reference_embed(root, TEXTS[:3], shape)  # positions from 0
    assert not np.allclose(got[:3], bert_positions, atol=1e-2)


def test_the_xlm_roberta_spec_maps_its_config(tmp_path: Path) -> None:
    root = write_tiny_xlmr(tmp_path / "m")  # no sentence_bert_config.json: the positions bound it
    spec = read_spec(root)
    assert (spec.hidden, spec.layers, spec.heads, spec.max_positions) == (32, 2, 4, 14)
    assert (spec.position_offset, spec.max_tokens, spec.pad_token, spec.pad_id) == (2, 12, "<pad>", 1)
    assert (spec.eps, spec.pooling) == (1e-5, "mean")
    assert read_spec(write_tiny_xlmr(tmp_path / "short", max_seq_length=8)).max_tokens == 8
    assert read_spec(bundled_model_dir()).position_offset == 0


def test_a_chinese_text_is_tokenised_by_its_sentencepiece_model(tmp_path: Path) -> None:
    """The directory's Unigram pieces between <s> and </s>, not unknown tokens; padded with <pad>."""
    tok = load_tokenizer(read_spec(write_tiny_xlmr(tmp_path / "m", seed=2)))
    short, text = tok.encode_batch(["她", "我昨天去了北京"])
    assert text.tokens == ["<s>", "▁我", "昨天", "去", "了", "北京", "</s>"]
    assert short.tokens == ["<s>", "▁", "她", "</s>", "<pad>", "<pad>", "<pad>"]
    assert short.ids[-3:] == [PAD_ID] * 3 and short.attention_mask == [1, 1, 1, 1, 0, 0, 0]
