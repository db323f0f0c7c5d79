"""Pure parts of the change log (graphmem/memory/changes.py): record rows, kinds, cursors, the
context that carries the actor."""

from __future__ import annotations

import asyncio
import hashlib

import pytest

from graphmem.errors import InvalidInput
from graphmem.memory.changes import change_context, current, fact_kind, fact_records, parse_cursor, record
from graphmem.memory.facts import FactWrites
from graphmem.models.changes import LIBRARY, Actor, ChangeMeta
from graphmem.models.fact import FactChange
from tests.conftest import utc


def test_every_fact_change_has_a_kind() -> None:
    changes = FactChange.model_fields["change"].annotation.__args__  # type: ignore[union-attr]
    kinds = {fact_kind(c, "ingest") for c in changes}
    assert len(kinds) == len(changes)
    assert fact_kind("expired", "retract") == "fact_retracted"
    assert fact_kind("expired", "correct") == "fact_corrected"


def test_one_record_per_fact_change_with_versions_and_sources() -> None:
    out = FactWrites(
        evidence=[{"fact_id": "f1", "episode_id": "e1"}, {"fact_id": "f1", "episode_id": "old"}],
        changes=[
            FactChange(fact_id="f1", change="created", statement="A lives in B", valid_from=utc(2020, 1, 1)),
            FactChange(fact_id="f0", change="superseded", statement="A lives in C", valid_to=utc(2020, 1, 1)),
            FactChange(fact_id="f9", change="merged", statement=""),
        ],
        versions={"f1": 0, "f0": 3, "f9": 2},
    )
    rows = fact_records(out, meta=ChangeMeta(), op="ingest", now=utc(2025, 1, 1), sources={"e1"})
    assert [(r["kind"], r["target_ids"]) for r in rows] == [
        ("fact_created", ["f1"]),
        ("fact_superseded", ["f0"]),
        ("fact_merged", ["f9"]),
    ]
    assert [(r["version_before"], r["version_after"]) for r in rows] == [(None, 1), (3, 4), (2, None)]
    assert rows[0]["source_episode_ids"] == ["e1"]  # only this write's episodes
    assert rows[0]["occurred_at"] == utc(2020, 1, 1) and rows[1]["occurred_at"] == utc(2020, 1, 1)
    assert rows[2]["payload"] is None


def test_payload_hash_is_of_the_canonical_payload() -> None:
    row = record("fact_created", ["f"], meta=ChangeMeta(), payload={"statement": "Ann 住在 上海"})
    assert row["payload"] == '{"statement":"Ann 住在 上海"}'
    assert row["payload_hash"] == hashlib.sha256(row["payload"].encode()).hexdigest()


def test_an_extractor_actor_names_the_caller_as_requester() -> None:
    meta = ChangeMeta(actor=Actor.api_key("k", "agent"), reason="why", consent_id="c")
    row = record("fact_created", ["f"], meta=meta, actor=Actor.extractor("rules", "1.0"))
    assert (row["actor"], row["actor_role"], row["requested_by"]) == (
        "extractor:rules@1.0",
        "extractor",
        "key:k",
    )
    assert (row["reason"], row["consent_id"]) == ("why", "c")
    assert record("forget", ["e"], meta=meta)["requested_by"] is None


def test_cursors() -> None:
    assert parse_cursor(None) == (-1, -1)
    assert parse_cursor("12.3") == (12, 3)
    for bad in ("12", "a.b", "-1.0", "1.2.3"):
        with pytest.raises(InvalidInput):
            parse_cursor(bad)


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501, "a\x00b"])
def test_reason_bounds(reason: str) -> None:
    with pytest.raises(InvalidInput):
        ChangeMeta(reason=reason)


def test_the_context_is_per_task_and_restored() -> None:
    async def one(name: str) -> str:
        with change_context(actor=Actor.cli(name), reason=name):
            await asyncio.sleep(0)
            return f"{current().actor.id}/{current().reason}"

    async def both() -> list[str]:
        return list(await asyncio.gather(one("a"), one("b")))

    assert asyncio.run(both()) == ["cli:a/a", "cli:b/b"]
    assert current().actor == LIBRARY and current().reason is None
