"""Time expressions resolved against reference times at the ends of the calendar never raise."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.providers.extractors.timeparse import find_times, resolve_time
from tests.conftest import examples
from tests.unit.test_timeparse import CHINESE, ENGLISH, FOUND

FIRST = datetime(1, 1, 1, tzinfo=UTC)
LAST = datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
PHRASES = [p for p, _ in ENGLISH + CHINESE] + ["in two weeks", "next month", "next year", "a year ago"]
SENTENCES = [s for s, _ in FOUND] + [
    "I moved to Paris last week.",
    "I fly to Rome tomorrow.",
    "我上周搬到了北京。",
]


@pytest.mark.parametrize("ref", [FIRST, LAST])
@pytest.mark.parametrize("phrase", PHRASES)
def test_every_rule_at_the_ends_of_the_calendar_resolves_or_drops(phrase: str, ref: datetime) -> None:
    """Regression (issue 16, defect 3): "last week" at year 1 and "tomorrow" at year 9999 raised
    OverflowError (ValueError for "next year") out of the calendar arithmetic, which the API turned
    into a 500; a time that falls outside datetime's years 1-9999 is dropped (None) instead."""
    when = resolve_time(phrase, ref)
    assert when is None or FIRST <= when <= LAST


@pytest.mark.parametrize("ref", [FIRST, LAST])
@pytest.mark.parametrize("sentence", SENTENCES)
def test_find_times_and_the_extractor_never_raise_at_the_ends(sentence: str, ref: datetime) -> None:
    """Regression (issue 16, defect 3): the same overflow raised out of ``find_times`` and so out of
    the rules extractor; an overflowing phrase is found but left unresolved."""
    for match in find_times(sentence, ref):
        assert match.when is None or FIRST <= match.when <= LAST
    RulesExtractor().extract(content=sentence, speaker="Alice", reference_time=ref)


@settings(max_examples=examples(100), deadline=None)
@given(
    ref=st.datetimes(min_value=FIRST.replace(tzinfo=None), max_value=LAST.replace(tzinfo=None)).map(
        lambda d: d.replace(tzinfo=UTC)
    ),
    phrase=st.sampled_from(PHRASES),
)
@example(ref=FIRST, phrase="last week")
@example(ref=LAST, phrase="tomorrow")
def test_any_reference_time_resolves_or_drops(ref: datetime, phrase: str) -> None:
    """Regression (issue 16, defect 3): the class of the bug: no reference time datetime can hold
    makes resolving a phrase raise."""
    when = resolve_time(phrase, ref)
    assert when is None or isinstance(when, datetime)
