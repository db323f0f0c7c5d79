"""MCP over real streamable HTTP: uvicorn on loopback, the official SDK's client, the real Neo4j.

Tool listing per role, 401 for a bad key, the conversation end to end (add, search, timeline,
a stale correction refused and the fresh one accepted), retried adds that add nothing, the group
default, no-auth mode, the Host check (421), and tenancy: a key bound to group A gets nothing of
group B through any tool or argument.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from api.main import create_app
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from tests.api.conftest import KEYS, key_config, new_group
from tests.api.mcp_support import (
    ADMIN_TOOLS,
    AGENT_TOOLS,
    ANALYST_TOOLS,
    B_CONVERSATION,
    B_WORDS,
    CONVERSATION,
    call,
    mcp_client,
    ok,
    serve,
    text_of,
    tool_names,
)

JSON_RPC_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


@dataclass
class Served:
    url: str
    group_a: str
    group_b: str


@pytest.fixture(scope="module")
async def served(memory: GraphMemory, settings: Settings) -> AsyncIterator[Served]:
    group_a, group_b = new_group("ma"), new_group("mb")
    app = create_app(
        settings.model_copy(
            update={"api_keys": key_config(group_a, group_b), "no_auth": False, "max_batch": 5}
        ),
        memory=memory,
    )
    async with serve(app) as url:
        yield Served(url, group_a, group_b)


@pytest.mark.parametrize(
    ("who", "expected"), [("agent_a", AGENT_TOOLS), ("analyst", ANALYST_TOOLS), ("admin", ADMIN_TOOLS)]
)
async def test_each_role_sees_its_tools_with_hints(served: Served, who: str, expected: set[str]) -> None:
    async with mcp_client(served.url, KEYS[who]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == expected
    search = tools["search_memory"].annotations
    assert search is not None and search.read_only_hint is True
    if "add_episodes" in tools:
        add = tools["add_episodes"].annotations
        assert add is not None and add.read_only_hint is False and add.idempotent_hint is True
        assert add.destructive_hint is False
    if "forget_group" in tools:
        forget = tools["forget_group"].annotations
        assert forget is not None and forget.destructive_hint is True


async def test_a_hidden_tool_answers_like_an_unknown_one(served: Served) -> None:
    async with mcp_client(served.url, KEYS["agent_a"]) as client:
        hidden = await call(client, "forget_group", group_id=served.group_a)
        unknown = await call(client, "no_such_tool")
        cypher = await call(client, "cypher_query", query="MATCH (n) RETURN count(n) AS n")
    assert hidden["is_error"] and hidden["code"] == "unknown_tool"
    assert unknown["is_error"] and unknown["code"] == "unknown_tool"
    assert cypher["is_error"] and cypher["code"] == "unknown_tool"


@pytest.mark.parametrize("key", [None, "not-a-key-of-this-server"])
async def test_a_missing_or_bad_key_gets_401(served: Served, key: str | None) -> None:
    headers = {**JSON_RPC_HEADERS, **({"Authorization": f"Bearer {key}"} if key else {})}
    async with httpx.AsyncClient(timeout=30) as http:
        response = await http.post(f"{served.url}/mcp", json=LIST_TOOLS, headers=headers)
    assert response.status_code == 401
    assert "Bearer" in response.headers["www-authenticate"]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_conversation_end_to_end(memory: GraphMemory, settings: Settings, mode: str) -> None:
    """Add a conversation, search it, read a timeline, correct a fact stale (refused) then fresh."""
    group = new_group("me")
    keys = key_config(group, new_group("mx"))
    app = create_app(settings.model_copy(update={"api_keys": keys, "no_auth": False}), memory=memory)
    async with serve(app) as url, mcp_client(url, KEYS["agent_a"], mode=mode) as client:
        added = await ok(client, "add_episodes", episodes=CONVERSATION)
        assert added["group_id"] == group
        assert [e["status"] for e in added["episodes"]] == ["created", "created"]
        statements = {f["statement"] for f in added["facts"]}
        assert "Alice lives in Paris" in statements

        found = await ok(client, "search_memory", query="where does Alice live?")
        assert "Paris" in found["context"]
        top = found["facts"][0]
        assert top["statement"] == "Alice lives in Paris" and top["episode_ids"]
        assert set(top["external_ids"]) <= {"turn-1", "turn-2"}
        before_move = await ok(
            client, "search_memory", query="where does Alice live?", until="2024-03-01T00:00:00Z"
        )
        assert [e["external_id"] for e in before_move["episodes"]] == ["turn-1"]
        assert "Alice lives in Berlin" in {f["statement"] for f in before_move["facts"]}
        assert "Alice lives in Paris" not in {f["statement"] for f in before_move["facts"]}
        backwards = await call(
            client, "search_memory", query="x", since="2024-03-01T00:00:00Z", until="2024-02-01T00:00:00Z"
        )
        assert backwards["is_error"] and backwards["code"] == "invalid_time_range"

        timeline = await ok(client, "get_entity_timeline", name="Alice")
        lives = [f for f in timeline["facts"] if f["predicate"] == "lives_in"]
        assert [f["value"] for f in lives] == ["Berlin", "Paris"]
        assert lives[1]["supersedes"] == [lives[0]["id"]]

        fact = await ok(client, "get_fact", fact_id=top["id"])
        stale = await call(
            client, "correct_fact", fact_id=fact["id"], expected_version=fact["version"] + 1, object="Lyon"
        )
        assert stale["is_error"] and stale["code"] == "conflict"
        fresh = await ok(
            client, "correct_fact", fact_id=fact["id"], expected_version=fact["version"], object="Lyon"
        )
        assert fresh["object"] == "Lyon" and fresh["id"] != fact["id"]
        now = await ok(client, "search_memory", query="where does Alice live?")
        assert now["facts"][0]["statement"] == "Alice lives in Lyon"

        turns = await ok(client, "recent_episodes", session_id="chat-1", last_n=1)
        assert [t["external_id"] for t in turns["turns"]] == ["turn-2"]
        both = await ok(
            client, "search_memory", query="where does Alice live?", session_id="chat-1", last_n=1
        )
        assert [t["content"] for t in both["session"]["recent"]] == ["I moved to Paris."]
        assert both["context"].startswith("Session chat-1 (2 turns") and both["facts"]
    await memory.forget_group(group)


async def test_a_retried_add_creates_nothing(served: Served) -> None:
    """graphiti#1707 / retry-after-timeout: the same external ids twice store one copy."""
    async with mcp_client(served.url, KEYS["agent_a"]) as client:
        first = await ok(client, "add_episodes", episodes=CONVERSATION[:1])
        again = await ok(client, "add_episodes", episodes=CONVERSATION[:1])
        turns = await ok(client, "recent_episodes", session_id="chat-1")
    assert first["episodes"][0]["status"] == "created"
    assert again["episodes"] == [{**first["episodes"][0], "status": "existing"}]
    assert again["facts"] == []
    assert [t["external_id"] for t in turns["turns"]].count("turn-1") == 1


async def test_group_id_defaults_to_the_keys_only_group_and_is_required_otherwise(served: Served) -> None:
    async with mcp_client(served.url, KEYS["admin"]) as admin:
        missing = await call(admin, "search_memory", query="anything")
        named = await ok(admin, "search_memory", query="anything", group_id=served.group_a)
    assert missing["is_error"] and missing["code"] == "invalid_input"
    assert missing["details"]["field"] == "group_id"
    assert named["group_id"] == served.group_a


async def test_invalid_arguments_get_a_clear_error_and_write_nothing(served: Served) -> None:
    async with mcp_client(served.url, KEYS["agent_a"]) as client:
        batch = [{**CONVERSATION[0], "external_id": f"big-{i}"} for i in range(6)]  # max_batch is 5
        too_many = await call(client, "add_episodes", episodes=batch)
        no_change = await call(client, "correct_fact", fact_id="x", expected_version=1)
        turns = await ok(client, "recent_episodes", session_id="chat-1")
    assert too_many["is_error"] and too_many["code"] == "payload_too_large"
    assert no_change["is_error"] and no_change["code"] == "invalid_input"
    assert not [t for t in turns["turns"] if str(t["external_id"]).startswith("big-")]


async def test_a_key_for_group_a_gets_nothing_of_group_b_through_any_tool(served: Served) -> None:
    """A tool argument never widens the key's scope: B's group, ids and words, tried on every tool."""
    async with mcp_client(served.url, KEYS["agent_b"]) as agent_b:
        seeded = await ok(agent_b, "add_episodes", episodes=B_CONVERSATION)
        timeline = await ok(agent_b, "get_entity_timeline", name="Zoltan")
    b_episode = seeded["episodes"][0]["id"]
    b_fact = seeded["facts"][0]["fact_id"]
    b_entity = timeline["entity"]["id"]
    secrets = (served.group_b, b_episode, b_fact, b_entity, *B_WORDS)
    g = served.group_b
    probes: list[tuple[str, dict[str, Any]]] = [
        ("add_episodes", {"episodes": CONVERSATION[:1], "group_id": g}),
        ("search_memory", {"query": "Zoltan Quito Quasarcorp", "group_id": g}),
        ("get_entity_timeline", {"entity_id": b_entity, "group_id": g}),
        ("get_entity_timeline", {"name": "Zoltan", "group_id": g}),
        ("get_fact", {"fact_id": b_fact, "group_id": g}),
        ("recent_episodes", {"session_id": "b-chat", "group_id": g}),
        ("search_memory", {"query": "Zoltan", "session_id": "b-chat", "group_id": g}),
        ("search_memory", {"query": "Zoltan", "session_id": "b-chat", "groups": [g]}),
        ("correct_fact", {"fact_id": b_fact, "expected_version": 1, "value": "x", "group_id": g}),
        ("forget_episode", {"episode_id": b_episode, "group_id": g}),
        ("forget_group", {"group_id": g}),
        ("cypher_query", {"query": "MATCH (e:Episode {group_id: $g}) RETURN e.content", "params": {"g": g}}),
    ]
    # the same ids and names without the group argument: looked up in A, where they do not exist
    probes += [
        ("search_memory", {"query": "Zoltan Quito Quasarcorp"}),
        ("get_entity_timeline", {"entity_id": b_entity}),
        ("get_entity_timeline", {"name": "Zoltan"}),
        ("get_fact", {"fact_id": b_fact}),
        ("recent_episodes", {"session_id": "b-chat"}),
        ("search_memory", {"query": "Zoltan", "session_id": "b-chat"}),
        ("correct_fact", {"fact_id": b_fact, "expected_version": 1, "value": "x"}),
        ("forget_episode", {"episode_id": b_episode}),
    ]
    async with mcp_client(served.url, KEYS["agent_a"]) as agent_a:
        for tool, arguments in probes:
            body = await call(agent_a, tool, **arguments)
            # what the answer says beyond echoing the call (the error's details, the session asked for)
            shown = {k: v for k, v in body.items() if k not in {"details", "session_id", "session"}}
            if isinstance(body.get("session"), dict):  # the digest, without the session id asked for
                shown["session"] = {k: v for k, v in body["session"].items() if k != "session_id"}
            answer = text_of(shown)
            leaked = [s for s in secrets if s in answer]
            assert not leaked, (tool, arguments, body)
            if tool == "search_memory" and not body.get("is_error"):
                assert body["group_id"] == served.group_a  # A's own hits only (no B word above)
                if "session_id" in arguments:
                    assert body["session"]["episodes"] == 0 and body["session"]["recent"] == []
            elif tool == "recent_episodes" and not body.get("is_error"):
                assert body["group_id"] == served.group_a and body["turns"] == []
            else:
                assert body.get("is_error"), (tool, arguments, body)
                assert body["code"] in {"forbidden", "not_found", "unknown_tool"}, (tool, body)
    async with mcp_client(served.url, KEYS["agent_b"]) as agent_b:  # B is untouched
        fact = await ok(agent_b, "get_fact", fact_id=b_fact)
        turns = await ok(agent_b, "recent_episodes", session_id="b-chat")
    assert fact["version"] == 1 and fact["expired_at"] is None
    assert [t["id"] for t in turns["turns"]] == [b_episode]


async def test_no_auth_mode_on_loopback_works_without_a_key(memory: GraphMemory, settings: Settings) -> None:
    group = new_group("mn")
    app = create_app(settings.model_copy(update={"no_auth": True, "host": "127.0.0.1"}), memory=memory)
    async with serve(app) as url, mcp_client(url, None) as client:
        assert await tool_names(client) == ADMIN_TOOLS
        added = await ok(client, "add_episodes", episodes=CONVERSATION[:1], group_id=group)
        assert added["episodes"][0]["status"] == "created"
        gone = await ok(client, "forget_group", group_id=group)
        assert gone["episodes"] == 1


async def test_the_host_check_answers_421_outside_the_allowed_hosts(
    memory: GraphMemory, settings: Settings
) -> None:
    """Behind a proxy the Host header is the public name: it must be listed (docs/mcp.md)."""
    update = {"no_auth": True, "host": "127.0.0.1", "mcp_allowed_hosts": "memory.example.com"}
    app = create_app(settings.model_copy(update=update), memory=memory)
    async with serve(app) as url, httpx.AsyncClient(timeout=30) as http:
        refused = await http.post(f"{url}/mcp", json=LIST_TOOLS, headers=JSON_RPC_HEADERS)
        allowed = await http.post(
            f"{url}/mcp", json=LIST_TOOLS, headers={**JSON_RPC_HEADERS, "Host": "memory.example.com"}
        )
        default = create_app(
            settings.model_copy(update={"no_auth": True, "host": "127.0.0.1"}), memory=memory
        )
        async with serve(default) as local:
            loopback = await http.post(f"{local}/mcp", json=LIST_TOOLS, headers=JSON_RPC_HEADERS)
            rebound = await http.post(
                f"{local}/mcp", json=LIST_TOOLS, headers={**JSON_RPC_HEADERS, "Host": "attacker.example"}
            )
    assert refused.status_code == 421
    assert allowed.status_code == 200 and "search_memory" in allowed.text
    assert loopback.status_code == 200
    assert rebound.status_code == 421


async def test_the_app_lifespan_may_be_left_from_another_task(
    memory: GraphMemory, settings: Settings
) -> None:
    """The MCP session manager's task group runs in a task of its own: fixtures that enter the
    app's lifespan in one task and leave it in another (and in-process ASGI clients) work."""
    app = create_app(settings.model_copy(update={"no_auth": True, "host": "127.0.0.1"}), memory=memory)
    lifespan = app.router.lifespan_context(app)
    await asyncio.create_task(lifespan.__aenter__())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        listed = await http.post("/mcp", json=LIST_TOOLS, headers=JSON_RPC_HEADERS)
    assert listed.status_code == 200 and "search_memory" in listed.text
    await asyncio.create_task(lifespan.__aexit__(None, None, None))
