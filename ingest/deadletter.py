"""Dead letters: rejected source records appended to a JSONL file, one object per line.

Each line is ``{"path", "line", "reason", "raw"}``. Records are buffered and written by
``flush()`` (call it once per batch, before committing the checkpoint), which also fsyncs. The
file is created on the first flush that has something to write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from ingest.sources.base import SourceItem


class DeadLetterWriter:
    """Append-only writer of rejected items; use as a context manager or call ``close()``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.written = 0
        self._pending: list[str] = []
        self._fh: IO[str] | None = None

    def add(self, item: SourceItem) -> None:
        """Queue one rejected item; ValueError for an item that was not rejected."""
        if item.error is None:
            raise ValueError("only rejected items (with an error) go to dead letters")
        record = {"path": item.path, "line": item.line, "reason": item.error, "raw": item.raw}
        self._pending.append(json.dumps(record, ensure_ascii=False) + "\n")

    @property
    def pending(self) -> int:
        return len(self._pending)

    def flush(self) -> None:
        """Append every queued record and fsync, so they survive a crash after this returns."""
        if not self._pending:
            return
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8")
        self._fh.writelines(self._pending)
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.written += len(self._pending)
        self._pending.clear()

    def close(self) -> None:
        """Flush what is queued and close the file."""
        try:
            self.flush()
        finally:
            if self._fh is not None:
                self._fh.close()
                self._fh = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
