"""``graphmem eval temporal`` (EVAL.md §1): run the temporal suite against a live graph.

Steps for each case, each in a fresh group of its own (``<group_id>-<run id>``, so reruns never
collide): ingest its episodes one ``add_episodes`` call each and its explicit facts one
``add_facts`` call each, in the given order or shuffled with a fixed seed (late arrivals are real);
ask every question through the structured read (``facts_about``), search (``search``) and, for
history questions, the SUPERSEDES chain; forget the group. Scoring lives in ``temporal_score``,
aggregation and the table in ``temporal_report``.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from eval.temporal_report import all_failures
from eval.temporal_score import (
    CaseSpec,
    Outcome,
    Question,
    history_ok,
    search_ok,
    structured_ok,
)
from graphmem.errors import GraphMemError
from graphmem.memory import GraphMemory
from graphmem.models.episode import EpisodeIn
from graphmem.models.fact import FactIn

SHUFFLE_SEED = 20240601
SEARCH_K = 10


def load_cases(
    path: Path, limit: int | None = None, only: str | None = None, split: str | None = None
) -> list[CaseSpec]:
    """Parse the JSONL suite; ``only`` keeps cases whose id starts with it, ``split`` those of one
    split (dev or test; cases without one belong to no split), ``limit`` the first N."""
    cases = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                case = CaseSpec.model_validate(json.loads(line))
            except ValidationError as exc:
                raise ValueError(f"{path}:{number}: invalid case: {_one_line(exc)}") from exc
            except (ValueError, GraphMemError) as exc:
                raise ValueError(f"{path}:{number}: invalid case: {exc}") from exc
            if (only is None or case.case_id.startswith(only)) and split in (None, case.split):
                cases.append(case)
    return cases[:limit] if limit is not None else cases


def _one_line(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())


def ingest_plan(case: CaseSpec) -> list[EpisodeIn | FactIn]:
    """Episodes then facts as listed, or all of them shuffled with a seed fixed per case."""
    items: list[EpisodeIn | FactIn] = [*case.episodes, *case.facts]
    if case.ingest_order == "shuffled":
        random.Random(f"{SHUFFLE_SEED}:{case.case_id}").shuffle(items)
    return items


async def ingest(memory: GraphMemory, group_id: str, case: CaseSpec) -> None:
    for item in ingest_plan(case):
        if isinstance(item, EpisodeIn):
            await memory.add_episodes(group_id, [item])
        else:
            await memory.add_facts(group_id, [item])


async def ask(memory: GraphMemory, group_id: str, case: CaseSpec, q: Question) -> Outcome:
    base = {
        "case_id": case.case_id,
        "q_id": q.q_id,
        "kind": q.kind,
        "source": case.source,
        "lang": case.lang,
        "category": case.category,
        "split": case.split,
        "query": q.query,
    }
    if q.kind == "history":
        facts = await memory.facts_about(group_id, q.subject, predicate=q.predicate, include_history=True)
        ok, got = history_ok(q, facts)
        return Outcome(**base, expect=q.expect_history, structured=ok, structured_got=got)
    holding = await memory.facts_about(group_id, q.subject, predicate=q.predicate, as_of=q.as_of)
    ok, got = structured_ok(q, holding)
    result = await memory.search(group_id, q.query or q.predicate, as_of=q.as_of, k=SEARCH_K)
    found, ranked = search_ok(q, [hit.fact for hit in result.facts])
    return Outcome(
        **base, expect=q.expect, structured=ok, structured_got=got, search=found, search_got=ranked
    )


def _errored(case: CaseSpec, exc: GraphMemError) -> list[Outcome]:
    reason = f"error: {exc.code}: {exc.message}"
    return [
        Outcome(
            case_id=case.case_id,
            q_id=q.q_id,
            kind=q.kind,
            source=case.source,
            lang=case.lang,
            category=case.category,
            split=case.split,
            query=q.query,
            expect=q.expect_history if q.kind == "history" else q.expect,
            structured=False,
            structured_got=reason,
            search=None if q.kind == "history" else False,
            search_got=None if q.kind == "history" else reason,
        )
        for q in case.questions
    ]


@dataclass
class Run:
    """One pass over the suite: its id (the group suffix) and options."""

    memory: GraphMemory
    keep: bool = False
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])

    def group_of(self, case: CaseSpec) -> str:
        return f"{case.group_id}-{self.run_id}"

    async def case(self, case: CaseSpec) -> list[Outcome]:
        group_id = self.group_of(case)
        try:
            await ingest(self.memory, group_id, case)
            return [await ask(self.memory, group_id, case, q) for q in case.questions]
        except GraphMemError as exc:
            return _errored(case, exc)
        finally:
            await self.cleanup(group_id)

    async def cleanup(self, group_id: str) -> None:
        """Forget the case's group completely (tombstones too): the eval leaves nothing behind."""
        if not self.keep:
            await self.memory.forget_group(group_id, purge_tombstones=True)


async def run_suite(
    memory: GraphMemory, cases: Sequence[CaseSpec], *, concurrency: int = 4, keep: bool = False
) -> tuple[Run, list[Outcome]]:
    """Run every case (up to ``concurrency`` at once; groups are independent) in suite order."""
    run = Run(memory, keep=keep)
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(case: CaseSpec) -> list[Outcome]:
        async with gate:
            return await run.case(case)

    results = await asyncio.gather(*(one(c) for c in cases))
    return run, [o for rows in results for o in rows]


def write_failures(path: Path, outcomes: Sequence[Outcome]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for row in all_failures(outcomes):
            fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
