"""Classes of wrong possession and plan facts, with the near neighbours that keep theirs
(regressions: "owns tree" from "This was our tree last year", "owns go-to place", "plans to
adopt rescue dog-for love" were written).

- a thing shown in the past tense ("This was our tree") is not owned now;
- a place or a way is no possession ("This is my go-to place for X");
- abstract or body things are never owned ("I have a feeling", "I have time", "a headache");
- a dash ends a plan's words ("adopting a dog - for love and ...").
"""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    "sentence",
    [
        "This was our old canoe back in the day.",
        "This is my favourite spot for sketching.",
        "I have a feeling it'll rain.",
        "I have time to paint now.",
        "I have a terrible headache today.",
    ],
)
def test_nothing_is_owned(sentence: str) -> None:
    assert not [v for p, v in rows(sentence) if p in ("owns", "has")]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("This is my new canoe.", "new canoe"),
        ("These are my hiking boots.", "hiking boots"),
        ("I have a vintage typewriter.", "vintage typewriter"),
    ],
)
def test_a_thing_shown_or_had_now_is_owned(sentence: str, value: str) -> None:
    assert ("owns", value) in rows(sentence)


def test_a_dash_ends_a_plan() -> None:
    plans = [
        v for p, v in rows("We're considering adopting a rescue cat - for company and fun.") if p == "plans"
    ]
    assert plans == ["adopt rescue cat"]
