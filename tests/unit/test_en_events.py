"""Facts chat states without a dedicated verb (``rules_en_events``): an event noun in a place
phrase of a past clause is attended, "my" + a pet noun (or a pet got or adopted) is a pet,
"X is my thing" / "a huge part of my life" is a liking; skipped verbs that say something with a
preposition ("looking into X"); a participle clause shares its head's subject. Paraphrases written
for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 15, 10, 0, tzinfo=UTC)


def _rows(text: str) -> list[tuple[str, str]]:
    out = RulesExtractor().extract(content=text, speaker="Dana", reference_time=REF)
    return [(f.predicate, f.literal) for f in out.facts if f.subject == "Dana"]


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("Yeah, I made it in pottery class yesterday.", "pottery class"),
        ("I danced all night at my cousin's wedding.", "Dana's cousin's wedding"),
        ("We had a great time at the pride parade.", "pride parade"),
        ("I cried during the ceremony.", "ceremony"),
    ],
)
def test_an_event_noun_in_a_past_place_phrase_is_attended(text: str, event: str) -> None:
    assert ("attended", event) in _rows(text)


@pytest.mark.parametrize(
    "text",
    ["I'm dancing at the wedding tomorrow.", "I missed the parade.", "I never made it to the concert."],
)
def test_no_attendance_for_plans_misses_or_denials(text: str) -> None:
    assert [r for r in _rows(text) if r[0] == "attended"] == []


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("They're good, we got another cat named Bailey too.", "cat named Bailey"),
        ("And yup, Oscar, my guinea pig.", "guinea pig named Oscar"),
        ("Here's a pic of my dog.", "dog"),
        ("We adopted a puppy last spring.", "puppy"),
        ("I rescued a kitten.", "kitten"),
    ],
)
def test_a_pet_named_by_possession_or_got(text: str, pet: str) -> None:
    assert ("has_pet", pet) in _rows(text)


def test_a_pet_missed_is_not_claimed() -> None:
    assert [r for r in _rows("I miss my dog so much.") if r[0] == "has_pet"] == []


@pytest.mark.parametrize(
    ("text", "thing"),
    [("Pottery is a huge part of my life.", "pottery"), ("Baking is my passion.", "baking")],
)
def test_a_copula_naming_a_passion_is_a_liking(text: str, thing: str) -> None:
    assert ("likes", thing) in _rows(text)


def test_a_skipped_verb_with_a_meaningful_preposition() -> None:
    assert ("looks_into", "counseling as a career") in _rows(
        "Lately, I've been looking into counseling as a career."
    )


def test_a_participle_clause_shares_its_heads_subject() -> None:
    assert ("learns", "piano") in _rows("I'm getting creative too, just learning the piano.")
