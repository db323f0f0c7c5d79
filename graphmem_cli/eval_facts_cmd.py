"""``graphmem eval facts``: the graph the configured extractor builds from LoCoMo (EVAL.md §4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from graphmem_cli.common import count_option, fail, guarded, run_eval


@click.command("facts")
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="LoCoMo JSON (locomo10.json schema), e.g. ../shared/data/locomo/locomo_dev.json.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@count_option("--limit", default=None, help="Only the first N conversations.")
@click.option("--conversations", default=None, help="Only these sample ids (comma-separated).")
@count_option("--sessions", default=None, help="Only the first N sessions of each conversation (small runs).")
@click.option(
    "--labels",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Hand labels (JSONL: conversation, dia_id, predicate, statement, label); "
    "default eval/data/facts_labels_dev_v2.jsonl (eval/data/facts_labels_dev.jsonl, an older "
    "extractor's, is reported beside it as a regression set).",
)
@click.option(
    "--dump-sample",
    "dump_sample",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a stratified sample of the facts, with the turns they cite, for labelling "
    "(a scratch file: LoCoMo is CC BY-NC, do not commit it); facts the labels already judge "
    "come with their label.",
)
@count_option("--sample-size", default=300, help="Facts in the --dump-sample file (about).")
@click.option("--keep", is_flag=True, help="Leave the eval groups in Neo4j (debugging).")
@guarded
def facts(
    data: Path,
    as_json: bool,
    limit: int | None,
    conversations: str | None,
    sessions: int | None,
    labels: Path | None,
    dump_sample: Path | None,
    sample_size: int,
    keep: bool,
) -> None:
    """Facts per turn, observation coverage, malformed rate and hand-labelled precision, overall
    and per predicate family, with the configured extractor.

    Each conversation is ingested into its own group, its facts read back, and the group removed.

    \b
    Example:
      graphmem eval facts --data ../shared/data/locomo/locomo_dev.json --json
      graphmem eval facts --data ../shared/data/locomo/locomo_dev.json --dump-sample /tmp/sample.jsonl
    """
    from eval.facts import LABELS, FactsOptions, read_labels, run_facts, table, write_sample

    if labels is not None and not labels.exists():
        fail(f"labels file not found: {labels}")
    opts = FactsOptions(
        data=data,
        conversations=[c.strip() for c in conversations.split(",")] if conversations else None,
        sessions=sessions,
        limit=limit,
        labels=labels or LABELS,
        keep=keep,
    )

    async def work(memory: Any, cfg: Any, log: Any) -> Any:
        result, collected, texts = await run_facts(memory, opts, log)
        result["extractor"] = cfg.extractor
        return result, collected, texts

    try:
        result, collected, texts = run_eval(work)
    except ValueError as exc:
        fail(str(exc))
    click.echo(table(result))
    if dump_sample is not None:
        n = write_sample(dump_sample, collected, texts, sample_size, read_labels(opts.labels))
        click.echo(f"wrote {n} facts to {dump_sample}", err=True)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, default=str))
