"""``graphmem eval ingest``: batch-ingest speed against the embedder's (issue 6, ``docs/ingest.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from graphmem.errors import ConfigError
from graphmem_cli.common import (
    count_option,
    ensure_server,
    guarded,
    log_to_stderr,
    run_async,
    run_eval,
    settings,
    with_memory,
)
from ingest.runner import DEFAULT_CONCURRENCY
from ingest.sources import FORMATS


def _table(r: dict[str, Any]) -> str:
    rows = [
        ("episodes read / ingested", f"{r['episodes']:,} / {r['ingested']:,} ({r['batches']} batches)"),
        ("duplicates / rejected", f"{r['duplicates']:,} / {r['rejected']:,}"),
        ("ingest", f"{r['ingest_episodes_per_s']} episodes/s ({r['ingest_seconds']} s)"),
        ("busy preparing / committing", f"{r['prepare_seconds']} s / {r['commit_seconds']} s"),
        ("embed only", f"{r['embed_only_per_s']} episodes/s (before, after: {r['embed_only_before_after']})"),
        ("ratio (target >= 0.8)", str(r["ratio"])),
        (
            "CPU ms/episode: embed only, ingest",
            f"{r['embed_only_cpu_ms_per_episode']}, {r['ingest_cpu_ms_per_episode']} "
            f"(cpu_ratio {r['cpu_ratio']})",
        ),
        ("peak RSS", f"{r['peak_rss_mb']} MiB"),
        ("load average", json.dumps(r["load_average"])),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


def _concurrencies(value: str | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    try:
        counts = tuple(int(v) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise click.BadParameter("a comma-separated list of counts, e.g. 1,2,4") from exc
    if not counts or any(not 1 <= c <= 256 for c in counts):
        raise click.BadParameter("each concurrency must be 1..256")
    return counts


def _sweep(opts: Any, concurrencies: tuple[int, ...]) -> dict[str, Any]:
    """One run per endpoint concurrency, each with its own memory (the endpoint embedder's bound
    on requests in flight is fixed when it is built)."""
    from eval.ingest_speed import run_ingest_speed

    cfg = settings()
    if cfg.embedder != "openai":
        raise ConfigError(
            f"--embed-concurrency needs GRAPHMEM_EMBEDDER=openai (it is {cfg.embedder})",
            details={"field": "GRAPHMEM_EMBEDDER"},
        )
    ensure_server(cfg)
    runs = []
    for n in concurrencies:
        run_cfg = cfg.model_copy(update={"embed_concurrency": n})
        log_to_stderr(f"endpoint concurrency {n} ({cfg.embed_batch_size} texts per request)")
        report = run_async(with_memory(run_cfg, lambda m: run_ingest_speed(m, opts, log_to_stderr)))
        runs.append({"embed_concurrency": n, "embed_batch_size": cfg.embed_batch_size, **report})
    return {"runs": runs}


_VARIANTS: dict[str, tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]] = {
    "change_log": (("change_log=off", {"change_log": False}), ("change_log=on", {"change_log": True})),
    "pii": (("pii_redact=off", {"pii_redact": False}), ("pii_redact=on", {"pii_redact": True})),
}


def _compare(opts: Any, what: str, repeat: int) -> dict[str, Any]:
    """Off and on, alternating ``repeat`` times in one process (the host's load drifts), each run
    with its own memory; ``ratio`` is on / off of the mean ingest rates."""
    import secrets

    from pydantic import SecretStr

    from eval.ingest_speed import run_ingest_speed

    cfg = settings()
    ensure_server(cfg)
    key = cfg.pii_key or SecretStr(secrets.token_urlsafe(32))  # a throwaway vault key for the run
    runs: list[dict[str, Any]] = []
    for _ in range(repeat):
        for name, update in _VARIANTS[what]:
            run_cfg = cfg.model_copy(update={**update, "pii_key": key} if what == "pii" else update)
            log_to_stderr(f"eval ingest: {name}")
            report = run_async(with_memory(run_cfg, lambda m: run_ingest_speed(m, opts, log_to_stderr)))
            runs.append({"variant": name, **report})
    (off, _), (on, _) = _VARIANTS[what]
    mean = {v: sum(r["ingest_episodes_per_s"] for r in runs if r["variant"] == v) / repeat for v in (off, on)}
    return {"compare": what, "runs": runs, "ratio": round(mean[on] / mean[off], 3) if mean[off] else None}


@click.command("ingest")
@count_option("--episodes", default=20_000, help="Synthetic turns (one tenant).")
@click.option("--seed", type=int, default=7, show_default=True)
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Ingest this file instead of the synthetic tenant.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="jsonl",
    show_default=True,
    help="--file's format, as for graphmem ingest (locomo: one group per conversation).",
)
@count_option("--batch-size", default=256, help="Episodes per write transaction.")
@count_option("--concurrency", default=DEFAULT_CONCURRENCY, help="Batches of different groups in flight.")
@count_option(
    "--embed-sample",
    default=1000,
    help="Texts the embed-only rate is measured on (before and after ingesting).",
)
@click.option(
    "--embed-concurrency",
    "embed_concurrency",
    default=None,
    help="openai embedder: run once per endpoint concurrency (GRAPHMEM_EMBED_CONCURRENCY), e.g. 1,2,4; "
    'the JSON is then {"runs": [...]}.',
)
@click.option(
    "--compare",
    type=click.Choice(sorted(_VARIANTS)),
    default=None,
    help="Run with the setting off and on (GRAPHMEM_CHANGE_LOG, GRAPHMEM_PII_REDACT) in one process; "
    'the JSON is then {"compare", "runs": [...], "ratio": on/off}.',
)
@count_option("--repeat", default=1, help="--compare: off/on pairs to run, alternating.")
@click.option("--group", default=None, help="Group to ingest into (default: a fresh one).")
@click.option("--keep", is_flag=True, help="Keep the group (default: forget it afterwards).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def ingest_speed(
    episodes: int,
    seed: int,
    file: Path | None,
    fmt: str,
    batch_size: int,
    concurrency: int,
    embed_sample: int,
    embed_concurrency: str | None,
    compare: str | None,
    repeat: int,
    group: str | None,
    keep: bool,
    as_json: bool,
) -> None:
    """Time batch ingestion of a one-tenant synthetic JSONL file against the embedder alone.

    Prints ingest episodes/s, embed-only episodes/s on the same texts, their ratio, the time the
    batches spent preparing (extract, embed) and committing, peak RSS and the load average (the
    host's other work changes both rates).

    \b
    Example:
      graphmem eval ingest --episodes 20000 --json
      graphmem eval ingest --file ../shared/data/locomo/locomo_dev.json --format locomo --json
      GRAPHMEM_EMBEDDER=openai ... graphmem eval ingest --episodes 2000 --embed-concurrency 1,2,4
      graphmem eval ingest --episodes 512 --compare change_log --repeat 2 --json
    """
    from eval.ingest_speed import IngestSpeedOptions, run_ingest_speed

    opts = IngestSpeedOptions(
        episodes=episodes,
        seed=seed,
        file=file,
        fmt=fmt,
        batch_size=batch_size,
        concurrency=concurrency,
        embed_sample=embed_sample,
        group=group,
        keep=keep,
    )
    if compare is not None:
        result = _compare(opts, compare, repeat)
        for r in result["runs"]:
            click.echo(f"{r['variant']}\n{_table(r)}")
        click.echo(f"ratio on/off of ingest episodes/s: {result['ratio']}")
        if as_json:
            click.echo(json.dumps(result))
        return
    sweep = _concurrencies(embed_concurrency)
    if sweep is not None:
        runs = _sweep(opts, sweep)
        for r in runs["runs"]:
            click.echo(f"endpoint concurrency {r['embed_concurrency']}\n{_table(r)}")
        if as_json:
            click.echo(json.dumps(runs))
        return
    result = run_eval(lambda memory, _cfg, log: run_ingest_speed(memory, opts, log))
    click.echo(_table(result))
    if as_json:
        click.echo(json.dumps(result))
