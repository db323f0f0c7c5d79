"""Classes found by the third Chinese episode bank (``test_zh_episode_bank_3``), each with several
phrasings and near misses.

1. Parts of a numbered year or month: 2021年底 / 2021年末 is December (the English "end of 2021"),
   2021年初 January, 2021年中 July; 3月底 / 2021年3月初 / 去年5月中旬 a part of that month. Near
   misses: 2021年中秋 (the festival) and 2021年初一 (a lunar day) stay the bare year.
2. "Since then" (从那以后 / 自那之后 / 从此 / 此后 / 打那以后, traditional 從那以後) is an undated
   succession word like 后来: its 以后 is no plan. Near miss: 以后 alone stays ahead (a plan).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.timeparse import find_times
from tests.unit.zh_temporal_kit import SPEAKER, Said, day, extract, timeline

REF = datetime(2024, 9, 15, 10, 0, tzinfo=UTC)


def _d(year: int, month: int, d: int = 1) -> datetime:
    return datetime(year, month, d, tzinfo=UTC)


YEAR_PARTS = [
    ("我2021年底搬到了杭州", "2021年底", _d(2021, 12)),
    ("我2021年末搬到了杭州", "2021年末", _d(2021, 12)),
    ("我2021年年底搬到了杭州", "2021年年底", _d(2021, 12)),
    ("我二〇二一年底搬到了杭州", "二〇二一年底", _d(2021, 12)),
    ("我2020年初进了华为", "2020年初", _d(2020, 1)),
    ("我2019年中搬到了南京", "2019年中", _d(2019, 7)),
    ("我去年年底搬到了杭州", "去年年底", _d(2023, 12)),
    ("我前年年初搬到了杭州", "前年年初", _d(2022, 1)),
    ("我今年年中搬到了杭州", "今年年中", _d(2024, 7)),
    ("我3月底搬到了杭州", "3月底", _d(2024, 3, 28)),
    ("我十二月底搬到了杭州", "十二月底", _d(2023, 12, 28)),
    ("我2021年3月初搬到了杭州", "2021年3月初", _d(2021, 3, 1)),
    ("我去年5月中旬搬到了杭州", "去年5月中旬", _d(2023, 5, 15)),
    ("我上个月底搬到了杭州", "上个月底", _d(2024, 8, 28)),
]


@pytest.mark.parametrize(("text", "phrase", "when"), YEAR_PARTS)
def test_parts_of_a_numbered_year_or_month(text: str, phrase: str, when: datetime) -> None:
    """Regression: 2021年底 was read as 2021年 (1 January), 3月底 as 3月 (1 March)."""
    (found,) = find_times(text, REF)
    assert (found.text, found.when) == (phrase, when)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("我2021年中秋搬到了杭州", "2021年"),
        ("我2021年初一搬到了杭州", "2021年"),
        ("我2021年搬到了杭州", "2021年"),
    ],
)
def test_not_a_part_of_the_year(text: str, phrase: str) -> None:
    """年中秋 is the festival and 年初一 a lunar day: the year alone is the time."""
    (found,) = find_times(text, REF)
    assert (found.text, found.when) == (phrase, _d(2021, 1))


def test_a_year_end_move_dates_the_state_and_orders_it() -> None:
    """我住在南京 (2022) then 2023年底搬到了杭州 (said 2024): 南京 holds until December 2023."""
    said = (Said("我住在南京。", day(2022, 3)), Said("我2023年底搬到了杭州。", day(2024, 9)))
    for episodes in (list(said), list(said)[::-1]):
        got = timeline(episodes, "lives_in", SPEAKER)
        assert (got.current, got.history) == ("杭州", ["南京", "杭州"])
        assert got.at(day(2023, 11)) == "南京"
        assert got.at(day(2023, 12, 2)) == "杭州"


@pytest.mark.parametrize(
    "text", ["我2021年底搬到了杭州。", "我2021年末搬到了杭州。", "2021年底我搬到了杭州。"]
)
def test_a_year_end_fact(text: str) -> None:
    (fact,) = extract(text, day(2024, 9)).facts
    assert (fact.predicate, fact.literal, fact.valid_from) == ("lives_in", "杭州", _d(2021, 12))


SINCE_THEN = [
    ("我从那以后就住在杭州了。", "李娜", "lives_in", "杭州"),
    ("从那以后我就住在杭州了。", "李娜", "lives_in", "杭州"),
    ("我從那以後就住在杭州了。", "李娜", "lives_in", "杭州"),
    ("自那以后我在华为上班。", "李娜", "works_at", "华为"),
    ("自那之后张伟一直在华为上班。", "张伟", "works_at", "华为"),
    ("我从此就住在杭州了。", "李娜", "lives_in", "杭州"),
    ("从此以后我住在杭州。", "李娜", "lives_in", "杭州"),
    ("我打那以后就在腾讯上班了。", "李娜", "works_at", "腾讯"),
]


@pytest.mark.parametrize(("text", "subject", "predicate", "value"), SINCE_THEN)
def test_since_then_is_a_succession_word(text: str, subject: str, predicate: str, value: str) -> None:
    """Regression: 从那以后就住在X了 gave nothing (its 以后 read as a plan) while 后来 worked."""
    got = [(f.subject, f.predicate, f.literal, f.claim) for f in extract(text, REF).facts]
    assert got == [(subject, predicate, value, "assert")]


def test_since_then_after_a_stay_in_one_sentence() -> None:
    """我在南京待了三年，从那以后就住在杭州了: as with 后来, 南京 came first and 杭州 holds now."""
    said = [Said("我在南京待了三年，从那以后就住在杭州了。", day(2024, 9))]
    got = timeline(said, "lives_in", SPEAKER)
    assert (got.current, got.history) == ("杭州", ["南京", "杭州"])


def test_since_then_ends_a_state() -> None:
    (fact,) = extract("我从那以后就不在腾讯上班了。", REF).facts
    assert (fact.predicate, fact.literal, fact.claim) == ("works_at", "腾讯", "end")


def test_later_alone_is_still_a_plan() -> None:
    """以后 with no 那 before it is ahead: a plan, not a state."""
    facts = extract("我以后住在杭州。", REF).facts
    assert [f.predicate for f in facts] == ["plans"]


ANSWERS = [
    ("你现在住哪？——杭州，去年搬的。", "lives_in", "杭州"),
    ("你现在住哪？杭州，去年搬的。", "lives_in", "杭州"),
    ("你在哪上班？——华为，前年进的。", "works_at", "华为"),
    ("您在哪里工作？——在腾讯。", "works_at", "腾讯"),
]


@pytest.mark.parametrize(("text", "predicate", "value"), ANSWERS)
def test_a_bare_answer_takes_the_questions_slot(text: str, predicate: str, value: str) -> None:
    """3. A bare value answering a question to the listener in the same text is the speaker's
    (its 去年…的 time is not yet its start: open)."""
    got = [(f.subject, f.predicate, f.literal) for f in extract(text, REF).facts]
    assert got == [(SPEAKER, predicate, value)]


@pytest.mark.parametrize(
    "text",
    [
        "你现在住哪？——杭州吧。",
        "你现在住哪？——杭州吗？",
        "杭州，去年搬的。",
        "你妈妈住哪？——杭州。",
        "你现在住哪？——老家。",
        "你现在住哪？——不知道。",
        "你好吗？——杭州。",
    ],
)
def test_not_a_bare_answer(text: str) -> None:
    """A hedge, a question back, no question, a question about someone else, a home, no value."""
    assert extract(text, REF).facts == []
