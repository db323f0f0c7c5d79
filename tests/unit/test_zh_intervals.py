"""Chinese intervals: a time after 到 / 至 / 直到 dates where a state ended, as "until" and "to" do
in English. Regression: 从2019年到2022年住在杭州 gave no fact at all (the 到 left behind by the time
phrases broke the clause), and 在杭州住到了2022年 started living there in 2022."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 1, tzinfo=UTC)
Y2019, Y2022 = datetime(2019, 1, 1, tzinfo=UTC), datetime(2022, 1, 1, tzinfo=UTC)


def _facts(text: str) -> list[tuple[str, str, str, datetime, datetime | None]]:
    out = RulesExtractor().extract(content=text, speaker="李雷", reference_time=REF)
    return [(f.predicate, f.object, f.claim, f.valid_from, f.valid_to) for f in out.facts]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("我从2019年到2022年住在杭州。", ("lives_in", "杭州")),
        ("我2019年到2022年在腾讯工作。", ("works_at", "腾讯")),
        ("我从2019年至2022年在苏州生活。", ("lives_in", "苏州")),
    ],
)
def test_from_one_year_to_another_is_the_interval(text: str, fact: tuple[str, str]) -> None:
    assert (*fact, "assert", Y2019, Y2022) in _facts(text)


@pytest.mark.parametrize(
    ("text", "fact", "until"),
    [
        ("我在杭州住到了2022年。", ("lives_in", "杭州"), Y2022),
        ("我一直到2022年都在腾讯上班。", ("works_at", "腾讯"), Y2022),
        ("我直到去年都在阿里巴巴上班。", ("works_at", "阿里巴巴"), datetime(2023, 6, 1, tzinfo=UTC)),
    ],
)
def test_until_a_time_ends_the_value_then(text: str, fact: tuple[str, str], until: datetime) -> None:
    facts = _facts(text)
    assert (*fact, "end", until, None) in facts
    assert not [f for f in facts if f[:3] == (*fact, "assert") and f[3] >= until]
