"""``graphmem eval ingest``: batch-ingest speed against the embedder's (issue 6, ``docs/ingest.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from graphmem_cli.common import count_option, guarded, run_eval


def _table(r: dict[str, Any]) -> str:
    rows = [
        ("episodes read / ingested", f"{r['episodes']:,} / {r['ingested']:,} ({r['batches']} batches)"),
        ("duplicates / rejected", f"{r['duplicates']:,} / {r['rejected']:,}"),
        ("ingest", f"{r['ingest_episodes_per_s']} episodes/s ({r['ingest_seconds']} s)"),
        ("embed only", f"{r['embed_only_per_s']} episodes/s (before, after: {r['embed_only_before_after']})"),
        ("ratio (target >= 0.8)", str(r["ratio"])),
        ("peak RSS", f"{r['peak_rss_mb']} MiB"),
        ("load average", json.dumps(r["load_average"])),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


@click.command("ingest")
@count_option("--episodes", default=20_000, help="Synthetic turns (one tenant).")
@click.option("--seed", type=int, default=7, show_default=True)
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Ingest this JSONL file instead of the synthetic tenant.",
)
@count_option("--batch-size", default=256, help="Episodes per write transaction.")
@count_option("--concurrency", default=2, help="Batches of different groups in flight.")
@count_option(
    "--embed-sample",
    default=1000,
    help="Texts the embed-only rate is measured on (before and after ingesting).",
)
@click.option("--group", default=None, help="Group to ingest into (default: a fresh one).")
@click.option("--keep", is_flag=True, help="Keep the group (default: forget it afterwards).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def ingest_speed(
    episodes: int,
    seed: int,
    file: Path | None,
    batch_size: int,
    concurrency: int,
    embed_sample: int,
    group: str | None,
    keep: bool,
    as_json: bool,
) -> None:
    """Time batch ingestion of a one-tenant synthetic JSONL file against the embedder alone.

    Prints ingest episodes/s, embed-only episodes/s on the same texts, their ratio, peak RSS and
    the load average (the host's other work changes both rates).

    \b
    Example:
      graphmem eval ingest --episodes 20000 --json
    """
    from eval.ingest_speed import IngestSpeedOptions, run_ingest_speed

    opts = IngestSpeedOptions(
        episodes=episodes,
        seed=seed,
        file=file,
        batch_size=batch_size,
        concurrency=concurrency,
        embed_sample=embed_sample,
        group=group,
        keep=keep,
    )
    result = run_eval(lambda memory, _cfg, log: run_ingest_speed(memory, opts, log))
    click.echo(_table(result))
    if as_json:
        click.echo(json.dumps(result))
