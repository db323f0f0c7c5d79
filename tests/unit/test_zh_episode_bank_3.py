"""Chinese temporal statements over episodes: a third bank (colloquial verbs, aspect, times, traditional
characters, ASCII punctuation, negations, plans, corrections), written from scratch, run in both
ingestion orders through the rules extractor and ``resolve_slot`` (``zh_temporal_kit``).

Found by this bank and fixed (``test_zh_classes_3``): 2021年底 resolved to 1 January 2021 (年底/年末
are December); 从那以后就住在X了 gave nothing; a fragment answering a question in the same episode
(你现在住哪？——杭州，去年搬的) gave nothing. A row may end with dates and the value (a, b or None)
holding at each.
"""

from __future__ import annotations

import pytest

from tests.unit.zh_temporal_kit import SPEAKER, Case, Said, day
from tests.unit.zh_temporal_kit import check as _check

D = (day(2019, 5), day(2022, 3), day(2024, 9))
WHO = (("我", "我", SPEAKER), ("张伟", "张伟", "张伟"))
P = {"lives_in": ("南京", "杭州"), "works_at": ("腾讯", "华为"), "job_title": ("会计", "产品经理")}
ROWS = [
    (("{s}在{a}上班。",), "works_at", "a"),
    (("{s}在{a}做事。",), "works_at", "a"),
    (("{s}在{a}上班。", "{p}调到{b}了。"), "works_at", "b"),
    (("{s}住在{a}。", "{p}去了{b}发展。"), "lives_in", "b"),
    (("{s}住在{a}。", "{p}搬过去{b}了。"), "lives_in", "b"),
    (("{s}住在{a}。", "{p}去年春节后搬到了{b}。"), "lives_in", "b"),
    (("{s}住在{a}。", "{p}上上个月搬到了{b}。"), "lives_in", "b"),
    (("{s}在{a}待了三年。", "后来{p}搬到了{b}。"), "lives_in", "b"),
    (("{s}住在{a}，不对，是{b}不是{a}。",), "lives_in", "B"),
    (("{s}在{a}上班。", "我记错了，{p}在{b}上班。"), "works_at", "B"),
    (("{s}住在{a}。", "{p}没搬成{b}。"), "lives_in", "A"),
    (("{s}在{a}上班。", "{p}还没入职{b}。"), "works_at", "A"),
    (("{s}在{a}工作。", "{p}不再在{a}工作了。"), "works_at", "-"),
    (("{s}住在{a}。", "{p}下个月要搬到{b}。"), "lives_in", "A"),
    (("{s}住在{a}。", "{p}準備搬到{b}。"), "lives_in", "A"),
    (("{s}在{a}上班!", "{p}已經跳槽到{b}了!"), "works_at", "b"),
    (("{s}是{a}。", "{p}前年转岗当{b}了。"), "job_title", "b"),
    (("{s}住在{a}。", "{p}外派到{b}了。"), "lives_in", "b"),
    (("{s}住在{a}。", "{p}回老家{b}了。"), "lives_in", "b"),
    (("{s}从那以后就住在{a}了。",), "lives_in", "a"),
    (("{s}住在{a}。", "{p}从那以后就住在{b}了。"), "lives_in", "b"),
    (("{s}在{a}上班。", "自那以后{p}一直在{b}上班。"), "works_at", "b"),
    (("{s}2021年底搬到了{a}。",), "lives_in", "a", ((day(2021, 11), None), (day(2021, 12, 2), "a"))),
    (
        ("{s}住在{a}。", "{p}2023年末搬到了{b}。"),
        "lives_in",
        "b",
        ((day(2023, 11), "a"), (day(2023, 12, 2), "b")),
    ),
    (
        ("{s}住在{a}。", "{p}去年年底搬到了{b}。"),
        "lives_in",
        "b",
        ((day(2023, 11), "a"), (day(2023, 12, 2), "b")),
    ),
]


def _cases() -> list[Case]:
    out = []
    for tpl, pred, shape, *held in ROWS:
        for who in WHO:
            a, b = P[pred]
            texts = [t.format(s=who[0] if k == 0 else who[1], p=who[1], a=a, b=b) for k, t in enumerate(tpl)]
            eps = tuple(Said(t, D[k + 3 - len(texts)]) for k, t in enumerate(texts))
            want = {"a": (a, (a,)), "b": (b, (a, b)), "-": (None, (a,)), "B": (b, (b,)), "A": (a, (a,))}[
                shape
            ]
            dated = tuple((when, {"a": a, "b": b, None: None}[v]) for when, v in (held[0] if held else ()))
            out.append(Case(eps, who[2], pred, want[0], want[1], dated))
    return out


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_a_third_bank_of_episode_structures(case: Case) -> None:
    _check(case)
