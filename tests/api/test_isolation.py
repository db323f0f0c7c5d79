"""Tenant isolation: keys for group A get 403/404 for everything of group B, through every route.

The randomized probe sends ≥ 200 requests mixing keys, groups and ids of both tenants and checks
that every answer is the expected status and never carries the other tenant's ids or words.
"""

from __future__ import annotations

import json
import random
import urllib.parse
import uuid
from dataclasses import dataclass

import httpx
import pytest

from graphmem.client import AsyncGraphMemClient
from graphmem.errors import Forbidden
from tests.api.conftest import KEYS, Api, Seeded, seed

B_SESSION = "zoltan-chat"
ADMIN_ONLY = ("/export", "/import")
B_EPISODES = {
    "episodes": [
        {
            "content": "Zoltan lives in Quito.",
            "reference_time": "2024-01-01T00:00:00Z",
            "speaker": "zoltan",
            "session_id": B_SESSION,
        },
        {
            "content": "Zoltan works at Quasarcorp.",
            "reference_time": "2024-02-01T00:00:00Z",
            "speaker": "zoltan",
            "session_id": B_SESSION,
        },
    ]
}
B_WORDS = ("Zoltan", "Quito", "Quasarcorp")


@dataclass
class Tenant:
    group: str
    episode_id: str
    fact_id: str
    entity_id: str

    @property
    def secrets(self) -> tuple[str, ...]:
        return (self.group, self.episode_id, self.fact_id, self.entity_id)


async def _seed_b(api: Api) -> Tenant:
    g = api.group_b
    r = await api.call("agent_b", "POST", f"/v1/groups/{g}/episodes", json=B_EPISODES)
    assert r.status_code == 201, r.text
    facts = r.json()["facts"]
    entity = (await api.call("agent_b", "GET", f"/v1/groups/{g}/entities", params={"name": "Zoltan"})).json()
    return Tenant(g, r.json()["episodes"][0]["id"], facts[0]["fact_id"], entity["entities"][0]["id"])


def _tenant_a(api: Api, seeded: Seeded) -> Tenant:
    return Tenant(api.group_a, seeded.episode_ids[0], seeded.fact_id, seeded.entity_id)


def routes(group: str, t: Tenant) -> list[tuple[str, str, dict[str, object]]]:
    """Every group route, pointed at ``group`` with the ids of tenant ``t``."""
    base = f"/v1/groups/{group}"
    fact = {"subject": "Mallory", "predicate": "likes", "value": "secrets"}
    return [
        (
            "POST",
            f"{base}/episodes",
            {"json": {"content": "Mallory was here.", "reference_time": "2024-01-01T00:00:00Z"}},
        ),
        ("GET", f"{base}/episodes/{t.episode_id}", {}),
        ("DELETE", f"{base}/episodes/{t.episode_id}", {}),
        ("POST", f"{base}/facts", {"json": fact}),
        ("GET", f"{base}/facts", {"params": {"include_history": "true"}}),
        ("GET", f"{base}/facts", {"params": {"subject": "Zoltan"}}),
        ("GET", f"{base}/facts/{t.fact_id}", {}),
        ("PATCH", f"{base}/facts/{t.fact_id}", {"json": {"value": "x"}, "headers": {"If-Match": "1"}}),
        ("DELETE", f"{base}/facts/{t.fact_id}", {"headers": {"If-Match": "999"}}),
        ("POST", f"{base}/search", {"json": {"query": "Zoltan Quito Quasarcorp"}}),
        ("GET", f"{base}/entities", {}),
        ("GET", f"{base}/entities", {"params": {"name": "Zoltan"}}),
        ("GET", f"{base}/entities/{t.entity_id}", {}),
        ("GET", f"{base}/entities/{t.entity_id}/timeline", {}),
        ("GET", f"{base}/sessions", {}),
        ("GET", f"{base}/sessions/{B_SESSION}/episodes", {}),
        ("GET", f"{base}/sessions/{B_SESSION}/digest", {}),
        ("GET", f"{base}/episodes", {}),
        ("GET", f"{base}/episodes", {"params": {"session_id": B_SESSION, "speaker": "zoltan"}}),
        ("POST", f"{base}/search", {"json": {"query": "Zoltan", "session": {"id": B_SESSION, "last_n": 5}}}),
        ("GET", f"{base}/export", {}),
        ("POST", f"{base}/import", {"content": b'{"type": "header"}'}),
        ("DELETE", base, {}),
    ]


async def _b_state(api: Api) -> str:
    g = api.group_b
    r = await api.call("agent_b", "POST", "/v1/cypher", json={"query": "RETURN 1"})  # agents: 403, no state
    assert r.status_code == 403
    facts = await api.call("analyst", "GET", f"/v1/groups/{g}/facts", params={"include_history": "true"})
    entities = await api.call("analyst", "GET", f"/v1/groups/{g}/entities")
    return facts.text + entities.text


async def test_every_route_of_group_b_is_403_for_agent_a(api: Api) -> None:
    b = await _seed_b(api)
    before = await _b_state(api)
    for method, url, kwargs in routes(api.group_b, b):
        r = await api.call("agent_a", method, url, **kwargs)  # type: ignore[arg-type]
        assert r.status_code == 403, (method, url, r.text)
        assert not any(w in r.text for w in B_WORDS)
    # same answer whether or not the thing exists: nothing reveals existence
    real = await api.call("agent_a", "GET", f"/v1/groups/{b.group}/facts/{b.fact_id}")
    fake = await api.call("agent_a", "GET", f"/v1/groups/{b.group}/facts/{uuid.uuid4()}")
    ghost = await api.call("agent_a", "GET", f"/v1/groups/never-{uuid.uuid4().hex[:8]}/facts/{b.fact_id}")
    assert real.json()["message"] == fake.json()["message"] == ghost.json()["message"]
    assert await _b_state(api) == before


async def test_group_b_ids_under_group_a_are_404_or_invisible(api: Api) -> None:
    b = await _seed_b(api)
    before = await _b_state(api)
    for method, url, kwargs in routes(api.group_a, b):
        if method == "DELETE" and url == f"/v1/groups/{api.group_a}":
            continue  # agent keys may not forget groups (403), covered above
        r = await api.call("agent_a", method, url, **kwargs)  # type: ignore[arg-type]
        allowed = (403,) if url.endswith(ADMIN_ONLY) else (200, 201, 404)
        assert r.status_code in allowed, (method, url, r.text)
        assert not _leaks(r, (*B_WORDS, b.episode_id, b.fact_id, b.entity_id)), (method, url)
    assert await _b_state(api) == before


def _expected(who: str, method: str, url: str, group: str, api: Api) -> set[int]:
    if who in ("nobody", "forged"):
        return {401}
    allowed = {"agent_a": {api.group_a}, "agent_b": {api.group_b}}.get(who)
    if allowed is not None and group not in allowed:
        return {403}
    if url.endswith(ADMIN_ONLY):
        return {403}  # export and import: admin keys only
    if who == "analyst" and method != "GET" and not url.endswith("/search"):
        return {403}
    return {200, 201, 404, 409, 422}


async def test_randomized_probes_find_no_leak(api: Api) -> None:
    rng = random.Random(20240605)
    a = _tenant_a(api, await seed(api, api.group_a, who="agent_a"))
    b = await _seed_b(api)
    stranger = Tenant(f"tz-{uuid.uuid4().hex[:8]}", str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4()))
    headers = {
        "nobody": {},
        "forged": {"Authorization": "Bearer forged-key-0000"},
        "agent_a": api.auth("agent_a"),
        "agent_b": api.auth("agent_b"),
        "analyst": api.auth("analyst"),
    }
    probes = 0
    for _ in range(240):
        who = rng.choice(list(headers))
        group_t = rng.choice([a, b, stranger])
        ids_t = rng.choice([a, b, stranger])
        method, url, kwargs = rng.choice(_safe_routes(group_t.group, ids_t))
        kw = dict(kwargs)
        kw["headers"] = {**headers[who], **kw.get("headers", {})}  # type: ignore[dict-item]
        r = await api.client.request(method, url, **kw)  # type: ignore[arg-type]
        probes += 1
        assert r.status_code in _expected(who, method, url, group_t.group, api), (who, method, url, r.text)
        _assert_no_leak(r, group_t, a, b)
    assert probes >= 200


def _safe_routes(group: str, t: Tenant) -> list[tuple[str, str, dict[str, object]]]:
    """The routes without destructive effects (writes carry invalid bodies: 403 or 422, never a write)."""
    out = []
    for method, url, kwargs in routes(group, t):
        if method == "DELETE" and "/facts/" not in url:
            continue
        if method == "POST" and not url.endswith("/search"):
            kwargs = {"json": {"not": "valid"}}
        out.append((method, url, kwargs))
    return out


def _assert_no_leak(r: httpx.Response, asked: Tenant, a: Tenant, b: Tenant) -> None:
    other = b if asked is a else a if asked is b else None
    for tenant in [t for t in (a, b) if t is not asked] if other is None else [other]:
        words = B_WORDS if tenant is b else ("Alice", "Berlin", "Paris", "Acme")
        leaked = _leaks(r, (*tenant.secrets, *words))
        assert not leaked, (r.request.method, str(r.request.url), leaked)


def _leaks(r: httpx.Response, secrets: tuple[str, ...]) -> list[str]:
    """Secrets in the answer, not counting the caller's own input echoed back (the search ``query``,
    an id named in the URL and repeated in a 404's details)."""
    try:
        body = r.json()
    except ValueError:
        body = r.text
    if isinstance(body, dict):
        body = {k: v for k, v in body.items() if k != "query"}
    text = json.dumps(body, ensure_ascii=False)
    asked = urllib.parse.unquote(str(r.request.url))
    return [s for s in secrets if s in text and s not in asked]


async def test_the_lists_and_several_group_search_show_nothing_of_b(api: Api) -> None:
    """The routes without a group in the path: /v1/groups and /v1/search never reach past the key."""
    await seed(api, api.group_a, who="agent_a")
    b = await _seed_b(api)
    groups = await api.call("agent_a", "GET", "/v1/groups")
    assert [g["group_id"] for g in groups.json()["groups"]] == [api.group_a]
    bodies = [
        {"query": "Zoltan Quito", "groups": [b.group]},
        {"query": "Zoltan Quito", "groups": [api.group_a, b.group]},
        {"query": "Zoltan Quito", "session": {"id": B_SESSION, "group_id": b.group}},
        {"query": "Zoltan Quito", "groups": [api.group_a, b.group], "session": {"id": B_SESSION}},
    ]
    for body in bodies:
        r = await api.call("agent_a", "POST", "/v1/search", json=body)
        assert r.status_code in (403, 422), (body, r.text)
        assert not _leaks(r, (*B_WORDS, b.episode_id, b.fact_id, b.entity_id)), body
    own = await api.call(
        "agent_a", "POST", "/v1/search", json={"query": "Zoltan Quito", "session": {"id": B_SESSION}}
    )
    assert own.status_code == 200 and own.json()["session"]["episodes"] == 0
    assert not _leaks(own, (*B_WORDS, b.group, b.episode_id, b.fact_id, b.entity_id))


async def test_the_client_gets_nothing_of_b_through_any_method(api: Api) -> None:
    """Every graphmem.client method pointed at B (group, session, ids) with A's key: Forbidden."""
    b = await _seed_b(api)
    transport = httpx.ASGITransport(app=api.app)
    async with AsyncGraphMemClient("http://test", api_key=KEYS["agent_a"], transport=transport) as client:
        g = b.group
        calls = [
            client.search(g, "Zoltan", session={"id": B_SESSION}),
            client.search_groups("Zoltan", [api.group_a, g]),
            client.get_fact(g, b.fact_id),
            client.list_facts(g),
            client.find_entities(g, "Zoltan"),
            client.get_entity(g, b.entity_id),
            client.timeline(g, b.entity_id),
            client.get_episode(g, b.episode_id),
            client.session_episodes(g, B_SESSION),
            client.list_sessions(g),
            client.list_episodes(g, session_id=B_SESSION),
            client.session_digest(g, B_SESSION),
            client.export_group(g),
            client.import_records(g, [{"type": "header"}]),
            client.add_episodes(
                g, [{"content": "Mallory was here.", "reference_time": "2024-01-01T00:00:00Z"}]
            ),
            client.forget_episode(g, b.episode_id),
            client.forget_group(g),
        ]
        for pending in calls:
            with pytest.raises(Forbidden) as caught:
                await pending
            assert not any(w in str(caught.value) for w in B_WORDS)
        iterations = [client.iter_sessions(g), client.iter_episodes(g, speaker="zoltan")]
        for iterator in iterations:
            with pytest.raises(Forbidden):
                [item async for item in iterator]  # type: ignore[attr-defined]
        assert [s.group_id for s in await client.list_groups()] == []  # A holds nothing yet
