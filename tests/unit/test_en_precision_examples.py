"""Examples after "like": a value that keeps the first of a list misstates it.

"tries out different flavors like chocolate" (of "like chocolate, raspberry, and coconut"),
"considers sports brands like Nike" (of "like Nike and Under Armour"), "teaches tricks like sit"
(of "sit, stay, shake, and roll over"), "finishes painting like Dana's last one": the list is kept
whole when it fits the value, else the value stops before "like"; an example that points back
("like my last one") is cut; one example alone stays ("novels like Dune").
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import cut_torn_examples
from tests.unit.en_chat_kit import fact, rows


def _values(text: str) -> set[str]:
    return {v for _, v in rows(text)}


@pytest.mark.parametrize(
    ("sentence", "torn"),
    [
        ("I'm comparing phone plans like Mint and Visible and Ting.", "plans like Mint"),
        ("We teach the puppy tricks like sit, stay and fetch.", "tricks like sit"),
        ("I love cozy games like Stardew Valley and Animal Crossing.", "games like Stardew Valley"),
        ("I'm currently considering running shoes like Hoka and On Cloud.", "shoes like Hoka"),
        ("I baked cookies like chocolate chip, oatmeal, and snickerdoodle.", "cookies like chocolate chip"),
    ],
)
def test_no_value_keeps_only_the_first_example(sentence: str, torn: str) -> None:
    assert not any(v.endswith(torn) for v in _values(sentence)), _values(sentence)


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        (
            "I've been trying out different teas like oolong, jasmine and rooibos.",
            "oolong, jasmine and rooibos",
        ),
        ("I love cozy games like Stardew Valley and Animal Crossing.", "cozy games"),
        ("I baked cookies like chocolate chip, oatmeal, and snickerdoodle.", "cookies"),
        ("I'm reading novels like Dune.", "novels like Dune"),
    ],
)
def test_the_list_stays_whole_or_the_value_stops_before_like(sentence: str, value: str) -> None:
    assert any(v.endswith(value) for v in _values(sentence)), _values(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I just finished another quilt like my last one.",
        "We've been cooking dishes like this one.",
        "I bought a lamp like yours.",
    ],
)
def test_an_example_that_points_back_is_cut(sentence: str) -> None:
    assert not any(" like " in v for v in _values(sentence)), _values(sentence)


def test_the_gate_cuts_a_torn_list_and_keeps_a_whole_one() -> None:
    quote = "I'm into board games like Catan and chess."
    assert cut_torn_examples(fact("likes", "board games like Catan", quote=quote)).literal == "board games"
    whole = fact("likes", "board games like Catan and chess", quote=quote)
    assert cut_torn_examples(whole).literal == "board games like Catan and chess"
    alone = fact("likes", "board games like Catan", quote="I'm into board games like Catan.")
    assert cut_torn_examples(alone).literal == "board games like Catan"


def test_a_torn_pair_after_both() -> None:
    from graphmem.providers.extractors.rules_en_gates import torn_pair

    assert torn_pair("both classical") and torn_pair("schedule with both basketball stuff")
    assert not torn_pair("both jazz and blues") and not torn_pair("a book both of them loved")
    assert not torn_pair("board games")
    values = _values("I'm a fan of both classical like Bach and Mozart, as well as modern pop.")
    assert not any(v.startswith("both") and " and " not in v for v in values), values
