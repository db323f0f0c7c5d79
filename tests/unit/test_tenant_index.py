"""The tenant index's pure parts: BM25 postings, vectors (exact and HNSW), time views, graph."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from graphmem.retrieval.bm25 import rescore
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.lexical import Lexical
from graphmem.retrieval.tenant_index.vectors import Vectors

DIM = 8
T = [datetime(2024, m, 1, tzinfo=UTC) for m in range(1, 13)]


def unit(i: int, dim: int = DIM) -> list[float]:
    v = [0.0] * dim
    v[i % dim] = 1.0
    return v


def episode(i: str, text: str, when: datetime, mentions: list[str] | None = None) -> dict:
    return {
        "id": i,
        "search_text": text,
        "embedding": None,
        "reference_time": when,
        "mentions": mentions or [],
    }


def fact(i: str, text: str, subject: str, obj: str | None = None, **kw: object) -> dict:
    row = {
        "id": i,
        "search_text": text,
        "embedding": None,
        "subject_id": subject,
        "object_id": obj,
        "status": "active",
        "expired_at": None,
        "valid_from": None,
        "valid_to": None,
        "evidence": 1,
    }
    row.update(kw)
    return row


def test_bm25_ranks_like_okapi_with_tenant_statistics() -> None:
    lex = Lexical()
    docs = {0: "alic live pari", 1: "bob live berlin berlin", 2: "alic work berlin"}
    for slot, text in docs.items():
        lex.set(slot, text)
    scores = lex.scores(["berlin", "live"])
    assert scores[1] > scores[2] > 0 and scores[0] > 0
    # same ordering as the reference implementation over the same documents and statistics
    df = {"berlin": 2, "live": 2}
    ref = [d for d, _ in rescore(["berlin", "live"], {str(k): v for k, v in docs.items()}, df, 3)]
    assert [str(i) for i in np.argsort(-scores)] == ref


def test_bm25_rewrite_replaces_a_documents_terms() -> None:
    lex = Lexical()
    lex.set(0, "old word")
    lex.set(1, "other text")
    assert lex.scores(["old"])[0] > 0
    lex.set(0, "new word")
    assert lex.scores(["old"])[0] == 0 and lex.scores(["new"])[0] > 0
    assert lex.total_length == 4


@pytest.mark.parametrize("threshold", [10_000, 20])
def test_vectors_exact_and_hnsw_find_the_nearest(threshold: int) -> None:
    rng = np.random.default_rng(3)
    vecs = Vectors(32, ann_threshold=threshold)
    data = rng.standard_normal((300, 32)).astype(np.float32)
    vecs.set_many(list(range(300)), data.tolist())
    vecs.ensure_ann()
    assert bool(vecs.hnsw) == (threshold < 300)
    q = data[42] / np.linalg.norm(data[42])
    hits = vecs.search(q, 5, None)
    assert hits[0][0] == 42 and hits[0][1] == pytest.approx(1.0, abs=1e-2)
    mask = np.ones(300, dtype=bool)
    mask[42] = False
    assert 42 not in [s for s, _ in vecs.search(q, 5, mask)]
    # a selective filter is scored exactly over what it keeps
    only = np.zeros(300, dtype=bool)
    only[[7, 9]] = True
    assert sorted(s for s, _ in vecs.search(q, 5, only)) == [7, 9]


def test_vectors_added_after_the_hnsw_build_are_found() -> None:
    vecs = Vectors(DIM, ann_threshold=2)
    for slot in range(4):
        vecs.set_many([slot], [unit(slot)])
    vecs.ensure_ann()
    vecs.set_many([4], [[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]])
    q = np.asarray([0, 0, 0, 0, 0, 1, 1, 0], dtype=np.float32) / np.sqrt(2)
    assert vecs.search(q, 1, None)[0][0] == 4


def test_fact_views_follow_the_cypher_visibility_rules() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply(
        "fact",
        [
            fact("current", "live pari", "alice", valid_from=T[5]),
            fact("ended", "live berlin", "alice", valid_from=T[0], valid_to=T[5], status="superseded"),
            fact("retracted", "live rome", "alice", expired_at=T[6]),
        ],
    )
    now = [i for i, _ in idx.bm25("fact", ["live"], 10, View())]
    assert now == ["current"]
    then = [i for i, _ in idx.bm25("fact", ["live"], 10, View(as_of=T[2], history=False))]
    assert then == []  # the ended fact is superseded: out of the default view even as of its time
    history = {i for i, _ in idx.bm25("fact", ["live"], 10, View(history=True))}
    assert history == {"current", "ended"}


def test_fact_as_of_uses_valid_time_for_active_facts() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply("fact", [fact("old", "work acm", "bob", valid_from=T[0], valid_to=T[4])])
    assert [i for i, _ in idx.bm25("fact", ["work"], 5, View(as_of=T[2]))] == ["old"]
    assert idx.bm25("fact", ["work"], 5, View(as_of=T[6])) == []
    assert idx.bm25("fact", ["work"], 5, View()) == []


def test_episode_as_of_and_rewrites() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply("episode", [episode("e1", "trip denver", T[1]), episode("e2", "trip boston", T[8])])
    assert {i for i, _ in idx.bm25("episode", ["trip"], 5, View())} == {"e1", "e2"}
    assert [i for i, _ in idx.bm25("episode", ["trip"], 5, View(as_of=T[3]))] == ["e1"]
    idx.apply("episode", [episode("e1", "hike denver", T[1])])  # a rewrite keeps the slot
    assert [i for i, _ in idx.bm25("episode", ["trip"], 5, View())] == ["e2"]
    assert len(idx.targets["episode"].slots) == 2


def test_graph_expands_one_and_two_hops() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply(
        "fact",
        [
            fact("f1", "alice work acme", "alice", "acme", evidence=2),
            fact("f2", "acme locat berlin", "acme", "berlin"),
            fact("f3", "bob like tea", "bob"),
            fact("gone", "acme old", "acme", status="superseded", valid_to=T[1]),
        ],
    )
    hits = idx.graph("fact", ["alice"], 10, View())
    ids = [i for i, _ in hits]
    assert ids == ["f1", "f2"]  # 1 hop first, then 2 hops; nothing about bob; nothing superseded
    assert hits[0][1] == pytest.approx(1.0 * (1 + np.log(3)) * 1.1)
    assert idx.graph("fact", ["nobody"], 10, View()) == []


def test_graph_episodes_by_seeds_mentioned() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply(
        "episode",
        [
            episode("a", "x", T[1], ["alice"]),
            episode("b", "y", T[2], ["alice", "bob"]),
            episode("c", "z", T[3], ["carol"]),
        ],
    )
    assert [i for i, _ in idx.graph("episode", ["alice", "bob"], 5, View())] == ["b", "a"]
    assert [i for i, _ in idx.graph("episode", ["alice"], 5, View(as_of=T[1]))] == ["a"]


def test_entities_match_names_and_vectors() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply(
        "entity",
        [
            {"id": "x1", "search_text": "alic smith", "embedding": unit(1)},
            {"id": "x2", "search_text": "bob", "embedding": unit(2)},
        ],
    )
    assert [i for i, _ in idx.bm25("entity", ["alic"], 3, View())] == ["x1"]
    q = np.asarray(unit(2), dtype=np.float32)
    assert idx.vector("entity", q, 1, View())[0][0] == "x2"


def test_an_index_reloads_after_deletions_or_a_recreated_group() -> None:
    from graphmem.retrieval.tenant_index.registry import _reset
    from graphmem.store.snapshot import GroupState

    idx = TenantIndex("g", DIM, seq=10, created_at=T[0])

    def state(seq: int, reset: int = 0, created: datetime = T[0]) -> GroupState:
        return GroupState(seq=seq, reset_seq=reset, created_at=created, episodes=1, facts=1, entities=1)

    assert not _reset(idx, state(12))  # writes since: catch up
    assert not _reset(idx, state(12, reset=9))  # a deletion the index has already seen
    assert _reset(idx, state(12, reset=11))  # a deletion since
    assert _reset(idx, state(3))  # the group was deleted and written again
    assert _reset(idx, state(12, created=T[1]))


def test_cached_masks_and_vector_subsets_follow_every_apply() -> None:
    """Masks and the exact-scoring copy of a selective view's vectors are kept between searches;
    any apply (a supersession, a new vector) invalidates them."""
    idx = TenantIndex("g", DIM)
    rows = [fact(f"f{i}", "note", "alice", embedding=unit(i), status="superseded") for i in range(8)]
    rows[3] = fact("f3", "note", "alice", embedding=unit(3))
    idx.apply("fact", rows)
    assert [i for i, _ in idx.vector("fact", np.asarray(unit(3), np.float32), 1, View())] == ["f3"]
    assert idx.mask("fact", View()) is idx.mask("fact", View())  # the same array, not recomputed
    idx.apply("fact", [fact("f3", "note", "alice", embedding=unit(3), status="superseded")])
    idx.apply("fact", [fact("f5", "note", "alice", embedding=unit(5))])
    found = idx.vector("fact", np.asarray(unit(3), np.float32), 1, View())
    assert [i for i, _ in found] == ["f5"]  # f3 left the view; f5 entered it with its vector
    idx.apply("fact", [fact("f5", "note", "alice", embedding=unit(3))])  # f5's vector changed
    assert idx.vector("fact", np.asarray(unit(3), np.float32), 1, View())[0][1] == pytest.approx(1.0)


def test_features_are_what_the_rerank_reads() -> None:
    idx = TenantIndex("g", DIM)
    idx.apply("episode", [{**episode("e1", "rain", T[2]), "text": "It rained"}])
    idx.apply(
        "fact",
        [
            {
                **fact("a", "live pari", "alice", valid_from=T[5]),
                "text": "Alice lives in Paris",
                "confidence": 0.7,
            },
            {
                **fact("b", "live rome", "alice", recorded_at=T[1], tier="inferred"),
                "text": "Alice lives in Rome",
            },
        ],
    )
    feats = idx.features([("fact", "a"), ("fact", "b"), ("episode", "e1"), ("fact", "missing")])
    assert feats[("fact", "a")].when == T[5].timestamp() and feats[("fact", "a")].confidence == 0.7
    assert feats[("fact", "b")].when == T[1].timestamp() and feats[("fact", "b")].inferred
    assert feats[("fact", "b")].confidence == 1.0 and feats[("fact", "b")].text == "Alice lives in Rome"
    assert feats[("episode", "e1")].when == T[2].timestamp() and feats[("episode", "e1")].text == "It rained"
    assert ("fact", "missing") not in feats


def test_current_and_past_facts_have_their_own_hnsw_graphs() -> None:
    """Superseded facts sit next to their successors in vector space: the default view searches a
    graph of current facts alone; history searches both; a supersession moves a fact across."""
    rng = np.random.default_rng(5)
    base = rng.standard_normal((40, DIM)).astype(np.float32)
    idx = TenantIndex("g", DIM, ann_threshold=8)
    rows = [fact(f"c{i}", "note", "alice", embedding=base[i].tolist()) for i in range(20)]
    rows += [
        fact(
            f"p{i}", "note", "alice", embedding=(base[i] + 0.01).tolist(), status="superseded", valid_to=T[1]
        )
        for i in range(20)
    ]
    idx.apply("fact", rows)
    idx.finish()
    vectors = idx.targets["fact"].vectors
    assert sorted(vectors.hnsw) == [0, 1] and len(vectors.hnsw[0]) == len(vectors.hnsw[1]) == 20
    q = base[3] / np.linalg.norm(base[3])
    now = [i for i, _ in idx.vector("fact", q, 5, View())]
    assert now[0] == "c3" and all(i.startswith("c") for i in now)
    history = [i for i, _ in idx.vector("fact", q, 2, View(history=True))]
    assert set(history) == {"c3", "p3"}
    # c3 is superseded now: it leaves the current graph at the next search
    idx.apply(
        "fact", [fact("c3", "note", "alice", embedding=base[3].tolist(), status="superseded", valid_to=T[2])]
    )
    assert "c3" not in [i for i, _ in idx.vector("fact", q, 5, View())]
    assert len(vectors.hnsw[0]) == 19 and len(vectors.hnsw[1]) == 21
    assert {i for i, _ in idx.vector("fact", q, 2, View(history=True))} == {"c3", "p3"}
