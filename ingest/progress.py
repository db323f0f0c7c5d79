"""Progress of a run: a tqdm bar on a terminal, plain periodic lines otherwise, or nothing.

Progress is measured in bytes of input when the total is known (line formats: ``jsonl`` and
``csv``, plain or gzip), which gives a rate and an ETA; otherwise in records, without an ETA.
The runner calls ``advance`` as it reads and ``show`` after each committed batch.
"""

from __future__ import annotations

import gzip
import struct
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from ingest.summary import Summary

MODES = ("auto", "bar", "plain", "none")
SIZED_FORMATS = frozenset({"jsonl", "csv"})


class Progress(Protocol):
    def advance(self, *, nbytes: int = 0, records: int = 0) -> None: ...

    def show(self, summary: Summary) -> None: ...

    def close(self) -> None: ...


class NoProgress:
    """Reports nothing (library use, ``--progress none``)."""

    def advance(self, *, nbytes: int = 0, records: int = 0) -> None:
        pass

    def show(self, summary: Summary) -> None:
        pass

    def close(self) -> None:
        pass


def input_size(path: str | Path) -> int:
    """Bytes the readers will walk through: the file size, or for gzip the size it unpacks to
    (the gzip trailer's ISIZE: exact below 4 GiB for a single-member file, an estimate beyond)."""
    with open(path, "rb") as fh:
        if fh.read(2) != b"\x1f\x8b":
            return fh.seek(0, 2)
        fh.seek(-4, 2)
        (size,) = struct.unpack("<I", fh.read(4))
        return int(size)


def total_bytes(paths: Sequence[Path], fmt: str) -> int | None:
    """Total input bytes when progress can be measured in bytes for this format, else None."""
    if fmt not in SIZED_FORMATS:
        return None
    try:
        return sum(input_size(path) for path in paths)
    except (OSError, gzip.BadGzipFile, struct.error):
        return None


def open_progress(
    mode: str, *, stream: TextIO, total: int | None, initial: int = 0, interval_s: float = 10.0
) -> Progress:
    """The reporter for ``mode`` (one of MODES); ``auto`` is a bar on a TTY, lines otherwise."""
    if mode not in MODES:
        raise ValueError(f"unknown progress mode {mode!r}")
    if mode == "auto":
        mode = "bar" if stream.isatty() else "plain"
    if mode == "bar":
        return BarProgress(stream, total, initial)
    if mode == "plain":
        return PlainProgress(stream, total, initial, interval_s=interval_s)
    return NoProgress()


class BarProgress:
    """A tqdm bar: bytes with rate and ETA when the total is known, else a record counter."""

    def __init__(self, stream: TextIO, total: int | None, initial: int = 0) -> None:
        from tqdm import tqdm

        self._by_bytes = total is not None
        options: dict[str, Any] = (
            {"total": total, "initial": initial, "unit": "B", "unit_scale": True, "unit_divisor": 1024}
            if self._by_bytes
            else {"unit": " rec", "unit_scale": True}
        )
        self._bar = tqdm(file=stream, desc="ingest", dynamic_ncols=True, **options)
        self._started = time.monotonic()

    def advance(self, *, nbytes: int = 0, records: int = 0) -> None:
        step = nbytes if self._by_bytes else records
        if step:
            self._bar.update(step)

    def show(self, summary: Summary) -> None:
        rate = summary.handled / max(time.monotonic() - self._started, 1e-9)
        self._bar.set_postfix_str(
            f"{summary.ingested:,} new, {summary.duplicates:,} dup, {summary.rejected:,} rejected, "
            f"{rate:,.1f} ep/s",
            refresh=False,
        )

    def close(self) -> None:
        self._bar.close()


class PlainProgress:
    """One line every ``interval_s`` seconds (for logs and pipes), with percent and ETA if known."""

    def __init__(
        self, stream: TextIO, total: int | None, initial: int = 0, *, interval_s: float = 10.0
    ) -> None:
        self._stream = stream
        self._total = total
        self._initial = self._done = initial
        self._interval = interval_s
        self._started = self._last = time.monotonic()

    def advance(self, *, nbytes: int = 0, records: int = 0) -> None:
        self._done += nbytes

    def show(self, summary: Summary) -> None:
        now = time.monotonic()
        if now - self._last < self._interval:
            return
        self._last = now
        elapsed = max(now - self._started, 1e-9)
        line = (
            f"ingest: {summary.read:,} read, {summary.ingested:,} ingested, "
            f"{summary.duplicates:,} duplicates, {summary.rejected:,} rejected, "
            f"{summary.handled / elapsed:,.1f} ep/s"
        )
        print(line + self._eta(elapsed), file=self._stream, flush=True)

    def _eta(self, elapsed: float) -> str:
        if not self._total:
            return ""
        share = min(self._done / self._total, 1.0)
        rate = (self._done - self._initial) / elapsed
        if rate <= 0:
            return f", {share:.1%}"
        return f", {share:.1%}, ETA {_duration((self._total - self._done) / rate)}"

    def close(self) -> None:
        pass


def _duration(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"
