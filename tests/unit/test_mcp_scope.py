"""MCP scope rules without a database: key -> token -> principal, the group a tool works on, the
role table, and the Host/Origin check settings."""

from __future__ import annotations

import json

import pytest

from api.auth import LOCAL_ADMIN, KeyRing, Principal
from api.mcp.auth import KeyTokenVerifier, principal_of, scoped_group, writable_group
from api.mcp.server import LOOPBACK_HOSTS, transport_security
from api.mcp.stdio import stdio_principal
from api.mcp.tools import TOOL_ROLES
from graphmem.config import Settings
from graphmem.errors import Forbidden, InvalidInput, Unauthorized

KEYS = json.dumps(
    [
        {"key": "agent-one-key-0001", "role": "agent", "groups": ["a"], "name": "one"},
        {"key": "agent-two-key-0002", "role": "agent", "groups": ["a", "b"], "name": "two"},
        {"key": "analyst-key-00003", "role": "analyst", "name": "ana"},
    ]
)


async def test_a_verified_key_becomes_the_same_principal_the_http_api_sees() -> None:
    ring = KeyRing.from_json(KEYS)
    verifier = KeyTokenVerifier(ring)
    for key in ("agent-one-key-0001", "agent-two-key-0002", "analyst-key-00003"):
        token = await verifier.verify_token(key)
        assert token is not None and token.token == ""  # the key itself is not kept
        assert principal_of(token) == ring.authenticate(key)
    assert await verifier.verify_token("unknown-key-0000") is None
    assert await verifier.verify_token("") is None


def test_no_token_is_unauthorized() -> None:
    with pytest.raises(Unauthorized):
        principal_of(None)


def test_group_id_defaults_to_the_only_group_and_never_widens() -> None:
    one = Principal("one", "agent", frozenset({"a"}))
    two = Principal("two", "agent", frozenset({"a", "b"}))
    assert scoped_group(one, None) == "a"
    assert scoped_group(one, "a") == "a"
    with pytest.raises(Forbidden):
        scoped_group(one, "b")
    with pytest.raises(InvalidInput) as missing:
        scoped_group(two, None)
    assert missing.value.details == {"field": "group_id"}
    assert scoped_group(two, "b") == "b"
    with pytest.raises(InvalidInput):
        scoped_group(LOCAL_ADMIN, None)  # every group: the caller must say which


def test_an_analyst_reads_every_group_and_writes_none() -> None:
    analyst = Principal("ana", "analyst", None)
    assert scoped_group(analyst, "z") == "z"
    with pytest.raises(Forbidden):
        writable_group(analyst, "z")


def test_role_table_keeps_writes_from_analysts_and_forgets_for_admins() -> None:
    writes = {"add_episodes", "correct_fact", "forget_episode", "forget_group"}
    assert all("analyst" not in TOOL_ROLES[t] for t in writes)
    assert {t for t, roles in TOOL_ROLES.items() if roles == {"admin"}} == {"forget_episode", "forget_group"}
    assert "agent" not in TOOL_ROLES["cypher_query"]
    assert all("admin" in roles for roles in TOOL_ROLES.values())


def test_host_check_defaults_and_settings() -> None:
    loopback = transport_security(Settings(host="127.0.0.1"))
    assert loopback.enable_dns_rebinding_protection and loopback.allowed_hosts == LOOPBACK_HOSTS
    assert not transport_security(Settings(host="0.0.0.0")).enable_dns_rebinding_protection
    assert not transport_security(Settings(mcp_allowed_hosts="*")).enable_dns_rebinding_protection
    listed = transport_security(
        Settings(
            host="0.0.0.0",
            mcp_allowed_hosts="memory.example.com, memory.example.com:*",
            mcp_allowed_origins="https://app.example.com",
        )
    )
    assert listed.enable_dns_rebinding_protection
    assert listed.allowed_hosts == ["memory.example.com", "memory.example.com:*"]
    assert listed.allowed_origins == ["https://app.example.com"]


def test_stdio_caller_comes_from_the_key_or_no_auth_mode() -> None:
    keyed = Settings(api_keys=KEYS, no_auth=False)
    assert stdio_principal(keyed, " agent-one-key-0001\n").groups == frozenset({"a"})
    for key in (None, "", "unknown-key-0000"):
        with pytest.raises(Unauthorized):
            stdio_principal(keyed, key)
    assert stdio_principal(Settings(no_auth=True), None) == LOCAL_ADMIN
