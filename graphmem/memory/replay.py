"""Replay a group's change log into a scratch group (``graphmem changes replay``).

Each logged transaction that added episodes is run again, in log order, as one ingestion batch
of the same episodes (read from the live group) with the transaction's own system time: episode
ids become ``uuid5(scratch, live id)`` (``lifecycle.retarget.new_id``, as an import into another
group makes them), and so do the ids of the facts it creates, matched to the live transaction's
``fact_created`` records by statement and valid interval. Replaying everything reproduces the
live facts: the same ids (under that mapping), intervals, system times and SUPERSEDES chains.

Not replayed (counted in ``skipped`` by kind): transactions without episodes — explicit facts,
corrections, retractions, forgets, archiving, imports — whose records hold no content to rebuild
them from; an episode forgotten since is missing from the live group and is left out.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime

from graphmem.errors import InvalidInput
from graphmem.memory import changes, ingestion
from graphmem.memory.context import MemoryContext
from graphmem.memory.lifecycle.retarget import new_id
from graphmem.models.changes import ChangeRecord
from graphmem.models.episode import EpisodeIn
from graphmem.models.fact import FactChange
from graphmem.store import changes as repo


@dataclass
class ReplayReport:
    source: str
    target: str
    until: datetime | None
    transactions: int = 0
    episodes: int = 0
    facts_created: int = 0
    missing_episodes: int = 0
    unmatched_facts: int = 0
    skipped: dict[str, int] = field(default_factory=dict)


async def _log(ctx: MemoryContext, group_id: str, until: datetime | None) -> list[ChangeRecord]:
    out: list[ChangeRecord] = []
    cursor = None
    while True:
        page = await changes.read_changes(ctx, group_id, cursor=cursor, limit=1000)
        out += [c for c in page.changes if until is None or c.recorded_at <= until]
        cursor = page.next_cursor
        if not page.has_more:
            return out


def match_created(made: list[FactChange], logged: list[ChangeRecord]) -> dict[str, str]:
    """Replayed fact id -> live fact id, for the facts one transaction created (pure): matched by
    statement and valid interval, in order among equals."""
    pool: dict[tuple[object, ...], list[str]] = defaultdict(list)
    for rec in logged:
        if rec.kind == "fact_created":
            statement = (rec.payload or {}).get("statement")
            pool[(statement, rec.valid_from, rec.valid_to)].append(rec.target_ids[0])
    found: dict[str, str] = {}
    for change in made:
        if change.change == "created":
            ids = pool.get((change.statement, change.valid_from, change.valid_to))
            if ids:
                found[change.fact_id] = ids.pop(0)
    return found


async def replay(
    ctx: MemoryContext, group_id: str, target: str, *, until: datetime | None = None
) -> ReplayReport:
    if target == group_id:
        raise InvalidInput("replay into another (scratch) group", details={"field": "into"})
    report = ReplayReport(group_id, target, until)
    by_seq: dict[int, list[ChangeRecord]] = defaultdict(list)
    for c in await _log(ctx, group_id, until):
        by_seq[c.seq].append(c)
    skipped: Counter[str] = Counter()
    for seq in sorted(by_seq):
        records = by_seq[seq]
        ids = [c.target_ids[0] for c in records if c.kind == "episode_added"]
        if not ids:
            skipped.update(c.kind for c in records)
            continue
        rows = {r["id"]: r for r in await repo.episodes_for_replay(ctx.store, group_id=group_id, ids=ids)}
        report.missing_episodes += len(set(ids) - set(rows))
        live = [rows[i] for i in ids if i in rows]
        if not live:
            continue
        await _replay_one(ctx, target, live, records, report)
    report.skipped = dict(sorted(skipped.items()))
    return report


async def _replay_one(
    ctx: MemoryContext,
    target: str,
    live: list[dict[str, object]],
    records: list[ChangeRecord],
    report: ReplayReport,
) -> None:
    at = records[0].recorded_at
    scratch = replace(ctx, clock=lambda: at)  # the live transaction's system time
    episodes = [
        EpisodeIn.model_validate(
            {k: r[k] for k in ("content", "reference_time", "speaker", "session_id", "external_id", "source")}
        )
        for r in live
    ]
    batch = await ingestion.prepare_episodes(scratch, target, episodes, allow_forgotten=True)
    wanted = {
        ep.idempotency_key(target): new_id(target, str(r["id"])) for ep, r in zip(episodes, live, strict=True)
    }
    for p in batch.prepared:
        p.id = batch.new_ids[p.key] = wanted[p.key]
    result = await ingestion.commit_episodes(scratch, batch)
    matched = match_created(result.facts, records)
    await repo.rename_facts(
        ctx.store, group_id=target, rows=[{"old": k, "new": new_id(target, v)} for k, v in matched.items()]
    )
    report.transactions += 1
    report.episodes += sum(1 for e in result.episodes if e.status == "created")
    created = [c for c in result.facts if c.change == "created"]
    report.facts_created += len(created)
    report.unmatched_facts += len(created) - len(matched)
