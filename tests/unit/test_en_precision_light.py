"""Open facts that drop their point or name nothing in particular.

- an object moved to a deed: "I encouraged students to get involved" gave "encourages students"
  (the deed is the point); "encouraged my team with a speech" still says a deed;
- how someone looks in a picture: "Max looks so peaceful, just chilling in the backyard" is no
  deed of Max's;
- a value whose head is a vague noun with only evaluative words before it ("yummy food", "the
  top", "events", "the intense moments"); what follows a preposition still says which ("food at
  the night market");
- a plan that is a light verb with an idiom noun: "have fun", "have a blast" ("have" was spelled
  "haves" and slipped past the idiom check).
"""

from __future__ import annotations

import pytest

from graphmem.providers.extractors.rules_en_gates import family_value_ok, vague_open_value
from tests.unit.en_chat_kit import facts, rows


def _open(text: str) -> list[tuple[str, str]]:
    return [(p, v) for p, v in rows(text) if p not in ("has", "plans")]


@pytest.mark.parametrize(
    "sentence",
    [
        "I encouraged the kids to try out for the team.",
        "I asked my landlord to fix the heater.",
        "I convinced my sister to sign up for the race.",
        "We invited the neighbours to join the cleanup.",
    ],
)
def test_an_object_moved_to_a_deed_gives_no_open_fact(sentence: str) -> None:
    assert _open(sentence) == [], _open(sentence)


def test_a_deed_with_its_object_stays() -> None:
    assert any(p == "encourages" for p, _ in rows("I encouraged my team with a speech."))
    assert any(p == "finds" for p, _ in rows("I found a new gym to stay in shape."))


@pytest.mark.parametrize(
    "sentence",
    [
        "Max looks so peaceful in that photo, just chilling in the backyard.",
        "Luna seems so happy here, playing in the snow.",
    ],
)
def test_how_someone_looks_is_no_deed(sentence: str) -> None:
    assert [f for f in facts(sentence) if f.predicate not in ("has", "has_pet")] == []


@pytest.mark.parametrize(
    "value", ["yummy food", "the top", "events", "intense moments", "new adventures together"]
)
def test_vague_heads(value: str) -> None:
    assert vague_open_value(value)


@pytest.mark.parametrize("value", ["food at the night market", "vegan food", "charity events for veterans"])
def test_heads_that_say_which(value: str) -> None:
    assert not vague_open_value(value)


def test_light_idiom_plans() -> None:
    assert not family_value_ok("plans", "have fun at the fair")
    assert not family_value_ok("plans", "have a blast at the concert")
    assert family_value_ok("plans", "have a picnic with Dana's friends")
    assert rows("Can't wait to have fun at the fair!") == []


@pytest.mark.parametrize(
    ("predicate", "value", "ok"),
    [
        ("attended", "event", False),
        ("attended", "a great event", False),
        ("visited", "place", False),
        ("attended", "community event", True),
        ("attended", "event for the animal shelter", True),
        ("visited", "place in Lisbon", True),
    ],
)
def test_a_bare_event_or_place_is_no_attendance(predicate: str, value: str, ok: bool) -> None:
    assert family_value_ok(predicate, value) is ok


@pytest.mark.parametrize(
    "sentence",
    ["Glad the stuffed animal means so much!", "So happy that the old quilt means so much."],
)
def test_what_means_much_to_the_listener_is_not_the_speakers_value(sentence: str) -> None:
    assert not any(p == "values" for p, _ in rows(sentence)), rows(sentence)


def test_what_means_much_to_the_speaker_stays() -> None:
    assert ("values", "family time") in rows("Family time means a lot.")
    assert ("values", "Dana's garden") in rows("My garden means so much.")


@pytest.mark.parametrize(
    ("sentence", "predicate"),
    [
        ("We're putting together a talent show for the kids.", "puts_together"),
        ("I threw together a quick dinner.", "throws_together"),
    ],
)
def test_together_before_the_object_is_the_particle(sentence: str, predicate: str) -> None:
    assert any(p == predicate for p, _ in rows(sentence)), rows(sentence)
