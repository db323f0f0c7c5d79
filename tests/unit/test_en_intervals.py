"""Tense, aspect and time phrases set a fact's interval: a duration under the perfect reaches back
from the episode ("for three years"), "until T" ends the state at T, "from T1 to T2" is the
interval. Paraphrases written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 15, 10, 0, tzinfo=UTC)


def _facts(text: str) -> list[tuple[str, str, str, datetime | None, datetime | None]]:
    out = RulesExtractor().extract(content=text, speaker="Dana", reference_time=REF)
    return [(f.predicate, f.literal, f.claim, f.valid_from, f.valid_to) for f in out.facts]


@pytest.mark.parametrize(
    ("text", "predicate", "value", "year"),
    [
        ("I've been living in Madrid for three years.", "lives_in", "Madrid", 2021),
        ("I've worked at Initech for five years now.", "works_at", "Initech", 2019),
        ("I've been a chef for ten years.", "job_title", "chef", 2014),
    ],
)
def test_a_duration_under_the_perfect_dates_the_start(
    text: str, predicate: str, value: str, year: int
) -> None:
    [(p, v, kind, start, _)] = [f for f in _facts(text) if f[0] == predicate]
    assert (p, v, kind) == (predicate, value, "assert")
    assert start is not None and start.year == year and start.month == 6


def test_a_duration_without_the_perfect_starts_nothing() -> None:
    """ "for two weeks" after a past trip is how long it lasted, not when a state began."""
    for _, _, _, start, _ in _facts("I went to Paris for two weeks."):
        assert start is not None and start.date() >= (REF - timedelta(days=1)).date()


@pytest.mark.parametrize(
    ("text", "predicate", "value", "end_year"),
    [
        ("I worked at Acme until last year.", "works_at", "Acme", 2023),
        ("I was living in Berlin till 2022.", "lives_in", "Berlin", 2022),
    ],
)
def test_until_ends_the_state_then(text: str, predicate: str, value: str, end_year: int) -> None:
    rows = [f for f in _facts(text) if f[0] == predicate]
    assert [(r[1], r[2]) for r in rows] == [(value, "assert"), (value, "end")]
    held, ended = rows[0][3], rows[1][3]
    assert held is not None and ended is not None and held < ended and ended.year == end_year


def test_from_to_is_the_interval() -> None:
    rows = [f for f in _facts("I lived in Rome from 2015 to 2019.") if f[0] == "lives_in"]
    assert rows == [
        ("lives_in", "Rome", "assert", datetime(2015, 1, 1, tzinfo=UTC), datetime(2019, 1, 1, tzinfo=UTC))
    ]
