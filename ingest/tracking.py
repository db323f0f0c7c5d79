"""Bookkeeping for the runner: how far each source may be checkpointed, and deduplicated rejects.

``SourceTracker`` keeps, in reading order, a ticket per record that is read but not yet settled.
A ticket is done once its batch committed (or, for a rejected record, at once: the runner flushes
dead letters before every checkpoint). ``settle`` advances the source's position over the done
prefix only, so a slow batch of one group holds the checkpoint back even when later batches of
other groups already committed. Consecutive done tickets are merged, so memory stays bounded by
the records in flight, not by the number of rejects.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from ingest.checkpoint import Position
from ingest.deadletter import DeadLetterWriter
from ingest.sources.base import SourceItem


@dataclass(eq=False, slots=True)
class Ticket:
    """One record (or a run of done records): its resume position and whether it is settled."""

    offset: int
    line: int
    count: int = 1
    done: bool = False


class SourceTracker:
    """Checkpointable position of one source file, starting from ``start``."""

    def __init__(self, path: str, start: Position) -> None:
        self.path = path
        self.position = start
        self._open: deque[Ticket] = deque()
        self._read_offset = start.offset

    def read(self, resume_from: tuple[int, int], *, done: bool = False) -> Ticket:
        """Register the next record in reading order; mark ``done`` for one needing no write."""
        offset, line = resume_from
        last = self._open[-1] if self._open else None
        if done and last is not None and last.done:
            last.offset, last.line, last.count = offset, line, last.count + 1
            return last
        ticket = Ticket(offset, line, done=done)
        self._open.append(ticket)
        return ticket

    def settle(self) -> bool:
        """Move the position over the leading done tickets; True when it moved."""
        moved = False
        while self._open and self._open[0].done:
            ticket = self._open.popleft()
            count = self.position.count + ticket.count
            self.position = Position(ticket.offset, ticket.line, count)
            moved = True
        return moved

    @property
    def in_flight(self) -> int:
        return len(self._open)

    def advance_read(self, offset: int) -> int:
        """Bytes newly read up to ``offset`` (0 for formats without offsets)."""
        step = max(offset - self._read_offset, 0)
        self._read_offset = max(offset, self._read_offset)
        return step


class DeadLetters:
    """A ``DeadLetterWriter`` that writes each rejected record once, across re-runs and resumes.

    A record is identified by (path, line, raw); those already in the file are loaded first.
    """

    def __init__(self, path: Path) -> None:
        self._writer = DeadLetterWriter(path)
        self._seen = _recorded(path)

    @property
    def written(self) -> int:
        return self._writer.written

    def add(self, item: SourceItem) -> None:
        key = (item.path, item.line, item.raw)
        if key not in self._seen:
            self._seen.add(key)
            self._writer.add(item)

    def flush(self) -> None:
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()


def _recorded(path: Path) -> set[tuple[str, int, str | None]]:
    """Keys of the records already in the file; a torn last line (a crash mid-write, so never
    covered by a checkpoint) is cut off, and its record is written again."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return set()
    if data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        with open(path, "r+b") as fh:
            fh.truncate(len(data))
    seen = set()
    for text in data.decode("utf-8", "replace").split("\n"):
        try:
            record = json.loads(text)
            seen.add((record["path"], record["line"], record.get("raw")))
        except (ValueError, KeyError, TypeError):
            continue
    return seen
