"""Self-repairs said in the same breath as the mistake (``rules_en_repair``): the wrong value never
enters the history, whatever marker announces the repair. Paraphrases written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.providers.extractors.rules_en_repair import find_repair

REF = datetime(2024, 6, 15, 10, 0, tzinfo=UTC)


def _rows(text: str) -> list[tuple[str, str, str]]:
    out = RulesExtractor().extract(content=text, speaker="Dana", reference_time=REF)
    return [(f.predicate, f.literal, f.claim) for f in out.facts if f.subject == "Dana"]


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I live in Austin \u2014 no wait, Dallas.", ("lives_in", "Dallas", "assert")),
        ("I work at Initech, er, Globex.", ("works_at", "Globex", "assert")),
        ("I work at Initech \u2014 scratch that, Globex.", ("works_at", "Globex", "assert")),
        ("I live in Austin, well, actually Dallas.", ("lives_in", "Dallas", "assert")),
        ("I'm a teacher, I mean a tutor.", ("job_title", "tutor", "assert")),
    ],
)
def test_a_repair_inside_the_sentence_replaces_the_value(text: str, row: tuple[str, str, str]) -> None:
    assert _rows(text) == [row]


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I live in Austin. Wait, no, Dallas.", ("lives_in", "Dallas", "assert")),
        ("I live in Austin. Correction: Dallas.", ("lives_in", "Dallas", "assert")),
        ("I work for Initech. My mistake, it's Globex.", ("works_at", "Globex", "assert")),
    ],
)
def test_a_repair_in_the_next_sentence_replaces_the_value(text: str, row: tuple[str, str, str]) -> None:
    assert _rows(text) == [row]


@pytest.mark.parametrize(
    "text",
    ["I like cats, no dogs.", "I'm sorry about that.", "I love hiking, sorry to ramble.", "Well, Dallas."],
)
def test_no_repair_without_a_repair_marker_and_a_value(text: str) -> None:
    assert find_repair(text) is None


def test_a_hesitation_before_more_words_changes_nothing() -> None:
    """ "um, as an engineer" does not fit where "Initech" stood."""
    assert ("works_at", "Initech", "assert") in _rows("I work at Initech, um, as an engineer.")


def test_a_repair_may_repeat_the_preposition() -> None:
    assert _rows("I work at Initech, oops, no, at Globex.") == [("works_at", "Globex", "assert")]
