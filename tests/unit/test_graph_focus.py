"""Entity-centred search (``graphmem.retrieval.focus``): the names a question is about, which
candidates hold them, and the boost."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime

import pytest

from graphmem.retrieval.focus import boost, focus_terms, held_in_rows, speaker_centred
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


def test_an_episode_is_centred_on_its_speaker_a_fact_on_what_it_states() -> None:
    """A turn that says the name is mostly the other speaker addressing them ("Wow, Caroline!"):
    not hers. Of the facts, those whose statement names her."""
    rows = [
        _episode("e1", "Caroline", "I went to a support group"),  # spoken by her
        _episode("e2", "Melanie", "Wow, Caroline, that is great"),  # says her name
        _episode("e3", "Melanie", "I went to a support group", context="Caroline said hi"),
        {"type": "fact", "id": "f1", "search_text": " ".join(analyze("Caroline attended support group"))},
        {"type": "fact", "id": "f2", "search_text": " ".join(analyze("Melanie likes pottery"))},
        {"type": "fact", "id": "f3", "search_text": None},
    ]
    held = held_in_rows(rows, focus_terms("When did Caroline go?"))
    assert held == {("episode", "e1"), ("fact", "f1")}


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
    facts = [("f1", "Caroline attended support group"), ("f2", "Melanie likes pottery")]
    idx.apply(
        "fact",
        [
            {
                "id": i,
                "search_text": " ".join(analyze(text)),
                "embedding": None,
                "subject_id": "x",
                "object_id": None,
                "status": "active",
                "expired_at": None,
                "valid_from": when,
                "valid_to": None,
                "evidence": 1,
                "recorded_at": when,
                "evidence_ids": ["e1"],
                "text": text,
                "confidence": 0.9,
                "tier": "stated",
            }
            for i, text in facts
        ],
    )
    return idx


def test_the_index_and_the_rows_centre_alike() -> None:
    """The tenant index (``pipeline._index_held``) and the Neo4j rows (``held_in_rows``) agree."""
    idx = _index()
    rows = [
        {
            "type": "episode",
            "id": "e1",
            "search_text": "carolin went support group",
            "speaker_terms": "carolin",
        },
        {"type": "episode", "id": "e2", "search_text": "melani wow carolin great", "speaker_terms": "melani"},
        {
            "type": "episode",
            "id": "e3",
            "search_text": "melani went support group",
            "speaker_terms": "melani",
        },
        {"type": "episode", "id": "e4", "search_text": "speaker", "speaker_terms": None},
        {"type": "fact", "id": "f1", "search_text": " ".join(analyze("Caroline attended support group"))},
        {"type": "fact", "id": "f2", "search_text": " ".join(analyze("Melanie likes pottery"))},
    ]
    keys = [(str(r["type"]), str(r["id"])) for r in rows] + [("episode", "gone"), ("fact", "gone")]
    for query in (
        "When did Caroline go?",
        "What did Melanie paint?",
        "Did Caroline and Melanie meet?",
        "Who?",
    ):
        terms = focus_terms(query)
        assert idx.fields.speakers is not None
        assert _index_held(idx, idx.fields.speakers, keys, terms) == held_in_rows(rows, terms), query


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


def test_a_name_no_candidate_turn_was_told_by_centres_on_no_one() -> None:
    facts_only = {("fact", "f1"), ("fact", "f2")}
    assert speaker_centred(facts_only) == set()
    assert speaker_centred(facts_only | {("episode", "e1")}) == facts_only | {("episode", "e1")}
    assert speaker_centred(set()) == set()
