"""``graphmem eval facts`` (EVAL.md §4): the graph the configured extractor builds from LoCoMo.

Steps: read the conversations (``eval.facts_data``); ingest each into its own group
(``facts-<run>-<sample_id>``, one episode per turn, ``add_episodes`` in batches); read every fact
with its evidence ids through ``graphmem.store.facts_eval``; forget the groups (unless ``keep``);
score (``eval.facts_metrics``). ``sample`` writes a stratified sample of the facts, with the text of
the turns they cite, for hand labelling: a local scratch file (the turn text is CC BY-NC), never
committed; the committed labels (``eval/data/facts_labels_dev.jsonl``) hold keys and labels only.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.facts_data import FactsConversation, load_conversations
from eval.facts_metrics import (
    ConversationFacts,
    label_of,
    labelled_precision,
    labels_index,
    mid_sentence_names,
    score,
    stratified_sample,
)
from graphmem.memory import GraphMemory
from graphmem.store.facts_eval import facts_with_evidence

LABELS = Path(__file__).with_name("data") / "facts_labels_dev_v2.jsonl"
"""The current hand labels: a seeded stratified sample of the current extractor's facts."""
REGRESSION_LABELS = Path(__file__).with_name("data") / "facts_labels_dev.jsonl"
"""An older extractor's labels, kept as a second regression set (they cover fewer facts)."""
Log = Callable[[str], None]


@dataclass
class FactsOptions:
    data: Path
    conversations: list[str] | None = None
    sessions: int | None = None
    limit: int | None = None
    batch: int = 200
    labels: Path | None = LABELS
    regression_labels: Path | None = REGRESSION_LABELS
    keep: bool = False
    run_id: str = field(default_factory=lambda: time.strftime("%Y%m%d%H%M%S") + uuid.uuid4().hex[:6])


def label_sets() -> list[Path]:
    """Every committed label set (``eval/data/facts_labels_dev*.jsonl``): one run scores them all,
    each on the facts it judges, so a fresh set and the older ones are read side by side."""
    return sorted(LABELS.parent.glob("facts_labels_dev*.jsonl"))


def read_labels(path: Path | None) -> dict[Any, str]:
    """The hand labels (JSONL), or none when the path is None or missing."""
    if path is None or not path.exists():
        return {}
    with path.open(encoding="utf-8") as fh:
        rows = (json.loads(line) for line in fh if line.strip())
        return labels_index(r for r in rows if "_comment" not in r)  # a header row says how they were drawn


async def ingest_one(memory: GraphMemory, conv: FactsConversation, batch: int) -> float:
    began = time.perf_counter()
    for start in range(0, len(conv.episodes), batch):
        await memory.add_episodes(conv.group_id, conv.episodes[start : start + batch])
    return time.perf_counter() - began


async def collect(
    memory: GraphMemory, conversations: Sequence[FactsConversation], opts: FactsOptions, log: Log
) -> tuple[list[ConversationFacts], float]:
    """Ingest and read back every conversation; the groups are forgotten before returning."""
    collected: list[ConversationFacts] = []
    seconds = 0.0
    try:
        for conv in conversations:
            took = await ingest_one(memory, conv, opts.batch)
            seconds += took
            rows = await facts_with_evidence(memory.ctx.store, group_id=conv.group_id)
            log(f"{conv.sample_id}: {len(conv.episodes)} turns, {len(rows)} facts, ingested in {took:.1f}s")
            names = mid_sentence_names(e.content for e in conv.episodes)
            collected.append(
                ConversationFacts(
                    conv.sample_id, len(conv.episodes), conv.speakers, names, conv.observed, rows
                )
            )
    finally:
        if not opts.keep:
            for conv in conversations:
                await memory.forget_group(conv.group_id, purge_tombstones=True)
    return collected, seconds


async def run_facts(
    memory: GraphMemory, opts: FactsOptions, log: Log = lambda _m: None
) -> tuple[dict[str, Any], list[ConversationFacts], dict[str, dict[str, str]]]:
    """The EVAL.md §4 result, the facts per conversation, and each conversation's turn texts."""
    conversations = load_conversations(
        opts.data,
        group_prefix=f"facts-{opts.run_id}",
        conversations=opts.conversations,
        sessions=opts.sessions,
        limit=opts.limit,
    )
    if not conversations:
        raise ValueError(f"no conversations in {opts.data}")
    labels = read_labels(opts.labels)
    log(f"{len(conversations)} conversations, {sum(len(c.episodes) for c in conversations)} turns")
    collected, seconds = await collect(memory, conversations, opts, log)
    result = score(collected, labels)
    if opts.regression_labels is not None and opts.regression_labels != opts.labels:
        rows = [r for conv in collected for r in conv.rows]
        result["regression"] = {
            "labels": opts.regression_labels.name,
            **labelled_precision(rows, read_labels(opts.regression_labels)),
        }
    rows = [r for conv in collected for r in conv.rows]
    result["label_sets"] = {path.name: labelled_precision(rows, read_labels(path)) for path in label_sets()}
    result["ingest_seconds"] = round(seconds, 2)
    texts = {c.sample_id: {d: e.content for d, e in c.turns.items()} for c in conversations}
    return result, collected, texts


def write_sample(
    path: Path,
    collected: Sequence[ConversationFacts],
    texts: dict[str, dict[str, str]],
    size: int,
    labels: dict[Any, str] | None = None,
) -> int:
    """A stratified sample for labelling: keys, the fact, and the turns it cites (scratch file).
    ``label`` is filled in where ``labels`` already judge the fact, so a new round labels only the
    rest."""
    rows = [r for conv in collected for r in conv.rows]
    sample = stratified_sample(rows, size)
    with path.open("w", encoding="utf-8") as fh:
        for row in sample:
            turns = {d: texts[row["conversation"]].get(d, "") for d in row.get("external_ids") or []}
            out = {
                "conversation": row["conversation"],
                "dia_id": (row.get("external_ids") or [""])[0],
                "predicate": row["predicate"],
                "statement": row["statement"],
                "family": row.get("_family"),
                "subject": row.get("subject"),
                "value": row.get("value"),
                "current": row.get("current"),
                "malformed": row.get("_malformed"),
                "quote": row.get("quote"),
                "turns": turns,
                "label": label_of(row, labels or {}),
            }
            fh.write(json.dumps(out, ensure_ascii=False, default=str) + "\n")
    return len(sample)


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(result: dict[str, Any]) -> str:
    head = f"{'family':<14}{'facts':>7}{'per turn':>10}{'coverage':>10}{'malformed':>11}{'precision':>11}{'labelled':>10}"
    lines = [head]
    rows = [*result["by_family"].items(), ("total", result)]
    for name, row in rows:
        lines.append(
            f"{name:<14}{row['facts']:>7}{_cell(row['facts_per_turn']):>10}{_cell(row['coverage']):>10}"
            f"{_cell(row['malformed_rate']):>11}{_cell(row['precision']):>11}{row['labelled']['n']:>10}"
        )
    lines.append(
        f"{result['n_conversations']} conversations, {result['turns']} turns, "
        f"{result['observation_turns']} observation turns; malformed: {result['malformed']['pronoun']} pronoun, "
        f"{result['malformed']['subject']} subject; labels: {result['labels_total']}; "
        f"precision weighted by family: {_cell(result['precision_weighted'])}"
    )
    if "regression" in result:
        reg = result["regression"]
        lines.append(f"regression labels {reg['labels']}: precision {_cell(reg['precision'])} on {reg['n']}")
    for name, got in result.get("label_sets", {}).items():
        lines.append(f"label set {name}: precision {_cell(got['precision'])} on {got['n']}")
    return "\n".join(lines)
