"""Shared CLI plumbing: settings, one-line errors, running coroutines."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Coroutine
from functools import wraps
from typing import Any, TypeVar

import click

from graphmem.config import Settings
from graphmem.errors import GraphMemError
from graphmem.memory import GraphMemory
from graphmem.store import local_server

T = TypeVar("T")


def count_option(
    name: str, *, default: int | None, help: str, maximum: int | None = None
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``--name N``: a count of at least 1 (at most ``maximum``), its default shown in ``--help``."""
    return click.option(
        name,
        type=click.IntRange(min=1, max=maximum),
        default=default,
        show_default=default is not None,
        help=help,
    )


def settings() -> Settings:
    return Settings()


def fail(message: str, code: int = 1) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def guarded(fn: Callable[..., T]) -> Callable[..., T]:
    """Turn graphmem errors into a one-line reason and a non-zero exit."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except GraphMemError as exc:
            fail(f"{exc.code}: {exc.message}")
            raise  # unreachable

    return wrapper


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def ensure_server(cfg: Settings) -> None:
    """Start the local Neo4j unless NEO4J_URI points elsewhere."""
    if cfg.neo4j_uri is None:
        local_server.start(cfg)


async def with_memory(cfg: Settings, work: Callable[[GraphMemory], Awaitable[T]]) -> T:
    from graphmem_cli.changes_cmd import cli_change_context

    memory = await GraphMemory.from_settings(cfg)
    try:
        with cli_change_context():  # the change log's actor: cli:<command>
            return await work(memory)
    finally:
        await memory.close()


def log_to_stderr(message: str) -> None:
    click.echo(message, err=True)


def run_eval(work: Callable[[GraphMemory, Settings, Callable[[str], None]], Awaitable[T]]) -> T:
    """An eval command's run: settings, the local Neo4j when needed, one memory, progress on stderr."""
    cfg = settings()
    ensure_server(cfg)
    return run_async(with_memory(cfg, lambda memory: work(memory, cfg, log_to_stderr)))
