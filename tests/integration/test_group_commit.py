"""Group commit (issue 17, item 2): concurrent writes to one group share one transaction, and each
caller still gets its own result, or its own error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import numpy as np
import pytest

from graphmem.errors import IdempotencyConflict
from graphmem.memory import GraphMemory
from graphmem.memory.write_gate import WriteGate
from graphmem.models import EpisodeIn
from graphmem.models.episode import IngestResult
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from tests.conftest import utc


@pytest.fixture
async def gated(store: Store, embedder: MiniLMOnnxEmbedder, group: str) -> AsyncIterator[GraphMemory]:
    """A memory with a gate of its own, so the test counts only its own transactions."""
    mem = await GraphMemory.open(
        store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False, write_gate=WriteGate()
    )
    yield mem
    await mem.forget_group(group, purge_tombstones=True)


def _turn(i: int, content: str | None = None) -> EpisodeIn:
    return EpisodeIn(
        content=content or f"I work at Company{i}.",
        speaker=f"writer{i}",
        session_id=f"s{i % 3}",
        external_id=f"w-{i}",
        reference_time=utc(2024, 5, 1, 10, i),
    )


async def test_concurrent_adds_to_one_group_get_their_own_results_in_fewer_transactions(
    gated: GraphMemory, group: str
) -> None:
    n = 8
    results = await asyncio.gather(*(gated.add_episode(group, _turn(i)) for i in range(n)))
    assert [[o.external_id for o in r.episodes] for r in results] == [[f"w-{i}"] for i in range(n)]
    assert all(r.episodes[0].status == "created" and r.episodes[0].id for r in results)
    assert len({r.episodes[0].id for r in results}) == n
    for i, r in enumerate(results):  # each caller's facts are its own episode's
        assert [c.statement for c in r.facts] == [f"writer{i} works at Company{i}"]
    stats = gated.ctx.write_gate.stats
    assert stats.writes == n and stats.transactions < n and stats.fallbacks == 0
    for r in results:
        record, _ = await gated.get_episode(group, r.episodes[0].id)
        assert record.external_id == r.episodes[0].external_id
    assert (await gated.list_groups([group]))[0].episodes == n


async def test_a_write_that_fails_inside_a_group_commit_fails_alone(gated: GraphMemory, group: str) -> None:
    """Two concurrent writers reuse one external_id with other content: both pass the check before
    the lock (nothing is stored yet), meet in one combined transaction, and the second one's
    conflict fails it. Retried one by one, the first and every other writer are written; only the
    second gets the conflict."""
    turns = [_turn(i) for i in range(6)] + [_turn(2, "I work somewhere else entirely.")]
    outcomes = await asyncio.gather(*(gated.add_episode(group, t) for t in turns), return_exceptions=True)
    failed = [i for i, o in enumerate(outcomes) if isinstance(o, BaseException)]
    assert len(failed) == 1 and failed[0] in (2, 6)  # whichever of the two came second
    assert isinstance(outcomes[failed[0]], IdempotencyConflict)
    written = [o for o in outcomes if isinstance(o, IngestResult)]
    assert sorted(r.episodes[0].external_id or "" for r in written) == [f"w-{i}" for i in range(6)]
    assert all(r.episodes[0].status == "created" for r in written)
    assert (await gated.list_groups([group]))[0].episodes == 6
    assert gated.ctx.write_gate.stats.fallbacks >= 1 or gated.ctx.write_gate.stats.transactions == 7


class LockWatchingEmbedder:
    """The real embedder, noting for each call whether a group's write lock was held meanwhile."""

    def __init__(self, inner: MiniLMOnnxEmbedder, gate: WriteGate) -> None:
        self.inner, self.gate = inner, gate
        self.model_name, self.dimension = inner.model_name, inner.dimension
        self.under_lock: list[list[str]] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        if any(lock.locked() for lock in self.gate._locks.values()):
            self.under_lock.append(texts)
        return self.inner.embed(texts)


@pytest.mark.parametrize("ahead", [True, False])
async def test_new_names_and_statements_are_embedded_before_the_group_lock(
    store: Store, embedder: MiniLMOnnxEmbedder, group: str, ahead: bool
) -> None:
    """Regression (load issue, item 2): a write embedded the names of new entities and the
    statements of new facts inside its transaction, holding the group's lock (and so every other
    writer of the group) for the model's time. They are embedded before the lock; the stored
    vectors are the same either way."""
    gate = WriteGate()
    watching = LockWatchingEmbedder(embedder, gate)
    mem = await GraphMemory.open(
        store=store,
        embedder=watching,
        extractor=RulesExtractor(),
        migrate=False,
        write_gate=gate,
        write_embed_ahead=ahead,
    )
    try:
        result = await mem.add_episodes(group, [_turn(1), _turn(2, "I moved to Lisbon.")])
        assert sorted(c.statement for c in result.facts) == [
            "writer1 works at Company1",
            "writer2 lives in Lisbon",
        ]
        assert (watching.under_lock == []) is ahead
        stored = await store.read(
            "MATCH (f:Fact {group_id: $g}) RETURN f.statement AS s, f.embedding AS e", g=group
        )
        assert len(stored) == 2
        for row in stored:
            assert np.allclose(row["e"], embedder.embed([row["s"]])[0], atol=1e-5)
    finally:
        await mem.forget_group(group, purge_tombstones=True)


def _graph_query() -> str:
    return """
MATCH (n {group_id: $g})
WHERE n:Episode OR n:Fact OR n:Entity
OPTIONAL MATCH (n)-[r]->(m)
WITH n, collect([type(r), coalesce(m.external_id, m.statement, m.normalized_name)]) AS out
RETURN labels(n) AS labels, n.external_id AS external_id, n.statement AS statement,
       n.normalized_name AS name, n.search_text AS search_text, n.valid_from AS valid_from,
       n.valid_to AS valid_to, n.expired_at AS expired_at, n.version AS version,
       n.claims IS NOT NULL AS has_claims, out
"""


async def _graph(store: Store, group: str) -> list[str]:
    rows = await store.read(_graph_query(), g=group)
    return sorted(repr({**r, "out": sorted(map(repr, r["out"]))}) for r in rows)


async def test_span_groups_writes_the_same_graph_as_writing_one_by_one(
    store: Store, embedder: MiniLMOnnxEmbedder, group: str
) -> None:
    """``WriteGate(span_groups=True)``: writes to three groups at once (each group's in order)
    share transactions and leave the same nodes, edges, properties and supersession in each group
    as the same writes made one at a time (a move in each group supersedes the earlier home).
    Within a group the order is the caller's: concurrent writes to one group arrive in the order
    their preparation ends, and a fact's ``version`` counts the writes that touched it."""
    turns = [
        _turn(0, "I live in Paris."),
        _turn(1, "I work at Acme."),
        EpisodeIn(
            content="I moved to Berlin.",
            speaker="writer0",
            session_id="s0",
            external_id="w-move",
            reference_time=utc(2024, 6, 1),
        ),
        _turn(3, "I like jazz."),
    ]
    names = ["a", "b", "c"]
    alone = await GraphMemory.open(
        store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False, write_gate=WriteGate()
    )
    spanning = await GraphMemory.open(
        store=store,
        embedder=embedder,
        extractor=RulesExtractor(),
        migrate=False,
        write_gate=WriteGate(span_groups=True),
    )
    try:
        for n in names:
            for t in turns:
                await alone.add_episode(f"{group}-one-{n}", t)

        async def in_order(name: str) -> None:  # one group's writes in order, the groups at once
            for t in turns:
                await spanning.add_episode(name, t)

        await asyncio.gather(*(in_order(f"{group}-span-{n}") for n in names))
        stats = spanning.ctx.write_gate.stats
        assert stats.writes == len(turns) * len(names) and stats.transactions < stats.writes
        for n in names:
            one, span = await _graph(store, f"{group}-one-{n}"), await _graph(store, f"{group}-span-{n}")
            assert one == span and len(one) > len(turns)
            assert any("SUPERSEDES" in row for row in span)
    finally:
        for n in names:
            await alone.forget_group(f"{group}-one-{n}", purge_tombstones=True)
            await alone.forget_group(f"{group}-span-{n}", purge_tombstones=True)
