"""Classes of chat statements the parse reads without a dedicated verb-object rule
(``rules_en_chat``), and the quality gates every fact passes (``rules_en_gates``). One test per
class, each with paraphrases written for these tests (not taken from any dataset), plus the
negative forms of the class (questions, hypotheticals, negations, pronouns) that must give nothing."""

from __future__ import annotations

import pytest

from graphmem.models.extraction import ExtractedFact
from graphmem.providers.extractors.rules_en_gates import merge_duplicates, well_formed
from tests.unit.en_chat_kit import SPEAKERS, fact, facts, rows


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("I want to learn the cello.", "learn cello"),
        ("We're thinking about repainting the garage.", "repaint garage"),
        ("Gonna sign up for a cooking course.", "sign up for cooking course"),
        ("I'm aiming to open a bakery.", "open bakery"),
        ("Can't wait to visit Lisbon!", "visit Lisbon"),
        ("I'm so eager to start my new course.", "start Dana's new course"),
        ("I'm off to do some gardening.", "do some gardening"),
        ("I'm considering moving into teaching.", "move into teaching"),
    ],
)
def test_wishes_and_plans_are_inferred_plans(text: str, plan: str) -> None:
    plans = [f for f in facts(text) if f.predicate == "plans"]
    assert [f.literal for f in plans] == [plan]
    assert plans[0].source_kind == "inferred"


def test_a_progressive_with_an_event_or_a_future_time_is_a_plan_keeping_its_time() -> None:
    assert ("plans", "host barbecue next Saturday") in rows("I'm hosting a barbecue next Saturday.")
    assert ("plans", "go to poetry festival") in rows("I'm going to a poetry festival.")


@pytest.mark.parametrize(
    "text",
    [
        "Do you want to learn the cello?",
        "I don't want to learn the cello.",
        "If I want to travel, I'll save up.",
        "Can't wait to see it!",
        "I'd love to hear more.",
    ],
)
def test_questions_negations_hypotheticals_and_perception_are_no_plans(text: str) -> None:
    assert [r for r in rows(text) if r[0] == "plans"] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Gardening really matters to me.", "gardening"),
        ("My grandmother's ring is so precious to me.", "Dana's grandmother's ring"),
        ("Music means a lot to me.", "music"),
        ("Baking helps me unwind.", "baking"),
        ("Music makes me happy.", "music"),
        ("Long walks are important to me.", "long walks"),
    ],
)
def test_what_the_speaker_values(text: str, value: str) -> None:
    assert ("values", value) in rows(text)


@pytest.mark.parametrize(
    "text", ["It means a lot to me.", "This is special to me.", "That reminds me of home."]
)
def test_a_pronoun_or_a_memory_is_no_value(text: str) -> None:
    assert [r for r in rows(text) if r[0] == "values"] == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I have two daughters and a son.", ("has", "two daughters")),
        ("I'm an avid cyclist.", ("is", "an avid cyclist")),
        ("I'm blessed to have my brother.", ("has", "brother")),
        ("I've got a vintage camera.", ("owns", "vintage camera")),
        ("These are my hiking boots.", ("owns", "hiking boots")),
        ("Here's a photo of my grandpa.", ("has", "grandpa")),
        ("I've always had a love for sailing.", ("likes", "sailing")),
    ],
)
def test_family_possessions_and_things_shown(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have a question about that.",
        "I had a blast.",
        "We all have our own paths.",
        "I don't have a car.",
        "I've got so many stories to tell.",
    ],
)
def test_abstract_generic_or_negated_have_is_no_possession(text: str) -> None:
    assert [r for r in rows(text) if r[0] in ("has", "owns")] == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I've been knitting a lot.", ("does", "knitting")),
        ("Been cycling more since spring.", ("does", "cycling")),
        ("I'm doing pilates twice a week.", ("does", "pilates")),
        ("I love to bake.", ("likes", "to bake")),
    ],
)
def test_activities(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Jazz is so relaxing.", ("likes", "jazz")),
        ("Dune and Foundation are amazing!", ("likes", "Foundation")),
        ("Adore a good mystery with clever twists.", ("likes", "good mystery with clever twists")),
    ],
)
def test_likings_said_as_praise(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "The show was amazing.",
        "That sounds amazing!",
        "Sam is amazing.",
        "Wow, Sam, that painting is awesome!",
    ],
)
def test_praise_of_a_thing_of_the_conversation_or_a_person_is_no_liking(text: str) -> None:
    assert [r for r in rows(text) if r[0] == "likes"] == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I was in Madrid last month.", ("visited", "Madrid")),
        ("Just got back from a ski trip!", ("attended", "ski trip")),
        ("I painted that mountain landscape last week.", ("paints", "mountain landscape")),
        ("I really appreciate my neighbours.", ("appreciates", "Dana's neighbours")),
    ],
)
def test_past_stays_returns_and_described_things(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


def test_a_past_event_is_dated_by_its_time_phrase() -> None:
    (fact,) = [f for f in facts("Just got back from a ski trip yesterday!") if f.predicate == "attended"]
    assert fact.valid_from is not None and fact.valid_from.date().isoformat() == "2024-06-14"


# --------------------------------------------------------------------------- gates


@pytest.mark.parametrize(
    "fact",
    [
        fact("runs_to", "de", quote="I run to de-stress."),  # a hyphenated word cut
        fact("develops", "how much"),  # a wh-clause fragment
        fact("plans", "events"),  # a plan without a verb
        fact("owns", "kids' books- classics"),  # a torn compound
        fact("likes", "everywhere"),  # a place adverb, no object
        fact("likes", "my garden"),  # first person left in the statement
        fact("likes", "hiking", subject="Sounds"),  # filler as subject
        fact("likes", "his tools"),  # an unresolved third-person pronoun
    ],
)
def test_gates_refuse_malformed_facts(fact: ExtractedFact) -> None:
    assert not well_formed(fact, SPEAKERS)


def test_gates_keep_a_well_formed_fact() -> None:
    assert well_formed(fact("plans", "visit Lisbon"), SPEAKERS)
    assert well_formed(fact("has", "two daughters"), SPEAKERS)


def test_duplicates_differing_only_by_articles_merge() -> None:
    both = [fact("plans", "take a team trip"), fact("plans", "take team trip")]
    assert [f.literal for f in merge_duplicates(both)] == ["take a team trip"]
