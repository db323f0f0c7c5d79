"""The ``rules`` extractor on phrasings found by the temporal evaluation suite (one table per item).

English rows use the speaker "Alice", Chinese rows "张伟"; the reference time is a Wednesday.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.models.extraction import Extraction
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.providers.extractors.rules_en_objects import is_adverb

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)
EXTRACTOR = RulesExtractor()

Row = tuple[str, str, str, str]  # (subject, predicate, object-or-value, claim)


def extract(text: str) -> Extraction:
    speaker = "张伟" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "Alice"
    return EXTRACTOR.extract(content=text, speaker=speaker, reference_time=REF)


def rows(text: str) -> list[Row]:
    return [(f.subject, f.predicate, f.literal, f.claim) for f in extract(text).facts]


def day(year: int, month: int, d: int) -> datetime:
    return datetime(year, month, d, tzinfo=UTC)


def alice(predicate: str, obj: str, claim: str = "assert") -> list[Row]:
    return [("Alice", predicate, obj, claim)]


def zhang(predicate: str, obj: str, claim: str = "assert") -> list[Row]:
    return [("张伟", predicate, obj, claim)]


PHRASINGS: list[tuple[str, list[Row]]] = [
    # 1. a heading before the clause ("Big news:", "Update:") does not block it
    ("Big news: I've moved to Los Angeles!", alice("lives_in", "Los Angeles")),
    ("Big update: we moved to Denver.", alice("lives_in", "Denver")),
    ("Update: I live in Boston now.", alice("lives_in", "Boston")),
    ("Quick update - I moved to Austin.", alice("lives_in", "Austin")),
    # 2. a sentence-initial adverb is not a name; "settled in X" / "moved to X" alone is the speaker
    ("Finally settled in Dublin after the move.", alice("lives_in", "Dublin")),
    ("Finally moved to Dublin.", alice("lives_in", "Dublin")),
    ("Moved to Berlin!", alice("lives_in", "Berlin")),
    ("Luckily, Bob moved to Rome.", [("Bob", "lives_in", "Rome", "assert")]),
    ("Emily moved to Rome.", [("Emily", "lives_in", "Rome", "assert")]),
    ("Kimberly settled in Austin.", [("Kimberly", "lives_in", "Austin", "assert")]),
    ("Got it.", []),
    # 3. "home for me is X"
    ("Home for me is Manchester.", alice("lives_in", "Manchester")),
    ("Home is Manchester now.", alice("lives_in", "Manchester")),
    ("My new home is Bristol.", alice("lives_in", "Bristol")),
    # 4. a dwelling in a city names the city
    ("I've just moved into a flat in Oslo.", alice("lives_in", "Oslo")),
    ("We moved into an apartment in Rome.", alice("lives_in", "Rome")),
    ("I moved into a new place in Prague.", alice("lives_in", "Prague")),
    ("I live in a small flat in Vienna.", alice("lives_in", "Vienna")),
    # 5. "my first day at X"
    ("Today was my first day at Dropbox.", alice("works_at", "Dropbox")),
    ("This is my first week at Spotify.", alice("works_at", "Spotify")),
    ("I just finished my first week at Spotify.", alice("works_at", "Spotify")),
    ("Yesterday was my last day at Google.", alice("works_at", "Google", "end")),
    # 6. "switched to X" when X is a capitalised name, not a language or device
    ("I switched jobs to Initech.", alice("works_at", "Initech")),
    ("I switched to Acme.", alice("works_at", "Acme")),
    # not employers: kept as the open predicate switches_to (never works_at)
    ("I switched to decaf.", alice("switches_to", "decaf")),
    ("I switched to Python.", alice("switches_to", "Python")),
    # 7. "they made me X" when X names a role
    ("They made me finance director.", alice("job_title", "finance director")),
    ("They promoted me to head of sales.", alice("job_title", "head of sales")),
    ("They made me cry.", []),
    ("They made me an offer.", []),
    # 8. filler adverbs first; "started to dislike/love X"
    ("Honestly, I've started to dislike reality TV.", alice("dislikes", "reality TV")),
    ("Frankly I started to love jazz.", alice("likes", "jazz")),
    ("I'm starting to hate mornings.", alice("dislikes", "mornings")),
    ("I've grown to love cooking.", alice("likes", "cooking")),
    # 9. subjectless temporary stays and returns
    ("Currently on vacation in Nairobi!", alice("located_at", "Nairobi")),
    ("In Tokyo for a conference!", alice("located_at", "Tokyo")),
    ("Back home from Nairobi now.", alice("located_at", "Nairobi", "end")),
    ("Just got back from Lima.", alice("located_at", "Lima", "end")),
    ("Living in Paris now.", alice("lives_in", "Paris")),
    # 11. 全家/一家 between the subject and the verb; 移居
    ("我们全家移居到了北京。", zhang("lives_in", "北京")),
    ("我们一家搬到了广州。", zhang("lives_in", "广州")),
    # 12. 在X生活 / 在X定居
    ("我在西安生活。", zhang("lives_in", "西安")),
    ("我在北京定居了。", zhang("lives_in", "北京")),
    ("我在上海住了三年。", zhang("lives_in", "上海")),
    ("我在这里生活。", []),
    # 13. 搬家到
    ("我最近搬家到成都了。", zhang("lives_in", "成都")),
    ("我搬家到了成都。", zhang("lives_in", "成都")),
    # 14. 跳槽到; 是…的
    ("我跳槽到美团了。", zhang("works_at", "美团")),
    ("我是在腾讯工作的。", zhang("works_at", "腾讯")),
    ("我是做设计的。", []),
    # 15. 去X上班
    ("我下个月去腾讯上班。", zhang("works_at", "腾讯")),
    # 16. 来X开会/出差
    ("我来巴黎开会了，住几天。", zhang("located_at", "巴黎")),
    ("我来北京出差了。", zhang("located_at", "北京")),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS)
def test_phrasings(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


TimedRow = tuple[str, str, str, datetime]  # (predicate, literal, claim, valid_from)

TIMED: list[tuple[str, list[TimedRow]]] = [
    ("I switched to Acme two weeks ago.", [("works_at", "Acme", "assert", day(2024, 5, 29))]),
    ("Moved to Berlin last month.", [("lives_in", "Berlin", "assert", day(2024, 5, 12))]),
    ("Today was my first day at Dropbox.", [("works_at", "Dropbox", "assert", day(2024, 6, 12))]),
    ("我是2024年8月跳槽到滴滴的。", [("works_at", "滴滴", "assert", day(2024, 8, 1))]),
    # 15. a time phrase dates its own clause: 已经从京东离职 is now, not next Monday
    (
        "我下周一开始去腾讯上班，已经从京东离职了。",
        [("works_at", "腾讯", "assert", day(2024, 6, 17)), ("works_at", "京东", "end", REF)],
    ),
    (
        "我去年搬到了上海，现在在腾讯工作。",
        [("lives_in", "上海", "assert", day(2023, 6, 12)), ("works_at", "腾讯", "assert", REF)],
    ),
    (
        "I moved to Berlin last May, and I love techno.",
        [("lives_in", "Berlin", "assert", day(2024, 5, 1)), ("likes", "techno", "assert", REF)],
    ),
    # ... and the clauses after it when it stands alone
    (
        "去年，我搬到了上海，在腾讯工作。",
        [("lives_in", "上海", "assert", day(2023, 6, 12)), ("works_at", "腾讯", "assert", day(2023, 6, 12))],
    ),
    (
        "Last May, after a long search, I moved to Berlin.",
        [("lives_in", "Berlin", "assert", day(2024, 5, 1))],
    ),
    ("On March 3, 2024, I started at Stripe.", [("works_at", "Stripe", "assert", day(2024, 3, 3))]),
]


@pytest.mark.parametrize(("text", "expected"), TIMED)
def test_time_attribution(text: str, expected: list[TimedRow]) -> None:
    facts = extract(text).facts
    assert [(f.predicate, f.literal, f.claim, f.valid_from) for f in facts] == expected


CORRECTIONS: list[tuple[str, Row, str | None]] = [
    # 10. "I meant X, not Y" alone: the predicate is guessed from the names
    ("Sorry, I meant Lisbon, not Atlanta.", ("Alice", "lives_in", "Lisbon", "correct"), "Atlanta"),
    ("I meant Globex Corp, not Initech.", ("Alice", "works_at", "Globex Corp", "correct"), "Initech"),
    ("I meant Yale University, not Brown.", ("Alice", "studies_at", "Yale University", "correct"), "Brown"),
    ("I meant I work at Globex, not Initech.", ("Alice", "works_at", "Globex", "correct"), "Initech"),
    # 17. a correction without a wrong value replaces whatever held
    ("Correction: I live in Edinburgh.", ("Alice", "lives_in", "Edinburgh", "correct"), None),
    ("Quick correction: I live in Leeds.", ("Alice", "lives_in", "Leeds", "correct"), None),
    ("不好意思，我说错了，我住在杭州。", ("张伟", "lives_in", "杭州", "correct"), None),
]


@pytest.mark.parametrize(("text", "expected", "replaces"), CORRECTIONS)
def test_corrections(text: str, expected: Row, replaces: str | None) -> None:
    """A guessed slot ("Lisbon, not Atlanta": no suffix says which) is also offered to the other
    slots, each ``guessed`` (it applies only where Atlanta held)."""
    facts = extract(text).facts
    kept = [f for f in facts if f.predicate == expected[1] or not f.guessed]
    assert [(f.subject, f.predicate, f.literal, f.claim) for f in kept] == [expected]
    assert kept[0].replaces == replaces
    assert all(f.guessed for f in facts if f not in kept)


@pytest.mark.parametrize("text", ["I meant tea, not coffee.", "I meant Tuesday, not Monday."])
def test_i_meant_without_names_or_context_gives_nothing(text: str) -> None:
    assert extract(text).facts == []


def test_an_earlier_fact_still_decides_the_predicate_of_i_meant() -> None:
    # the mistake and its correction are one moment (one episode): only the corrected value is kept
    facts = extract("I work at Initech. Sorry, I meant Globex, not Initech.").facts
    assert [(f.predicate, f.literal, f.claim, f.replaces) for f in facts] == [
        ("works_at", "Globex", "assert", None),
    ]


@pytest.mark.parametrize(
    ("word", "adverb"),
    [
        *[(word, True) for word in ("Finally", "Frankly", "Luckily", "Still")],
        *[(word, False) for word in ("Emily", "Kelly", "Kimberly", "Bob")],
    ],
)
def test_sentence_initial_adverbs_are_told_from_names(word: str, adverb: bool) -> None:
    assert is_adverb(word) is adverb
