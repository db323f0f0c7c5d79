"""Explicit-fact cases (``facts`` only, valid_to included) and mixed cases (explicit facts plus
episodes), English and Chinese. Explicit facts carry their own valid times, so these answers must be
exact: a miss here is a bug in fact resolution or reads, never in extraction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from suite_kit import (
    EN_CITIES,
    EN_ORGS,
    EN_PEOPLE,
    EN_SCHOOLS,
    EN_TRIPS,
    ZH_CITIES,
    ZH_ORGS,
    ZH_PEOPLE,
    ZH_TRIPS,
    Case,
    Pools,
    day,
)

Ymd = tuple[int, int, int]


@dataclass(frozen=True)
class F:
    """One explicit fact; ``target`` may hold ``{A}``-style slots."""

    predicate: str
    target: str
    start: Ymd | None
    end: Ymd | None = None
    literal: bool = False
    source: str = "user_stated"


@dataclass(frozen=True)
class Design:
    facts: list[F]
    asks: list[tuple[str, Ymd | None, str | list[str] | None]]  # (predicate, as_of or now, expect)
    history: list[tuple[str, list[str]]] = field(default_factory=list)
    said: list[tuple[Ymd, str]] = field(default_factory=list)  # episodes (mixed cases)
    shuffled: bool = False
    none: tuple[str, ...] = ()


EXPLICIT = (
    Design(
        [
            F("works_at", "{O}", (2018, 1, 1), (2020, 7, 1)),
            F("works_at", "{P}", (2020, 7, 1), (2023, 3, 1)),
            F("works_at", "{Q}", (2023, 3, 1)),
        ],
        [
            ("works_at", None, "{Q}"),
            ("works_at", (2019, 6, 1), "{O}"),
            ("works_at", (2021, 6, 1), "{P}"),
            ("works_at", (2017, 6, 1), None),
        ],
        [("works_at", ["{O}", "{P}", "{Q}"])],
    ),
    Design(
        [
            F("lives_in", "{A}", (2015, 5, 1)),
            F("lives_in", "{B}", (2019, 9, 1)),
            F("lives_in", "{C}", (2022, 2, 1)),
        ],
        [("lives_in", None, "{C}"), ("lives_in", (2020, 6, 1), "{B}"), ("lives_in", (2016, 6, 1), "{A}")],
        [("lives_in", ["{A}", "{B}", "{C}"])],
    ),
    Design(
        [
            F("job_title", "{J}", (2019, 3, 1), (2022, 1, 1), literal=True),
            F("works_at", "{O}", (2019, 3, 1)),
        ],
        [("job_title", None, None), ("job_title", (2020, 6, 1), "{J}"), ("works_at", None, "{O}")],
        [("job_title", ["{J}"])],
    ),
    Design(
        [F("lives_in", "{A}", (2020, 1, 1)), F("located_at", "{T}", (2024, 5, 1), (2024, 5, 10))],
        [
            ("lives_in", None, "{A}"),
            ("lives_in", (2024, 5, 5), "{A}"),
            ("located_at", (2024, 5, 5), "{T}"),
            ("located_at", None, None),
        ],
        [("lives_in", ["{A}"])],
    ),
    Design(
        [F("lives_in", "{A}", (2020, 1, 1)), F("lives_in", "{B}", (2023, 1, 1), source="inferred")],
        [("lives_in", None, "{A}"), ("lives_in", (2024, 1, 1), "{A}")],
        [("lives_in", ["{A}"])],
    ),
    Design(
        [F("likes", "{X}", (2020, 1, 1)), F("likes", "{Y}", (2020, 1, 1), (2022, 1, 1))],
        [("likes", None, ["{X}"]), ("likes", (2021, 1, 1), ["{X}", "{Y}"])],
    ),
    Design(
        [
            F("relationship_status", "single", (2018, 1, 1), literal=True),
            F("relationship_status", "engaged", (2020, 6, 1), literal=True),
            F("relationship_status", "married", (2021, 9, 1), literal=True),
        ],
        [("relationship_status", None, "married"), ("relationship_status", (2020, 12, 1), "engaged")],
        [("relationship_status", ["single", "engaged", "married"])],
    ),
    Design(
        [F("works_at", "{O}", (2018, 1, 1), (2019, 12, 31)), F("works_at", "{P}", (2020, 3, 1))],
        [("works_at", (2020, 1, 15), None), ("works_at", None, "{P}"), ("works_at", (2019, 6, 1), "{O}")],
    ),
    Design(
        [
            F("lives_in", "{A}", (2016, 4, 1)),
            F("lives_in", "{B}", (2018, 8, 1)),
            F("lives_in", "{C}", (2021, 3, 1)),
        ],
        [("lives_in", None, "{C}"), ("lives_in", (2019, 6, 1), "{B}")],
        [("lives_in", ["{A}", "{B}", "{C}"])],
        shuffled=True,
    ),
    Design(
        [
            F("lives_in", "{A}", (2015, 1, 1)),
            F("lives_in", "{C}", (2022, 1, 1)),
            F("lives_in", "{B}", (2019, 1, 1)),
        ],
        [("lives_in", (2020, 6, 1), "{B}"), ("lives_in", None, "{C}"), ("lives_in", (2016, 1, 1), "{A}")],
        [("lives_in", ["{A}", "{B}", "{C}"])],
    ),
    Design(
        [F("studies_at", "{S}", (2016, 9, 1), (2020, 6, 30)), F("works_at", "{O}", (2020, 8, 1))],
        [("studies_at", None, None), ("studies_at", (2018, 3, 1), "{S}"), ("works_at", None, "{O}")],
        [("studies_at", ["{S}"])],
    ),
    Design(
        [
            F("works_at", "{O}", (2017, 2, 1), source="imported"),
            F("works_at", "{P}", (2021, 5, 1), source="tool"),
        ],
        [("works_at", None, "{P}"), ("works_at", (2019, 1, 1), "{O}")],
        [("works_at", ["{O}", "{P}"])],
        shuffled=True,
    ),
    Design(
        [F("works_at", "{O}", (2019, 1, 1), source="inferred"), F("works_at", "{P}", (2022, 1, 1))],
        [("works_at", None, "{P}"), ("works_at", (2020, 1, 1), "{O}")],
        [("works_at", ["{P}"])],
    ),
    Design(
        [F("lives_in", "{A}", (2020, 1, 1)), F("works_at", "{O}", (2021, 1, 1))],
        [("lives_in", None, "{A}")],
        none=("studies_at", "has_pet", "relationship_status"),
    ),
)

MIXED = (
    Design(
        [F("works_at", "{O}", (2020, 1, 1))],
        [("works_at", None, "{P}"), ("works_at", (2022, 1, 1), "{O}")],
        [("works_at", ["{O}", "{P}"])],
        said=[((2024, 5, 10), "{joined}")],
    ),
    Design(
        [F("lives_in", "{A}", (2019, 1, 1))],
        [("lives_in", None, "{A}"), ("located_at", None, "{T}")],
        [("lives_in", ["{A}"])],
        said=[((2024, 3, 5), "{trip}")],
    ),
    Design(
        [F("job_title", "{J}", (2021, 1, 1), literal=True)],
        [("job_title", None, "{K}"), ("job_title", (2022, 6, 1), "{J}")],
        [("job_title", ["{J}", "{K}"])],
        said=[((2023, 8, 1), "{promoted}")],
        shuffled=True,
    ),
    Design(
        [F("lives_in", "{A}", (2022, 1, 1))],
        [("lives_in", None, "{A}"), ("lives_in", (2022, 6, 1), "{A}")],
        [("lives_in", ["{A}"])],
        said=[((2023, 5, 1), "{lives}")],
    ),
    Design(
        [F("lives_in", "{B}", (2023, 6, 1), source="tool")],
        [("lives_in", None, "{B}"), ("lives_in", (2022, 6, 1), "{A}")],
        [("lives_in", ["{A}", "{B}"])],
        said=[((2022, 1, 10), "{lives}")],
    ),
    Design(
        [F("works_at", "{O}", (2019, 1, 1))],
        [("works_at", None, None), ("works_at", (2023, 1, 1), "{O}")],
        said=[((2024, 2, 1), "{quit}")],
        shuffled=True,
    ),
)

EN_LINES = {
    "joined": "I joined {P} last month.",
    "trip": "I'm in {T} for a conference.",
    "promoted": "I got promoted to {K}.",
    "lives": "I live in {A}.",
    "quit": "I no longer work at {O}.",
}
ZH_LINES = {
    "joined": "我加入了{P}。",
    "trip": "我在{T}出差。",
    "promoted": "我被提拔为{K}了。",
    "lives": "我住在{A}。",
    "quit": "我不在{O}工作了。",
}


def _names(p: Pools, lang: str) -> dict[str, str]:
    zh = lang == "zh"
    a, b, c = p.pick(ZH_CITIES if zh else EN_CITIES, 3)
    o, q, r = p.pick(ZH_ORGS if zh else EN_ORGS, 3)
    names = {"A": a, "B": b, "C": c, "O": o, "P": q, "Q": r, "T": p.one(ZH_TRIPS if zh else EN_TRIPS)}
    names["S"] = "浙江大学" if zh else p.one(EN_SCHOOLS)
    names["J"], names["K"] = (
        ("软件工程师", "高级工程师") if zh else ("software engineer", "senior software engineer")
    )
    names["X"], names["Y"] = ("茶", "围棋") if zh else ("tea", "chess")
    return names


def _fill(text: str, names: dict[str, str]) -> str:
    return text.format(**names)


def _expect(value: str | list[str] | None, names: dict[str, str]) -> str | list[str] | None:
    if isinstance(value, list):
        return [_fill(v, names) for v in value]
    return None if value is None else _fill(value, names)


def _at(ymd: Ymd, hour: int = 0) -> datetime:
    return day(*ymd, h=hour)


def _build(case: Case, d: Design, names: dict[str, str]) -> Case:
    lines = ZH_LINES if case.lang == "zh" else EN_LINES
    for f in d.facts:
        end = _at(f.end) if f.end else None
        start = _at(f.start) if f.start else None
        case.fact(f.predicate, _fill(f.target, names), start, end, literal=f.literal, source_kind=f.source)
    for when, key in d.said:
        case.say(_at(when, 10), _fill(lines[key.strip("{}")], names))
    for predicate, as_of, expect in d.asks:
        if as_of is None:
            case.now(predicate, _expect(expect, names))
        else:
            case.at(_at(as_of), predicate, _expect(expect, names))
    for predicate, values in d.history:
        case.history(predicate, [_fill(v, names) for v in values])
    for predicate in d.none:
        case.none(predicate)
    return case.shuffled(d.shuffled)


def explicit_cases(p: Pools, zh_count: int) -> list[Case]:
    cases = []
    for i, d in enumerate(EXPLICIT):
        case = Case(f"en-explicit-{i + 1:03d}", "explicit", "en", p.one(EN_PEOPLE))
        cases.append(_build(case, d, _names(p, "en")))
    for i, d in enumerate(EXPLICIT[:zh_count]):
        case = Case(f"zh-explicit-{i + 1:03d}", "explicit", "zh", p.one(ZH_PEOPLE))
        cases.append(_build(case, d, _names(p, "zh")))
    return cases


def mixed_cases(p: Pools, zh_count: int) -> list[Case]:
    cases = []
    for i, d in enumerate(MIXED):
        case = Case(f"en-mixed-{i + 1:03d}", "mixed", "en", p.one(EN_PEOPLE))
        cases.append(_build(case, d, _names(p, "en")))
    for i, d in enumerate(MIXED[:zh_count]):
        case = Case(f"zh-mixed-{i + 1:03d}", "mixed", "zh", p.one(ZH_PEOPLE))
        cases.append(_build(case, d, _names(p, "zh")))
    return cases
