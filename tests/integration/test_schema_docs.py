"""docs/schema.md stays true: every example query runs against a graph built through the library.

The graph: Alice moves Paris -> Rome, stops working at Acme, says she no longer lives in Berlin
(a value that never held), gets an inferred conflicting home and a retracted fact; Bob corrects his
city; 张伟 moves 北京 -> 上海 and leaves 阿里巴巴. Each ```cypher block of the doc runs with the JSON
params of the ``<!-- params: ... -->`` line above it (placeholders filled from the built graph), in
a READ transaction and through the analysts' read-only gate; the key ones must return known rows.
The doc must also name every property, label, relationship, index and predicate the graph uses.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn, FactIn
from graphmem.models.predicates import VOCABULARY
from graphmem.store.analyst import run_readonly
from graphmem.store.cypher.schema import migrations
from graphmem.store.driver import Store
from graphmem.temporal.normalize import group_token
from tests.conftest import utc

DOC = Path(__file__).resolve().parents[2] / "docs" / "schema.md"
BLOCK = re.compile(r"<!-- params: (?P<params>\{.*?\}) -->\n```cypher\n(?P<query>.*?)\n```", re.DOTALL)
HEADING = re.compile(r"^### (?P<title>.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Example:
    number: int
    title: str
    params: dict[str, Any]
    query: str


def _examples() -> list[Example]:
    text = DOC.read_text(encoding="utf-8")
    headings = [(m.start(), m.group("title")) for m in HEADING.finditer(text)]
    out: list[Example] = []
    for m in BLOCK.finditer(text):
        title = max((h for h in headings if h[0] < m.start()), default=(0, "untitled"))[1]
        number = int(title.split(".", 1)[0]) if title[:1].isdigit() else 0
        out.append(Example(number, title, json.loads(m.group("params")), m.group("query")))
    return out


EXAMPLES = _examples()


def ep(text: str, when: datetime, ext: str, speaker: str, session: str) -> EpisodeIn:
    return EpisodeIn(content=text, reference_time=when, speaker=speaker, session_id=session, external_id=ext)


@dataclass
class Graph:
    group: str
    episodes: dict[str, str]  # external id -> episode id
    alice_id: str
    zhang_id: str
    acme_fact_id: str
    between_batches: datetime  # system time after batch 1, before batch 2
    memory: GraphMemory

    def fill(self, value: Any) -> Any:
        """Replace the doc's placeholders with this graph's ids, token and embeddings."""
        if not isinstance(value, str):
            return value
        fixed = {
            "GROUP": self.group,
            "ENTITY_ID": self.alice_id,
            "FACT_ID": self.acme_fact_id,
            "EPISODE_ID": self.episodes["a1"],
        }
        if value in fixed:
            return fixed[value]
        if value.startswith("EMBED:"):
            vector = self.memory.ctx.embedder.embed([value.removeprefix("EMBED:")])[0]
            return [float(x) for x in vector]
        return value.replace("GROUP_TOKEN", group_token(self.group))

    def params(self, example: Example, **overrides: Any) -> dict[str, Any]:
        return {k: self.fill(v) for k, v in {**example.params, **overrides}.items()}


@pytest.fixture(scope="module")
async def graph(memory: GraphMemory) -> AsyncIterator[Graph]:
    """Built once for the module (the ``group`` fixture is per test); same naming, cleaned up after."""
    group = f"t-{uuid.uuid4().hex[:12]}"
    first = await memory.add_episodes(
        group,
        [
            ep("I live in Paris and I work at Acme.", utc(2024, 1, 10), "a1", "Alice", "s1"),
            ep("I had lunch with Bob in Paris.", utc(2024, 2, 3), "a2", "Alice", "s1"),
            ep("I like jazz.", utc(2024, 3, 1), "a6", "Alice", "s1"),
            ep("I live in Hangzhou.", utc(2024, 3, 1), "b1", "Bob", "s2"),
            ep("我住在北京。", utc(2024, 1, 5), "z1", "张伟", "s3"),
            ep("我在阿里巴巴工作。", utc(2024, 2, 1), "z3", "张伟", "s3"),
            ep("Hello there.", utc(2024, 1, 1), "x1", "Carol", "s9"),
        ],
    )
    await asyncio.sleep(0.01)
    between = datetime.now(UTC)
    await asyncio.sleep(0.01)
    second = await memory.add_episodes(
        group,
        [
            ep("I moved to Rome.", utc(2024, 5, 1), "a3", "Alice", "s1"),
            ep("I no longer work at Acme.", utc(2024, 6, 1), "a4", "Alice", "s1"),
            ep("I no longer live in Berlin.", utc(2024, 6, 15), "a5", "Alice", "s1"),
            ep("Actually I live in Suzhou, not Hangzhou.", utc(2024, 4, 1), "b2", "Bob", "s2"),
            ep("我搬到上海了。", utc(2024, 7, 1), "z2", "张伟", "s3"),
            ep("我不在阿里巴巴工作了。", utc(2024, 8, 1), "z4", "张伟", "s3"),
        ],
    )
    episodes = {o.external_id or "": o.id for o in first.episodes + second.episodes}
    await memory.add_facts(
        group,
        [
            FactIn(
                subject="Alice",
                predicate="lives_in",
                object="Milan",
                valid_from=utc(2024, 6, 1),
                source_kind="inferred",
                confidence=0.4,
            ),
            FactIn(
                subject="Alice",
                predicate="knows",
                object="Bob",
                valid_from=utc(2024, 2, 3),
                evidence_episode_ids=[episodes["a2"]],
            ),
            FactIn(subject="Alice", predicate="job_title", value="designer", valid_from=utc(2024, 1, 10)),
            FactIn(subject="Alice", predicate="owns", value="a boat", valid_from=utc(2024, 2, 1)),
        ],
    )
    [boat] = await memory.facts_about(group, "Alice", predicate="owns")
    await memory.retract_fact(group, boat.id, expected_version=boat.version)
    await memory.forget_episode(group, episodes.pop("x1"))  # leaves a Tombstone
    [acme] = await memory.facts_about(group, "Alice", predicate="works_at", include_history=True)
    [alice] = await memory.find_entities(group, "Alice")
    [zhang] = await memory.find_entities(group, "张伟")
    yield Graph(group, episodes, alice.id, zhang.id, acme.id, between, memory)
    await memory.forget_group(group, purge_tombstones=True)


async def run_both(store: Store, query: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Run in a READ transaction, and through the analysts' gate (EXPLAIN policy + READ + row cap)."""
    rows = await store.read(query, **params)
    gated = await run_readonly(store, query, params, timeout_s=60, row_cap=100_000)
    assert gated.row_count == len(rows) and not gated.truncated
    return rows


def by_number(number: int) -> Example:
    [example] = [e for e in EXAMPLES if e.number == number and "SHOW INDEXES" not in e.query]
    return example


# ---- expectations for the key queries (rows of the graph above) ---------------------------------


def _values(rows: list[dict[str, Any]], *keys: str) -> set[tuple[Any, ...]]:
    return {tuple(r[k] for k in keys) for r in rows}


def check_entity(rows: list[dict[str, Any]], g: Graph) -> None:
    assert [(r["id"], r["name"], r["kind"]) for r in rows] == [(g.alice_id, "Alice", "person")]


def check_current(rows: list[dict[str, Any]], g: Graph) -> None:
    got = _values(rows, "predicate", "value", "tier")
    assert {
        ("lives_in", "Rome", "stated"),
        ("lives_in", "Milan", "inferred"),
        ("likes", "jazz", "stated"),
        ("knows", "Bob", "stated"),
        ("job_title", "designer", "stated"),
    } <= got
    assert {v for p, v, _ in got if p == "lives_in"} == {"Rome", "Milan"}
    assert not {p for p, _, _ in got} & {"works_at", "owns"}  # ended; retracted


def check_history(rows: list[dict[str, Any]], g: Graph) -> None:
    assert [(r["value"], r["tier"], r["replaced"]) for r in rows] == [
        ("Paris", "stated", None),
        ("Rome", "stated", "Paris"),
        ("Milan", "inferred", None),
        ("Berlin", "stated", None),
    ]
    paris, rome, _, berlin = rows
    assert paris["valid_to"] == rome["valid_from"] == rome["replaced_at"] == utc(2024, 5, 1)
    assert berlin["valid_from"] == berlin["valid_to"] == utc(2024, 6, 15)  # empty interval
    assert all(r["expired_at"] is None for r in rows)


def check_chains(rows: list[dict[str, Any]], g: Graph) -> None:
    chains = sorted([h["value"] for h in r["history"]] for r in rows)
    assert chains == [["Berlin"], ["Milan"], ["Paris", "Rome"]]


def check_holds_at(rows: list[dict[str, Any]], g: Graph) -> None:
    got = _values(rows, "predicate", "value")
    assert {
        ("lives_in", "Paris"),
        ("works_at", "Acme"),
        ("likes", "jazz"),
        ("knows", "Bob"),
        ("job_title", "designer"),
    } <= got
    assert {v for p, v in got if p == "lives_in"} == {"Paris"}
    assert ("owns", "a boat") not in got  # retracted


def check_supports(rows: list[dict[str, Any]], g: Graph) -> None:
    assert [(r["external_id"], r["claim"], r["quote"]) for r in rows] == [
        ("a1", "assert", "I live in Paris and I work at Acme."),
        ("a4", "end", "I no longer work at Acme."),
    ]
    assert [r["episode_id"] for r in rows] == [g.episodes["a1"], g.episodes["a4"]]
    assert all(r["start"] == 0 and r["end"] == len(r["quote"]) for r in rows)


def check_episode_facts(rows: list[dict[str, Any]], g: Graph) -> None:
    assert {r["statement"] for r in rows} >= {"Alice lives in Paris", "Alice works at Acme"}


def check_recent_changes(rows: list[dict[str, Any]], g: Graph) -> None:
    changes = _values(rows, "change", "statement")
    assert ("expired", "Bob lives in Hangzhou") in changes
    assert ("expired", "Alice owns a boat") in changes
    assert ("recorded", "Alice lives in Rome") in changes


def check_world_window(rows: list[dict[str, Any]], g: Graph) -> None:
    assert _values(rows, "subject", "predicate", "value", "event") == {
        ("Alice", "works_at", "Acme", "stopped"),
        ("Alice", "lives_in", "Milan", "started"),
    }


def check_conflicts(rows: list[dict[str, Any]], g: Graph) -> None:
    assert [(r["subject"], r["predicate"], r["stated"], r["inferred"]) for r in rows] == [
        ("Alice", "lives_in", "Rome", "Milan")
    ]


def check_corrections(rows: list[dict[str, Any]], g: Graph) -> None:
    assert _values(rows, "subject", "mistaken", "corrected_to", "how") == {
        ("Bob", "Hangzhou", "Suzhou", "corrected"),
        ("Alice", "a boat", None, "retracted"),
    }


def check_fulltext(rows: list[dict[str, Any]], g: Graph) -> None:
    assert {r["statement"] for r in rows} == {"Alice lives in Rome", "Alice works at Acme"}


def check_vector_exact(rows: list[dict[str, Any]], g: Graph) -> None:
    assert 0 < len(rows) <= 5
    assert rows[0]["statement"] in {"Alice lives in Rome", "Alice lives in Milan"}
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)


def check_co_mentions(rows: list[dict[str, Any]], g: Graph) -> None:
    assert {r["entity"] for r in rows} == {"Acme", "Alice", "Bob"}


def check_transcript(rows: list[dict[str, Any]], g: Graph) -> None:
    assert [r["position"] for r in rows] == list(range(6))
    assert [r["content"] for r in rows] == [
        "I live in Paris and I work at Acme.",
        "I had lunch with Bob in Paris.",
        "I like jazz.",
        "I moved to Rome.",
        "I no longer work at Acme.",
        "I no longer live in Berlin.",
    ]


def check_top_entities(rows: list[dict[str, Any]], g: Graph) -> None:
    assert rows[0]["entity"] == "Alice" and rows[0]["as_subject"] >= 6


def check_empty_intervals(rows: list[dict[str, Any]], g: Graph) -> None:
    assert [(r["statement"], r["quotes"]) for r in rows] == [
        ("Alice lives in Berlin", ["I no longer live in Berlin."])
    ]


def check_no_evidence(rows: list[dict[str, Any]], g: Graph) -> None:
    assert {r["statement"] for r in rows} == {
        "Alice lives in Milan",
        "Alice works as designer",
        "Alice owns a boat",
    }


def check_sizes(rows: list[dict[str, Any]], g: Graph) -> None:
    assert rows[0]["episodes"] == 12  # x1 was forgotten


CHECKS: dict[int, Callable[[list[dict[str, Any]], Graph], None]] = {
    1: check_entity,
    2: check_current,
    3: check_history,
    4: check_chains,
    5: check_holds_at,
    7: check_supports,
    8: check_episode_facts,
    9: check_recent_changes,
    10: check_world_window,
    11: check_conflicts,
    12: check_corrections,
    13: check_fulltext,
    14: check_vector_exact,
    16: check_co_mentions,
    17: check_transcript,
    18: check_top_entities,
    19: check_empty_intervals,
    20: check_no_evidence,
    21: check_sizes,
}


# ---- tests ---------------------------------------------------------------------------------------


def test_doc_has_enough_runnable_examples() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.count("```cypher") == len(EXAMPLES), "every cypher block needs a params line above it"
    assert len({e.number for e in EXAMPLES if e.number}) >= 12
    for example in EXAMPLES:
        for name in re.findall(r"\$(\w+)", example.query):
            assert name in example.params, f"{example.title}: ${name} has no value in the params line"


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{i:02d}-{e.title[:40]}" for i, e in enumerate(EXAMPLES)])
async def test_example_runs(example: Example, graph: Graph, store: Store) -> None:
    rows = await run_both(store, example.query, graph.params(example))
    check = CHECKS.get(example.number) if "SHOW INDEXES" not in example.query else None
    if check is not None:
        check(rows, graph)
    if "SHOW INDEXES" in example.query:
        names = {r["name"] for r in rows}
        assert {"fact_text", "episode_text", "entity_text", "fact_embedding", "fact_group_slot"} <= names


async def test_holds_at_and_known_at_with_other_times(graph: Graph, store: Store) -> None:
    later = await run_both(store, by_number(5).query, graph.params(by_number(5), at="2024-06-15T00:00:00Z"))
    got = _values(later, "predicate", "value")
    assert {v for p, v in got if p == "lives_in"} == {"Rome", "Milan"}  # not Berlin: [t, t) holds never
    assert "works_at" not in {p for p, _ in got}
    example = by_number(6)

    async def homes(known_at: str) -> dict[str, set[str]]:
        rows = await run_both(store, example.query, graph.params(example, known_at=known_at))
        out: dict[str, set[str]] = {}
        for r in rows:
            if r["predicate"] == "lives_in":
                out.setdefault(r["subject"], set()).add(r["value"])
        return out

    # before the correction was ingested we believed Hangzhou; now we know it was Suzhou
    assert await homes(graph.between_batches.isoformat()) == {
        "Alice": {"Paris"},
        "Bob": {"Hangzhou"},
        "张伟": {"北京"},
    }
    assert await homes(datetime.now(UTC).isoformat()) == {
        "Alice": {"Paris"},
        "Bob": {"Suzhou"},
        "张伟": {"北京"},
    }
    assert await homes("2020-01-01T00:00:00Z") == {}


async def test_chinese_examples(graph: Graph, store: Store) -> None:
    current = await run_both(store, by_number(2).query, graph.params(by_number(2), name="张伟"))
    assert _values(current, "predicate", "value") == {("lives_in", "上海")}
    chains = await run_both(store, by_number(4).query, graph.params(by_number(4), entity_id=graph.zhang_id))
    assert [[h["value"] for h in r["history"]] for r in chains] == [["北京", "上海"]]
    lucene = "+group_token:GROUP_TOKEN +search_text:(上海)"
    found = await run_both(store, by_number(13).query, graph.params(by_number(13), lucene=lucene))
    assert {r["statement"] for r in found} == {"张伟 lives in 上海"}
    transcript = await run_both(store, by_number(17).query, graph.params(by_number(17), session_id="s3"))
    assert [r["content"] for r in transcript] == [
        "我住在北京。",
        "我在阿里巴巴工作。",
        "我搬到上海了。",
        "我不在阿里巴巴工作了。",
    ]


async def test_group_token_keeps_tenants_apart(graph: Graph, store: Store) -> None:
    other = graph.params(
        by_number(13), lucene=f"+group_token:{group_token(graph.group + '-x')} +search_text:(rome OR acme)"
    )
    assert await run_both(store, by_number(13).query, other) == []


async def test_doc_names_everything_the_graph_holds(graph: Graph, store: Store) -> None:
    """Every property, label, relationship type, index and predicate in use is documented."""
    text = DOC.read_text(encoding="utf-8")

    def documented(name: str) -> bool:
        return f"`{name}`" in text

    rows = await store.read(
        """
        CALL () {
          MATCH (n {group_id: $group_id}) RETURN labels(n) AS labels, keys(n) AS keys
          UNION ALL MATCH (n:Group {id: $group_id}) RETURN labels(n) AS labels, keys(n) AS keys
          UNION ALL MATCH (n) WHERE n:SchemaMigration OR n:GraphmemMeta RETURN labels(n) AS labels, keys(n) AS keys
        }
        UNWIND labels AS label UNWIND keys AS key
        RETURN DISTINCT label, key
        """,
        group_id=graph.group,
    )
    labels = {r["label"] for r in rows}
    assert {"Episode", "Entity", "Fact", "Group", "Tombstone", "SchemaMigration", "GraphmemMeta"} <= labels
    missing = sorted(f"{r['label']}.{r['key']}" for r in rows if not documented(r["key"]))
    assert not missing, f"undocumented properties: {missing}"
    assert all(f"`:{label}`" in text for label in labels)
    rels = await store.read(
        "MATCH (a {group_id: $group_id})-[r]->() UNWIND (CASE WHEN size(keys(r)) = 0 THEN [null] "
        "ELSE keys(r) END) AS key RETURN DISTINCT type(r) AS type, key",
        group_id=graph.group,
    )
    types = {r["type"] for r in rels}
    assert types == {"SUBJECT", "OBJECT", "SUPERSEDES", "EVIDENCED_BY", "MENTIONS", "NEXT"}
    assert all(f"[:{t}" in text for t in types)
    assert all(documented(r["key"]) for r in rels if r["key"])
    names = {
        m.group(1)
        for migration in migrations(384)
        for statement in migration.statements
        if (m := re.search(r"CREATE (?:\w+ )*(?:INDEX|CONSTRAINT) (\w+)", statement))
    }
    assert names and all(map(documented, names)), [n for n in names if not documented(n)]
    assert all(map(documented, VOCABULARY)), "every canonical predicate is in the vocabulary table"
