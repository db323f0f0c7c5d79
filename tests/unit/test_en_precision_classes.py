"""Classes of wrong plan and preference facts the English rules extractor refuses, and the ones it
keeps (each class is a regression: such facts were written before)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 5, 8, 12, 0, tzinfo=UTC)


def _facts(text: str) -> list[tuple[str, str]]:
    out = RulesExtractor().extract(content=text, speaker="Ann", reference_time=REF)
    return [(f.predicate, f.literal) for f in out.facts]


@pytest.mark.parametrize(
    "sentence",
    [
        "I love the color and texture.",
        "I'm a huge fan of this genre!",
        "I love all the yellow leaves.",
        "I love this series.",
        "Glad you liked the suggestion.",
    ],
)
def test_anaphoric_preference_objects_give_no_preference(sentence: str) -> None:
    """'the'/'this' + a common noun points back into the conversation: no lasting preference."""
    assert not [p for p, _ in _facts(sentence) if p in ("likes", "dislikes")]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I love cooking!", "cooking"),
        ("I'm a big fan of Nintendo games.", "Nintendo games"),
        ("I love the Beatles.", "Beatles"),
        ("I'm passionate about dancing.", "dancing"),
    ],
)
def test_concrete_preferences_stay(sentence: str, value: str) -> None:
    assert ("likes", value) in _facts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'll reach out if I need anything.",
        "I'll come over tomorrow if that's fine.",
        "I'll definitely be tuning in!",
        "I'll always cherish those moments.",
        "I will always love reading.",
    ],
)
def test_offers_dispositions_and_bare_verbs_are_no_plans(sentence: str) -> None:
    """A conditional offer, a habitual 'always', a stative verb or a verb with no object is no plan."""
    assert not [p for p, _ in _facts(sentence) if p == "plans"]


@pytest.mark.parametrize(
    "sentence",
    ["I'm going to visit Rome next week.", "I'm planning a trip to the East Coast.", "I will paint a mural."],
)
def test_concrete_plans_stay(sentence: str) -> None:
    assert [p for p, _ in _facts(sentence) if p == "plans"]


def test_used_to_is_no_current_fact() -> None:
    """'I used to live in X' is a past habit: no current lives_in."""
    out = RulesExtractor().extract(content="I used to live in Boston.", speaker="Ann", reference_time=REF)
    assert not [f for f in out.facts if f.predicate == "lives_in" and f.claim == "assert"]
