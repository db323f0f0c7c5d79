"""The change log (issue 21, item 1): every write path leaves exactly one ``:Change`` record per
change, in the change's own transaction, totally ordered per group; forget strips the content
of the records naming what it removed and keeps their hashes and its own record."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest

from graphmem.errors import InvalidInput, InvalidTimeRange
from graphmem.memory import GraphMemory
from graphmem.memory.changes import change_context, fact_kind
from graphmem.memory.lifecycle.retarget import new_id
from graphmem.models.changes import Actor, ChangeMeta, ChangeRecord
from graphmem.models.fact import FactChange, FactIn, FactRecord
from graphmem.models.lifecycle import DecayPolicy
from graphmem.store.driver import Store
from tests.integration.test_lifecycle_support import STORY, episode, export_lines, ingest, utc


async def _log(memory: GraphMemory, group: str, **options: object) -> list[ChangeRecord]:
    out: list[ChangeRecord] = []
    cursor = None
    while True:
        page = await memory.changes(group, cursor=cursor, limit=7, **options)  # type: ignore[arg-type]
        out += page.changes
        cursor = page.next_cursor
        if not page.has_more:
            return out


def _last_tx(log: list[ChangeRecord]) -> list[ChangeRecord]:
    return [c for c in log if c.seq == log[-1].seq]


def _facts_of(records: list[ChangeRecord]) -> Counter[tuple[str, str]]:
    return Counter((c.target_ids[0], c.kind) for c in records if c.kind.startswith("fact_"))


def _expected(changes: list[FactChange], op: str) -> Counter[tuple[str, str]]:
    return Counter((c.fact_id, fact_kind(c.change, op)) for c in changes)


async def test_ingest_records_each_episode_and_each_fact_change_once(memory: GraphMemory, group: str) -> None:
    seen: list[ChangeRecord] = []
    for ep in STORY:
        result = await memory.add_episodes(group, [ep])
        log = await _log(memory, group)
        batch = _last_tx(log)
        assert [c for c in log if c not in seen] == batch  # one transaction, appended at the end
        seen = log
        added = [c for c in batch if c.kind == "episode_added"]
        assert [c.target_ids for c in added] == [[e.id] for e in result.episodes]
        assert added[0].occurred_at == ep.reference_time
        assert added[0].content_hash == ep.content_hash() and added[0].payload is not None
        assert _facts_of(batch) == _expected(result.facts, "ingest")
        for c in batch:
            if c.kind.startswith("fact_"):
                assert c.actor.startswith("extractor:rules@") and c.requested_by == "library"
                assert set(c.source_episode_ids) <= {e.id for e in result.episodes}
    kinds = Counter(c.kind for c in seen)
    assert kinds["episode_added"] == len(STORY)
    assert kinds["fact_superseded"] >= 2  # Munich -> Berlin -> Paris
    order = [(c.seq, c.n) for c in seen]
    assert order == sorted(set(order))  # total order, no duplicates
    created = next(c for c in seen if c.kind == "fact_created")
    assert (created.version_before, created.version_after) == (None, 1)


async def test_a_repeated_episode_changes_nothing_and_records_nothing(
    memory: GraphMemory, group: str
) -> None:
    await ingest(memory, group, STORY[:2])
    before = await _log(memory, group)
    await memory.add_episodes(group, STORY[:2])
    assert await _log(memory, group) == before


async def test_explicit_facts_carry_actor_reason_and_consent(memory: GraphMemory, group: str) -> None:
    ids = await ingest(memory, group, STORY[:1])
    fact = FactIn(subject="Alice", predicate="works_at", object="Initech", evidence_episode_ids=[ids["e1"]])
    with change_context(actor=Actor.api_key("k1", "agent"), reason="user asked", consent_id="c-42"):
        result = await memory.add_facts(group, [fact])
    batch = _last_tx(await _log(memory, group))
    assert _facts_of(batch) == _expected(result.facts, "ingest")
    assert {(c.actor, c.actor_role, c.reason, c.consent_id) for c in batch} == {
        ("key:k1", "agent", "user asked", "c-42")
    }
    assert batch[0].source_episode_ids == [ids["e1"]]
    # outside the block the library is the actor again, without reason or consent
    await memory.add_episodes(group, [STORY[1]])
    assert {(c.reason, c.consent_id) for c in _last_tx(await _log(memory, group))} == {(None, None)}


async def test_correct_end_and_retract_each_record_what_they_did(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:5])
    facts = {f.statement: f for f in await memory.list_facts(group)}
    globex = facts["Alice works at Globex"]
    corrected = await memory.correct_fact(group, globex.id, expected_version=globex.version, object="Initech")
    batch = _last_tx(await _log(memory, group))
    by_kind = {c.kind: c for c in batch}
    assert by_kind["fact_corrected"].target_ids == [globex.id]
    assert by_kind["fact_corrected"].version_before == globex.version
    assert by_kind["fact_corrected"].version_after == globex.version + 1
    assert by_kind["fact_created"].target_ids == [corrected.id]
    assert len(batch) == len(by_kind)

    ended = await memory.correct_fact(group, corrected.id, expected_version=corrected.version, end=True)
    assert [(c.kind, c.target_ids) for c in _last_tx(await _log(memory, group))] == [
        ("fact_ended", [ended.id])
    ]

    paris = facts["Alice lives in Paris"]
    with change_context(reason="wrong city"):
        await memory.retract_fact(group, paris.id)
    batch = _last_tx(await _log(memory, group))
    assert ("fact_retracted", [paris.id]) in [(c.kind, c.target_ids) for c in batch]
    assert {c.reason for c in batch} == {"wrong city"}
    history = await _log(memory, group, target=paris.id)
    assert [c.kind for c in history][-1] == "fact_retracted"
    assert all(paris.id in c.target_ids for c in history)


async def test_forget_strips_content_keeps_hashes_and_records_itself(memory: GraphMemory, group: str) -> None:
    ids = await ingest(memory, group)
    before = {c.id: c for c in await _log(memory, group)}
    naming = {cid for cid, c in before.items() if ids["e4"] in c.target_ids + c.source_episode_ids}
    assert naming
    await memory.forget_episode(group, ids["e4"])
    after = {c.id: c for c in await _log(memory, group)}
    assert set(before) <= set(after)  # append-only: nothing is deleted
    for cid in naming:
        assert after[cid].payload is None and after[cid].redacted_at is not None
        assert after[cid].payload_hash == before[cid].payload_hash is not None
    untouched = [cid for cid in before if cid not in naming]
    assert all(after[cid].payload == before[cid].payload for cid in untouched)
    forget = [c for c in after.values() if c.kind == "forget"]
    assert len(forget) == 1 and forget[0].target_ids[0] == ids["e4"]
    assert forget[0].payload is not None and STORY[3].content_hash() in forget[0].payload["content_hashes"]
    assert "Paris" not in str([c.payload for c in after.values()])


async def test_forget_group_keeps_the_log_without_content(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:3])
    before = await _log(memory, group)
    await memory.forget_group(group)
    after = await _log(memory, group)
    assert [c.id for c in after[: len(before)]] == [c.id for c in before]
    assert [c.kind for c in after[len(before) :]] == ["forget"]
    assert all(c.payload is None for c in after[: len(before)])
    # the group starts again after the purge: its records still come after the old ones
    await memory.add_episodes(group, [STORY[0]], allow_forgotten=True)
    again = await _log(memory, group)
    assert [(c.seq, c.n) for c in again] == sorted({(c.seq, c.n) for c in again})
    assert again[-1].seq > after[-1].seq


async def test_forget_entity_names_the_entity_and_its_facts(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:5])
    globex = next(e for e in await memory.find_entities(group, "Globex") if e.name == "Globex")
    fact = next(f for f in await memory.list_facts(group) if f.statement == "Alice works at Globex")
    report = await memory.forget_entity(group, globex.id)
    forget = _last_tx(await _log(memory, group))
    assert forget[0].kind == "forget" and forget[0].target_ids[:1] == [globex.id]
    assert fact.id in forget[0].target_ids and report.facts_deleted == 1
    assert all(c.payload is None for c in await _log(memory, group, target=fact.id) if c.kind != "forget")


async def test_maintain_records_each_archived_fact(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:5])
    policy = DecayPolicy(archive_threshold=10.0, archive_min_idle_days=0)
    report = await memory.maintain(utc(2030, 1, 1), group_id=group, policy=policy)
    assert report.archived > 0
    archived = [c for c in await _log(memory, group) if c.kind == "fact_archived"]
    assert len(archived) == report.archived
    assert {c.actor for c in archived} == {"maintain"}


async def test_import_records_what_it_wrote(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:3])
    records = [r async for r in memory.export_group(group)]
    target = group + "-copy"
    report = await memory.import_records(records, target_group=target)
    imports = [c for c in await _log(memory, target) if c.kind == "import"]
    assert sum(len(c.target_ids) for c in imports) == report.nodes
    assert {c.payload["source_group"] for c in imports if c.payload} == {group}
    assert await export_lines(memory, target)


async def test_the_log_can_be_switched_off(memory: GraphMemory, group: str) -> None:
    quiet = GraphMemory(replace(memory.ctx, change_log=False, search_index=False))
    await quiet.add_episodes(group, STORY[:2])
    assert (await quiet.changes(group)).changes == []


async def test_forget_strips_content_while_the_log_is_off(memory: GraphMemory, group: str) -> None:
    """A forget with the log switched off must still take the content out of earlier records."""
    ids = await ingest(memory, group, STORY[:2])
    quiet = GraphMemory(replace(memory.ctx, change_log=False, search_index=False))
    await quiet.forget_episode(group, ids["e2"])
    log = await _log(memory, group, target=ids["e2"])
    assert log and all(c.payload is None for c in log)
    assert "forget" not in {c.kind for c in await _log(memory, group)}


async def test_filters_and_bad_input(memory: GraphMemory, group: str) -> None:
    await ingest(memory, group, STORY[:2])
    log = await _log(memory, group)
    first = log[0].recorded_at
    assert await _log(memory, group, since=first + timedelta(days=1)) == []
    assert await _log(memory, group, until=first) == []
    with pytest.raises(InvalidTimeRange):
        await memory.changes(group, since=first, until=first)
    with pytest.raises(InvalidInput):
        await memory.changes(group, cursor="x")
    with pytest.raises(InvalidInput):
        ChangeMeta(reason="x" * 501)
    assert await _log(memory, "t-other-" + group) == []


async def test_records_are_readable_by_cypher(memory: GraphMemory, store: Store, group: str) -> None:
    await memory.add_episodes(group, [episode("I live in Oslo.", utc(2020, 1, 1), "o1")])
    result = await memory.cypher(
        "MATCH (c:Change {group_id: $g}) RETURN c.kind AS kind ORDER BY c.seq, c.n", {"g": group}
    )
    assert result.rows[0]["kind"] == "episode_added"


def _shape(fact: FactRecord, ids: Callable[[str], str]) -> tuple[object, ...]:
    return (
        ids(fact.id),
        fact.statement,
        fact.valid_from,
        fact.valid_to,
        fact.recorded_at,
        fact.expired_at,
        sorted(map(ids, fact.supersedes)),
        sorted(map(ids, fact.superseded_by)),
    )


async def _same_facts(memory: GraphMemory, live_group: str, scratch: str) -> None:
    live = await memory.list_facts(live_group, include_history=True)
    copy = await memory.list_facts(scratch, include_history=True)
    assert live
    mapped = sorted(_shape(f, lambda i: new_id(scratch, i)) for f in live)
    assert mapped == sorted(_shape(f, lambda i: i) for f in copy)


async def test_replaying_everything_reproduces_the_live_facts(memory: GraphMemory, group: str) -> None:
    """Issue 21, item 2: same ids (uuid5 of the scratch group and the live id), intervals, system
    times and SUPERSEDES chains."""
    await memory.add_episodes(group, STORY[:2])
    for ep in STORY[2:]:
        await memory.add_episodes(group, [ep])
    scratch = group + "-replay"
    report = await memory.replay_changes(group, scratch)
    assert (report.transactions, report.episodes) == (len(STORY) - 1, len(STORY))
    assert (report.unmatched_facts, report.missing_episodes, report.skipped) == (0, 0, {})
    await _same_facts(memory, group, scratch)


async def test_replay_until_a_time_rebuilds_the_group_as_it_was(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, STORY[:2])
    first = await memory.list_facts(group, include_history=True)
    until = (await _log(memory, group))[-1].recorded_at
    await memory.add_episodes(group, STORY[2:4])
    fact = FactIn(subject="Alice", predicate="works_at", object="Initech")
    await memory.add_facts(group, [fact])
    scratch = group + "-until"
    await memory.replay_changes(group, scratch, until=until)
    copy = await memory.list_facts(scratch, include_history=True)
    assert sorted(_shape(f, lambda i: new_id(scratch, i)) for f in first) == sorted(
        _shape(f, lambda i: i) for f in copy
    )
    everything = await memory.replay_changes(group, group + "-all")
    assert everything.skipped == {"fact_created": 1}  # an explicit fact holds no content to replay
    with pytest.raises(InvalidInput):
        await memory.replay_changes(group, group)
