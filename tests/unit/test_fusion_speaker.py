"""The speaker a question points at (intent.named_speakers) and its boost in the rerank (pure)."""

from __future__ import annotations

from graphmem.retrieval.config import SearchConfig
from graphmem.retrieval.fusion import Features, rerank
from graphmem.retrieval.intent import named_speakers

ROLES = frozenset({"user", "assistant"})
PEOPLE = frozenset({"caroline", "melanie"})


def test_a_name_the_question_says_points_at_that_speaker() -> None:
    assert named_speakers("What did Caroline research?", PEOPLE) == {"caroline"}
    assert named_speakers("When did Melanie paint a sunrise?", PEOPLE) == {"melanie"}
    assert named_speakers("Caroline Smith's plans?", frozenset({"caroline smith", "mel"})) == {
        "caroline smith"
    }


def test_every_speaker_or_none_named_points_at_none() -> None:
    assert named_speakers("What do Caroline and Melanie both like?", PEOPLE) == frozenset()
    assert named_speakers("What was discussed last week?", PEOPLE) == frozenset()


def test_chat_roles_the_assistant_when_asked_what_you_said_else_the_user() -> None:
    assert named_speakers("Can you remind me what you recommended for my bar?", ROLES) == {"assistant"}
    assert named_speakers("I remember you told me about CITGO. What was it?", ROLES) == {"assistant"}
    assert named_speakers("What was your suggestion for the trip?", ROLES) == {"assistant"}
    assert named_speakers("How many bikes do I own?", ROLES) == {"user"}
    assert named_speakers("What is the capital of France?", ROLES) == frozenset()
    assert named_speakers("What did you say?", frozenset({"user"})) == frozenset()  # no assistant here


def test_a_request_for_something_new_is_the_users_need_not_what_you_said() -> None:
    """ "Can you recommend a hotel?" asks nothing of the past: the user's own preferences answer it;
    what the other side said before is asked in the past tense, of "our conversation", or with
    "remind me"."""
    assert named_speakers("Can you recommend a show for me to watch tonight?", ROLES) == {"user"}
    assert named_speakers("Can you suggest a hotel for my trip to Miami?", ROLES) == {"user"}
    assert named_speakers("Could you give me some tips for my new guitar?", ROLES) == {"user"}
    assert named_speakers("What did you recommend for my bar?", ROLES) == {"assistant"}
    assert named_speakers("How long did you say I should leave it on?", ROLES) == {"assistant"}
    assert named_speakers("In our previous conversation about Borges, what was the centre?", ROLES) == {
        "assistant"
    }
    assert named_speakers("Can you remind me of the company that employs 40,000 people?", ROLES) == {
        "assistant"
    }
    assert named_speakers("What was the move you made after Kg2?", ROLES) == {"assistant"}
    assert named_speakers("What did I tell you about my sister?", ROLES) == {"user"}


def test_the_rerank_lifts_the_named_speakers_turn_by_speaker_weight() -> None:
    a, b = ("episode", "a"), ("episode", "b")
    features = {
        a: Features(1.0, 0.0, False, "the blue bike", speaker="assistant"),
        b: Features(1.0, 0.0, False, "my red car", speaker="user"),
    }
    fused = {a: 0.60, b: 0.55}
    off = SearchConfig()
    on = SearchConfig(speaker_weight=0.2)
    assert rerank([a, b], fused, features, off, newest=1.0, limit=2, speakers=frozenset({"user"}))[0] == [
        a,
        b,
    ]
    assert rerank([a, b], fused, features, on, newest=1.0, limit=2)[0] == [a, b]  # nobody named
    assert rerank([a, b], fused, features, on, newest=1.0, limit=2, speakers=frozenset({"user"}))[0] == [b, a]


def test_short_texts_take_no_part_in_the_newer_preference() -> None:
    """Two short chat lines share a quarter of their words by chance; the newer-telling lift
    reads texts of at least ``min_words`` distinct words only."""
    from graphmem.retrieval.fusion import prefer_newer, tokens

    old, new = ("episode", "old"), ("episode", "new")
    features = {
        old: Features(0.0, 0.0, False, "yeah so that was fun"),
        new: Features(2 * 86400.0, 0.0, False, "yeah so that was great"),
    }
    toks = {k: tokens(f.text) for k, f in features.items()}
    scores = {old: 0.8, new: 0.5}
    assert prefer_newer(scores, features, toks, 0.25)[new] > 0.8  # lifted above the older line
    assert prefer_newer(scores, features, toks, 0.25, min_words=15)[new] == 0.5  # too short to say
