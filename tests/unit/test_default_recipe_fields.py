"""The default recipe scores a turn's own words apart from its neighbours' (pure, no database).

Regression for the best-hit-first failure on LongMemEval dev: with one merged bag, a short turn
next to a long answer carries every word of that answer as its own, so the turn that only borders
the answer ranks with it (graphmem's BM25 channel put the evidence first for 0.069 of questions,
rank-bm25 for 0.306)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.retrieval.config import RECIPES
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.text import search_text

T = datetime(2024, 1, 1, tzinfo=UTC)
ANSWER = (
    "For beginners I would recommend a small refractor telescope such as a 70 mm model on an alt-az "
    "mount: it needs no collimation, cools quickly, and shows the moon, Jupiter's moons and Saturn's "
    "rings. Add a red flashlight, a planisphere and a comfortable chair for long sessions outside."
)


def _turn(i: str, speaker: str, own: str, neighbours: list[str]) -> dict[str, object]:
    terms, who = search_text(own), search_text(speaker)
    context = " ".join(search_text(n) for n in neighbours)
    return {
        "id": i,
        "search_text": " ".join(t for t in (who, terms, context) if t),
        "speaker_terms": who,
        "terms": terms,
        "embedding": None,
        "reference_time": T,
        "mentions": [],
    }


def test_the_turn_that_says_it_outranks_the_short_turn_beside_it() -> None:
    ask, thanks = "Which one should I get first?", "Thanks, that helps a lot!"
    idx = TenantIndex("g", 8)
    idx.apply(
        "episode",
        [
            _turn("ask", "user", ask, [ANSWER]),
            _turn("answer", "assistant", ANSWER, [ask, thanks]),
            _turn("thanks", "user", thanks, [ANSWER]),
            _turn("other", "user", "I planted tomatoes and basil in the garden.", []),
        ],
    )
    terms = search_text("Which telescope did you recommend for beginners?").split()
    fields = RECIPES["default"].field_weights
    assert fields is not None and fields["own"] > fields["context"]
    hits = idx.bm25("episode", terms, 4, View(), fields=fields)
    assert hits[0][0] == "answer" and hits[0][1] > 1.3 * hits[1][1]
    merged = idx.bm25("episode", terms, 4, View())  # the class of failure: the neighbour ties or wins
    assert merged[0][0] != "answer" or merged[0][1] < 1.3 * merged[1][1]
