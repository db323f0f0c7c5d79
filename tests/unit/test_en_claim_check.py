"""The cheap check before the English parser (``rules_en_gates.can_hold_claim``): sentences that
cannot hold a claim are neither parsed nor read by the phrasing rules."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.en_parse import could_be_verb
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.providers.extractors.rules_en_gates import can_hold_claim

REF = datetime(2024, 5, 8, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "word", ["went", "loves", "painting", "tried", "is", "'m", "ve", "bought", "carries"]
)
def test_verb_forms_are_candidates(word: str) -> None:
    assert could_be_verb(word)


@pytest.mark.parametrize("word", ["mel", "luck", "yep", "the", "awesome"])
def test_non_verbs_are_not(word: str) -> None:
    assert not could_be_verb(word)


@pytest.mark.parametrize(
    "sentence",
    ["Hey Mel!", "Great idea!", "Good luck with Toby!", "Yep, Caroline.", "Aww, so cute!", "Congrats, John!"],
)
def test_no_verb_candidate_cannot_hold_a_claim(sentence: str) -> None:
    """Interjections, greetings and thanks without a verb never reach the parser."""
    assert not can_hold_claim(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["That's awesome!", "It was so amazing!", "The kids loved it!", "They absolutely adore it!"],
)
def test_no_subject_candidate_cannot_hold_a_claim(sentence: str) -> None:
    """A pronoun or determiner opener with no first/second-person word and no name cannot resolve."""
    assert not can_hold_claim(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I went to a support group yesterday.",
        "My kids love pottery.",
        "Went to a concert!",
        "Zoltan lives in Quito.",
        "The kids and I went camping.",
        "It's Max's birthday and Max turned five.",
        "Family's super important to me.",
        "We adopted a puppy.",
        "Just got back from Paris.",
    ],
)
def test_claim_sentences_pass(sentence: str) -> None:
    assert can_hold_claim(sentence)


def test_skipped_sentences_give_no_facts_and_others_still_do() -> None:
    """A turn mixing filler and a claim keeps the claim's fact and nothing from the filler."""
    out = RulesExtractor().extract(
        content="Hey Mel! That's awesome! I went to a pottery class yesterday.",
        speaker="Caroline",
        reference_time=REF,
    )
    assert [(f.subject, f.predicate) for f in out.facts] == [("Caroline", "attended")]


def test_a_correction_without_a_verb_still_applies() -> None:
    """'Or rather Lyon.' has no verb candidate but corrects the value said before it."""
    out = RulesExtractor().extract(
        content="I live in Paris. Or rather Lyon.", speaker="Ana", reference_time=REF
    )
    assert [(f.predicate, f.literal) for f in out.facts if f.predicate == "lives_in"] == [
        ("lives_in", "Lyon")
    ]
