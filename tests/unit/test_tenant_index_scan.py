"""The int8 rows' coarse scan (``vectors.I8_SCAN``): usearch's exact cosine over the int8 rows
ranks as the f32 blocks through BLAS did, in every exact path (most rows allowed, a few copied
out, a cached subset), and both stay within the residual rescoring of exact f32."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.retrieval.tenant_index import vectors as V


def _data(n: int, d: int, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((40, d)).astype(np.float32)
    rows = centers[rng.integers(0, 40, n)] + 0.5 * rng.standard_normal((n, d)).astype(np.float32)
    queries = [(centers[i % 40] + 0.7 * rng.standard_normal(d)).astype(np.float32) for i in range(24)]
    return rows, [q / np.linalg.norm(q) for q in queries]


@pytest.mark.parametrize("keep", [1.0, 0.6, 0.1, 0.0005])
def test_the_cosine_scan_finds_what_the_f32_scan_finds(keep: float, monkeypatch: pytest.MonkeyPatch) -> None:
    n, d = 3_000, 48
    rows, queries = _data(n, d, seed=int(keep * 1000))
    mask = np.random.default_rng(1).random(n) < keep
    i8 = V.Vectors(d, ann_threshold=10**9)
    f32 = V.Vectors(d, ann_threshold=10**9, precision="f32")
    for v in (i8, f32):
        v.set_many(list(range(n)), rows.tolist())
    found: dict[str, list[list[int]]] = {}
    for scan in ("dot", "cos"):
        monkeypatch.setattr(V, "I8_SCAN", scan)
        found[scan] = [[s for s, _ in i8.search(q, 20, mask, subset=("m", keep))] for q in queries]
    exact = [[s for s, _ in f32.search(q, 20, mask)] for q in queries]
    for scan, tops in found.items():
        recall = np.mean(
            [len(set(a[:10]) & set(b[:10])) / max(len(b[:10]), 1) for a, b in zip(tops, exact, strict=True)]
        )
        assert recall >= 0.99, scan
    assert all(len(t) == min(20, int(mask.sum())) for t in found["cos"])


def test_unallowed_and_absent_rows_never_come_back() -> None:
    d = 16
    v = V.Vectors(d, ann_threshold=10**9)
    rows, queries = _data(200, d, seed=5)
    v.set_many(list(range(0, 400, 2)), rows.tolist())  # odd slots hold no vector
    mask = np.zeros(400, dtype=bool)
    mask[:300] = True
    for q in queries:
        hits = v.search(q, 50, mask)
        assert hits and all(s % 2 == 0 and s < 300 for s, _ in hits)
        assert [h[1] for h in hits] == sorted((h[1] for h in hits), reverse=True)
