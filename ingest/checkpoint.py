"""Durable per-run progress: how far each source file has been ingested.

One JSON file per run::

    {"version": 1, "sources": {"/abs/path/a.jsonl": {"offset": 1234, "line": 10, "count": 9}}}

``offset``/``line`` are the resume position to pass to ``open_source`` as
``start_offset``/``start_line`` (see ``SourceItem.resume_from``); ``count`` is how many records
were handled. Every ``commit`` rewrites the file atomically (temp file, fsync, ``os.replace``,
fsync of the directory), so a crash leaves either the old or the new state, never a torn one.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidInput

VERSION = 1


@dataclass(frozen=True, slots=True)
class Position:
    """Where a source stands: resume offset and line, and records handled so far."""

    offset: int = 0
    line: int = 0
    count: int = 0


class Checkpoint:
    """Resume positions of one run, kept in a JSON file at ``path``."""

    def __init__(self, path: str | Path, sources: dict[str, Position] | None = None) -> None:
        self.path = Path(path)
        self._sources: dict[str, Position] = dict(sources or {})

    @classmethod
    def load(cls, path: str | Path) -> Checkpoint:
        """The checkpoint stored at ``path``; an empty one when the file does not exist yet."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        try:
            return cls(path, _parse(json.loads(text)))
        except (ValueError, TypeError, KeyError) as exc:
            raise InvalidInput(f"corrupt checkpoint {path}: {exc}", details={"path": str(path)}) from None

    def get(self, source: str | Path) -> Position:
        """Position of ``source`` (all zeros when it has not been started)."""
        return self._sources.get(_key(source), Position())

    @property
    def sources(self) -> dict[str, Position]:
        return dict(self._sources)

    def commit(self, source: str | Path, offset: int, line: int, count: int) -> None:
        """Record a new position for ``source`` and write the whole file durably."""
        if min(offset, line, count) < 0:
            raise InvalidInput("checkpoint offset, line and count must be >= 0")
        self._sources[_key(source)] = Position(offset, line, count)
        document = {
            "version": VERSION,
            "sources": {key: asdict(pos) for key, pos in sorted(self._sources.items())},
        }
        write_atomic(self.path, json.dumps(document, indent=1).encode("utf-8"))


def _key(source: str | Path) -> str:
    """Sources are keyed by absolute path, so a resume from another directory still matches."""
    return os.path.abspath(source)


def _parse(document: Any) -> dict[str, Position]:
    if not isinstance(document, dict) or document.get("version") != VERSION:
        raise ValueError(f"expected a version {VERSION} checkpoint object")
    sources = document["sources"]
    if not isinstance(sources, dict):
        raise TypeError("'sources' must be an object")
    positions = {}
    for key, value in sources.items():
        position = Position(int(value["offset"]), int(value["line"]), int(value["count"]))
        if min(position.offset, position.line, position.count) < 0:
            raise ValueError(f"negative position for {key}")
        positions[key] = position
    return positions


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
