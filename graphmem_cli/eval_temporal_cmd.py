"""``graphmem eval temporal``: the temporal suite (EVAL.md §1)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from graphmem_cli.common import count_option, ensure_server, fail, guarded, run_async, settings, with_memory


@click.command("temporal")
@click.option(
    "--data",
    "data",
    required=True,
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Suite JSONL, one case per line (EVAL.md §1), e.g. eval/data/temporal_suite.jsonl; repeat "
    "to run several files in one pass (e.g. eval/data/temporal_gen_dev.jsonl and _test.jsonl).",
)
@click.option(
    "--split",
    type=click.Choice(["dev", "test", "all"]),
    default="all",
    show_default=True,
    help="Only cases of this split of the generated benchmark (cases without a split are in 'all' only).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@count_option(
    "--concurrency",
    default=4,
    maximum=32,
    help="Cases run at once (each has its own group; answers do not depend on it).",
)
@count_option("--limit", default=None, help="Only the first N cases.")
@click.option("--only", default=None, help="Only cases whose id starts with this, e.g. zh- or en-move.")
@click.option(
    "--failures",
    "failures_out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write every failure (not only the first 20) to this JSONL file.",
)
@click.option("--keep", is_flag=True, help="Leave the eval groups in Neo4j (debugging).")
@guarded
def temporal(
    data: tuple[Path, ...],
    split: str,
    as_json: bool,
    concurrency: int,
    limit: int | None,
    only: str | None,
    failures_out: Path | None,
    keep: bool,
) -> None:
    """Structured, search and history accuracy on a temporal suite, per question kind.

    Each case is ingested into a fresh group of its own (episodes through the configured
    extractor, one call per episode; explicit facts), questioned, then forgotten. Results are
    broken down by language and, for the generated benchmark, by split (dev and test phrasing
    families, each by language).

    \b
    Example:
      graphmem eval temporal --data eval/data/temporal_suite.jsonl --json
      graphmem eval temporal --data eval/data/temporal_gen_dev.jsonl --data eval/data/temporal_gen_test.jsonl
    """
    from eval.temporal import load_cases, run_suite, write_failures
    from eval.temporal_report import summarize, table

    wanted = None if split == "all" else split
    try:
        cases = [c for path in data for c in load_cases(path, only=only, split=wanted)]
    except ValueError as exc:
        fail(str(exc))
    cases = cases[:limit] if limit is not None else cases
    if not cases:
        names = ", ".join(map(str, data))
        fail(
            f"no cases in {names}"
            + (f" matching {only!r}" if only else "")
            + (f" in split {split}" if wanted else "")
        )
    cfg = settings()
    ensure_server(cfg)

    async def work(memory: Any) -> Any:
        return await run_suite(memory, cases, concurrency=concurrency, keep=keep)

    began = time.monotonic()
    run, outcomes = run_async(with_memory(cfg, work))
    elapsed = time.monotonic() - began
    summary = summarize(outcomes, len(cases))
    click.echo(table(summary, outcomes))
    click.echo(f"\n{len(cases)} cases in {elapsed:.1f}s (run {run.run_id}, extractor {cfg.extractor})")
    if failures_out is not None:
        write_failures(failures_out, outcomes)
        click.echo(f"wrote {failures_out}", err=True)
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, default=str))
