"""Time phrases resolved against an episode's reference time (English and Chinese)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from graphmem.providers.extractors.timeparse import find_times, resolve_time
from graphmem.providers.extractors.timeparse_zh import zh_number

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)  # a Wednesday


def day(year: int, month: int, d: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, d, hour, minute, tzinfo=UTC)


ENGLISH: list[tuple[str, datetime]] = [
    ("yesterday", day(2024, 6, 11)),
    ("today", day(2024, 6, 12)),
    ("the day before yesterday", day(2024, 6, 10)),
    ("last night", day(2024, 6, 11)),
    ("last week", day(2024, 6, 5)),
    ("last month", day(2024, 5, 12)),
    ("last year", day(2023, 6, 12)),
    ("last weekend", day(2024, 6, 8)),
    ("3 days ago", day(2024, 6, 9)),
    ("two weeks ago", day(2024, 5, 29)),
    ("a few months ago", day(2024, 3, 12)),
    ("a couple of years ago", day(2022, 6, 12)),
    ("last Monday", day(2024, 6, 10)),
    ("last Wednesday", day(2024, 6, 5)),
    ("on Friday", day(2024, 6, 7)),
    ("in May", day(2024, 5, 1)),
    ("in August", day(2023, 8, 1)),
    ("in May 2019", day(2019, 5, 1)),
    ("last May", day(2024, 5, 1)),
    ("last June", day(2023, 6, 1)),
    ("since 2019", day(2019, 1, 1)),
    ("in 2019", day(2019, 1, 1)),
    ("back in 2010", day(2010, 1, 1)),
    ("in late 2020", day(2020, 10, 1)),
    ("this year", day(2024, 1, 1)),
    ("this month", day(2024, 6, 1)),
    ("on March 3rd", day(2024, 3, 3)),
    ("on 3 March 2020", day(2020, 3, 3)),
    ("December 25", day(2023, 12, 25)),
    ("March 3, 2020", day(2020, 3, 3)),
    ("2020-03-03", day(2020, 3, 3)),
    ("on 3/4/2021", day(2021, 3, 4)),
    ("tomorrow", day(2024, 6, 13)),
    ("next week", day(2024, 6, 19)),
    ("next Monday", day(2024, 6, 17)),
    ("in 3 days", day(2024, 6, 15)),
]


@pytest.mark.parametrize(("phrase", "expected"), ENGLISH)
def test_english_phrases(phrase: str, expected: datetime) -> None:
    assert resolve_time(phrase, REF) == expected


CHINESE: list[tuple[str, datetime]] = [
    ("今天", day(2024, 6, 12)),
    ("昨天", day(2024, 6, 11)),
    ("前天", day(2024, 6, 10)),
    ("大前天", day(2024, 6, 9)),
    ("明天", day(2024, 6, 13)),
    ("上周", day(2024, 6, 5)),
    ("上周二", day(2024, 6, 4)),
    ("上个星期天", day(2024, 6, 9)),
    ("上周日", day(2024, 6, 9)),
    ("上个月", day(2024, 5, 12)),
    ("上个月3号", day(2024, 5, 3)),
    ("去年", day(2023, 6, 12)),
    ("前年", day(2022, 6, 12)),
    ("去年5月", day(2023, 5, 1)),
    ("今年3月", day(2024, 3, 1)),
    ("3天前", day(2024, 6, 9)),
    ("三个月前", day(2024, 3, 12)),
    ("两年前", day(2022, 6, 12)),
    ("一个星期前", day(2024, 6, 5)),
    ("前天下午3点", day(2024, 6, 10, 15)),
    ("昨天上午10点半", day(2024, 6, 11, 10, 30)),
    ("昨晚8点", day(2024, 6, 11, 20)),
    ("上周二下午3点", day(2024, 6, 4, 15)),
    ("5月3日", day(2024, 5, 3)),
    ("5月3号", day(2024, 5, 3)),
    ("十二月二十五日", day(2023, 12, 25)),
    ("2019年3月", day(2019, 3, 1)),
    ("2019年", day(2019, 1, 1)),
    ("二〇一九年", day(2019, 1, 1)),
]


@pytest.mark.parametrize(("phrase", "expected"), CHINESE)
def test_chinese_phrases(phrase: str, expected: datetime) -> None:
    assert resolve_time(phrase, REF) == expected


@pytest.mark.parametrize("phrase", ["", "   ", "blue", "whenever", "不知道"])
def test_unknown_phrases_resolve_to_none(phrase: str) -> None:
    assert resolve_time(phrase, REF) is None


def test_results_are_aware_utc_even_for_a_non_utc_reference() -> None:
    shanghai = timezone(timedelta(hours=8))
    ref = datetime(2024, 6, 12, 7, 0, tzinfo=shanghai)  # 2024-06-11 23:00 UTC
    resolved = resolve_time("yesterday", ref)
    assert resolved == day(2024, 6, 10)
    assert resolved is not None and resolved.utcoffset() == timedelta(0)


FOUND: list[tuple[str, list[str]]] = [
    ("I moved to Berlin last May and joined Acme two weeks ago.", ["last May", "two weeks ago"]),
    ("In 2019, I moved to Tokyo.", ["In 2019"]),
    ("I may move. It is March now.", []),
    ("I work on Mondays.", []),
    ("我上周二搬到了上海，前天下午3点到的", ["上周二", "前天下午3点"]),
    ("我在2019年加入了腾讯", ["在2019年"]),
    ("从去年开始我住在北京", ["从去年开始"]),
    ("我住在上海", []),
]


@pytest.mark.parametrize(("text", "phrases"), FOUND)
def test_find_times_locates_phrases(text: str, phrases: list[str]) -> None:
    found = find_times(text, REF)
    assert [m.text for m in found] == phrases
    assert all(text[m.start : m.end] == m.text for m in found)


def test_find_times_marks_future_phrases() -> None:
    (match,) = find_times("I'm going to Paris next week", REF)
    assert match.future and match.when == day(2024, 6, 19)
    (past,) = find_times("I went to Paris last week", REF)
    assert not past.future


@pytest.mark.parametrize(
    ("text", "value"), [("3", 3), ("十", 10), ("十二", 12), ("二十", 20), ("二十三", 23), ("两", 2)]
)
def test_chinese_numbers(text: str, value: int) -> None:
    assert zh_number(text) == value
