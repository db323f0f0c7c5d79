"""Relative and absolute time expressions ("last May", "two weeks ago", 上周二, 去年), English and
Chinese. Dates are fixed so that each ``as_of`` falls on the side of the change that only a correctly
resolved time puts it on (taking the episode's ``reference_time`` instead would flip the answer),
and far enough from the change that day-level conventions ("last year" as a day or a year) agree.
"""

from __future__ import annotations

from datetime import datetime

from suite_kit import (
    EN_CITIES,
    EN_ORGS,
    EN_PEOPLE,
    EN_SCHOOLS,
    ZH_CITIES,
    ZH_ORGS,
    ZH_PEOPLE,
    Case,
    Pools,
    day,
)

Ymd = tuple[int, int, int]
# (predicate, [(said on, text)], [(as_of or None for now, expected)], history or None)
Design = tuple[str, list[tuple[Ymd, str]], list[tuple[Ymd | None, str | None]], list[str] | None]

EN_DESIGNS: tuple[Design, ...] = (
    (
        "lives_in",
        [((2023, 1, 10), "I live in {A}."), ((2024, 9, 15), "I moved to {B} last May.")],
        [((2024, 6, 15), "{B}"), ((2024, 3, 1), "{A}"), (None, "{B}")],
        ["{A}", "{B}"],
    ),
    (
        "works_at",
        [((2023, 11, 1), "I work at {O}."), ((2024, 3, 20), "I joined {P} two weeks ago.")],
        [((2024, 3, 12), "{P}"), ((2024, 2, 15), "{O}")],
        ["{O}", "{P}"],
    ),
    (
        "lives_in",
        [((2021, 2, 1), "In 2019, I moved to {A}."), ((2022, 11, 5), "I moved to {B} in March 2022.")],
        [((2018, 6, 1), None), ((2020, 6, 1), "{A}"), ((2022, 6, 1), "{B}")],
        ["{A}", "{B}"],
    ),
    (
        "lives_in",
        [((2024, 4, 1), "I've lived in {A} since 2018.")],
        [((2019, 5, 1), "{A}"), ((2017, 5, 1), None), (None, "{A}")],
        None,
    ),
    (
        "relationship_status",
        [((2022, 1, 5), "I'm single."), ((2024, 6, 12), "I got married last year.")],
        [((2024, 1, 20), "married"), ((2022, 6, 1), "single")],
        ["single", "married"],
    ),
    (
        "works_at",
        [((2023, 1, 10), "I work at {O}."), ((2024, 5, 20), "I left {O} last week.")],
        [((2024, 5, 16), None), ((2024, 4, 1), "{O}"), (None, None)],
        None,
    ),
    (
        "lives_in",
        [((2023, 2, 1), "I live in {A}."), ((2024, 8, 1), "Three months ago I moved to {B}.")],
        [((2024, 6, 1), "{B}"), ((2024, 4, 1), "{A}")],
        ["{A}", "{B}"],
    ),
    (
        "works_at",
        [((2022, 6, 1), "I work at {O}."), ((2024, 4, 11), "Last Tuesday I started working at {P}.")],
        [((2024, 4, 10), "{P}"), ((2024, 3, 20), "{O}")],
        ["{O}", "{P}"],
    ),
    (
        "lives_in",
        [((2022, 1, 1), "I live in {A}."), ((2024, 2, 10), "I moved to {B} the day before yesterday.")],
        [((2024, 2, 9), "{B}"), ((2024, 1, 15), "{A}")],
        None,
    ),
    (
        "lives_in",
        [((2021, 5, 1), "I live in {A}."), ((2024, 3, 1), "We moved to {B} back in 2022.")],
        [((2022, 9, 1), "{B}"), ((2021, 9, 1), "{A}")],
        ["{A}", "{B}"],
    ),
    (
        "job_title",
        [
            ((2022, 2, 1), "I'm a junior designer."),
            ((2023, 9, 1), "I was promoted to senior designer in early 2023."),
        ],
        [((2023, 4, 1), "senior designer"), ((2022, 6, 1), "junior designer")],
        ["junior designer", "senior designer"],
    ),
    (
        "lives_in",
        [((2023, 1, 1), "I live in {A}."), ((2024, 5, 1), "A couple of months ago we moved to {B}.")],
        [((2024, 4, 1), "{B}"), ((2023, 6, 1), "{A}")],
        None,
    ),
    (
        "works_at",
        [((2023, 3, 1), "I work at {O}."), ((2024, 7, 18), "I started at {P} on July 1st.")],
        [((2024, 7, 10), "{P}"), ((2024, 6, 15), "{O}")],
        ["{O}", "{P}"],
    ),
    (
        "studies_at",
        [((2020, 9, 1), "I study at {S}."), ((2023, 6, 20), "I graduated from {S} last month.")],
        [((2023, 5, 25), None), ((2023, 1, 10), "{S}")],
        None,
    ),
)

ZH_DESIGNS: tuple[Design, ...] = (
    (
        "lives_in",
        [((2023, 1, 10), "我住在{A}。"), ((2024, 6, 12), "上周二我搬到了{B}。")],
        [((2024, 6, 7), "{B}"), ((2024, 5, 20), "{A}")],
        ["{A}", "{B}"],
    ),
    (
        "works_at",
        [((2022, 3, 1), "我在{O}工作。"), ((2024, 6, 12), "三个月前我开始在{P}工作。")],
        [((2024, 4, 15), "{P}"), ((2024, 2, 1), "{O}")],
        ["{O}", "{P}"],
    ),
    (
        "lives_in",
        [((2021, 5, 1), "我住在{A}。"), ((2024, 6, 12), "去年我搬到了{B}。")],
        [((2024, 1, 20), "{B}"), ((2022, 6, 1), "{A}")],
        ["{A}", "{B}"],
    ),
    (
        "works_at",
        [((2021, 1, 1), "我2019年加入了{O}。"), ((2023, 5, 10), "前天我离开了{O}。")],
        [((2020, 1, 1), "{O}"), ((2018, 6, 1), None), (None, None)],
        None,
    ),
    (
        "lives_in",
        [((2022, 1, 1), "我住在{A}。"), ((2024, 3, 15), "我上个月搬去了{B}。")],
        [((2024, 3, 1), "{B}"), ((2023, 6, 1), "{A}")],
        None,
    ),
    (
        "works_at",
        [((2022, 7, 1), "我在{O}上班。"), ((2024, 9, 20), "我是2024年8月跳槽到{P}的。")],
        [((2024, 9, 1), "{P}"), ((2024, 7, 1), "{O}")],
        ["{O}", "{P}"],
    ),
    (
        "relationship_status",
        [((2022, 3, 1), "我单身。"), ((2024, 5, 1), "我去年结婚了。")],
        [((2024, 1, 20), "married"), ((2022, 9, 1), "single")],
        ["single", "married"],
    ),
    (
        "lives_in",
        [((2020, 3, 1), "我住在{A}。"), ((2023, 10, 8), "2022年3月我搬到了{B}。")],
        [((2022, 6, 1), "{B}"), ((2021, 6, 1), "{A}")],
        ["{A}", "{B}"],
    ),
)


def _at(ymd: Ymd, hour: int = 10) -> datetime:
    return day(*ymd, h=hour)


def _build(case: Case, design: Design, names: dict[str, str]) -> Case:
    predicate, said, asks, history = design
    for when, text in said:
        case.say(_at(when), text.format(**names))
    for as_of, expect in asks:
        value = expect.format(**names) if expect is not None else None
        if as_of is None:
            case.now(predicate, value)
        else:
            case.at(_at(as_of, 0), predicate, value)
    if history is not None:
        case.history(predicate, [v.format(**names) for v in history])
    return case


def relative_times(p: Pools) -> list[Case]:
    cases = []
    for i, design in enumerate(EN_DESIGNS):
        a, b = p.pick(EN_CITIES, 2)
        o, q = p.pick(EN_ORGS, 2)
        names = {"A": a, "B": b, "O": o, "P": q, "S": p.one(EN_SCHOOLS)}
        case = Case(f"en-time-{i + 1:03d}", "relative_time", "en", p.one(EN_PEOPLE)).shuffled(i % 3 == 2)
        cases.append(_build(case, design, names))
    for i, design in enumerate(ZH_DESIGNS):
        a, b = p.pick(ZH_CITIES, 2)
        o, q = p.pick(ZH_ORGS, 2)
        names = {"A": a, "B": b, "O": o, "P": q}
        case = Case(f"zh-time-{i + 1:03d}", "relative_time", "zh", p.one(ZH_PEOPLE)).shuffled(i % 3 == 1)
        cases.append(_build(case, design, names))
    return cases
