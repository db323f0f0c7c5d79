"""What a reaction to the listener takes for granted (``rules_en_readers_listener``): gladness over
a clause, congratulations on a deed, pride in the listener for a deed; the deed is the other
speaker's. Phrasings written for these tests; none taken from a dataset. Refused: no other
speaker, questions, negations, modals, a deed under way told back, the talk's own things, and
what the listener has (read from "your X" elsewhere)."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules import RulesExtractor
from tests.unit.en_chat_kit import REF, facts

_EX = RulesExtractor()


def sam(text: str) -> list[tuple[str, str]]:
    """(predicate, literal) of the facts about Sam, the listener."""
    return [(f.predicate, f.literal) for f in facts(text) if f.subject == "Sam"]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("So glad you adopted a kitten!", ("has_pet", "kitten")),
        ("It's so cool that you adopted a rescue dog.", ("has_pet", "rescue dog")),
        ("Great to hear you joined a new choir.", ("joins", "new choir")),
        ("Happy to hear you've started knitting again.", ("starts", "knitting")),
        ("I'm thrilled that you finished the triathlon!", ("finishes", "triathlon")),
        ("Awesome that you won the chess tournament, Sam!", ("wins", "chess tournament")),
    ],
)
def test_gladness_over_a_deed_of_the_listener(text: str, fact: tuple[str, str]) -> None:
    assert fact in sam(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Congrats on finishing your thesis!", ("finishes", "Sam's thesis")),
        ("Congratulations on opening your own bakery, Sam!", ("opens", "Sam's own bakery")),
        ("Congrats on winning the regional final!", ("wins", "regional final")),
        ("Kudos for finishing your first novel.", ("finishes", "Sam's first novel")),
        ("I'm so proud of you for running the half marathon.", ("runs", "half marathon")),
        ("Proud of you for starting your own podcast!", ("starts", "Sam's own podcast")),
    ],
)
def test_congratulations_and_pride_for_a_deed(text: str, fact: tuple[str, str]) -> None:
    assert fact in sam(text)


@pytest.mark.parametrize(
    "text",
    [
        "Glad you didn't quit the choir.",  # negated
        "Aren't you glad you adopted a kitten?",  # a question
        "I hope you finished the triathlon.",  # a wish, no gladness
        "Glad you could finish the triathlon.",  # a modal
        "Glad you're looking into other schools.",  # under way, told back
        "Glad you got that lovely photo too!",  # the talk's own thing
        "So nice you found such a welcoming choir.",  # a finding told back
        "So glad you bonded over our love of jazz.",  # the speaker's thing in the listener's deed
        "I'm glad they finished the triathlon.",  # not the listener
        "It's great that you have your family with you.",  # has: the family reader's
        "It's great to see how you're inspiring so many.",  # a manner
    ],
)
def test_no_fact_about_the_listener(text: str) -> None:
    assert sam(text) == []


def test_no_listener_without_a_two_party_session() -> None:
    got = _EX.extract(content="So glad you adopted a kitten!", speaker="Dana", reference_time=REF).facts
    assert got == []


def test_the_speakers_own_gladness_stays_the_speakers() -> None:
    got = [(f.subject, f.predicate, f.literal) for f in facts("Glad I finished the triathlon!")]
    assert all(s != "Sam" for s, _, _ in got)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("How's your new kitten?", ("has_pet", "kitten")),
        ("How is your sister doing?", ("has", "sister")),
        ("How are your goldfish?", ("has_pet", "goldfish")),
        ("Hey, how's your little brother?", None),  # not at the start: not read
    ],
)
def test_a_question_after_the_listeners_relative_or_pet(text: str, fact: tuple[str, str] | None) -> None:
    assert (fact in sam(text)) if fact else sam(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "How's your week going?",  # a time
        "How's your new job going?",  # what may have changed
        "How was your trip?",  # what happened
        "How old is your son?",  # not "how is"
        "How's the puppy?",  # not the listener's
    ],
)
def test_no_fact_from_other_questions(text: str) -> None:
    assert sam(text) == []
