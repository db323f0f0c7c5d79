"""Classes of vague or wrong chat facts the English rules extractor refuses, each with sentences
written for these tests (not taken from any dataset): what the class must still extract beside
what it must not. Regression tests: each docstring names the class of junk fact it locks out."""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import well_formed
from graphmem.providers.extractors.rules_en_lemma import mend_lemma
from tests.unit.en_chat_kit import SPEAKERS, fact, facts, rows

# ------------------------------------------------------------------ politeness toward the listener


@pytest.mark.parametrize(
    "text",
    [
        "Your support means a lot.",
        "Your kind words mean so much to me.",
        "I really appreciate your encouragement.",
        "Your help is greatly appreciated.",
        "Your kindness means the world to me.",
        "Your passion inspires me.",
        "Kind words mean a lot to me.",
        "I appreciate your honesty, Sam.",
    ],
)
def test_thanks_to_the_listener_is_no_value(text: str) -> None:
    """Bug: "Your support means a lot" became "Dana values Sam's support": a politeness formula
    toward the listener (support, words, kindness, help said as thanks) is no fact about Dana."""
    assert [r for r in rows(text) if r[0] in ("values", "appreciates", "admires")] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Family time means a lot to me.", "family time"),
        ("Friendship matters to me.", "friendship"),
        ("Gardening really matters to me.", "gardening"),
        ("Long walks are important to me.", "long walks"),
        ("My grandmother's ring is so precious to me.", "Dana's grandmother's ring"),
        ("Painting helps me relax.", "painting"),
    ],
)
def test_what_the_speaker_values_is_still_a_value(text: str, value: str) -> None:
    assert ("values", value) in rows(text)


@pytest.mark.parametrize("text", ["That song makes me happy.", "Seeing this pic makes me happy."])
def test_a_demonstrative_subject_is_no_value(text: str) -> None:
    """Bug: "That pic makes me think ..." became "values pic": a thing of the conversation."""
    assert [r for r in rows(text) if r[0] == "values"] == []


@pytest.mark.parametrize(
    "text",
    [
        "I'm so proud of you!",
        "I'm really happy for you.",
        "I'm so stoked for you, Sam.",
        "I admire you, Sam.",
    ],
)
def test_a_reaction_to_the_listener_is_no_fact(text: str) -> None:
    """Bug: "I'm so proud of you" became "Dana is proud of Sam": a reaction said to the listener."""
    assert [r for r in rows(text) if r[1] == "Sam" or r[1].startswith("Sam's")] == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm so proud of my daughter.", ("is_proud_of", "Dana's daughter")),
        ("I'm grateful for my friends.", ("is_grateful_for", "Dana's friends")),
    ],
)
def test_a_feeling_toward_someone_else_stays(text: str, fact: tuple[str, str]) -> None:
    assert fact in rows(text)


# ------------------------------------------------------------------ plans: content, offers, wishes


@pytest.mark.parametrize(
    "text",
    [
        "I want to keep pushing.",
        "Gonna explore more next month.",
        "I just want to keep going.",
        "I'm determined to do better.",
        "I'm gonna keep pursuing my goals.",
        "I want to make my dreams come true.",
        "I'll send you the link.",
        "I'll let you know how it goes.",
        "I'll share the recipe with you.",
        "I'll tell you all about the trip.",
        "Hopefully we can go camping soon.",
        "Hopefully I'll visit Lisbon.",
    ],
)
def test_contentless_plans_offers_and_wishes_are_no_facts(text: str) -> None:
    """Bug: "keep pushing", "explore more" became plans; "I'll send you the link" (an offer to the
    listener) and "Hopefully we ..." (a wish) were stated as facts about the speaker."""
    assert rows(text) == []


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("I want to learn the cello.", "learn cello"),
        ("Can't wait to visit Lisbon!", "visit Lisbon"),
        ("I'm aiming to open a bakery.", "open bakery"),
        ("Gonna sign up for a cooking course.", "sign up for cooking course"),
        ("I'm hoping to run a marathon.", "run marathon"),
        ("I'm off to do some gardening.", "do some gardening"),
    ],
)
def test_plans_with_content_stay(text: str, plan: str) -> None:
    assert ("plans", plan) in rows(text)


def test_an_ill_with_a_future_time_is_still_a_plan() -> None:
    assert any(
        p == "plans" or p.startswith("start") for p, _ in rows("I'll start a pottery class next week.")
    )


# ------------------------------------------------------------------ past likings


@pytest.mark.parametrize(
    "text",
    [
        "I used to love skateboarding.",
        "I used to enjoy chess.",
        "When I was younger I liked comic books.",
        "I loved climbing trees when I was a kid.",
        "As a kid I adored dinosaurs.",
        "Back in college I really liked jazz.",
        "I loved taking lessons with my friends when I was younger.",
    ],
)
def test_a_past_liking_is_no_current_liking(text: str) -> None:
    """Bug: "I used to love X", "when I was younger I liked X" became a current ``likes X`` (an
    end of the liking, which "used to" says, may stay)."""
    current = [f for f in facts(text) if f.claim == "assert"]
    assert [f for f in current if f.predicate in ("likes", "loves", "enjoys", "adores")] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I love skateboarding.", "skateboarding"),
        ("I really enjoy chess.", "chess"),
        ("I've always loved jazz.", "jazz"),
        ("I like comic books.", "comic books"),
        ("I used to hate running, but now I love running.", "running"),
        ("Jazz is so relaxing.", "jazz"),
    ],
)
def test_a_present_liking_stays(text: str, value: str) -> None:
    assert ("likes", value) in rows(text)


# ------------------------------------------------------------------ identities keep their complement


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm a huge bookworm.", "a huge bookworm"),
        ("I'm an avid cyclist.", "an avid cyclist"),
        ("I'm a single parent.", "a single parent"),
        ("I'm a huge supporter of local artists.", "a huge supporter of local artists"),
        ("I'm a firm believer in second chances.", "a firm believer in second chances"),
    ],
)
def test_identities_keep_their_complement(text: str, value: str) -> None:
    assert ("is", value) in rows(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [("I'm a huge fan of jazz.", "jazz"), ("I'm a big fan of Studio Ghibli.", "Studio Ghibli")],
)
def test_a_fan_of_something_likes_it(text: str, value: str) -> None:
    assert ("likes", value) in rows(text)
    assert [r for r in rows(text) if r[0] == "is" and "of" not in r[1]] == []


@pytest.mark.parametrize(
    "text", ["I'm a huge fan!", "I'm a big fan.", "I'm a true believer.", "I'm a huge supporter of this one."]
)
def test_a_relational_identity_without_its_complement_is_no_fact(text: str) -> None:
    """Bug: "I'm a huge fan of X" lost "of X" and "Dana is a huge fan" was written."""
    assert [r for r in rows(text) if r[0] == "is"] == []


# ------------------------------------------------------------------ lemmas of open predicates


@pytest.mark.parametrize(
    ("surface", "lemma", "tag", "mended"),
    [
        ("prepping", "preppe", "VBG", "prep"),
        ("blogging", "blogge", "VBG", "blog"),
        ("hoping", "hop", "VBG", "hope"),
        ("riding", "rid", "VBG", "ride"),
        ("taped", "tap", "VBD", "tape"),
        ("hopping", "hop", "VBG", "hop"),
        ("visiting", "visit", "VBG", "visit"),
        ("fixing", "fix", "VBG", "fix"),
        ("cooking", "cook", "VBG", "cook"),
        ("planned", "plan", "VBD", "plan"),
        ("paints", "paint", "VBZ", "paint"),
        ("roasted", "roasted", "VBD", "roast"),
        ("baked", "baked", "VBD", "bake"),
        ("zipped", "zipped", "VBD", "zip"),
        ("toasting", "toasting", "VBG", "toast"),
        ("string", "string", "VBG", "string"),
        ("bleed", "bleed", "VBP", "bleed"),
    ],
)
def test_the_small_models_lemma_slips_are_mended(surface: str, lemma: str, tag: str, mended: str) -> None:
    """Bug: open predicates "preppes", "blogges", "hops" (from "hoping"), "rids" (from "riding"),
    "roasteds" (a past form the lemmatizer left whole)."""
    assert mend_lemma(surface, lemma, tag) == mended


# ------------------------------------------------------------------ generic values


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("likes", "things"),
        ("does", "stuff"),
        ("loves", "it all"),
        ("spends", "time"),
        ("has", "fun"),
        ("learns", "a lot"),
        ("learns", "a ton"),
        ("likes", "all the things"),
        ("enjoys", "so much fun"),
    ],
)
def test_a_generic_noun_without_a_modifier_is_vague(predicate: str, value: str) -> None:
    """Bug: facts whose value is only a generic noun ("likes things", "learns a lot") say nothing."""
    assert not well_formed(fact(predicate, value), SPEAKERS)


@pytest.mark.parametrize(
    ("predicate", "value"),
    [("likes", "family time"), ("does", "garden stuff"), ("likes", "board games"), ("plans", "visit Lisbon")],
)
def test_a_generic_noun_with_a_modifier_stays(predicate: str, value: str) -> None:
    assert well_formed(fact(predicate, value), SPEAKERS)


# ------------------------------------------------------------------ light-verb idioms


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("finds", "comfort in good memories"),
        ("takes", "the lead"),
        ("takes", "step"),
        ("shows", "dedication"),
        ("lends", "hand"),
        ("makes", "great team"),
        ("raises", "ton"),
        ("faces", "kinds of hurdles"),
    ],
)
def test_a_light_verb_idiom_is_no_fact(predicate: str, value: str) -> None:
    """Bug: "I'm finding some comfort", "we make a great team", "taking the lead" became facts."""
    assert not well_formed(fact(predicate, value), SPEAKERS)


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("finds", "job at tech company"),
        ("takes", "poetry class"),
        ("makes", "apple pie"),
        ("gets", "new puppy"),
        ("raises", "money for the shelter"),
        ("attended", "yoga class"),
    ],
)
def test_a_light_verb_with_a_concrete_object_stays(predicate: str, value: str) -> None:
    assert well_formed(fact(predicate, value), SPEAKERS)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm prepping for my dance studio.", ("preps_for", "Dana's dance studio")),
        ("I've been blogging about politics.", ("blogs_about", "politics")),
        ("We roasted marshmallows.", ("roasts", "marshmallows")),
        ("I was riding my bike.", ("rides", "Dana's bike")),
    ],
)
def test_open_predicates_are_named_after_the_mended_lemma(text: str, fact: tuple[str, str]) -> None:
    """Bug: "preppes_for", "blogges_about", "roasteds", "rids": a lemma slip re-inflected."""
    assert fact in rows(text)
