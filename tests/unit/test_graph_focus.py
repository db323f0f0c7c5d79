"""Entity-centred search (``graphmem.retrieval.focus``): the names a question is about, which
candidates hold them, and the boost."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime

import pytest

from graphmem.retrieval.focus import boost, focus_terms, held_in_rows, role_terms
from graphmem.retrieval.pipeline import _index_held
from graphmem.retrieval.tenant_index.fields import EpisodeFields, Speakers
from graphmem.retrieval.tenant_index.index import TenantIndex
from graphmem.text import analyze


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("When did Caroline go to the LGBTQ support group?", ["Caroline"]),
        ("What is Caroline's identity?", ["Caroline"]),
        ("Caroline's dog is called what?", ["Caroline"]),  # first word, with a possessive
        ("Caroline went where?", []),  # a first word alone is any sentence's capital
        ("What did Mel and her kids make?", ["Mel"]),
        ("What did Melanie and Caroline paint?", ["Melanie", "Caroline"]),
        ("Did Jon meet Gina? Then Gina left.", ["Jon", "Gina"]),  # each name once
        ("When did I go to the LGBTQ meeting?", []),  # acronyms and I are no names
        ("where does dana live", []),  # lowercase: no evidence of a name
        ("李雷住在哪里", []),
        ("", []),
    ],
)
def test_focus_terms_are_the_names_by_spelling(query: str, names: list[str]) -> None:
    assert list(focus_terms(query)) == [t for n in names for t in analyze(n)]


@pytest.mark.parametrize(
    ("query", "roles"),
    [
        ("How many bikes do I own?", ["human", "user"]),  # first person: the user's turns
        ("Can you recommend a hotel for my trip?", ["human", "user"]),  # a request: the user's need
        ("What did you recommend for my bar?", ["ai", "assistant", "bot"]),  # what the other side said
        ("Remind me of the brand you mentioned.", ["ai", "assistant", "bot"]),
        ("What is the capital of France?", []),  # neither
        ("When did Caroline go to the support group?", []),  # third person: no role
    ],
)
def test_role_terms_are_the_role_a_question_points_at(query: str, roles: list[str]) -> None:
    assert list(role_terms(query)) == [t for r in roles for t in analyze(r)]


def test_role_terms_hold_the_turns_of_that_role_only() -> None:
    rows = [
        _episode("u1", "user", "I bought a red bike"),
        _episode("a1", "assistant", "Red bikes are popular with users"),  # says "user", told by the assistant
        _episode("p1", "Caroline", "I bought a bike"),  # a person's name: no role
    ]
    assert held_in_rows(rows, role_terms("What bike did I buy?")) == {("episode", "u1")}
    assert held_in_rows(rows, role_terms("Which bike did you recommend?")) == {("episode", "a1")}


def _episode(i: str, speaker: str, own: str, context: str = "") -> dict[str, str]:
    speaker_terms, terms = " ".join(analyze(speaker)), " ".join(analyze(own))
    search_text = " ".join(x for x in (speaker_terms, terms, " ".join(analyze(context))) if x)
    return {
        "type": "episode",
        "id": i,
        "search_text": search_text,
        "speaker_terms": speaker_terms,
        "terms": terms,
    }


def test_an_episode_is_centred_on_its_speaker_not_on_a_name_it_says() -> None:
    """A turn that says the name is mostly the other speaker addressing them ("Wow, Caroline!")."""
    rows = [
        _episode("e1", "Caroline", "I went to a support group"),  # spoken by her
        _episode("e2", "Melanie", "Wow, Caroline, that is great"),  # says her name
        _episode("e3", "Melanie", "I went to a support group", context="Caroline said hi"),
    ]
    assert held_in_rows(rows, focus_terms("When did Caroline go?")) == {("episode", "e1")}
    assert held_in_rows(rows, focus_terms("Did Caroline meet Melanie?")) == {
        ("episode", "e1"),
        ("episode", "e2"),
        ("episode", "e3"),
    }
    assert held_in_rows(rows, focus_terms("What is Netflix?")) == set()


def test_an_episode_without_a_speaker_is_centred_on_no_one() -> None:
    row = {"type": "episode", "id": "e", "search_text": "carolin hello", "speaker_terms": None, "terms": None}
    assert held_in_rows([row], ["carolin"]) == set()


def test_speakers_keep_a_code_per_slot() -> None:
    sp = Speakers()
    sp.put(3, "carolin")
    sp.put(0, "melani")
    sp.put(200, "carolin")
    sp.put(3, "melani")  # a rewrite
    sp.put(5, None)
    assert [sp.get(i) for i in (0, 1, 3, 5, 200, 10_000)] == ["melani", "", "melani", "", "carolin", ""]
    assert {sp.names[c] for c in sp.holding({"carolin", "x"})} == {"carolin"}
    assert sp.holding({""}) == set() and sp.nbytes() > 0


def _index() -> TenantIndex:
    rows = [
        _episode("e1", "Caroline", "I went to a support group"),
        _episode("e2", "Melanie", "Wow, Caroline, that is great"),
        _episode("e3", "Melanie", "I went to a support group", context="Caroline said hi"),
        {**_episode("e4", "", "no speaker here"), "speaker_terms": None},
    ]
    idx = TenantIndex("g", 8)
    when = datetime(2024, 1, 1, tzinfo=UTC)
    idx.apply("episode", [{**r, "embedding": None, "reference_time": when, "mentions": []} for r in rows])
    return idx


def test_the_index_and_the_rows_centre_alike() -> None:
    """The tenant index (``pipeline._index_held``) and the Neo4j rows (``held_in_rows``) agree."""
    idx = _index()
    rows = [
        {"id": "e1", "speaker_terms": "carolin"},
        {"id": "e2", "speaker_terms": "melani"},
        {"id": "e3", "speaker_terms": "melani"},
        {"id": "e4", "speaker_terms": None},
    ]
    ids = [str(r["id"]) for r in rows] + ["gone"]
    queries = (
        "When did Caroline go?",
        "What did Melanie paint?",
        "Did Caroline and Melanie meet?",
        "Who?",
        "",
    )
    for query in queries:
        terms = focus_terms(query)
        assert idx.fields.speakers is not None
        assert _index_held(idx, idx.fields.speakers, ids, (terms,))[0] == held_in_rows(rows, terms), query


def test_a_snapshot_from_before_speakers_has_none() -> None:
    """An index restored from a snapshot written without speakers says so (the focus then reads
    Neo4j); one pickled with them keeps them."""
    idx = _index()
    restored = pickle.loads(pickle.dumps(idx.fields))
    assert restored.speakers is not None and restored.speakers.get(0) == "carolin"
    state = idx.fields.__getstate__()
    del state["speakers"]
    old = EpisodeFields.__new__(EpisodeFields)
    old.__setstate__(state)
    assert old.speakers is None
    old.set_episode(9, "e9", {"search_text": "x", "speaker_terms": "x", "terms": "x"})  # writes still work


def test_the_boost_raises_the_held_and_keeps_the_rest_in_order() -> None:
    fused = {("episode", "a"): 0.9, ("episode", "b"): 0.6, ("episode", "c"): 0.5, ("fact", "d"): 0.4}
    out = boost(fused, {("episode", "c"), ("fact", "d")}, 1.0)
    assert out[("episode", "a")] == fused[("episode", "a")]
    assert out[("episode", "b")] == fused[("episode", "b")]
    assert out[("episode", "c")] > out[("episode", "b")]
    assert out[("fact", "d")] > fused[("fact", "d")]
    assert all(0.0 < v < 1.0 for v in out.values())
    assert boost(fused, {("episode", "c")}, 0.0) == fused
    assert boost(fused, set(), 2.0) == fused


def test_the_boost_is_a_logit_shift() -> None:
    import math

    p = 0.3
    (out,) = boost({("episode", "x"): p}, {("episode", "x")}, 0.7).values()
    assert math.log(out / (1 - out)) == pytest.approx(math.log(p / (1 - p)) + 0.7)
