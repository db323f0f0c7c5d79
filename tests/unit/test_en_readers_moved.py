"""The passive of inspiration ("I'm so inspired by street art") and a present trouble ("I'm having
trouble with my business project"), read by ``rules_en_readers.moved_by_claims`` and
``trouble_claims``. Phrasings written for these tests; none taken from a dataset. Refused: the
past (a moment), the listener's thing, a question, a negation, a vague mover."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm really inspired by street art.", ("is_inspired_by", "street art")),
        (
            "I've always been motivated by my grandmother's courage.",
            ("is_motivated_by", "Dana's grandmother's courage"),
        ),
        ("I'm inspired by hiking in the mountains.", ("is_inspired_by", "hiking in mountains")),
        ("I'm having trouble with my business project.", ("struggles_with", "Dana's business project")),
        ("We have problems with our leaky roof.", ("struggles_with", "Dana's leaky roof")),
    ],
)
def test_moved_by_and_troubles(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm inspired by your story.",  # thanks to the listener
        "I'm inspired by people.",  # a vague mover
        "Are you having trouble with the app?",
        "I'm not having trouble with my laptop.",
        "I had trouble with my car last week.",  # past: a moment
        "I'm having trouble sleeping.",  # no thing
    ],
)
def test_near_misses(text: str) -> None:
    assert not [r for r in rows(text) if r[0] in ("is_inspired_by", "struggles_with")]
