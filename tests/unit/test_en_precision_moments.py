"""A feeling of the moment is no fact about the person; a hedge is no part of an identity.

"I'm stoked for my game there", "I'm ready for a shake up", "I'm happy with the decision", "we'd
all get comfy with snacks", "I'm open to exploring other brands": how someone feels as they speak
(``MOMENT_ADJS``). Lasting dispositions stay: "passionate about", "allergic to", "grateful for",
"proud of", and a disposition with a to-infinitive ("excited to meet ...") is read as before.
"kind of a sucker for X" is "a sucker for X", never "an of sucker".
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import moment_feeling
from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm so stoked for my recital next week!",
        "I'm ready for a change of scenery.",
        "I'm really happy with my decision.",
        "We got comfy with blankets and popcorn.",
        "I'm pumped about the marathon.",
        "I'm open to trying other approaches.",
        "I'm nervous about my driving test.",
    ],
)
def test_a_feeling_of_the_moment_gives_no_fact(sentence: str) -> None:
    assert not any(p.startswith("is_") for p, _ in rows(sentence)), rows(sentence)


@pytest.mark.parametrize(
    ("sentence", "predicate"),
    [
        ("I'm allergic to peanuts.", "is_allergic_to"),
        ("I'm grateful for my mentor.", "is_grateful_for"),
        ("I'm proud of my vegetable garden.", "is_proud_of"),
    ],
)
def test_a_lasting_disposition_stays(sentence: str, predicate: str) -> None:
    assert any(p == predicate for p, _ in rows(sentence)), rows(sentence)


def test_moment_feeling_names() -> None:
    assert moment_feeling("is_stoked_for") and moment_feeling("is_comfy_with")
    assert not moment_feeling("is_excited_to") and not moment_feeling("is_passionate_about")
    assert not moment_feeling("is_allergic_to")


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I'm kind of a sucker for any romance novel.", "a sucker for romance novel"),
        ("Honestly I'm sort of a sucker for cheesy horror films.", "a sucker for cheesy horror films"),
    ],
)
def test_a_hedge_is_no_part_of_the_identity(sentence: str, value: str) -> None:
    values = {v for p, v in rows(sentence) if p == "is"}
    assert not any(" of sucker" in v or v.startswith(("a kind", "a sort")) for v in values), values
    assert value in values, values
