"""Several scopes in one search (POST /v1/search): an agent's private and shared groups fused in one
ranking, each hit labelled with its group, nothing of a group outside the key, through every recipe
(every channel), plus the rank fusion as a pure function."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest
from fastapi import FastAPI

from api.main import create_app
from graphmem.client import AsyncGraphMemClient
from graphmem.config import Settings
from graphmem.errors import Forbidden
from graphmem.memory import GraphMemory
from graphmem.memory.scopes import fuse_by_rank
from graphmem.models.entity import EntityRecord
from graphmem.models.search import EntityHit, Hit, SearchResult
from graphmem.retrieval.config import RECIPES
from tests.api.conftest import new_group
from tests.api.mcp_support import call, mcp_client, ok, serve

AGENT, OTHER, ADMIN = "scopes-agent-key-1", "scopes-other-key-2", "scopes-admin-key-3"


@dataclass
class Scoped:
    app: FastAPI
    client: httpx.AsyncClient
    private: str
    shared: str
    other: str

    async def search(self, key: str, body: dict[str, object]) -> httpx.Response:
        return await self.client.post("/v1/search", json=body, headers={"Authorization": f"Bearer {key}"})


@pytest.fixture
async def scoped(memory: GraphMemory, settings: Settings) -> AsyncIterator[Scoped]:
    private, shared, other = new_group("sp"), new_group("ss"), new_group("so")
    keys = [
        {"key": AGENT, "role": "agent", "groups": [private, shared]},
        {"key": OTHER, "role": "agent", "groups": [other]},
        {"key": ADMIN, "role": "admin"},
    ]
    app = create_app(
        settings.model_copy(update={"api_keys": json.dumps(keys), "no_auth": False}), memory=memory
    )
    seeds = {
        private: ("Alice", "green tea"),
        shared: ("Team", "tea breaks"),
        other: ("Mallory", "tea smuggling"),
    }
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            for group, (who, what) in seeds.items():
                fact = {"subject": who, "predicate": "likes", "value": what}
                r = await client.post(
                    f"/v1/groups/{group}/facts", json=fact, headers={"Authorization": f"Bearer {ADMIN}"}
                )
                assert r.status_code == 201, r.text
            yield Scoped(app, client, private, shared, other)
    for group in seeds:
        await memory.forget_group(group, purge_tombstones=True)


async def test_private_and_shared_groups_fuse_in_one_labelled_ranking(scoped: Scoped) -> None:
    r = await scoped.search(AGENT, {"query": "tea", "groups": [scoped.private, scoped.shared]})
    assert r.status_code == 200, r.text
    body = r.json()
    by_group = {h["fact"]["group_id"]: h["fact"]["statement"] for h in body["facts"]}
    assert by_group == {scoped.private: "Alice likes green tea", scoped.shared: "Team likes tea breaks"}
    assert {h["group_id"] for h in body["ranked"]} == {scoped.private, scoped.shared}
    assert "green tea" in body["context"] and "tea breaks" in body["context"]
    default = await scoped.search(AGENT, {"query": "tea"})  # an agent key's groups by default
    assert {h["fact"]["group_id"] for h in default.json()["facts"]} == {scoped.private, scoped.shared}


@pytest.mark.parametrize("recipe", sorted(RECIPES))
async def test_no_channel_returns_a_group_outside_the_key(scoped: Scoped, recipe: str) -> None:
    r = await scoped.search(
        AGENT, {"query": "Mallory tea smuggling", "recipe": recipe, "include_history": True}
    )
    assert r.status_code == 200, r.text
    text = json.dumps({k: v for k, v in r.json().items() if k != "query"})  # the query is echoed
    assert scoped.other not in text
    assert "Mallory" not in text and "smuggling" not in text
    asked = await scoped.search(
        AGENT, {"query": "tea", "recipe": recipe, "groups": [scoped.private, scoped.other]}
    )
    assert asked.status_code == 403 and asked.json()["details"]["group_id"] == scoped.other
    assert "smuggling" not in asked.text


async def test_a_key_covering_every_group_must_name_them(scoped: Scoped) -> None:
    missing = await scoped.search(ADMIN, {"query": "tea"})
    assert missing.status_code == 422 and missing.json()["details"]["field"] == "groups"
    named = await scoped.search(ADMIN, {"query": "tea", "groups": [scoped.private, scoped.other]})
    assert {h["fact"]["group_id"] for h in named.json()["facts"]} == {scoped.private, scoped.other}
    too_many = await scoped.search(ADMIN, {"query": "tea", "groups": [f"g{i}" for i in range(21)]})
    assert too_many.status_code == 422


async def test_the_client_and_mcp_search_several_groups_within_the_key(scoped: Scoped) -> None:
    transport = httpx.ASGITransport(app=scoped.app)
    async with AsyncGraphMemClient("http://test", api_key=AGENT, transport=transport) as memory:
        found = await memory.search_groups("tea", [scoped.private, scoped.shared])
        assert {h.fact.group_id for h in found.facts} == {scoped.private, scoped.shared}
        assert {h.group_id for h in found.ranked} == {scoped.private, scoped.shared}
        with pytest.raises(Forbidden):
            await memory.search_groups("tea", [scoped.other])
    async with serve(scoped.app) as url, mcp_client(url, AGENT) as mcp:
        both = await ok(mcp, "search_memory", query="tea", groups=[scoped.private, scoped.shared])
        assert {f["group_id"] for f in both["facts"]} == {scoped.private, scoped.shared}
        refused = await call(mcp, "search_memory", query="tea", groups=[scoped.private, scoped.other])
        assert refused["is_error"] and refused["code"] == "forbidden"
        assert "smuggling" not in json.dumps(refused)


def _result(*ids_scores: tuple[str, float]) -> SearchResult:
    hits = [EntityHit(id=i, score=score, entity=_entity(i)) for i, score in ids_scores]
    ranked = [Hit(type="entity", id=h.id, score=h.score) for h in hits]
    return SearchResult(query="q", recipe="default", entities=hits, ranked=ranked)


def _entity(entity_id: str) -> EntityRecord:
    return EntityRecord(id=entity_id, group_id="x", name=entity_id, normalized_name=entity_id, kind="thing")


def test_rank_fusion_interleaves_groups_rank_by_rank() -> None:
    """Scores of different tenants are not comparable: rank decides, score breaks a tie, then order."""
    a = ("a", _result(("a1", 0.9), ("a2", 0.8), ("a3", 0.7)))
    b = ("b", _result(("b1", 0.1), ("b2", 0.95)))
    fused = fuse_by_rank([a, b], k=4)
    assert [(g, h.id) for g, h in fused] == [("a", "a1"), ("b", "b1"), ("b", "b2"), ("a", "a2")]
