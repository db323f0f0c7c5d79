"""API keys and roles: parsing, 401s, what each role may do."""

from __future__ import annotations

import json

import pytest

from api.auth import KeyRing, hash_key, presented_key
from graphmem.errors import ConfigError, Unauthorized
from tests.api.conftest import KEYS, Api


def test_keyring_hashes_plain_keys_and_accepts_hashes() -> None:
    ring = KeyRing.from_json(
        json.dumps(
            [
                {"key": "plain-key-123", "role": "agent", "groups": ["g1"]},
                {"key_sha256": hash_key("hashed-key-456").upper(), "role": "analyst", "name": "ana"},
            ]
        )
    )
    agent = ring.authenticate("plain-key-123")
    assert agent.role == "agent" and agent.groups == frozenset({"g1"}) and agent.key_id.startswith("key-")
    assert ring.authenticate("hashed-key-456").key_id == "ana"
    with pytest.raises(Unauthorized):
        ring.authenticate("hashed-key-4567")
    with pytest.raises(Unauthorized):
        ring.authenticate(None)


@pytest.mark.parametrize(
    "entries",
    [
        [{"key": "secret-value-1", "role": "agent"}],  # agent without groups
        [{"key": "secret-value-1", "role": "admin", "groups": ["g"]}],  # admin scoped: refused
        [{"key": "secret-value-1", "key_sha256": "0" * 64, "role": "admin"}],
        [{"key": "secret-value-1", "role": "root"}],
        [{"key_sha256": "xyz", "role": "admin"}],
        [{"key": "secret-value-1", "role": "admin"}, {"key": "secret-value-1", "role": "analyst"}],
        {"key": "secret-value-1", "role": "admin"},
    ],
)
def test_bad_key_config_is_refused_without_echoing_keys(entries: object) -> None:
    with pytest.raises(ConfigError) as caught:
        KeyRing.from_json(json.dumps(entries))
    assert "secret-value-1" not in str(caught.value) + json.dumps(caught.value.details)


def test_bad_json_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        KeyRing.from_json("[{")
    assert len(KeyRing.from_json("  ")) == 0


def test_presented_key_prefers_bearer() -> None:
    assert presented_key("k1", "k2") == "k1"
    assert presented_key(None, " k2 ") == "k2"
    assert presented_key(" ", None) is None


async def test_missing_and_wrong_keys_are_401(api: Api) -> None:
    url = f"/v1/groups/{api.group_a}/facts"
    missing = await api.client.get(url)
    assert missing.status_code == 401 and missing.json()["code"] == "unauthorized"
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = await api.client.get(url, headers={"Authorization": "Bearer nope-nope-nope"})
    assert wrong.status_code == 401
    basic = await api.client.get(url, headers={"Authorization": f"Basic {KEYS['agent_a']}"})
    assert basic.status_code == 401
    via_header = await api.client.get(url, headers={"X-API-Key": KEYS["agent_a"]})
    assert via_header.status_code == 200
    health = await api.client.get("/healthz")
    assert health.status_code == 200  # health, readiness and metrics need no key


async def test_analyst_reads_everything_and_writes_nothing(api: Api) -> None:
    for group in (api.group_a, api.group_b):
        assert (await api.call("analyst", "GET", f"/v1/groups/{group}/facts")).status_code == 200
        r = await api.call(
            "analyst",
            "POST",
            f"/v1/groups/{group}/facts",
            json={"subject": "a", "predicate": "likes", "value": "b"},
        )
        assert r.status_code == 403 and r.json()["details"]["role"] == "analyst"
    assert (
        await api.call("analyst", "POST", "/v1/cypher", json={"query": "RETURN 1 AS one"})
    ).status_code == 200


async def test_agents_may_not_run_cypher_and_admin_may(api: Api) -> None:
    r = await api.call("agent_a", "POST", "/v1/cypher", json={"query": "RETURN 1 AS one"})
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = await api.call("admin", "POST", "/v1/cypher", json={"query": "RETURN 1 AS one"})
    assert r.json()["rows"] == [{"one": 1}]


async def test_no_auth_mode_needs_no_key(memory, settings) -> None:  # type: ignore[no-untyped-def]
    import httpx

    from api.main import create_app

    app = create_app(settings.model_copy(update={"no_auth": True, "host": "127.0.0.1"}), memory=memory)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
            assert (await client.get("/v1/groups/anything/facts")).status_code == 200
