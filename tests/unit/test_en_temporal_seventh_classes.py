"""The classes of the seventh bank's failures fixed one by one (ninth session), each over several
phrasings and the near misses that must not give the change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.unit.en_temporal_kit import _extract

AT = datetime(2024, 6, 15, 10, tzinfo=UTC)


def _facts(text: str, subject: str = "Sam") -> set[tuple[str, str, str]]:
    return {
        (f.predicate, f.literal, f.claim)
        for f in _extract(text, AT, "Dana").facts
        if f.subject == subject and f.predicate in ("lives_in", "works_at", "job_title")
    }


# --------------------------------------------------------------- a pronoun after a leading time


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Sam left Leeds in March. It was hard. Now he lives in Denver.", ("lives_in", "Denver")),
        ("Sam quit Globex in May. What a relief! Now he works at Hooli.", ("works_at", "Hooli")),
        ("Sam lives in Leeds. Two years later he moved to Denver.", ("lives_in", "Denver")),
        ("Sam joined Globex in 2019. Two years later, she joined Initech.", ("works_at", "Initech")),
        ("Sam was a nurse. A year later he became a data analyst.", ("job_title", "data analyst")),
        ("Sam lives in Leeds. Last year, he moved to Denver.", ("lives_in", "Denver")),
        ("Sam lives in Leeds. In March he moved to Cape Town.", ("lives_in", "Cape Town")),
        ("Sam lives in Leeds. These days she works at Pied Piper.", ("works_at", "Pied Piper")),
    ],
)
def test_a_pronoun_after_a_leading_time_phrase_is_the_person_named_before(
    text: str, fact: tuple[str, str]
) -> None:
    assert (*fact, "assert") in _facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Now he lives in Denver.",  # nobody named before
        "Two years later he moved to Denver.",
        "My brother lives in Leeds. Now he lives in Denver.",  # no name: not Sam's, nor the speaker's
        "Sam lives in Leeds. Now they live in Denver.",  # not "he" / "she"
    ],
)
def test_a_pronoun_after_a_time_phrase_with_no_named_person_gives_nobody_the_value(text: str) -> None:
    assert ("lives_in", "Denver", "assert") not in _facts(text)
    assert ("lives_in", "Denver", "assert") not in _facts(text, "Dana")


def test_a_new_name_after_the_time_phrase_keeps_its_own_value() -> None:
    assert ("lives_in", "Denver", "assert") not in _facts("Sam lives in Leeds. Now Shelly lives in Denver.")


# --------------------------------------------------------------- "have got" a dwelling


@pytest.mark.parametrize(
    ("text", "subject", "place"),
    [
        ("I've got an apartment in Leeds.", "Dana", "Leeds"),
        ("I have got a flat in Buenos Aires.", "Dana", "Buenos Aires"),
        ("Sam has got an apartment in Cape Town.", "Sam", "Cape Town"),
        ("We've got a house in Bristol.", "Dana", "Bristol"),
    ],
)
def test_have_got_a_dwelling_in_a_place_is_living_there(text: str, subject: str, place: str) -> None:
    assert ("lives_in", place, "assert") in _facts(text, subject)


@pytest.mark.parametrize(
    "text",
    [
        "I've got a holiday flat in Leeds.",  # not the home
        "I've got an apartment in Leeds for my daughter.",  # someone else's
        "I've got a friend in Leeds.",  # not a dwelling
        "I've got a meeting in Leeds.",
        "I might have got a flat in Leeds.",
    ],
)
def test_have_got_something_else_in_a_place_is_not_living_there(text: str) -> None:
    assert ("lives_in", "Leeds", "assert") not in _facts(text, "Dana")


# --------------------------------------------------------------- "gave up on" a change


@pytest.mark.parametrize(
    ("text", "subject", "fact"),
    [
        ("I gave up on becoming a nurse.", "Dana", ("job_title", "nurse")),
        ("Sam gave up on becoming a data analyst.", "Sam", ("job_title", "data analyst")),
        ("I gave up on moving to Leeds.", "Dana", ("lives_in", "Leeds")),
        ("Sam has given up on joining Globex.", "Sam", ("works_at", "Globex")),
        ("I've given up on the idea of moving to Cape Town.", "Dana", ("lives_in", "Cape Town")),
    ],
)
def test_a_change_given_up_on_did_not_happen(text: str, subject: str, fact: tuple[str, str]) -> None:
    assert (*fact, "assert") not in _facts(text, subject)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I gave up being a nurse.", ("job_title", "nurse", "end")),  # a state given up: an end
        ("I gave up on becoming a nurse and became a chef.", ("job_title", "chef", "assert")),
        ("I gave up smoking and moved to Leeds.", ("lives_in", "Leeds", "assert")),
    ],
)
def test_beside_a_change_given_up_on_what_happened_is_read(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in _facts(text, "Dana")
