"""The ONNX Runtime MiniLM backend gives the numpy backend's vectors; numpy stays the fallback."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from graphmem.providers.embedders.factory import build_embedder
from graphmem.providers.embedders.minilm_numpy import MiniLMEmbedder
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder

ROOT = Path(__file__).resolve().parents[2]
LONG = " ".join(f"token{i} and more" for i in range(300))  # > 256 tokens: truncated
TEXTS = [
    "where does Alice live now?",
    "When did Caroline go to the LGBTQ support group?",
    "?!",
    "...",
    "",
    "我昨天去了北京，见到了老朋友。",
    LONG,
    "Alice moved to Paris in 2021 and works at a bakery near the Seine; Bob stayed in Lyon.",
]


@pytest.fixture(scope="module")
def onnx_embedder() -> MiniLMOnnxEmbedder:
    e = MiniLMOnnxEmbedder()
    e.load()
    return e


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))


def test_same_vectors_as_numpy_one_text_at_a_time(
    embedder: MiniLMEmbedder, onnx_embedder: MiniLMOnnxEmbedder
) -> None:
    for text in TEXTS:
        assert cosines(onnx_embedder.embed([text]), embedder.embed([text]))[0] >= 0.99999, text


def test_same_vectors_as_numpy_in_padded_batches(
    embedder: MiniLMEmbedder, onnx_embedder: MiniLMOnnxEmbedder
) -> None:
    texts = TEXTS + [f"note {i}: " + "word " * i for i in range(30)]  # > 32: two mini-batches
    got, want = onnx_embedder.embed(texts), embedder.embed(texts)
    assert cosines(got, want).min() >= 0.99999
    single = np.concatenate([onnx_embedder.embed([t]) for t in TEXTS])
    assert cosines(got[: len(TEXTS)], single).min() >= 0.99999  # padding does not leak into the mean


def test_long_text_is_truncated_to_256_tokens(onnx_embedder: MiniLMOnnxEmbedder) -> None:
    ids, mask = onnx_embedder._encode([LONG, "short"])
    assert ids.shape == (2, 256) and mask[0].sum() == 256 and mask[1].sum() < 10
    head = LONG[: len(LONG) // 2]  # still > 256 tokens: the same first 256 tokens, the same vector
    assert cosines(onnx_embedder.embed([LONG]), onnx_embedder.embed([head]))[0] >= 0.999999


def test_shape_dtype_and_unit_norm(onnx_embedder: MiniLMOnnxEmbedder) -> None:
    vecs = onnx_embedder.embed(TEXTS)
    assert vecs.shape == (len(TEXTS), 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert onnx_embedder.embed([]).shape == (0, 384)
    assert onnx_embedder.model_name == MiniLMEmbedder().model_name
    assert onnx_embedder.dimension == 384


def test_threads_loading_and_embedding_at_once_agree(onnx_embedder: MiniLMOnnxEmbedder) -> None:
    texts = [t for t in TEXTS if t != LONG]
    want = onnx_embedder.embed(texts)
    fresh = MiniLMOnnxEmbedder()  # not loaded: the threads race to load it
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(3):
                results.append(fresh.embed(texts))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 12
    for got in results:
        assert np.allclose(got, want, atol=1e-6)


def test_factory_picks_onnx() -> None:
    assert isinstance(build_embedder("minilm"), MiniLMOnnxEmbedder)


def run_python(code: str) -> str:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


EMBED = (
    "from graphmem.providers.embedders.factory import build_embedder\n"
    "e = build_embedder('minilm'); v = e.embed(['where does Alice live now?'])\n"
    "print(type(e).__name__, v.shape)\n"
)


def test_numpy_is_the_fallback_without_onnxruntime() -> None:
    out = run_python("import sys\nsys.modules['onnxruntime'] = None  # import fails\n" + EMBED)
    assert out == "MiniLMEmbedder (1, 384)"


def test_onnxruntime_and_usearch_share_a_process() -> None:
    # graphmem imports onnxruntime before usearch; the reverse order would segfault, so a process
    # that imported usearch first falls back to numpy
    usearch = (
        "from usearch.index import Index\nimport numpy\nIndex(ndim=4).add(1, numpy.ones(4, numpy.float32))\n"
    )
    assert run_python("import graphmem\n" + usearch + EMBED) == "MiniLMOnnxEmbedder (1, 384)"
    assert run_python(usearch + EMBED) == "MiniLMEmbedder (1, 384)"
