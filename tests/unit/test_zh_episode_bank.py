"""Chinese temporal statements told over several episodes, a bank written from scratch by class.

Each case is a short conversation (episodes with their own reference times, in the order told and
reversed: ingestion order must not matter) and what the graph should say afterwards about one
subject and predicate: the current value, the value held at a date, and the history. Episodes go
through the rules extractor and the slot resolver without a database (``zh_temporal_kit``).
Subjects vary (the speaker 李娜, a named person, a relative with a name), and so do the values
(names jieba knows and unseen ones).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.models.extraction import WHATEVER_HOLDS
from graphmem.temporal.chain import resolve_slot
from graphmem.temporal.claims import Claim
from tests.unit.zh_temporal_kit import SPEAKER, Case, Said, day, extract, timeline
from tests.unit.zh_temporal_kit import check as _check

WHO = ((("我", SPEAKER)), ("周涛", "周涛"), ("我表姐孙悦", "孙悦"))
ORGS = (("腾讯", "华为"), ("鹿鸣科技", "星汉集团"), ("瑞丰银行", "青禾集团"))
PLACES = (("南京", "苏州"), ("绵阳", "德阳"), ("蔚湾市", "青溪镇"))


def _said(template: str, s: str, a: str, b: str = "") -> str:
    return template.format(s=s, a=a, b=b, t=("他" if s != "我" else "我"))


# --------------------------------------------------------------------------- an end in a later episode

LATER_END = [
    ("{s}在{a}上班。", "{s}辞职了。", "works_at"),
    ("{s}在{a}工作，挺忙的。", "{s}上个月离职了。", "works_at"),
    ("{s}现在在{a}做开发。", "唉，{s}被裁了。", "works_at"),
    ("{s}在{a}干了三年了。", "{s}前几天已经离职了，想歇一阵。", "works_at"),
    ("{s}住在{a}。", "{s}上周搬走了。", "lives_in"),
]


def _later_end() -> list[Case]:
    out = []
    for n, (first, second, predicate) in enumerate(LATER_END):
        for m, (said, who) in enumerate(WHO):
            a, _ = (ORGS if predicate == "works_at" else PLACES)[(n + m) % 3]
            eps = (Said(_said(first, said, a), day(2022, 3)), Said(_said(second, said, a), day(2023, 9)))
            out.append(Case(eps, who, predicate, None, (a,), ((day(2022, 6), a), (day(2023, 10), None))))
    return out


@pytest.mark.parametrize("case", _later_end(), ids=lambda c: c.name)
def test_an_end_naming_no_value_ends_what_an_earlier_episode_named(case: Case) -> None:
    """Regression: 我辞职了 in an episode after the one naming the employer ended nothing (the
    extractor reads one episode; the end must be resolved against the slot)."""
    _check(case)


def test_an_end_naming_no_value_then_a_new_value_is_the_next_one() -> None:
    eps = [
        Said("我在腾讯上班。", day(2021, 4)),
        Said("我辞职了。", day(2022, 8)),
        Said("我加入了华为。", day(2023, 2)),
    ]
    for order in (eps, eps[::-1]):
        got = timeline(order, "works_at")
        assert (got.current, got.history) == ("华为", ["腾讯", "华为"])
        assert got.at(day(2022, 10)) is None


def test_an_end_naming_no_value_with_nothing_known_waits_on_an_expired_fact() -> None:
    """Ingested before the episode naming the value, the end must survive to be placed later."""
    end = Claim("r1", "end", WHATEVER_HOLDS, WHATEVER_HOLDS, day(2023, 1), "user_stated", day(2023, 1))
    plan = resolve_slot([], [end], functional=True)
    assert plan.runs == [] and [r.claims for r in plan.expired_runs] == [[end]]
    start = Claim("r2", "assert", "腾讯", "腾讯", day(2022, 1), "user_stated", day(2023, 2))
    again = resolve_slot([], [end, start], functional=True)
    assert [(r.value, r.valid_to) for r in again.runs] == [("腾讯", day(2023, 1))]
    assert again.expired_runs == []


def test_a_quit_alone_asserts_no_value() -> None:
    assert timeline([Said("我辞职了，在家带孩子。", day(2023, 1))], "works_at").history == []


# --------------------------------------------------------------------------- an undated value and its end, one episode

SAME_EPISODE = [
    ("{s}在{a}上班。{s}辞职了。", "works_at"),
    ("{s}以前在{a}工作。后来{s}被裁了。", "works_at"),
    ("{s}在{a}住。不过{s}已经搬走了。", "lives_in"),
    ("{s}在{a}做销售。上周{s}离职了。", "works_at"),
]


def _same_episode() -> list[Case]:
    out = []
    for n, (text, predicate) in enumerate(SAME_EPISODE):
        for m, (said, who) in enumerate(WHO):
            a, _ = (ORGS if predicate == "works_at" else PLACES)[(n + m) % 3]
            eps = (Said(_said(text, said, a), day(2023, 9)),)
            out.append(Case(eps, who, predicate, None, (a,), ((day(2023, 10), None),)))
    return out


@pytest.mark.parametrize("case", _same_episode(), ids=lambda c: c.name)
def test_an_undated_value_and_its_end_in_one_episode_leave_nothing_current(case: Case) -> None:
    """Regression: 我在腾讯上班。我辞职了。 kept 腾讯 current: the value and its end had the same time
    and the chain applied the end first, so the value started again after it."""
    _check(case)


def test_an_undated_value_ended_later_follows_the_value_before_it() -> None:
    eps = [Said("我在百度上班。", day(2021, 4)), Said("我后来在腾讯上班。我上周辞职了。", day(2023, 9))]
    got = timeline(eps, "works_at")
    assert (got.current, got.history) == (None, ["百度", "腾讯"])


# --------------------------------------------------------------------------- traditional characters

HANT = [
    (("我住在臺北。", "我上個月從臺北搬到了高雄。"), "lives_in", "高雄", ("臺北", "高雄")),
    (("我在騰訊上班。", "我上週辭職了。"), "works_at", None, ("騰訊",)),
    (("我在騰訊上班。我三個月前離職了。",), "works_at", None, ("騰訊",)),
    (("我住在臺北，不對，是高雄。",), "lives_in", "高雄", ("高雄",)),
    (("我之前說錯了，我住在高雄。",), "lives_in", "高雄", ("高雄",)),
    (("我現在住在臺中。", "我已經不住在臺中了。"), "lives_in", None, ("臺中",)),
    (("我在臺北已經住了三年。",), "lives_in", "臺北", ("臺北",)),
    (("我們家兩年前搬到了新竹。",), "lives_in", "新竹", ("新竹",)),
    (("我在騰訊當產品經理。",), "job_title", "產品經理", ("產品經理",)),
]


@pytest.mark.parametrize("texts,predicate,current,history", HANT, ids=[" / ".join(h[0]) for h in HANT])
def test_traditional_characters_read_as_simplified_keep_their_spelling(
    texts: tuple[str, ...], predicate: str, current: str | None, history: tuple[str, ...]
) -> None:
    """Regression: 我現在住在臺北 / 哦不對，是高雄 / 上個月 gave nothing, 對 as a value, or no time
    (the rules and the time phrases knew only simplified characters)."""
    eps = tuple(Said(t, day(2023, 3 + 4 * n)) for n, t in enumerate(texts))
    _check(Case(eps, SPEAKER, predicate, current, history))


def test_a_traditional_end_in_a_later_sentence_keeps_the_spelling_and_its_time() -> None:
    got = timeline([Said("我在騰訊上班。我上個月辭職了。", day(2023, 9))], "works_at")
    assert (got.current, got.history) == (None, ["騰訊"])
    assert got.at(day(2023, 8, 20)) is None


# --------------------------------------------------------------------------- 他/她 and an unnamed end


@pytest.mark.parametrize(
    "text,who,predicate,value",
    [
        ("我表姐孙悦住在绵阳。她上个月搬走了。", "孙悦", "lives_in", "绵阳"),
        ("周涛在华为上班。他上周被裁了。", "周涛", "works_at", "华为"),
        ("我表哥陈静在鹿鸣科技工作。他已经离职了。", "陈静", "works_at", "鹿鸣科技"),
    ],
)
def test_a_he_or_she_opening_an_unnamed_end_is_the_person_before(
    text: str, who: str, predicate: str, value: str
) -> None:
    """Regression: 她上个月搬走了 after 我表姐孙悦住在绵阳 ended nothing (她 read as someone else)."""
    got = timeline([Said(text, day(2023, 9))], predicate, who)
    assert (got.current, got.history) == (None, [value])


# --------------------------------------------------------------------------- how long, since when

LASTED = [
    ("{s}这几年一直在{a}。", "lives_in", 2020),
    ("这两年{s}都在{a}上班。", "works_at", 2021),
    ("{s}近几年一直在{a}工作。", "works_at", 2020),
    ("{s}从2019年起就在{a}。", "lives_in", 2019),
    ("{s}2018年起就在{a}了。", "works_at", 2018),
    ("这些年{s}一直住在{a}。", "lives_in", 2020),
    ("{s}在{a}已经住了三年。", "lives_in", 2020),
    ("{s}在{a}都干了四年了。", "works_at", 2019),
]


def _lasted() -> list[Case]:
    out = []
    for n, (text, predicate, since) in enumerate(LASTED):
        for m, (said, who) in enumerate(WHO):
            a, _ = (ORGS if predicate == "works_at" else PLACES)[(n + m) % 3]
            eps = (Said(_said(text, said, a), day(2023, 9)),)
            held = ((day(since, 11), a), (day(2023, 10), a))
            out.append(Case(eps, who, predicate, a, (a,), held))
    return out


@pytest.mark.parametrize("case", _lasted(), ids=lambda c: c.name)
def test_a_state_told_with_how_long_or_since_when_starts_then(case: Case) -> None:
    """Regression: 我这几年一直在南京 / 从2019年起就在南京 gave nothing (这 was left behind by the
    time phrase 几年; 就在X was no state)."""
    _check(case)


THEN_CHANGED = [
    ("{s}在{a}待了两年就走了。", "lives_in", "end"),
    ("{s}在{a}干了三年就辞职了。", "works_at", "end"),
    ("{s}在{a}干了三年又被裁了。", "works_at", "end"),
    ("{s}在{a}住了三年就搬到了{b}。", "lives_in", "ab"),
    ("{s}在{a}干了两年就跳槽到了{b}。", "works_at", "ab"),
]


def _then_changed() -> list[Case]:
    out = []
    for n, (text, predicate, shape) in enumerate(THEN_CHANGED):
        for m, (said, who) in enumerate(WHO):
            a, b = (ORGS if predicate == "works_at" else PLACES)[(n + m) % 3]
            eps = (Said(_said(text, said, a, b), day(2023, 9)),)
            want = (None, (a,)) if shape == "end" else (b, (a, b))
            out.append(Case(eps, who, predicate, *want, ((day(2023, 10), want[0]),)))
    return out


@pytest.mark.parametrize("case", _then_changed(), ids=lambda c: c.name)
def test_a_stay_and_what_came_after_it_in_one_clause(case: Case) -> None:
    """Regression: 在南京待了两年就走了 kept 南京 current and 住了三年就搬到了苏州 lost 苏州 (the end
    or the move after 就 was read inside the clause of the stay)."""
    _check(case)


@pytest.mark.parametrize(
    "text,when",
    [
        ("我前年搬到了苏州。", day(2021, 9)),
        ("我大前年搬到了苏州。", day(2020, 9)),
        ("我上上个月搬到了苏州。", day(2023, 7, 20)),
        ("我三年前搬到了苏州。", day(2020, 9)),
        ("我去年年底搬到了苏州。", day(2022, 12, 20)),
        ("我2020年初搬到了苏州。", day(2020, 2)),
    ],
)
def test_a_move_dated_relative_to_the_episode(text: str, when: datetime) -> None:
    got = timeline([Said("我住在南京。", day(2018, 1)), Said(text, day(2023, 9))], "lives_in")
    assert (got.current, got.history) == ("苏州", ["南京", "苏州"])
    assert got.at(when) == "苏州"
    assert got.at(when.replace(year=when.year - 1)) == "南京"


def test_a_time_the_sentence_does_not_tell_is_cut_not_misread() -> None:
    """Regression: 我那年夏天搬到了苏州 gave nothing (那年夏天 stayed in the clause), and 半年后 read
    as half a year ago."""
    got = timeline([Said("我那年夏天搬到了苏州。", day(2023, 9))], "lives_in")
    assert got.current == "苏州"
    ahead = extract("我半年后搬到苏州。", day(2023, 9)).facts
    assert [(f.literal, f.valid_from) for f in ahead] == [("苏州", day(2024, 3).replace(hour=0))]


# --------------------------------------------------------------------------- other verbs and names

OTHER_VERBS = [
    ("{s}在{a}读研究生。", "studies_at", ("复旦大学", "浙大")),
    ("{s}在{a}念大三。", "studies_at", ("浙大", "复旦")),
    ("{s}在{a}读博。", "studies_at", ("北大", "清华")),
    ("{s}在一家叫{a}的公司上班。", "works_at", ("鹿鸣科技", "星汉集团")),
    ("{s}目前就职于一家叫{a}的公司。", "works_at", ("星汉集团", "青禾集团")),
    ("{s}住在一个叫{a}的地方。", "lives_in", ("青溪镇", "蔚湾市")),
]


@pytest.mark.parametrize("text,predicate,values", OTHER_VERBS, ids=[t for t, _, _ in OTHER_VERBS])
def test_a_school_read_at_or_a_named_kind_of_place_is_the_value(
    text: str, predicate: str, values: tuple[str, str]
) -> None:
    """Regression: 在北大读博 / 在浙大念大三 gave no school (读 and the degree ran into the name),
    在一家叫鹿鸣科技的公司上班 no employer."""
    for (said, who), value in zip(WHO, values * 2, strict=False):
        got = timeline([Said(_said(text, said, value), day(2023, 9))], predicate, who)
        assert (got.current, got.history) == (value, [value]), text


def test_a_city_one_goes_to_university_in_is_no_school() -> None:
    assert timeline([Said("我在北京上大学。", day(2023, 9))], "studies_at").history == []


def test_coming_home_from_abroad_ends_the_home_abroad() -> None:
    eps = [Said("我住在新加坡。", day(2021, 3)), Said("我上个月回国了。", day(2023, 9))]
    for order in (eps, eps[::-1]):
        got = timeline(order, "lives_in")
        assert (got.current, got.history) == (None, ["新加坡"])


# --------------------------------------------------------------------------- corrections told later

LATER_CORRECTION = [
    ("{s}住在{a}。", "{s}住在{b}，上次说的{a}是错的。", "lives_in"),
    ("{s}在{a}上班。", "{s}在{b}上班，之前说的{a}不对。", "works_at"),
    ("{s}住在{a}。", "我说的是{b}，不是{a}。", "lives_in"),
    ("{s}住在{a}。", "不是{a}，是{b}。", "lives_in"),
    ("{s}在{a}工作。", "更正一下，{s}在{b}工作，不是{a}。", "works_at"),
]


def _later_correction() -> list[Case]:
    out = []
    for n, (first, second, predicate) in enumerate(LATER_CORRECTION):
        said, who = WHO[n % 2] if "{s}" in second else WHO[0]  # 我说的是Y: the speaker's own value
        a, b = (ORGS if predicate == "works_at" else PLACES)[n % 3]
        eps = (Said(_said(first, said, a, b), day(2023, 3)), Said(_said(second, said, a, b), day(2023, 9)))
        out.append(Case(eps, who, predicate, b, (b,), ((day(2023, 6), b),)))
    return out


@pytest.mark.parametrize("case", _later_correction(), ids=lambda c: c.name)
def test_a_correction_told_in_a_later_episode_replaces_the_mistake(case: Case) -> None:
    """Regression: …，上次说的南京是错的 / 我说的是苏州，不是南京 asserted the new value after the old
    one (a move) instead of correcting it."""
    _check(case)


@pytest.mark.parametrize("text", ["说起来，我去年就搬到苏州了。", "我去年就搬到苏州了，挺好的。"])
def test_a_jiu_after_a_time_and_no_stay_keeps_the_time(text: str) -> None:
    """Regression: 我去年就搬到苏州了 dated the move now (就 and the move were cut off as a clause
    after a stay, whose time is the sentence's moment)."""
    got = timeline([Said("我住在南京。", day(2019, 1)), Said(text, day(2023, 9))], "lives_in")
    assert (got.current, got.history) == ("苏州", ["南京", "苏州"])
    assert got.at(day(2023, 1)) == "苏州"
