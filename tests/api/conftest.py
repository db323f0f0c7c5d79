"""API fixtures: an app with four keys (agent A, agent B, analyst, admin) over the real Neo4j."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from api.main import create_app
from graphmem.config import Settings
from graphmem.memory import GraphMemory

KEYS = {
    "agent_a": "agent-a-secret-key-0001",
    "agent_b": "agent-b-secret-key-0002",
    "analyst": "analyst-secret-key-0003",
    "admin": "admin-secret-key-00004",
}


def sha(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_config(group_a: str, group_b: str) -> str:
    return json.dumps(
        [
            {"key_sha256": sha(KEYS["agent_a"]), "role": "agent", "groups": [group_a], "name": "agent-a"},
            {"key": KEYS["agent_b"], "role": "agent", "groups": [group_b], "name": "agent-b"},
            {"key_sha256": sha(KEYS["analyst"]), "role": "analyst", "name": "analyst"},
            {"key": KEYS["admin"], "role": "admin"},
        ]
    )


@dataclass
class Api:
    app: FastAPI
    client: httpx.AsyncClient
    group_a: str
    group_b: str

    @staticmethod
    def auth(who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {KEYS[who]}"}

    async def call(self, who: str, method: str, url: str, **kwargs: Any) -> httpx.Response:
        headers = {**self.auth(who), **kwargs.pop("headers", {})}
        return await self.client.request(method, url, headers=headers, **kwargs)


def new_group(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@asynccontextmanager
async def make_api(memory: GraphMemory, settings: Settings, **overrides: Any) -> AsyncIterator[Api]:
    """An app with the four test keys over the session's ``GraphMemory`` (``overrides``: Settings)."""
    group_a, group_b = new_group("ta"), new_group("tb")
    update = {"api_keys": key_config(group_a, group_b), "no_auth": False, "max_batch": 5}
    app = create_app(
        settings.model_copy(update={**update, "max_body_bytes": 200_000, **overrides}), memory=memory
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield Api(app, client, group_a, group_b)


@pytest.fixture
async def api(memory: GraphMemory, settings: Settings) -> AsyncIterator[Api]:
    async with make_api(memory, settings) as built:
        yield built


EPISODES = [
    {
        "content": "Alice lives in Berlin. Alice works at Acme.",
        "reference_time": "2024-01-10T09:00:00Z",
        "speaker": "alice",
        "session_id": "s1",
        "external_id": "m1",
    },
    {
        "content": "Alice moved to Paris.",
        "reference_time": "2024-06-01T09:00:00Z",
        "speaker": "alice",
        "session_id": "s1",
        "external_id": "m2",
    },
]


@dataclass
class Seeded:
    episode_ids: list[str]
    fact_id: str
    fact_version: int
    entity_id: str


async def seed(api: Api, group: str, who: str = "admin") -> Seeded:
    """Two episodes and one explicit fact in ``group``; returns ids to probe with."""
    r = await api.call(who, "POST", f"/v1/groups/{group}/episodes", json={"episodes": EPISODES})
    assert r.status_code == 201, r.text
    episode_ids = [e["id"] for e in r.json()["episodes"]]
    r = await api.call(
        who,
        "POST",
        f"/v1/groups/{group}/facts",
        json={"subject": "Bob", "predicate": "likes", "object": "tea", "valid_from": "2024-02-01T00:00:00Z"},
    )
    assert r.status_code == 201, r.text
    fact_id = r.json()["facts"][0]["fact_id"]
    fact = (await api.call(who, "GET", f"/v1/groups/{group}/facts/{fact_id}")).json()
    entities = (await api.call(who, "GET", f"/v1/groups/{group}/entities", params={"name": "Alice"})).json()
    return Seeded(episode_ids, fact_id, fact["version"], entities["entities"][0]["id"])
