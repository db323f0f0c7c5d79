"""z-score fusion over log-compressed BM25 (pure, no database).

Regression for LongMemEval dev's first five: a long answer's BM25 sum sits several standard
deviations above the other candidates, so under raw z-scores it outvoted a turn that both channels
rank high (BM25 second, the vectors' clear first). ``log_scores`` z-scores such channels on
log(1 + score) instead; bounded channels (cosine) keep their raw scores."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.retrieval.config import SearchConfig
from graphmem.retrieval.fusion import compressed, fuse, zscore
from tests.conftest import examples

# one long answer far ahead in BM25 and middling in vectors; "b" second in BM25, the vectors' clear
# first; twenty others close together in both
BM25 = {("episode", "a"): 60.0, ("episode", "b"): 14.0} | {
    ("episode", f"x{i}"): 10.0 - 0.1 * i for i in range(20)
}
VECTOR = {("episode", "b"): 0.62, ("episode", "a"): 0.40} | {
    ("episode", f"x{i}"): 0.44 - 0.005 * i for i in range(20)
}
WEIGHTS = {"bm25:episode": 1.0, "vector:episode": 1.0}


def best(fused: dict) -> str:
    return str(max(fused, key=fused.__getitem__)[1])


def test_a_long_tail_no_longer_outvotes_agreement() -> None:
    channels = {"bm25:episode": BM25, "vector:episode": VECTOR}
    assert best(zscore(channels, WEIGHTS)) == "a"  # the class of failure: one channel's outlier
    assert best(zscore(channels, WEIGHTS, log_channels=("bm25",))) == "b"
    # a bounded channel named for compression is left alone only when asked: the kind decides
    assert zscore(channels, WEIGHTS, log_channels=("graph",)) == zscore(channels, WEIGHTS)


def test_fuse_reads_log_scores_from_the_recipe() -> None:
    rankings = {
        n: sorted(c, key=lambda k: -c[k]) for n, c in (("bm25:episode", BM25), ("vector:episode", VECTOR))
    }
    scores: dict = {}
    for name, found in (("bm25:episode", BM25), ("vector:episode", VECTOR)):
        for key, v in found.items():
            scores.setdefault(key, {})[name] = v
    assert best(fuse(rankings, scores, WEIGHTS, SearchConfig(log_scores=()))) == "a"
    assert best(fuse(rankings, scores, WEIGHTS, SearchConfig(log_scores=("bm25",)))) == "b"


def test_compressed_is_monotone_and_floors_negatives() -> None:
    assert compressed([-1.0, 0.0, 1.0]) == [0.0, 0.0, compressed([1.0])[0]]


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.floats(0, 1e4), min_size=1, max_size=20))
@settings(max_examples=examples(25), deadline=None)
def test_one_compressed_channel_keeps_its_order(raw: dict[str, float]) -> None:
    found = {("episode", k): v for k, v in raw.items()}
    fused = zscore({"bm25:episode": found}, {"bm25:episode": 1.0}, log_channels=("bm25",))
    for a in found:
        for b in found:
            if found[a] > found[b] + 1e-9:
                assert fused[a] >= fused[b]
