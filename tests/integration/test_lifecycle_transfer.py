"""Export / import (issue 7): round trip, idempotence, another group, another model, clashes, CLI.

The database is shared with other tests, so "import into an empty database" is played as: export a
group, purge it completely (tombstones too), import the file back, export again, compare.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from graphmem.errors import Conflict, InvalidInput
from graphmem.memory import GraphMemory
from graphmem.memory.lifecycle import records, retarget
from graphmem.memory.lifecycle.backup import read_jsonl
from graphmem.store import reads
from graphmem.store.driver import Store
from graphmem.temporal.normalize import slot_key
from graphmem_cli.main import cli
from tests.integration.test_lifecycle_support import (
    STORY,
    counts,
    episode,
    export_lines,
    ingest,
    seed_file,
    utc,
)

OTHER = [episode("Bob works at Initech.", utc(2022, 3, 1), "b1", speaker="Bob", session="sb")]


ALIAS = (
    "MATCH (x:Entity {group_id: $g, normalized_name: 'paris'}) "
    "SET x:Aliased, x.aliases = ['Paree'], x.alias_keys = ['paree'], x.search_text = 'pari pare'"
)  # what the write path's ADD_ALIASES leaves on an entity that gained an alias


async def _rich_group(memory: GraphMemory, group: str) -> dict[str, str]:
    """Supersession chains, a correction (an expired fact), Chinese text, a tombstone, an alias."""
    ids = await ingest(memory, group)
    await memory.ctx.store.write(ALIAS, g=group)
    extra = await ingest(
        memory,
        group,
        [
            episode("I work at Initech.", utc(2022, 6, 1), "e6"),
            episode("Actually I work at Acme, not Initech.", utc(2022, 6, 2), "e7"),
            episode("I'm on a trip to Tokyo.", utc(2022, 7, 1), "e8"),
        ],
    )
    await memory.forget_episode(group, extra["e8"])
    return {**ids, **extra}


async def _records(memory: GraphMemory, group: str) -> list[dict[str, Any]]:
    return [r async for r in memory.export_group(group)]


async def test_round_trip_into_an_empty_group_is_byte_identical(
    memory: GraphMemory, store: Store, group: str
) -> None:
    other = group + "-other"
    await _rich_group(memory, group)
    await ingest(memory, other, OTHER)
    exported = await _records(memory, group)
    first = records.canonical(exported)
    text = "\n".join(first)
    assert "Initech" in text and "上海" in text and '"label":"Tombstone"' in text
    assert other not in text and "Bob works at Initech." not in text  # one group only
    kinds = {(r["type"], r.get("label") or r.get("rel_type")) for r in exported}
    assert {
        ("rel", t) for t in ("SUBJECT", "OBJECT", "SUPERSEDES", "EVIDENCED_BY", "MENTIONS", "NEXT")
    } <= kinds
    assert any(r.get("label") == "Fact" and r["properties"].get("expired_at") for r in exported)
    assert any(r.get("labels") == ["Aliased", "Entity"] for r in exported)
    before = await counts(store, group)

    await memory.forget_group(group, purge_tombstones=True)
    assert await export_lines(memory, group) == records.canonical([exported[0]])  # empty: header only
    report = await memory.import_records(exported)

    assert report.nodes == sum(r["type"] == "node" for r in exported) and report.reembedded == 0
    assert report.relationships == sum(r["type"] == "rel" for r in exported)
    assert report.relationships_skipped == 0 and report.groups == [group]
    assert await export_lines(memory, group) == first
    assert await counts(store, group) == before
    again = await memory.import_records(exported)  # idempotent
    assert again.nodes == report.nodes
    assert await export_lines(memory, group) == first
    stats = await reads.group_stats(store, group_id=group)
    assert (stats["episodes"], stats["facts"], stats["entities"]) == (
        before["episodes"],
        before["facts"],
        before["entities"],
    )
    await _still_works(memory, group)
    await memory.forget_group(other, purge_tombstones=True)


async def _still_works(memory: GraphMemory, group: str) -> None:
    result = await memory.search(group, "Where does Alice live?")
    assert "Alice lives in Paris" in {h.fact.statement for h in result.facts}
    assert [e.name for e in await memory.find_entities(group, "Paree")] == ["Paris"]  # :Aliased kept
    assert "张伟 lives in 上海" in {f.statement for f in await memory.facts_about(group, "张伟")}
    statuses = [e.status for e in (await memory.add_episodes(group, STORY[:2])).episodes]
    assert statuses == ["existing", "existing"]  # idempotency keys survived
    tokyo = episode("I'm on a trip to Tokyo.", utc(2022, 7, 1), "e8")
    assert [e.status for e in (await memory.add_episodes(group, [tokyo])).episodes] == ["forgotten"]


async def test_import_into_another_group_rewrites_ids_and_keys(
    memory: GraphMemory, store: Store, group: str
) -> None:
    await _rich_group(memory, group)
    exported = await _records(memory, group)
    copy = group + "-copy"

    report = await memory.import_records(exported, target_group=copy)

    assert report.groups == [copy] and report.tombstones_skipped == 1
    original, copied = await counts(store, group), await counts(store, copy)
    assert {**original, "tombstones": 0} == copied
    statements = sorted(f.statement for f in await memory.list_facts(group, include_history=True))
    copied_facts = await memory.list_facts(copy, include_history=True)
    assert sorted(f.statement for f in copied_facts) == statements
    assert not {f.id for f in copied_facts} & {
        f.id for f in await memory.list_facts(group, include_history=True)
    }
    paris = next(f for f in copied_facts if f.statement == "Alice lives in Paris")
    assert paris.supersedes and all(e.episode_id for e in paris.evidence)
    assert [e.status for e in (await memory.add_episodes(copy, STORY[:1])).episodes] == ["existing"]
    again = await memory.import_records(exported, target_group=copy)
    assert again.nodes == report.nodes and await counts(store, copy) == copied
    await memory.forget_group(copy, purge_tombstones=True)


def _as_other_model(exported: list[dict[str, Any]], dimension: int = 16) -> list[dict[str, Any]]:
    out = json.loads(json.dumps(exported))
    out[0].update(embedding_model="someone/else", dimension=dimension)
    for record in out:
        if record["type"] == "node" and "embedding" in record["properties"]:
            record["properties"]["embedding"] = [0.25] * dimension
    return out


async def test_a_file_from_another_model_is_reembedded(memory: GraphMemory, store: Store, group: str) -> None:
    ids = await ingest(memory, group, STORY[:3])
    foreign = _as_other_model(await _records(memory, group))
    target = group + "-model"

    report = await memory.import_records(foreign, target_group=target)

    embedded = sum(1 for r in foreign if r["type"] == "node" and r["label"] != "Tombstone")
    assert report.reembedded == embedded
    rows = await store.read(
        "MATCH (e:Episode {group_id: $g}) RETURN e.content AS content, e.speaker AS speaker, "
        "e.embedding AS v",
        g=target,
    )
    assert len(rows) == len(ids)
    texts = [f"{r['speaker']}: {r['content']}" if r["speaker"] else r["content"] for r in rows]
    expected = memory.ctx.embedder.embed(texts)  # episodes embed as "speaker: content"
    assert np.allclose(np.asarray([r["v"] for r in rows]), expected, atol=1e-5)
    result = await memory.search(target, "I moved to Berlin.", recipe="default")
    assert "I moved to Berlin." in {h.episode.content for h in result.episodes}
    await memory.forget_group(target, purge_tombstones=True)


async def test_clashes_and_malformed_files_are_refused(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:1])
    exported = await _records(memory, group)
    renamed = json.loads(json.dumps(exported))
    for record in renamed:
        if record.get("label") == "Entity":
            record["properties"]["id"] = str(uuid.uuid4())  # same name, another id
    with pytest.raises(Conflict):
        await memory.import_records(renamed)
    stranger = json.loads(json.dumps(exported))
    stranger[1]["properties"]["group_id"] = "someone-else"
    with pytest.raises(InvalidInput):
        await memory.import_records(stranger)
    with pytest.raises(InvalidInput):
        await memory.import_records(exported[1:])  # no header
    future = [{**exported[0], "format_version": 99}]
    with pytest.raises(InvalidInput):
        await memory.import_records(future)
    foreign = json.loads(json.dumps(exported))
    foreign[1]["properties"]["group_id"] = foreign[0]["group_id"] = group + "-x"
    with pytest.raises(Conflict):  # the same node id already lives in another group
        await memory.import_records(foreign[:2])


async def test_export_since_carries_only_newer_nodes(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:2])
    cut = memory.ctx.clock()
    await ingest(memory, group, STORY[5:6])

    newer = [r async for r in memory.export_group(group, cut)]

    contents = {r["properties"].get("content") for r in newer if r.get("label") == "Episode"}
    assert contents == {STORY[5].content}
    assert newer[0]["since"] == cut.isoformat()


def test_cli_export_forget_import(memory: GraphMemory, group: str, tmp_path: Path) -> None:
    """The commands as users run them (sync test: each command runs its own event loop)."""
    runner = CliRunner()
    del memory  # the fixture stamped and migrated the database
    seed = runner.invoke(cli, ["import", "-"], input=seed_file(group))
    assert seed.exit_code == 0, seed.output
    out = tmp_path / "g.jsonl"

    exported = runner.invoke(cli, ["export", "--group", group, "--out", str(out)])

    assert exported.exit_code == 0, exported.output
    assert "exported" in exported.output and "我住在上海。" in out.read_text(encoding="utf-8")
    refused = runner.invoke(cli, ["forget", "--group", group], input="n\n")
    assert refused.exit_code != 0
    purged = runner.invoke(cli, ["forget", "--group", group, "--purge-tombstones", "--yes"])
    assert purged.exit_code == 0 and "forgot 1 episodes" in purged.output
    imported = runner.invoke(cli, ["import", str(out)])
    assert imported.exit_code == 0 and "imported" in imported.output
    again = runner.invoke(cli, ["export", "--group", group])
    assert records.canonical([json.loads(x) for x in again.stdout.splitlines()]) == records.canonical(
        read_jsonl(out)
    )
    episode_id = next(r["properties"]["id"] for r in read_jsonl(out) if r.get("label") == "Episode")
    one = runner.invoke(cli, ["forget", "--group", group, "--episode", episode_id, "--yes"])
    assert one.exit_code == 0 and "forgot 1 episodes" in one.output and "1 tombstones written" in one.output
    missing = runner.invoke(cli, ["forget", "--group", group, "--episode", episode_id, "--yes"])
    assert missing.exit_code != 0 and "not_found" in missing.output
    bad = runner.invoke(cli, ["forget", "--group", group, "--before", "not-a-time", "--yes"])
    assert bad.exit_code != 0 and "ISO 8601" in bad.output
    runner.invoke(cli, ["forget", "--group", group, "--purge-tombstones", "--yes"])


def test_records_keep_types_and_compare_canonically() -> None:
    """Pure: datetimes come back as datetimes, look-alike text stays text, exported_at is ignored."""
    props = {"id": "x", "valid_from": utc(2024, 5, 1), "value": "2024-05-01T00:00:00+00:00", "n": 1.5}
    record = records.node_record("Fact", props, ["Fact"])
    assert record["datetimes"] == ["valid_from"] and "labels" not in record
    assert records.decode_properties(json.loads(records.dumps(record))) == props
    header = records.header(group_id="g", model="m", dimension=3, exported_at=utc(2024, 1, 1), since=None)
    later = {**header, "exported_at": utc(2025, 1, 1).isoformat()}
    assert records.canonical([header, record]) == records.canonical([record, later])
    assert records.node_record("Entity", {"id": "y"}, ["Entity", "Aliased"])["labels"] == [
        "Aliased",
        "Entity",
    ]


def test_retargeting_rewrites_every_group_derived_field() -> None:
    """Pure: ids, slot, claims and episode keys follow the new group, deterministically."""
    claim = json.dumps({"ref": "ep1:0", "episode_id": "ep1", "object_id": "o1", "kind": "assert"})
    fact = {
        "id": "f1",
        "group_id": "a",
        "subject_id": "s1",
        "object_id": "o1",
        "predicate": "lives_in",
        "value": "Paris",
        "qualifier": "",
        "slot": "old",
        "claims": [claim],
    }
    moved = retarget.node("Fact", fact, "b")
    assert moved is not None and moved == retarget.node("Fact", fact, "b")
    assert moved["group_id"] == "b" and moved["id"] == retarget.new_id("b", "f1") != "f1"
    assert moved["slot"] == slot_key(retarget.new_id("b", "s1"), "lives_in", "Paris")
    data = json.loads(moved["claims"][0])
    assert data["episode_id"] == retarget.new_id("b", "ep1") and data["ref"].endswith(":0")
    ep = STORY[0]
    stored = {"id": "e", "content": ep.content, "reference_time": ep.reference_time, "speaker": ep.speaker,
              "session_id": ep.session_id, "external_id": ep.external_id}  # fmt: skip
    assert retarget.node("Episode", stored, "b")["key"] == ep.idempotency_key("b")  # type: ignore[index]
    assert retarget.node("Tombstone", {"key": "k"}, "b") is None
