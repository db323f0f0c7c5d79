"""Classes of first-person statements the English parse reads as facts about the speaker
(each was missed before: no fact came out)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 5, 8, 12, 0, tzinfo=UTC)


def _facts(text: str) -> list[tuple[str, str, str]]:
    out = RulesExtractor().extract(content=text, speaker="Ann", reference_time=REF, other_speaker="Bob")
    return [(f.subject, f.predicate, f.literal) for f in out.facts]


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("My husband and I went camping.", ("Ann", "goes", "camping")),
        ("My sister and I visited Paris last year.", ("Ann", "visited", "Paris")),
        ("Me and my friends went to a concert.", ("Ann", "attended", "concert")),
        ("My kids and I love hiking.", ("Ann", "likes", "hiking")),
    ],
)
def test_a_subject_coordinated_with_i_is_the_speaker(sentence: str, fact: tuple[str, str, str]) -> None:
    """'X and I <verb>' (and chat's 'Me and X <verb>') states something the speaker did."""
    assert fact in _facts(sentence)


def test_a_chat_sentence_dropping_i_before_been() -> None:
    """'Been working on X' drops 'I've': the speaker works on X."""
    assert ("Ann", "works_on", "new painting") in _facts("Been working on a new painting.")


@pytest.mark.parametrize("sentence", ["My kids love pottery.", "My husband went camping.", "Me too!"])
def test_a_possessed_subject_alone_is_not_the_speaker(sentence: str) -> None:
    """The relative itself is a fact of the speaker's family (``has``), the rest is not theirs."""
    assert not [s for s, p, _ in _facts(sentence) if s == "Ann" and p != "has"]
