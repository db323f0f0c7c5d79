"""Values that point at something said elsewhere: "one" with only leaders before it, and a
pointing "here"/"there" at the end.

"starts writing another one", "buys a new one", "finishes Dana's first one": which one the
listener knows, the graph does not; "one-on-one mentoring", "one of the top teams" name it.
"started volunteering here", "taking swim lessons there": the place word points
into the talk, so the value goes without it (the rest still says something).
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import ends_on_one
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    "sentence",
    [
        "I just started writing another one.",
        "I bought a new one last week.",
        "I finished my first one!",
        "I started knitting a new one.",
    ],
)
def test_a_bare_one_gives_no_fact(sentence: str) -> None:
    assert not any(v.split()[-1] in ("one", "ones") for _, v in rows(sentence)), rows(sentence)


def test_a_named_one_stays() -> None:
    assert ("offers", "one-on-one mentoring") in rows("I offer one-on-one mentoring.")
    assert not ends_on_one("one of the top teams")
    assert not ends_on_one("vintage one-speed bike")
    assert ends_on_one("another one") and ends_on_one("Dana's second one") and ends_on_one("a new one")


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I started volunteering there in 2019.", "volunteering"),
        ("I joined a choir here.", "choir"),
        ("I've been taking swim lessons there.", "swim lessons"),
    ],
)
def test_a_pointing_place_word_leaves_the_value(sentence: str, value: str) -> None:
    values = {v for _, v in rows(sentence)}
    assert value in values, values
    assert not any(v.endswith((" here", " there")) for v in values), values
