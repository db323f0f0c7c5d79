"""graphmem.client against the real API (a uvicorn process on loopback over the real Neo4j).

Both clients round-trip the project's models; errors arrive typed; a write whose answer is lost
is retried without a duplicate when it carries external ids, and not retried when it does not.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest

from graphmem.client import AsyncGraphMemClient, GraphMemClient, RetryPolicy
from graphmem.config import Settings
from graphmem.errors import Conflict, Forbidden, InvalidInput, NotFound, Unauthorized
from graphmem.models.episode import EpisodeIn
from graphmem.models.search import SearchRequest
from tests.api.conftest import KEYS, key_config
from tests.api.servers import Server, start_server

pytestmark = pytest.mark.slow

CONVERSATION = [
    EpisodeIn(
        content="I live in Berlin. I work at Acme.",
        reference_time="2024-01-10T09:00:00Z",  # type: ignore[arg-type]
        speaker="Alice",
        session_id="c1",
        external_id="c-1",
    ),
    {
        "content": "I moved to Paris.",
        "reference_time": "2024-06-01T09:00:00Z",
        "speaker": "Alice",
        "session_id": "c1",
        "external_id": "c-2",
    },
]


@dataclass
class Keyed:
    server: Server
    group_a: str
    group_b: str


@pytest.fixture(scope="module")
def keyed(settings: Settings) -> Iterator[Keyed]:
    assert settings.neo4j_uri
    group_a, group_b = f"ca-{uuid.uuid4().hex[:10]}", f"cb-{uuid.uuid4().hex[:10]}"
    server = start_server(settings.neo4j_uri, {"GRAPHMEM_API_KEYS": key_config(group_a, group_b)})
    yield Keyed(server, group_a, group_b)
    with GraphMemClient(server.url, api_key=KEYS["admin"]) as admin:
        for group in (group_a, group_b):
            admin.forget_group(group, purge_tombstones=True)
    server.stop()


class LoseFirstAnswer(httpx.HTTPTransport):
    """Delivers every request, but the first POST's answer is 'lost' (a read timeout after the
    server committed): what a client timeout on a successful write looks like."""

    def __init__(self) -> None:
        super().__init__()
        self.posts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.method == "POST":
            self.posts += 1
            if self.posts == 1:
                response.read()
                raise httpx.ReadTimeout("answer lost", request=request)
        return response


def test_the_sync_client_round_trips_the_models(keyed: Keyed) -> None:
    group = keyed.group_a
    with GraphMemClient(keyed.server.url, api_key=KEYS["agent_a"]) as memory:
        added = memory.add_episodes(group, CONVERSATION)
        assert [e.status for e in added.episodes] == ["created", "created"]
        assert "Alice lives in Paris" in {f.statement for f in added.facts}

        found = memory.search(group, "where does Alice live?", k=5)
        assert found.facts[0].fact.statement == "Alice lives in Paris" and "Paris" in found.context
        past = memory.search(group, SearchRequest(query="Alice lives in", as_of="2024-03-01T00:00:00Z"))  # type: ignore[arg-type]
        assert "Alice lives in Berlin" in [h.fact.statement for h in past.facts]

        current = memory.list_facts(group, subject="Alice", predicate="lives_in")
        assert [f.object for f in current] == ["Paris"]
        alice = memory.find_entities(group, "Alice")[0]
        history = memory.timeline(group, alice.id)
        assert [f.value for f in history.facts if f.predicate == "lives_in"] == ["Berlin", "Paris"]

        fact = memory.get_fact(group, current[0].id)
        with pytest.raises(Conflict):
            memory.correct_fact(group, fact.id, expected_version=fact.version + 1, object="Lyon")
        fixed = memory.correct_fact(group, fact.id, expected_version=fact.version, object="Lyon")
        assert fixed.object == "Lyon"

        turns = memory.session_episodes(group, "c1", last_n=1)
        assert [t.episode.external_id for t in turns] == ["c-2"]
        assert [g.group_id for g in memory.list_groups()] == [group]
        episode = memory.get_episode(group, added.episodes[0].id)
        assert episode.episode.external_id == "c-1"


def test_errors_arrive_typed(keyed: Keyed) -> None:
    with GraphMemClient(keyed.server.url, api_key=KEYS["agent_a"]) as memory:
        with pytest.raises(Forbidden):
            memory.search(keyed.group_b, "anything")
        with pytest.raises(NotFound):
            memory.get_fact(keyed.group_a, str(uuid.uuid4()))
        with pytest.raises(Forbidden):
            memory.forget_group(keyed.group_a)  # agents may not forget whole groups
        with pytest.raises(InvalidInput):
            memory.add_episodes(keyed.group_a, [{"content": "", "reference_time": "2024-01-01T00:00:00Z"}])
    with GraphMemClient(keyed.server.url, api_key="not-a-key-of-this-server") as stranger:
        with pytest.raises(Unauthorized):
            stranger.list_groups()


def test_a_write_with_external_ids_is_retried_after_a_lost_answer_without_a_duplicate(keyed: Keyed) -> None:
    """A client timeout on a write that had succeeded must not lead to a duplicate on retry."""
    transport = LoseFirstAnswer()
    episode = {**CONVERSATION[1], "external_id": "lost-1", "session_id": "lost"}
    retry = RetryPolicy(backoff_s=0.01)
    with GraphMemClient(
        keyed.server.url, api_key=KEYS["agent_a"], transport=transport, retry=retry
    ) as memory:
        result = memory.add_episodes(keyed.group_a, [episode])
        turns = memory.session_episodes(keyed.group_a, "lost")
    assert transport.posts == 2
    assert [e.status for e in result.episodes] == ["existing"]  # the first try had stored it
    assert [t.episode.external_id for t in turns] == ["lost-1"]


def test_a_write_without_external_ids_is_not_retried_after_a_lost_answer(keyed: Keyed) -> None:
    transport = LoseFirstAnswer()
    episode = {
        "content": "Alice adopted a cat.",
        "reference_time": "2024-07-01T00:00:00Z",
        "session_id": "once",
    }
    with GraphMemClient(keyed.server.url, api_key=KEYS["agent_a"], transport=transport) as memory:
        with pytest.raises(httpx.ReadTimeout):
            memory.add_episodes(keyed.group_a, [episode])
        turns = memory.session_episodes(keyed.group_a, "once")
    assert transport.posts == 1 and len(turns) == 1


async def test_the_async_client_round_trips_too(keyed: Keyed) -> None:
    group = keyed.group_b
    async with AsyncGraphMemClient(keyed.server.url, api_key=KEYS["agent_b"], timeout=30) as memory:
        added = await memory.add_episodes(group, CONVERSATION[:1])
        again = await memory.add_episodes(group, CONVERSATION[:1])
        assert [e.status for e in again.episodes] == ["existing"] and again.facts == []
        found = await memory.search(group, "where does Alice work?")
        assert any(h.fact.statement == "Alice works at Acme" for h in found.facts)
        with pytest.raises(Forbidden):
            await memory.get_fact(keyed.group_a, added.facts[0].fact_id)
        ready = await memory.ready()
        assert ready["status"] == "ready"


def _seed_sessions(memory: GraphMemClient, group: str) -> None:
    turns = [
        ("p1", "Alice", "2024-01-01T09:00:00Z", "I live in Berlin."),
        ("p1", "Bob", "2024-01-01T09:01:00Z", "Berlin is lovely."),
        ("p2", "Alice", "2024-02-01T09:00:00Z", "I work at Acme."),
        ("p3", "Bob", "2024-03-01T09:00:00Z", "I adopted a dog."),
    ]
    memory.add_episodes(
        group,
        [
            {"session_id": s, "speaker": who, "reference_time": t, "content": c, "external_id": f"p-{i}"}
            for i, (s, who, t, c) in enumerate(turns)
        ],
    )


def test_the_sync_client_pages_sessions_and_episodes_and_reads_a_digest(keyed: Keyed) -> None:
    group = f"cs-{uuid.uuid4().hex[:10]}"
    with GraphMemClient(keyed.server.url, api_key=KEYS["admin"]) as memory:
        try:
            _seed_sessions(memory, group)
            first = memory.list_sessions(group, limit=2)
            assert [s.session_id for s in first.sessions] == ["p1", "p2"] and first.has_more
            assert [s.session_id for s in memory.iter_sessions(group, page_size=1)] == ["p1", "p2", "p3"]
            every = [i.episode.external_id for i in memory.iter_episodes(group, page_size=1, order="desc")]
            assert every == ["p-3", "p-2", "p-1", "p-0"]
            alice = memory.iter_episodes(group, speaker="Alice", since=datetime(2024, 1, 15, tzinfo=UTC))
            assert [i.episode.external_id for i in alice] == ["p-2"]
            digest = memory.session_digest(group, "p1", last_n=1)
            assert [t.episode.external_id for t in digest.recent] == ["p-1"]
            assert "Alice lives in Berlin" in [f.statement for f in digest.facts]
            found = memory.search(group, "where does Alice live?", session={"id": "p1", "last_n": 2})
            assert found.session is not None and found.context.startswith("Session p1")
            with pytest.raises(InvalidInput):
                memory.list_episodes(group, cursor=first.next_cursor)  # a sessions cursor
            exported = memory.export_group(group)
            assert exported[0]["type"] == "header" and exported[0]["group_id"] == group
            copy = f"{group}-copy"
            report = memory.import_records(copy, exported)
            assert report.groups == [copy] and report.nodes == sum(r["type"] == "node" for r in exported)
            assert [s.session_id for s in memory.iter_sessions(copy)] == ["p1", "p2", "p3"]
        finally:
            for g in (group, f"{group}-copy"):
                memory.forget_group(g, purge_tombstones=True)


async def test_the_async_client_iterates_pages_and_refuses_other_groups(keyed: Keyed) -> None:
    with GraphMemClient(keyed.server.url, api_key=KEYS["agent_a"]) as sync:
        _seed_sessions(sync, keyed.group_a)
    async with AsyncGraphMemClient(keyed.server.url, api_key=KEYS["agent_a"]) as memory:
        sessions = [s.session_id async for s in memory.iter_sessions(keyed.group_a, page_size=1)]
        assert {"p1", "p2", "p3"} <= set(sessions) and sessions == sorted(sessions)
        p1 = [i.episode.external_id async for i in memory.iter_episodes(keyed.group_a, session_id="p1")]
        assert p1 == ["p-0", "p-1"]
        with pytest.raises(Forbidden):
            await memory.list_sessions(keyed.group_b)
        with pytest.raises(Forbidden):
            await memory.export_group(keyed.group_a)  # agent keys: no export
        with pytest.raises(Forbidden):
            [i async for i in memory.iter_episodes(keyed.group_b)]
