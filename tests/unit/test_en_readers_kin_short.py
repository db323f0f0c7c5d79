"""The family reader (``rules_en_readers.kin_claims``) knows the short chat forms of partners
(gf, bf, hubby). Phrasings written for these tests."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "relative"),
    [
        ("My gf and I went bowling last night.", "gf"),
        ("My bf cooked dinner for everyone.", "bf"),
        ("My hubby fixed the sink this morning.", "hubby"),
    ],
)
def test_a_short_form_partner_is_family(text: str, relative: str) -> None:
    assert ("has", relative) in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "Does your gf like hiking?",  # a question
        "My ex bf moved to Leeds.",  # an ex
        "My future hubby will love this.",  # not yet a relative
    ],
)
def test_no_short_form_partner_when_not_said(text: str) -> None:
    assert not any(p == "has" for p, _ in rows(text))
