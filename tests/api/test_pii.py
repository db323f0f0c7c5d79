"""PII redaction on write (issue 21, item 3): with redaction on, no raw value reaches Neo4j (any
property of any node of the group, change log included), the tenant index, the logs or an
export; the values come back only through the admin reveal, and every reveal is logged."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import pytest

from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.privacy import Redactor, tokens_in
from graphmem.store.driver import Store
from tests.api.conftest import Api, make_api

KEY = "test-vault-key-0123456789abcdef"
EMAIL, PHONE, MOBILE = "zq.marlowe@example.org", "(415) 555-0132", "13912345678"
CARD, CN_ID, IBAN, IP = (
    "4111 1111 1111 1111",
    "11010519491231002X",
    "DE89 3704 0044 0532 0130 00",
    "203.0.113.77",
)
RAW = [
    EMAIL,
    PHONE,
    MOBILE,
    CARD,
    CN_ID,
    IBAN,
    IP,
    "zq.marlowe",
    "4111111111111111",
    "DE89370400440532013000",
]
EPISODES = [
    {
        "content": f"Hi, I'm Quinn. Email me at {EMAIL} or call {PHONE}. My card is {CARD}.",
        "reference_time": "2024-03-01T09:00:00Z",
        "speaker": "Quinn",
        "session_id": "s1",
        "external_id": "p1",
    },
    {
        "content": f"我的手机是{MOBILE}，身份证号{CN_ID}，工资打到{IBAN}。",
        "reference_time": "2024-03-02T09:00:00Z",
        "speaker": "张伟",
        "session_id": "s2",
        "external_id": "p2",
    },
    {
        "content": f"The VPN server is {IP}, ask {EMAIL} for access.",
        "reference_time": "2024-03-03T09:00:00Z",
        "speaker": "Quinn",
        "session_id": "s1",
        "external_id": "p3",
    },
]


@pytest.fixture
async def redacting(memory: GraphMemory) -> GraphMemory:
    """The session's memory (its store, embedder and warm extractor) with PII redaction on."""
    return GraphMemory(replace(memory.ctx, redactor=Redactor(KEY)))


@pytest.fixture
async def papi(redacting: GraphMemory, settings: Settings) -> AsyncIterator[Api]:
    async with make_api(redacting, settings) as built:
        yield built
    await redacting.searcher.settle()


def _strings(value: Any, depth: int = 0) -> list[str]:
    """Every string reachable from ``value`` (objects' attributes, containers), a few levels deep."""
    if depth > 6:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k, depth + 1), *_strings(v, depth + 1))]
    if isinstance(value, list | tuple | set | frozenset):
        return [s for v in value for s in _strings(v, depth + 1)]
    if hasattr(value, "__dict__"):
        return _strings(vars(value), depth + 1)
    return []


def _assert_clean(texts: list[str], where: str) -> None:
    blob = "\n".join(texts)
    for raw in RAW:
        assert raw not in blob, f"{raw!r} found in {where}"


async def test_no_raw_value_reaches_neo4j_the_index_the_logs_or_exports(
    papi: Api, redacting: GraphMemory, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)  # every logger at INFO; ours at DEBUG (the driver's DEBUG
    for name in ("api", "graphmem", "ingest"):  # echoes parameters: those are checked in Neo4j)
        caplog.set_level(logging.DEBUG, logger=name)
    g = papi.group_a
    r = await papi.call("agent_a", "POST", f"/v1/groups/{g}/episodes", json={"episodes": EPISODES})
    assert r.status_code == 201, r.text
    fact = {"subject": "Quinn", "predicate": "attribute:email", "value": EMAIL}
    r = await papi.call("agent_a", "POST", f"/v1/groups/{g}/facts", json={"facts": [fact]})
    assert r.status_code == 201, r.text
    fact_id = r.json()["facts"][0]["fact_id"]
    r = await papi.call("agent_a", "GET", f"/v1/groups/{g}/facts/{fact_id}")
    patch = await papi.call(
        "agent_a",
        "PATCH",
        f"/v1/groups/{g}/facts/{fact_id}",
        json={"value": f"quinn@{IP}.example.net or {MOBILE}"},
        headers={"If-Match": r.headers["ETag"]},
    )
    assert patch.status_code == 200, patch.text

    # a search by the raw value finds the text that holds its token
    found = await papi.call("agent_a", "POST", f"/v1/groups/{g}/search", json={"query": EMAIL, "k": 5})
    assert found.status_code == 200, found.text
    token = redacting.ctx.redactor.redact(g, EMAIL).text  # type: ignore[union-attr]
    assert token in found.json()["context"]

    rows = await store.read("MATCH (n) WHERE n.group_id = $g RETURN properties(n) AS p", g=g)
    _assert_clean([s for r in rows for s in _strings(r["p"])], "Neo4j")
    index = redacting.searcher.indexes.entries.get(g) if redacting.searcher.indexes else None
    assert index is not None
    _assert_clean(_strings(index), "the tenant index")
    _assert_clean([r.getMessage() + str(r.__dict__) for r in caplog.records], "the logs")
    _assert_clean([str(rec) async for rec in redacting.export_group(g)], "the export")

    names = {r["p"]["name"].lower() for r in rows if "normalized_name" in r["p"]}
    assert names.isdisjoint({"email", "phone", "card", "cn_id", "iban", "ip"})  # no token-kind entities
    vault = [r["p"] for r in rows if "ciphertext" in r["p"]]
    held = {t for r in rows for s in _strings(r["p"]) for t in tokens_in(s)}
    assert {v["token"] for v in vault} == held and len(held) >= 8
    await redacting.forget_group(g, purge_tombstones=True)


async def test_admin_reveals_an_original_and_each_reveal_is_logged(papi: Api, redacting: GraphMemory) -> None:
    g = papi.group_a
    r = await papi.call("agent_a", "POST", f"/v1/groups/{g}/episodes", json={"episodes": EPISODES[1:2]})
    assert r.status_code == 201, r.text
    (token,) = tokens_in(redacting.ctx.redactor.redact(g, CN_ID).text)  # type: ignore[union-attr]
    url = f"/v1/groups/{g}/pii/{quote(token, safe='')}"

    assert (await papi.call("agent_a", "GET", url)).status_code == 403
    shown = await papi.call("admin", "GET", url, headers={"X-Change-Reason": "subject access request"})

    assert shown.status_code == 200, shown.text
    assert shown.json()["value"] == CN_ID and shown.json()["kind"] == "CN_ID"
    log = (await papi.call("admin", "GET", f"/v1/groups/{g}/changes", params={"target": token})).json()
    reveals = [c for c in log["changes"] if c["kind"] == "pii_revealed"]
    assert len(reveals) == 1 and reveals[0]["actor_role"] == "admin"
    assert reveals[0]["reason"] == "subject access request" and CN_ID not in str(reveals[0])
    missing = await papi.call("admin", "GET", f"/v1/groups/{g}/pii/{quote('[EMAIL#000000000000]', safe='')}")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert (await papi.call("admin", "GET", f"/v1/groups/{g}/pii/not-a-token")).status_code == 422
    await redacting.forget_group(g, purge_tombstones=True)


async def test_redaction_is_off_by_default(api: Api, memory: GraphMemory, store: Store) -> None:
    g = api.group_a
    r = await api.call("agent_a", "POST", f"/v1/groups/{g}/episodes", json={"episodes": EPISODES[:1]})
    assert r.status_code == 201, r.text
    rows = await store.read("MATCH (e:Episode {group_id: $g}) RETURN e.content AS c", g=g)
    assert EMAIL in rows[0]["c"]
    assert (
        await api.call("admin", "GET", f"/v1/groups/{g}/pii/{quote('[EMAIL#000000000000]', safe='')}")
    ).status_code == 404
    await memory.forget_group(g, purge_tombstones=True)


async def test_the_proof_of_forgetting_route_is_admin_only_and_reports_every_store(papi: Api) -> None:
    g = papi.group_a
    r = await papi.call("agent_a", "POST", f"/v1/groups/{g}/episodes", json={"episodes": EPISODES[:1]})
    assert r.status_code == 201, r.text
    url = f"/v1/groups/{g}/forget-proof"
    assert (await papi.call("agent_a", "POST", url, json={})).status_code == 403
    held = (await papi.call("admin", "POST", url, json={"external_id": "p1"})).json()
    assert not held["forgotten"] and next(s for s in held["stores"] if s["store"] == "graph")["found"] == 1

    assert (await papi.call("admin", "DELETE", f"/v1/groups/{g}")).status_code == 200
    proof = await papi.call("admin", "POST", url, json={"probes": [EPISODES[0]["content"]]})

    assert proof.status_code == 200, proof.text
    body = proof.json()
    assert body["forgotten"] and body["probes"] == 2  # as given, and tokenised
    assert {s["store"] for s in body["stores"]} == {
        "graph", "fulltext", "vector", "tenant_index", "index_snapshot", "change_log", "vault",
        "export_dir", "tombstones",
    }  # fmt: skip
    bad = await papi.call("admin", "POST", url, json={"probes": ["x"], "unknown": 1})
    assert bad.status_code == 422
    await papi.call("admin", "DELETE", f"/v1/groups/{g}", params={"purge_tombstones": "true"})
