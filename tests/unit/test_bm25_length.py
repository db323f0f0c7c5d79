"""BM25's length normalisation read from the tenant's own lengths (``bm25.length_b``), the same on
both candidate sources."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.retrieval import bm25
from graphmem.retrieval.tenant_index.lexical import Lexical


def test_b_rises_with_the_average_length_and_stays_inside_0_1() -> None:
    lengths = [1, 5, 14, 25, 30, 60, 95, 170, 1000]
    bs = [bm25.length_b(x) for x in lengths]
    assert all(0 < b < 1 for b in bs)
    assert bs == sorted(bs) and len(set(bs)) == len(bs)
    assert bm25.length_b(bm25.LENGTH_PIVOT) == pytest.approx(0.5)
    assert bm25.length_b(0) == 0.0


def test_short_chat_lines_are_barely_normalised_long_answers_nearly_fully() -> None:
    assert bm25.length_b(14) < 0.3  # a chat line of a dozen analysed terms
    assert bm25.length_b(95) > 0.85  # an assistant's multi-paragraph answer


def _tenant(docs: dict[int, str]) -> Lexical:
    lex = Lexical()
    for slot, text in docs.items():
        lex.set(slot, text)
    return lex


def test_a_long_answer_does_not_outrank_the_short_turn_that_holds_the_match() -> None:
    """Regression (one fixed b 0.4 for every tenant): in a tenant of long answers, an answer that
    names the query's words once among hundreds of others ranked with a short turn that is about
    them. With b from the tenant's average length the short, focused turn leads."""
    filler = " ".join(f"w{i}" for i in range(300))
    docs = {
        0: "car servic appoint",  # the short user turn about the thing asked
        1: f"car servic {filler} appoint",  # a long answer that mentions the words in passing
        **{slot: " ".join(f"x{slot}{i}" for i in range(200)) for slot in range(2, 12)},
    }
    scores = _tenant(docs).scores(["car", "servic", "appoint"])
    assert scores[0] > 1.5 * scores[1]


def test_in_a_tenant_of_short_lines_a_longer_line_keeps_its_match() -> None:
    """The other side of the class: among chat lines, a line twice the average length that holds
    the words is not pushed far below a shorter one (length is not breadth in a one-liner)."""
    docs = {
        0: "paint sunset",
        1: "paint sunset lake last weekend friend came along too happi",
        **{slot: f"chat line {slot} about noth much" for slot in range(2, 30)},
    }
    scores = _tenant(docs).scores(["paint", "sunset"])
    assert scores[1] > 0.8 * scores[0]


def test_both_sources_score_alike_with_the_same_statistics() -> None:
    """The Neo4j source scores Lucene's matches with ``bm25.score`` over the tenant's ``Stats``;
    the tenant index with ``Lexical.scores``: the same numbers for any average length."""
    for words in (3, 40, 300):
        docs = {s: " ".join(["term", *(f"t{s}_{i}" for i in range(words + s))]) for s in range(6)}
        docs[6] = "term term other"
        lex = _tenant(docs)
        terms = ["term", "other"]
        dense = lex.scores(terms)
        lengths = {s: len(t.split()) for s, t in docs.items()}
        stats = bm25.Stats(len(docs), sum(lengths.values()))
        matches = [
            bm25.Match(str(s), tuple(t.split().count(q) for q in terms), lengths[s]) for s, t in docs.items()
        ]
        ref = dict(bm25.score(terms, matches, stats))
        got = {str(s): float(dense[s]) for s in docs if dense[s] > 0}
        assert got.keys() == ref.keys()
        assert np.allclose([got[k] for k in ref], list(ref.values()), rtol=1e-5)
