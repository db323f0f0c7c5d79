"""MCP over stdio: the SDK's client spawns ``graphmem mcp`` with the key in ``GRAPHMEM_API_KEY``.

The same conversation as over HTTP (add, search, timeline, stale then fresh correction), the
agent's tool list, the key's group as the scope, and a clear refusal to start without a valid key.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from tests.api.conftest import KEYS, key_config, new_group
from tests.api.mcp_support import AGENT_TOOLS, B_WORDS, CONVERSATION, call, ok, text_of, tool_names
from tests.api.servers import ROOT

GRAPHMEM = str(Path(sys.executable).parent / "graphmem")


def mcp_env(settings: Settings, keys: str, key: str | None) -> dict[str, str]:
    assert settings.neo4j_uri
    env = {
        "NEO4J_URI": settings.neo4j_uri,
        "GRAPHMEM_API_KEYS": keys,
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
    }
    if key is not None:
        env["GRAPHMEM_API_KEY"] = key
    return env


@asynccontextmanager
async def stdio(env: dict[str, str]) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=GRAPHMEM, args=["mcp", "--no-neo4j"], env=env, cwd=str(ROOT))
    with tempfile.TemporaryFile("w+") as errlog:
        try:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                yield client
        except BaseException:
            errlog.seek(0)
            sys.stderr.write(errlog.read()[-3000:])
            raise


async def test_conversation_over_stdio(memory: GraphMemory, settings: Settings) -> None:
    group, other = new_group("ms"), new_group("mt")
    env = mcp_env(settings, key_config(group, other), KEYS["agent_a"])
    async with stdio(env) as client:
        assert await tool_names(client) == AGENT_TOOLS
        added = await ok(client, "add_episodes", episodes=CONVERSATION)
        assert added["group_id"] == group and [e["status"] for e in added["episodes"]] == ["created"] * 2
        again = await ok(client, "add_episodes", episodes=CONVERSATION)
        assert [e["status"] for e in again["episodes"]] == ["existing"] * 2 and again["facts"] == []

        found = await ok(client, "search_memory", query="where does Alice live?")
        assert "Paris" in found["context"]
        top = found["facts"][0]
        assert top["statement"] == "Alice lives in Paris"

        timeline = await ok(client, "get_entity_timeline", name="Alice")
        assert [f["value"] for f in timeline["facts"] if f["predicate"] == "lives_in"] == ["Berlin", "Paris"]

        stale = await call(
            client, "correct_fact", fact_id=top["id"], expected_version=top["version"] + 1, value="Rome"
        )
        assert stale["is_error"] and stale["code"] == "conflict"
        fresh = await ok(
            client, "correct_fact", fact_id=top["id"], expected_version=top["version"], object="Rome"
        )
        assert fresh["object"] == "Rome"

        elsewhere = await call(client, "search_memory", query="Alice", group_id=other)
        assert elsewhere["is_error"] and elsewhere["code"] == "forbidden"
        assert not [w for w in B_WORDS if w in text_of(found)]
    facts = await memory.facts_about(group, "Alice", predicate="lives_in")
    assert [f.object for f in facts] == ["Rome"]  # the write went to the key's group
    await memory.forget_group(group)


def test_graphmem_mcp_refuses_to_start_without_a_valid_key(settings: Settings) -> None:
    keys = key_config(new_group("mu"), new_group("mv"))
    for key in (None, "not-a-key-of-this-server"):
        env = {**os.environ, **mcp_env(settings, keys, key)}
        env.pop("GRAPHMEM_NO_AUTH", None)
        if key is None:
            env.pop("GRAPHMEM_API_KEY", None)
        done = subprocess.run(
            [GRAPHMEM, "mcp", "--no-neo4j"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert done.returncode != 0
        assert done.stdout == ""
        assert done.stderr.startswith("error: unauthorized:"), done.stderr
