"""Analysts' read-only Cypher: results, formats, limits, and a corpus of refused write attempts."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.config import Settings
from graphmem.errors import Forbidden, InvalidInput, ResultTooDeep
from graphmem.memory import GraphMemory
from graphmem.store.analyst import MAX_RESULT_DEPTH, check_plan, check_single_statement, to_json
from graphmem.store.driver import Store
from graphmem_cli.cypher_cmd import cypher as cypher_command
from tests.api.conftest import Api, make_api, seed
from tests.api.cypher_corpus import CORPUS, HARMLESS

NODES = """
MATCH (n {group_id: $g})
RETURN elementId(n) AS eid, labels(n) AS labels, properties(n) AS props ORDER BY eid
"""
RELS = """
MATCH (a {group_id: $g})-[r]->(b)
RETURN elementId(r) AS eid, type(r) AS type, elementId(a) AS a, elementId(b) AS b, properties(r) AS props
ORDER BY eid
"""
SCHEMA = "SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties RETURN * ORDER BY name"
CONSTRAINTS = "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties RETURN * ORDER BY name"
UNGROUPED = "MATCH (n) WHERE n.group_id IS NULL AND NOT n:GraphmemGroup RETURN count(n) AS c"
TOKENS = """
CALL db.labels() YIELD label WITH collect(label) AS labels
CALL db.relationshipTypes() YIELD relationshipType WITH labels, collect(relationshipType) AS types
CALL db.propertyKeys() YIELD propertyKey RETURN labels, types, collect(propertyKey) AS keys
"""


async def dump(store: Store, group: str) -> str:
    """Everything of the group (nodes, relationships, every property including embeddings) plus the
    schema and marker tokens, as one canonical JSON string."""
    state: dict[str, Any] = {
        "nodes": await store.read(NODES, g=group),
        "rels": await store.read(RELS, g=group),
        "indexes": await store.read(SCHEMA),
        "constraints": await store.read(CONSTRAINTS),
    }
    tokens = (await store.read(TOKENS))[0]
    state["markers"] = sorted(
        t for t in tokens["labels"] + tokens["types"] + tokens["keys"] if t.lower().startswith("pwn")
    )
    return json.dumps(state, sort_keys=True, default=str)


async def test_write_and_escape_corpus_is_refused_and_graph_unchanged(api: Api, store: Store) -> None:
    assert len(CORPUS) >= 40
    await seed(api, api.group_a)
    before = await dump(store, api.group_a)
    params = {"g": api.group_a, "url": "file:///etc/hosts"}
    outcomes = []
    for query, status in CORPUS:
        r = await api.call("analyst", "POST", "/v1/cypher", json={"query": query, "params": params})
        outcomes.append((query, r.status_code, r.json().get("details", {}).get("reason")))
        assert r.status_code == status, (query, r.text)
        assert r.json()["code"] == ("forbidden" if status == 403 else "invalid_query"), (query, r.text)
        if status == 403:
            assert r.json()["details"]["reason"], query
    assert await dump(store, api.group_a) == before
    assert sum(1 for _, s, _ in outcomes if s == 403) >= 40


async def test_tricky_reads_run_and_write_nothing(api: Api, store: Store) -> None:
    before = await dump(store, api.group_a)
    for query, expected in HARMLESS:
        r = await api.call("analyst", "POST", "/v1/cypher", json={"query": query})
        assert r.status_code == 200, (query, r.text)
        assert r.json()["rows"] == [{"s": expected}]
    assert await dump(store, api.group_a) == before


async def test_graph_values_are_serialised(api: Api) -> None:
    await seed(api, api.group_a)
    query = """
    match p = (f:Fact {group_id: $g, predicate: 'lives_in'})-[s:SUBJECT]->(e:Entity)
    RETURN f, s, e, p, f.valid_from AS since, duration('P1D') AS d, [1, 2.5, null] AS xs
    ORDER BY f.valid_from LIMIT 1
    """
    r = await api.call("analyst", "POST", "/v1/cypher", json={"query": query, "params": {"g": api.group_a}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["columns"] == ["f", "s", "e", "p", "since", "d", "xs"]
    row = body["rows"][0]
    assert row["f"]["labels"] == ["Fact"] and "embedding" not in row["f"]["properties"]
    assert row["f"]["id"] == row["f"]["properties"]["id"]
    assert row["s"]["type"] == "SUBJECT" and row["s"]["start"] == row["f"]["element_id"]
    assert row["e"]["properties"]["name"] == "Alice"
    assert [n["labels"] for n in row["p"]["nodes"]] == [["Fact"], ["Entity"]]
    assert row["since"].startswith("2024-01-10T09:00:00") and row["d"] == "P1D"
    assert row["xs"] == [1, 2.5, None] and body["truncated"] is False


async def test_csv_format_and_allowed_introspection(api: Api) -> None:
    await seed(api, api.group_a)
    query = "match (e:Entity {group_id: $g}) RETURN e.name AS name, e.aliases AS aliases ORDER BY name"
    r = await api.call(
        "analyst", "POST", "/v1/cypher", json={"query": query, "params": {"g": api.group_a}, "format": "csv"}
    )
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    lines = r.text.splitlines()
    assert lines[0] == "name,aliases" and any(line.startswith("Alice,") for line in lines[1:])
    for query in ("CALL db.labels()", "SHOW INDEXES", "CALL db.schema.visualization()"):
        assert (await api.call("analyst", "POST", "/v1/cypher", json={"query": query})).status_code == 200


async def test_row_cap_timeout_and_invalid_queries(memory: GraphMemory, settings: Settings) -> None:
    async with make_api(memory, settings, cypher_row_cap=3, cypher_timeout_s=0.5) as api:
        r = await api.call(
            "analyst", "POST", "/v1/cypher", json={"query": "UNWIND range(1, 10) AS i RETURN i"}
        )
        assert r.json()["rows"] == [{"i": 1}, {"i": 2}, {"i": 3}] and r.json()["truncated"] is True
        slow = "UNWIND range(1, 2000000000) AS x WITH x WHERE x % 7 = 1234567 RETURN count(x) AS c"
        r = await api.call("analyst", "POST", "/v1/cypher", json={"query": slow})
        assert r.status_code == 504 and r.json()["code"] == "query_timeout"
        r = await api.call("analyst", "POST", "/v1/cypher", json={"query": "MATCH (n RETURN n"})
        assert r.status_code == 400 and r.json()["code"] == "invalid_query"
        for body in (
            {"query": ""},
            {"query": "RETURN 1", "format": "xml"},
            {"query": "RETURN 1", "params": []},
        ):
            assert (await api.call("analyst", "POST", "/v1/cypher", json=body)).status_code == 422


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("RETURN 1;", "RETURN 1"),
        ("RETURN ';' AS s ;  // done", "RETURN ';' AS s "),
        ("RETURN 1 // ;", "RETURN 1 // ;"),
    ],
)
def test_single_statement_lexer(query: str, kept: str) -> None:
    assert check_single_statement(query) == kept


@pytest.mark.parametrize("query", ["RETURN 1; RETURN 2", "RETURN 'x", "RETURN `x", "RETURN 1 /* x", "; ;"])
def test_single_statement_lexer_refuses(query: str) -> None:
    with pytest.raises(Forbidden):
        check_single_statement(query)


@pytest.mark.parametrize("query", ["", "   ", "// only a comment", ";"])
def test_empty_statements_are_invalid(query: str) -> None:
    with pytest.raises(InvalidInput):
        check_single_statement(query)


def _plan(op: str, **args: str) -> dict[str, Any]:
    return {
        "operatorType": "ProduceResults@neo4j",
        "args": {},
        "children": [{"operatorType": op, "args": args}],
    }


@pytest.mark.parametrize(
    ("plan", "query_type", "reason"),
    [
        (None, "r", "no_plan"),
        (_plan("AllNodesScan@other"), "r", "other_database"),
        (_plan("ProcedureCall@neo4j", Details="db.labels() :: (label :: STRING)"), "rw", "not_read_only"),
        (_plan("ProcedureCall@neo4j", Details="weird"), "r", "procedure_not_allowed"),
        (_plan("SetDynamicLabels@neo4j"), "r", "write_operator"),
        (_plan("Anything@neo4j", planner="ADMINISTRATION"), "r", "administration"),
    ],
)
def test_plan_check_refuses(plan: dict[str, Any] | None, query_type: str, reason: str) -> None:
    with pytest.raises(Forbidden) as caught:
        check_plan(plan, query_type=query_type, database="neo4j")
    assert caught.value.details["reason"] == reason


async def test_deeply_nested_result_is_422_result_too_deep(api: Api) -> None:
    """Regression (issue 16, defect 4): ``RETURN reduce(l=[], i IN range(1,300) | [l])`` answered 500
    (PydanticSerializationError, maximum serialization depth); the encoder stops at
    ``MAX_RESULT_DEPTH`` and the API answers 422 ``result_too_deep``, while a result just inside the
    limit still comes back whole."""
    deep = "RETURN reduce(l=[], i IN range(1, 300) | [l]) AS x"
    r = await api.call("analyst", "POST", "/v1/cypher", json={"query": deep})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "result_too_deep"
    assert r.json()["details"] == {"field": "query", "max_depth": MAX_RESULT_DEPTH}
    csv = await api.call("analyst", "POST", "/v1/cypher", json={"query": deep, "format": "csv"})
    assert csv.status_code == 422 and csv.json()["code"] == "result_too_deep"
    inside = f"RETURN reduce(l=[], i IN range(1, {MAX_RESULT_DEPTH - 1}) | [l]) AS x"
    r = await api.call("analyst", "POST", "/v1/cypher", json={"query": inside})
    assert r.status_code == 200, r.text
    value, depth = r.json()["rows"][0]["x"], 0
    while value:
        value, depth = value[0], depth + 1
    assert depth == MAX_RESULT_DEPTH - 1


@pytest.mark.parametrize("wrap", [lambda v: [v], lambda v: {"k": v}, lambda v: (v,)])
def test_encoder_depth_limit_holds_for_every_container(wrap: Any) -> None:
    """Regression (issue 16, defect 4): lists, maps and tuples nested past the limit are refused by
    the encoder itself, whatever serialises its output."""
    value: Any = 1
    for _ in range(MAX_RESULT_DEPTH):
        value = wrap(value)
    assert to_json(value) is not None  # the limit itself is allowed
    with pytest.raises(ResultTooDeep):
        to_json(wrap(value))


def test_json_values() -> None:
    assert (
        to_json(math.nan) == "nan"
        and to_json(b"\x00\x01") == "AAE="
        and to_json((1, {"a": math.inf}))
        == [
            1,
            {"a": "inf"},
        ]
    )


def test_cli_cypher_reads_and_refuses() -> None:
    runner = CliRunner()
    ok = runner.invoke(
        cypher_command, ["UNWIND [1, 2] AS i RETURN i, $name AS n", "-p", "name=x", "--format", "csv"]
    )
    assert ok.exit_code == 0, ok.output
    assert ok.output.splitlines() == ["i,n", "1,x", "2,x"]
    refused = runner.invoke(cypher_command, ["CREATE (:Pwned)"])
    assert refused.exit_code == 1 and "forbidden" in refused.output
    bad = runner.invoke(cypher_command, ["RETURN 1", "--param", "novalue"])
    assert bad.exit_code == 1 and "invalid_input" in bad.output
    assert "Example" in runner.invoke(cypher_command, ["--help"]).output
