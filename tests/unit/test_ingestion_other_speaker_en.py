"""Ingestion tells the rules extractor who "you" is: the other speaker of a two-party session."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.memory.ingestion import _other_speakers
from graphmem.models.episode import EpisodeIn

REF = datetime(2024, 6, 12, tzinfo=UTC)


def ep(speaker: str | None, session: str | None) -> EpisodeIn:
    return EpisodeIn(content="hi", speaker=speaker, session_id=session, reference_time=REF)


def test_two_speakers_in_a_session_are_each_others_you() -> None:
    episodes = [ep("Caroline", "s1"), ep("Melanie", "s1"), ep("Caroline", "s1")]
    assert _other_speakers(episodes) == ["Melanie", "Caroline", "Melanie"]


def test_one_three_or_no_speakers_leave_you_unresolved() -> None:
    episodes = [ep("A", "s1"), ep("B", "s2"), ep("C", "s2"), ep("D", "s2"), ep("A", None), ep(None, "s3")]
    assert _other_speakers(episodes) == [None, None, None, None, None, None]
