"""graphmem.client against the real API (a uvicorn process on loopback over the real Neo4j).

Both clients round-trip the project's models; errors arrive typed; a write whose answer is lost
is retried without a duplicate when it carries external ids, and not retried when it does not.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

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
