"""Entity-centred search (``weights["focus"]``, ``graphmem.retrieval.focus``) ranks alike on both
candidate sources: the tenant index (its speaker codes and fact postings) and Neo4j (one read of
the candidates' texts), and on an index restored from a snapshot without speaker codes."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from graphmem.memory import GraphMemory
from graphmem.models.search import SearchRequest
from graphmem.retrieval.config import recipe
from graphmem.retrieval.focus import focus_terms
from tests.integration.test_engine_spec import VIEWS, _both, _facts, _same, _top, _turns

QUERIES = [
    "Where does Dana live?",  # Dana told the English turns
    "What did Dana adopt, a cat?",
    "Did Dana's sister Ana join Globex?",
    "What is Pixel doing?",  # a name no turn was told by: centred on no one
    "李雷住在哪里",
    "where does dana live",  # lowercase: no name by its spelling
]


@pytest.fixture(scope="module")
async def tenant(memory: GraphMemory) -> AsyncIterator[str]:
    group = f"t-focus-{uuid.uuid4().hex[:12]}"
    await memory.add_episodes(group, _turns())
    await memory.add_facts(group, _facts())
    yield group
    await memory.forget_group(group, purge_tombstones=True)


async def test_the_focus_ranks_alike_on_both_sources(memory: GraphMemory, tenant: str) -> None:
    assert await memory.warm_index(tenant)
    cfg = recipe("default").model_copy(
        update={"weights": {"bm25": 1.0, "vector": 0.85, "graph": 0.1, "focus": 2.0}}
    )
    plain = recipe("default")
    moved = 0
    for query in QUERIES:
        for view in VIEWS:
            req = SearchRequest(query=query, k=10, **view)
            indexed, direct = await _both(memory, tenant, req, cfg)
            _same(indexed, direct, f"{query!r} {view}")
            before, _ = await _both(memory, tenant, req, plain)
            moved += _top(before) != _top(indexed) or [h.score for h in before.ranked] != [
                h.score for h in indexed.ranked
            ]
            assert ("focus" in indexed.timings_ms) == bool(focus_terms(query)), query
    assert moved  # the focus is not vacuous on this tenant


async def test_an_index_without_speaker_codes_reads_neo4j(memory: GraphMemory, tenant: str) -> None:
    assert await memory.warm_index(tenant)
    cfg = recipe("default").model_copy(
        update={"weights": {"bm25": 1.0, "vector": 0.85, "graph": 0.1, "focus": 2.0}}
    )
    req = SearchRequest(query="Where does Dana live?", k=10)
    with_codes, direct = await _both(memory, tenant, req, cfg)
    indexes = memory.searcher.indexes
    assert indexes is not None
    index = indexes.entries[tenant]
    kept, index.fields.speakers = index.fields.speakers, None  # as restored from an older snapshot
    try:
        without, _ = await _both(memory, tenant, req, cfg)
    finally:
        index.fields.speakers = kept
    _same(with_codes, direct, "codes")
    _same(without, direct, "no codes")


CHAT = [
    ("user", "I bought a red road bike last week for my commute"),
    ("assistant", "A red road bike is a great choice for a commute; check the tyre pressure weekly"),
    ("user", "My sister lives in Porto and rides a bike too"),
    ("assistant", "Porto is hilly, so a bike with low gears helps; I recommended a helmet too"),
    ("user", "What helmet should I get for the bike?"),
    ("assistant", "I recommended the Kask helmet for road bikes, it is light and safe"),
]
CHAT_QUERIES = [
    "What bike did I buy?",  # first person: the user's turns
    "Which helmet did you recommend for the bike?",  # what the assistant said
    "Can you suggest a bike for my commute?",  # a request: the user's need
    "a helmet for the road bike",  # neither: no role, no name
]


@pytest.fixture(scope="module")
async def chat(memory: GraphMemory) -> AsyncIterator[str]:
    from graphmem.models import EpisodeIn
    from tests.conftest import utc

    group = f"t-role-{uuid.uuid4().hex[:12]}"
    turns = [
        EpisodeIn(
            content=text,
            speaker=role,
            session_id=f"s{i // 2}",
            external_id=f"c{i}",
            reference_time=utc(2024, 3, 1 + i, 10, 0),
        )
        for i, (role, text) in enumerate(CHAT)
    ]
    await memory.add_episodes(group, turns)
    yield group
    await memory.forget_group(group, purge_tombstones=True)


async def test_the_role_focus_ranks_alike_on_both_sources(memory: GraphMemory, chat: str) -> None:
    """``weights["role"]``: the chat role a question points at (``focus.role_terms``) raises that
    role's turns on both sources, and on an index without speaker codes."""
    from graphmem.retrieval.focus import role_terms

    assert await memory.warm_index(chat)
    base = recipe("default")
    cfg = base.model_copy(update={"weights": {**base.weights, "role": 2.0}})
    plain = base.model_copy(update={"weights": {**base.weights, "role": 0.0}})
    moved = 0
    for query in CHAT_QUERIES:
        for view in VIEWS:
            req = SearchRequest(query=query, k=10, **view)
            indexed, direct = await _both(memory, chat, req, cfg)
            _same(indexed, direct, f"{query!r} {view}")
            before, _ = await _both(memory, chat, req, plain)
            moved += [h.score for h in before.ranked] != [h.score for h in indexed.ranked]
            assert ("focus" in indexed.timings_ms) == bool(role_terms(query)), query
    assert moved
    index = memory.searcher.indexes.entries[chat]  # type: ignore[union-attr]
    kept, index.fields.speakers = index.fields.speakers, None
    try:
        req = SearchRequest(query=CHAT_QUERIES[0], k=10)
        without, direct = await _both(memory, chat, req, cfg)
    finally:
        index.fields.speakers = kept
    _same(without, direct, "no codes")
