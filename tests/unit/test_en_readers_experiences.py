"""Experiences told in the past (``had``, ``got``) and how the speaker feels now (``feels``), read by
``rules_en_readers_experiences``. Phrasings written for these tests; none taken from a dataset.
Refused: questions, negations, hypotheticals, "had to", a chance or a good time (other readers'),
"I've got" (possession), a thing got for someone else, a past or conditional feeling, "feel like"."""

from __future__ import annotations

import pytest

from tests.unit.en_chat_kit import rows


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Last month I had a setback at work.", "setback at work"),
        ("I had a scary accident on the highway.", "scary accident on the highway"),
        ("We had our first argument in years.", "Dana's first argument"),
        ("I had a mentor when I started out.", "mentor"),
        ("Yesterday I had a flat tire on the way home.", "flat tire"),
        ("I've had a few offers from recruiters.", "offers"),
    ],
)
def test_what_the_speaker_had(text: str, value: str) -> None:
    assert ("had", value) in rows(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I got a scholarship extension.", "scholarship extension"),
        ("Last week I got a second opinion from a specialist.", "second opinion from a specialist"),
        ("I got some great feedback from the editor.", "great feedback from the editor"),
        ("I got a sponsorship with a local brewery!", "sponsorship with a local brewery"),
    ],
)
def test_what_the_speaker_got(text: str, value: str) -> None:
    assert ("got", value) in rows(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've been feeling pretty low on energy.", "low on energy"),
        ("I'm feeling hopeful about the interview.", "hopeful about interview"),
        ("I've been feeling nervous about the move.", "nervous about move"),
    ],
)
def test_how_the_speaker_feels(text: str, value: str) -> None:
    assert ("feels", value) in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "Did you have a setback?",  # a question
        "I didn't have an accident, thankfully.",  # negated
        "If I had a mentor, things would be easier.",  # hypothetical
        "I had to cancel the trip.",  # had to: a deed, read elsewhere
        "I had a chance to rest.",  # the deed reader's
        "We had a blast at the fair.",  # the outing reader's
        "I've got a new sofa.",  # possession, not a getting
        "I got them a new toy.",  # got for someone else
        "I got it yesterday.",  # a pronoun
        "I got the news this morning.",  # no thing got
    ],
)
def test_refused_experiences(text: str) -> None:
    assert not any(p in ("had", "got") for p, _ in rows(text))


@pytest.mark.parametrize(
    "text",
    [
        "I'm feeling motivated these days.",  # a bare mood of the moment
        "I feel so blessed.",
        "Lately I've been feeling overwhelmed.",
        "I felt so motivated after the talk.",  # past: no feeling now
        "I would feel overwhelmed there.",  # conditional
        "I don't feel motivated at all.",  # negated
        "I feel like a walk.",  # feel like
        "Are you feeling hopeful?",  # a question
    ],
)
def test_refused_feelings_now(text: str) -> None:
    assert not any(p == "feels" for p, _ in rows(text))
