"""English time phrases people use for when a state began or ended, resolved against the
episode's reference time (a third, hand-written bank): seasons with a year ("the spring of
2021"), seasons counted back ("two summers ago"), parts of a year ("at the end of last year",
"mid-2020", "early 2019" without a preposition), "a couple of years back", "the year before last".

Regression: these phrases were found by no rule, so a move "in the spring of 2021" was dated at
the message and "since the spring of 2021" read as the last spring; "until the end of last year"
was no end at all (only "last year" matched, without "until")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.timeparse import find_times, is_until

REF = datetime(2024, 6, 15, 10, tzinfo=UTC)

CASES = [
    ("I moved there in the spring of 2021.", "2021-03-01"),
    ("We left in fall 2022.", "2022-09-01"),
    ("She joined during the winter of 2019.", "2019-12-01"),
    ("I moved there two summers ago.", "2022-06-01"),
    ("I started three winters ago.", "2021-12-01"),
    ("I moved there at the end of last year.", "2023-12-01"),
    ("We came at the beginning of last year.", "2023-01-01"),
    ("I quit at the start of 2022.", "2022-01-01"),
    ("They moved in the middle of 2020.", "2020-07-01"),
    ("I moved there mid-2020.", "2020-07-01"),
    ("I joined early 2019.", "2019-01-01"),
    ("I left late last year.", "2023-10-01"),
    ("I moved there a couple of years back.", "2022-06-15"),
    ("I joined a few months back.", "2024-03-15"),
    ("We moved the year before last.", "2022-06-15"),
    ("I moved there the summer before last.", "2022-06-01"),
    ("I moved this spring.", "2024-03-01"),
    ("I've been there since the spring of 2021.", "2021-03-01"),
]


@pytest.mark.parametrize(("text", "day"), CASES)
def test_a_time_phrase_of_the_bank_resolves(text: str, day: str) -> None:
    times = find_times(text, REF)
    assert [t.when.date().isoformat() if t.when else None for t in times] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "I lived there until the end of last year.",
        "I worked there till mid-2023.",
        "until the spring of 2022",
    ],
)
def test_an_until_before_the_phrase_makes_it_an_end(text: str) -> None:
    times = find_times(text, REF)
    assert len(times) == 1 and is_until(times[0])


def test_vague_times_stay_undated() -> None:
    """ "years ago", "a while back": no date is better than a made-up one."""
    assert find_times("I moved there years ago, a while back.", REF) == []
