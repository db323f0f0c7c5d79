"""``graphmem neo4j start|stop|status``."""

from __future__ import annotations

import time

import click

from graphmem.store import local_server
from graphmem_cli.common import guarded, settings


@click.group("neo4j")
def neo4j_group() -> None:
    """Run the local Neo4j (Maven Central jars + embedded launcher, Bolt on 127.0.0.1:7687).

    \b
    Example:
      graphmem neo4j start && graphmem neo4j status && graphmem neo4j stop
    """


@neo4j_group.command("start")
@guarded
def start() -> None:
    """Start the local Neo4j (idempotent); returns once Bolt answers RETURN 1.

    \b
    Example:
      GRAPHMEM_NEO4J_DIR=/tmp/n4 graphmem neo4j start
    """
    cfg = settings()
    if cfg.neo4j_uri:
        click.echo(f"NEO4J_URI is set ({cfg.neo4j_uri}); not starting a local Neo4j")
        return
    began = time.monotonic()
    state = local_server.start(cfg)
    click.echo(f"{state.describe()} (ready in {time.monotonic() - began:.1f}s)")


@neo4j_group.command("stop")
@guarded
def stop() -> None:
    """Stop the local Neo4j cleanly.

    \b
    Example:
      graphmem neo4j stop
    """
    cfg = settings()
    click.echo("stopped" if local_server.stop(cfg) else "not running")


@neo4j_group.command("status")
@guarded
def status() -> None:
    """Say whether the local Neo4j runs, where, and whether Bolt answers.

    \b
    Example:
      graphmem neo4j status
    """
    click.echo(local_server.status(settings()).describe())
