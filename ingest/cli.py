"""The ``ingest`` command, shared by ``graphmem ingest`` and ``python -m ingest``.

It lives here rather than in ``graphmem_cli`` so ``python -m ingest`` does not reach up a layer;
``graphmem_cli.ingest_cmd`` re-exports it. Exit codes: 0 all good, 3 some records rejected,
1 fatal error, 2 bad usage (click).
"""

from __future__ import annotations

import asyncio
import json
import sys
from contextlib import AbstractContextManager
from pathlib import Path

import click

from graphmem.config import Settings
from graphmem.errors import GraphMemError
from ingest.checkpoint import Checkpoint
from ingest.progress import MODES, open_progress, total_bytes
from ingest.runner import DEFAULT_CONCURRENCY, IngestOptions, run_ingest
from ingest.sources import FORMATS
from ingest.summary import EXIT_FATAL, Summary

EXIT_INTERRUPTED = 130

EPILOG = """\b
Examples:
  graphmem ingest chats.jsonl.gz --format jsonl --group acme
  graphmem ingest export.csv --format csv --group acme --csv-map content=text --csv-map timestamp=ts
  graphmem ingest chats.jsonl --format jsonl --group acme --resume   # after a crash
"""


@click.command("ingest", epilog=EPILOG)
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), required=True, help="Input format.")
@click.option("--group", help="Group id for records without one (LoCoMo: prefix of each conversation).")
@click.option(
    "--group-field", default="group_id", show_default=True, help="Record field holding the group id."
)
@click.option("--timezone", default="UTC", show_default=True, help="Zone of naive timestamps (IANA name).")
@click.option(
    "--batch-size",
    type=click.IntRange(1, 5000),
    default=256,
    show_default=True,
    help="Episodes per write transaction.",
)
@click.option(
    "--concurrency",
    type=click.IntRange(1, 64),
    default=DEFAULT_CONCURRENCY,
    show_default=True,
    help="Batches of different groups in flight.",
)
@click.option(
    "--retries",
    type=click.IntRange(0, 20),
    default=5,
    show_default=True,
    help="Retries of a batch on transient store errors.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue after the last committed batch (from the start if no checkpoint).",
)
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Checkpoint file (default: .graphmem/ingest/<hash>.checkpoint.json).",
)
@click.option(
    "--dead-letter",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Rejected records, JSONL (default: next to the checkpoint).",
)
@click.option(
    "--csv-map", multiple=True, metavar="FIELD=COLUMN", help="CSV column of an episode field (repeatable)."
)
@click.option("--allow-forgotten", is_flag=True, help="Re-add episodes that were forgotten (deleted) before.")
@click.option(
    "--progress",
    type=click.Choice(MODES),
    default="auto",
    show_default=True,
    help="Bar on a terminal, plain lines otherwise.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object on stdout.")
def ingest(
    paths: tuple[Path, ...],
    fmt: str,
    group: str | None,
    group_field: str,
    timezone: str,
    batch_size: int,
    concurrency: int,
    retries: int,
    resume: bool,
    checkpoint: Path | None,
    dead_letter: Path | None,
    csv_map: tuple[str, ...],
    allow_forgotten: bool,
    progress: str,
    as_json: bool,
) -> None:
    """Ingest conversation logs (JSONL, OpenAI chat, LoCoMo, CSV; plain or .gz) in batches.

    Exit codes: 0 all records ingested (or already present), 3 some records rejected (see the
    dead-letter file), 1 fatal error (run again with --resume).

    \b
    Example:
      graphmem ingest logs/*.jsonl --format jsonl --group acme --batch-size 256
    """
    try:
        cfg = Settings()
        options = IngestOptions(
            paths=paths,
            fmt=fmt,
            group=group,
            group_field=group_field,
            timezone=timezone,
            csv_mapping=parse_csv_map(csv_map),
            batch_size=batch_size,
            concurrency=concurrency,
            max_retries=retries,
            resume=resume,
            checkpoint=checkpoint,
            dead_letter=dead_letter,
            allow_forgotten=allow_forgotten,
            home=cfg.home,
        )
        _ensure_server(cfg)
        summary = asyncio.run(_run(cfg, options, progress))
    except GraphMemError as exc:
        click.echo(f"error: {exc.code}: {exc.message}", err=True)
        sys.exit(EXIT_FATAL)
    except KeyboardInterrupt:
        click.echo("interrupted: committed batches are checkpointed; run again with --resume", err=True)
        sys.exit(EXIT_INTERRUPTED)
    _report(summary, as_json=as_json)
    sys.exit(summary.exit_code)


def parse_csv_map(pairs: tuple[str, ...]) -> dict[str, str] | None:
    """``("content=text", ...)`` as a mapping; BadParameter for a pair without ``=``."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        field, sep, column = pair.partition("=")
        if not sep or not field.strip() or not column.strip():
            raise click.BadParameter(f"expected FIELD=COLUMN, got {pair!r}", param_hint="--csv-map")
        mapping[field.strip()] = column.strip()
    return mapping or None


def _ensure_server(cfg: Settings) -> None:
    """Start the local Neo4j unless NEO4J_URI points elsewhere (as ``graphmem serve`` does)."""
    if cfg.neo4j_uri is None:
        from graphmem.store import local_server

        local_server.start(cfg)


async def _run(cfg: Settings, options: IngestOptions, mode: str) -> Summary:
    from graphmem.memory import GraphMemory

    if not options.resume and options.checkpoint_path.exists():
        click.echo(f"note: starting over; {options.checkpoint_path} exists (--resume continues it)", err=True)
    memory = await GraphMemory.from_settings(cfg)
    try:
        progress = open_progress(
            mode,
            stream=sys.stderr,
            total=total_bytes(options.paths, options.fmt),
            initial=_resumed_bytes(options),
        )
        with _as_cli():
            return await run_ingest(memory, options, progress=progress)
    finally:
        await memory.close()


def _as_cli() -> AbstractContextManager[object]:
    """Change-log actor ``cli:ingest``, with the root's ``--reason``/``--consent-id`` (``graphmem``)."""
    from graphmem.memory.changes import change_context
    from graphmem.models.changes import Actor

    ctx = click.get_current_context(silent=True)
    root = ctx.find_root().params if ctx is not None else {}
    return change_context(
        actor=Actor.cli("ingest"), reason=root.get("reason"), consent_id=root.get("consent_id")
    )


def _resumed_bytes(options: IngestOptions) -> int:
    """Input bytes already ingested by earlier runs (where the progress bar starts)."""
    if not options.resume:
        return 0
    checkpoint = Checkpoint.load(options.checkpoint_path)
    return sum(checkpoint.get(path).offset for path in options.paths)


def _report(summary: Summary, *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(summary.to_dict(), sort_keys=True))
        if summary.error:
            click.echo(f"error: {summary.error}", err=True)
    else:
        click.echo(summary.render())
