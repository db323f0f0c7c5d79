"""``graphmem forget|export|import|reembed|maintain|backup|restore`` (docs/lifecycle.md)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import click

from graphmem.clock import parse_iso
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.memory.lifecycle import records
from graphmem.memory.lifecycle.backup import read_jsonl
from graphmem.models.lifecycle import DecayPolicy, ForgetReport
from graphmem.providers.embedders.factory import embedder_from_settings
from graphmem.providers.extractors.factory import build_extractor
from graphmem.store.driver import Store
from graphmem_cli.common import count_option, ensure_server, fail, guarded, run_async, settings, with_memory


def _time(value: str | None, option: str) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_iso(value)
    except ValueError:
        fail(f"{option}: not an ISO 8601 time: {value!r} (e.g. 2024-05-01T00:00:00Z)")
        raise  # unreachable


def _run(work: Any) -> Any:
    cfg = settings()
    ensure_server(cfg)
    return run_async(with_memory(cfg, work))


@click.command("forget")
@click.option("--group", "group_id", required=True, help="The tenant (group id).")
@click.option("--episode", "episode_id", default=None, help="Forget one episode by id.")
@click.option("--entity", "entity_id", default=None, help="Forget one entity (and its facts) by id.")
@click.option("--before", default=None, help="Forget episodes said before this ISO 8601 time.")
@click.option("--purge-tombstones", is_flag=True, help="Whole group only: drop its tombstones too.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@guarded
def forget(
    group_id: str,
    episode_id: str | None,
    entity_id: str | None,
    before: str | None,
    purge_tombstones: bool,
    yes: bool,
) -> None:
    """Delete memory for good: an episode, an entity, everything before a time, or the whole group.

    With none of --episode/--entity/--before the whole group is purged. Prints what was removed.

    \b
    Example:
      graphmem forget --group alice --episode 3f0c...e1 --yes
      graphmem forget --group alice --before 2024-01-01T00:00:00Z --yes
    """
    chosen = [o for o in (episode_id, entity_id, before) if o is not None]
    if len(chosen) > 1:
        fail("give at most one of --episode, --entity, --before")
    if purge_tombstones and chosen:
        fail("--purge-tombstones applies to a whole-group forget only")
    when = _time(before, "--before")
    what = (
        f"episode {episode_id}"
        if episode_id
        else f"entity {entity_id}"
        if entity_id
        else f"episodes before {before}"
        if before
        else "the WHOLE group"
    )
    if not yes:
        click.confirm(f"Forget {what} of group {group_id}? This cannot be undone", abort=True)

    async def work(memory: GraphMemory) -> ForgetReport:
        if episode_id:
            return await memory.forget_episode(group_id, episode_id)
        if entity_id:
            return await memory.forget_entity(group_id, entity_id)
        if when is not None:
            return await memory.forget_before(group_id, when)
        return await memory.forget_group(group_id, purge_tombstones=purge_tombstones)

    report: ForgetReport = _run(work)
    click.echo(f"{report.describe()} ({what} of group {group_id})")


@click.command("export")
@click.option("--group", "group_id", required=True, help="The tenant (group id) to export.")
@click.option("--since", default=None, help="Only nodes created or updated at/after this ISO 8601 time.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")  # fmt: skip
@guarded
def export(group_id: str, since: str | None, out_path: Path | None) -> None:
    """Export one group as JSONL (header, nodes, relationships) to stdout; a summary goes to stderr.

    \b
    Example:
      graphmem export --group alice > alice.jsonl
      graphmem export --group alice --since 2024-06-01T00:00:00Z --out alice-june.jsonl
    """
    when = _time(since, "--since")
    # bytes, not text: UTF-8 (Chinese stays readable) whatever the locale says
    sink: BinaryIO = out_path.open("wb") if out_path else sys.stdout.buffer

    async def work(memory: GraphMemory) -> tuple[int, int]:
        nodes = rels = 0
        async for record in memory.export_group(group_id, when):
            sink.write((records.dumps(record) + "\n").encode("utf-8"))
            nodes += record["type"] == "node"
            rels += record["type"] == "rel"
        return nodes, rels

    try:
        nodes, rels = _run(work)
    finally:
        sink.flush()
        if out_path:
            sink.close()
    click.echo(f"exported {nodes} nodes and {rels} relationships of group {group_id}", err=True)


def _stdin_records() -> Iterator[dict[str, Any]]:
    stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    for n, line in enumerate(stream, start=1):
        if line.strip():
            yield records.loads(line, line_no=n)


ALLOW_FORGOTTEN = click.option(
    "--allow-forgotten",
    is_flag=True,
    help="Admin: bring back episodes a forget tombstoned, deleting their tombstones.",
)


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--group", "target_group", default=None,
              help="Import into this group instead of the file's (ids are rewritten).")  # fmt: skip
@ALLOW_FORGOTTEN
@guarded
def import_(file: Path, target_group: str | None, allow_forgotten: bool) -> None:
    """Import a JSONL export (idempotent; re-embeds when the file's model differs from yours).
    Forgotten (tombstoned) episodes stay forgotten and are reported, unless --allow-forgotten.

    \b
    Example:
      graphmem import alice.jsonl
      graphmem import alice.jsonl --group alice-copy
      graphmem import alice.jsonl --allow-forgotten
    """
    if str(file) != "-" and not file.exists():
        fail(f"{file}: no such file")
    source = _stdin_records() if str(file) == "-" else read_jsonl(file)

    async def work(memory: GraphMemory) -> Any:
        return await memory.import_records(source, target_group=target_group, allow_forgotten=allow_forgotten)

    click.echo(_run(work).describe())


async def _open_unchecked(cfg: Settings) -> GraphMemory:
    """The store without the start-up model check (that check is what reembed resolves)."""
    store = Store.connect(cfg.effective_uri, auth=cfg.neo4j_auth_tuple, database=cfg.neo4j_database)
    try:
        return await GraphMemory.open(
            store=store,
            embedder=embedder_from_settings(cfg),
            extractor=build_extractor(cfg),
            migrate=False,
        )
    except BaseException:
        await store.close()
        raise


@click.command("reembed")
@count_option("--batch-size", default=256, maximum=10_000, help="Nodes re-embedded per batch.")
@click.option("--no-resume", is_flag=True, help="Start over instead of resuming an interrupted run.")
@click.option("--group", "group_id", default=None,
              help="Only this group (keeps the indexes; needs the same dimension).")  # fmt: skip
@guarded
def reembed(batch_size: int, no_resume: bool, group_id: str | None) -> None:
    """Rewrite every embedding with the configured model (GRAPHMEM_EMBEDDER), resumably.

    Run it after changing the embedding model: the service refuses to start until it is done.

    \b
    Example:
      GRAPHMEM_EMBEDDER=hashing GRAPHMEM_EMBEDDING_DIMENSION=256 graphmem reembed
    """
    cfg = settings()
    ensure_server(cfg)

    async def work() -> Any:
        memory = await _open_unchecked(cfg)
        try:
            return await memory.reembed(batch_size=batch_size, resume=not no_resume, group_id=group_id)
        finally:
            await memory.close()

    click.echo(run_async(work()).describe())


@click.command("maintain")
@click.option("--group", "group_id", default=None, help="Only this group (default: all).")
@click.option("--now", "now_text", default=None, help="Evaluate decay as of this ISO 8601 time.")
@guarded
def maintain(group_id: str | None, now_text: str | None) -> None:
    """Archive facts whose use-decayed importance fell below GRAPHMEM_ARCHIVE_THRESHOLD.

    Policy: GRAPHMEM_DECAY_HALF_LIFE_DAYS, GRAPHMEM_ARCHIVE_THRESHOLD, GRAPHMEM_ARCHIVE_MIN_IDLE_DAYS.

    \b
    Example:
      graphmem maintain --group alice
    """
    cfg = settings()
    now = _time(now_text, "--now")
    policy = DecayPolicy.from_settings(cfg)

    async def work(memory: GraphMemory) -> Any:
        return await memory.maintain(now, group_id=group_id, policy=policy)

    click.echo(_run(work).describe())


@click.command("backup")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="An empty (or new) directory.")  # fmt: skip
@click.option("--group", "group_ids", multiple=True, help="Only these groups (repeatable).")
@guarded
def backup(out_dir: Path, group_ids: tuple[str, ...]) -> None:
    """Logical backup without stopping Neo4j: one JSONL export per group plus manifest.json.

    \b
    Example:
      graphmem backup --out backups/2024-06-12
    """

    async def work(memory: GraphMemory) -> Any:
        return await memory.backup(out_dir, group_ids=list(group_ids) or None)

    click.echo(_run(work).describe())


@click.command("restore")
@click.argument("in_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@ALLOW_FORGOTTEN
@guarded
def restore(in_dir: Path, allow_forgotten: bool) -> None:
    """Restore a backup made by `graphmem backup` (checksums verified; idempotent). Episodes
    forgotten since the backup stay forgotten and are reported, unless --allow-forgotten.

    \b
    Example:
      graphmem restore backups/2024-06-12
    """

    async def work(memory: GraphMemory) -> Any:
        return await memory.restore(in_dir, allow_forgotten=allow_forgotten)

    click.echo(_run(work).describe())


__all__ = ["backup", "export", "forget", "import_", "maintain", "reembed", "restore"]
