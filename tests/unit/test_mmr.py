"""MMR with incrementally kept similarities chooses what the textbook loop chooses."""

from __future__ import annotations

import random

from graphmem.retrieval.fusion import jaccard, mmr, tokens

Key = tuple[str, str]


def naive(items: list[Key], scores: dict[Key, float], sim, lam: float, limit: int) -> list[Key]:  # type: ignore[no-untyped-def]
    top = max(scores.values())
    pool, chosen = list(items), []
    while pool and len(chosen) < limit:
        best = max(
            pool,
            key=lambda i: lam * scores[i] / top - (1 - lam) * max((sim(i, c) for c in chosen), default=0),
        )
        chosen.append(best)
        pool.remove(best)
    return chosen


def test_mmr_matches_the_textbook_loop() -> None:
    rng = random.Random(5)
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    for _ in range(50):
        items = [("episode", f"e{i}") for i in range(30)]
        texts = {k: tokens(" ".join(rng.sample(words, 4))) for k in items}
        scores = {k: rng.random() for k in items}
        order = sorted(items, key=lambda k: -scores[k])

        def sim(a: Key, b: Key, texts: dict[Key, frozenset[str]] = texts) -> float:
            return jaccard(texts[a], texts[b])

        for lam in (0.5, 0.85, 0.95):
            assert mmr(order, scores, sim, lam=lam, limit=10) == naive(order, scores, sim, lam, 10)


def test_mmr_demotes_near_duplicates() -> None:
    a, b, c = ("fact", "a"), ("fact", "b"), ("fact", "c")
    texts = {a: tokens("alice lives in paris"), b: tokens("alice lives in paris"), c: tokens("bob likes tea")}
    scores = {a: 1.0, b: 0.99, c: 0.8}
    assert mmr([a, b, c], scores, lambda x, y: jaccard(texts[x], texts[y]), lam=0.5, limit=3) == [a, c, b]
