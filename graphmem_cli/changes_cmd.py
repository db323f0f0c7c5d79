"""``graphmem changes``: read a group's change log; and the CLI's change-log actor.

Every write a CLI command makes is recorded with actor ``cli:<command>`` and the root options
``graphmem --reason TEXT --consent-id ID <command> ...`` (``cli_change_context``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import click

from graphmem.memory import GraphMemory
from graphmem.memory.changes import change_context
from graphmem.models.changes import Actor, ChangeMeta
from graphmem_cli.common import ensure_server, guarded, run_async, settings, with_memory


@contextmanager
def cli_change_context() -> Iterator[ChangeMeta]:
    """Writes inside are recorded as ``cli:<subcommand>`` with the root's --reason/--consent-id."""
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root() if ctx is not None else None
    params: dict[str, Any] = root.params if root is not None else {}
    names = ctx.command_path.split()[1:] if ctx is not None else []
    command = " ".join(names) or "graphmem"
    with change_context(
        actor=Actor.cli(command), reason=params.get("reason"), consent_id=params.get("consent_id")
    ) as meta:
        yield meta


@click.group("changes")
def changes_group() -> None:
    """The change log: every state change of a group, with actor, reason and consent.

    \b
    Example:
      graphmem changes list --group team-a --target <fact-id>
    """


@changes_group.command("list")
@click.option("--group", "group_id", required=True, help="The tenant (group_id).")
@click.option("--since", type=click.DateTime(), default=None, help="recorded_at >= this (UTC).")
@click.option("--until", type=click.DateTime(), default=None, help="recorded_at < this (UTC).")
@click.option("--target", default=None, help="Only records naming this fact, episode or entity id.")
@click.option("--limit", type=click.IntRange(1, 1_000_000), default=1000, show_default=True)
@guarded
def list_changes(
    group_id: str, since: datetime | None, until: datetime | None, target: str | None, limit: int
) -> None:
    """Print the group's change records as JSON lines, in commit order.

    \b
    Example:
      graphmem changes list --group team-a --since 2026-01-01
    """
    from graphmem.clock import as_utc

    cfg = settings()
    ensure_server(cfg)

    async def work(memory: GraphMemory) -> None:
        cursor, left = None, limit
        while left > 0:
            page = await memory.changes(
                group_id,
                since=as_utc(since) if since else None,
                until=as_utc(until) if until else None,
                target=target,
                cursor=cursor,
                limit=min(left, 1000),
            )
            for record in page.changes:
                click.echo(json.dumps(record.model_dump(mode="json"), ensure_ascii=False))
            left -= len(page.changes)
            cursor = page.next_cursor
            if not page.has_more:
                return

    run_async(with_memory(cfg, work))


@changes_group.command("replay")
@click.option("--group", "group_id", required=True, help="The group whose log is replayed.")
@click.option("--until", type=click.DateTime(), default=None, help="Replay records up to this time (UTC).")
@click.option("--into", default=None, help="The scratch group (default: <group>-replay-<time>).")
@guarded
def replay_changes(group_id: str, until: datetime | None, into: str | None) -> None:
    """Rebuild a group's facts from its episodes and change log into a scratch group.

    Prints a JSON report: transactions and episodes replayed, facts created, records skipped by
    kind (writes without episodes hold no content to replay), episodes forgotten since.

    \b
    Example:
      graphmem changes replay --group team-a --until 2026-06-01T00:00:00
    """
    from dataclasses import asdict

    from graphmem.clock import as_utc, utc_now

    cfg = settings()
    ensure_server(cfg)
    target = into or f"{group_id}-replay-{utc_now():%Y%m%dT%H%M%S}"

    async def work(memory: GraphMemory) -> dict[str, Any]:
        report = await memory.replay_changes(group_id, target, until=as_utc(until) if until else None)
        return asdict(report)

    click.echo(json.dumps(run_async(with_memory(cfg, work)), default=str))
