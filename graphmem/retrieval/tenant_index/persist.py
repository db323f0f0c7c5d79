"""Tenant index snapshots: a loaded index saved to a file, so a cold worker reads it instead of
rebuilding it from Neo4j (issue 22; docs/design-notes.md, "Tenant index snapshots").

A snapshot is the pickled ``TenantIndex`` of one full load at the group's revision ``seq``: BM25
postings and texts as columns (``lexical.Frozen``), vectors as their int8 / f32 matrices, each HNSW
graph as usearch's saved bytes. It is exact under the change feed as an index loaded from Neo4j at
``seq`` is: the registry takes it only when the group's state allows a catch-up from ``seq`` (no
reset since, same ``created_at``, ``seq`` not ahead of the group) and then applies ``rev > seq``
(``snapshot.changed``), the same catch-up a warm index makes. Anything else (missing, another
format, dimension, precision or ANN threshold, a bad checksum, a reset) is a miss: the registry
loads from Neo4j and writes a new snapshot.

The file: ``MAGIC``, an 8-byte header length, a JSON header (format, group, seq, created_at,
dimension, precision, ANN threshold, the pickle body's length and CRC-32, the buffers' lengths),
the pickle body (protocol 5: the Python structures), then its out-of-band buffers (every numpy
array and HNSW graph), each aligned to ``ALIGN`` bytes. A restore reads the file once (a big one
it maps copy-on-write) and hands the buffers to the unpickler as views of those bytes: the arrays
are not copied again, and several workers restoring one big snapshot share its pages through the
OS page cache. The CRC covers the body;
the buffers are checked by length (a file is renamed into place whole; a disk that flips bits
inside one is the file system's to catch). Files are written
to a temporary name and renamed, so a reader never sees half a file, and several workers can share
one directory (each reads; the last writer wins). The directory has a byte budget
(``max_bytes``): after each save the coldest files go, of the ``EVICTION_WINDOW`` least recently
used the one with the most bytes x idle time (``memory.victim``, the memory budget's rule), where
a file's last use is its modification time (a save writes it, a restore touches it, so every
worker's use counts). Only the directory's own names are counted or removed: ``<hash>.tix`` files
and the temporary files of a writer that died (older than ``STALE_TMP_S``); any other file is left
alone. A save lists the directory only when its last listing is ``RESCAN_S`` old or its own
saves since put it over budget. Workers need no lock: a file is replaced or removed whole, a reader keeps what it opened,
and at worst two workers evicting at once remove one file more than needed. Unpickling admits only the index's own classes,
numpy's array reconstruction and a few builtins (``_Unpickler.find_class``): a file swapped in the
directory cannot name arbitrary callables.
"""

from __future__ import annotations

import hashlib
import io
import json
import mmap
import os
import pickle
import re
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.index import TenantIndex
from graphmem.retrieval.tenant_index.memory import EVICTION_WINDOW, victim

MAGIC = b"GMTI\x02\n"
FORMAT = 5  # 4: ids and texts as packed columns (columns.StringColumn); 5: episode speaker codes (fields.Speakers); another format is a miss
ALIGN = 64
MAP_BYTES = 16 << 20  # files from this size on are mapped, smaller ones read (``Snapshots.load``)
STALE_TMP_S = 3_600  # a temporary file this old is a dead writer's (a save takes seconds)
RESCAN_S = 10.0  # a save lists the directory again when its last listing is this old (or over budget)
_OWN_FILE = re.compile(r"[0-9a-f]{32}\.tix")
_TMP_PREFIX = ".tmp-"
_ALLOWED = {
    "builtins": {"set", "frozenset", "dict", "list", "tuple", "bytearray", "int", "float", "str", "bool"},
    "collections": {"defaultdict", "OrderedDict"},
    "datetime": {"datetime", "timezone", "timedelta"},
    "numpy": {"dtype", "ndarray"},
    "numpy.core.multiarray": {"_reconstruct", "scalar"},
    "numpy._core.multiarray": {"_reconstruct", "scalar"},
    "numpy.core.numeric": {"_frombuffer"},
    "numpy._core.numeric": {"_frombuffer"},
}
_OWN = "graphmem.retrieval.tenant_index."


class SnapshotError(ValueError):
    """A snapshot file that cannot be used (unreadable, another format, corrupt)."""


@dataclass(frozen=True)
class Expected:
    """What the reader's index is configured as: a snapshot of any other form is a miss."""

    dimension: int
    precision: str
    ann_threshold: int


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if name in _ALLOWED.get(module, ()) or module.startswith(_OWN):
            return super().find_class(module, name)
        if (
            module == "numpy"
            and isinstance(found := getattr(np, name, None), type)
            and issubclass(found, np.generic)
        ):
            return found  # a column's scalar type (np.float32, np.int8, ...)
        raise SnapshotError(f"a snapshot may not name {module}.{name}")


def file_name(group_id: str) -> str:
    """The group's file: a hash of its id (any id is a safe name, and no tenant name shows)."""
    return hashlib.sha256(group_id.encode()).hexdigest()[:32] + ".tix"


def _micros(when: datetime | None) -> int | None:
    return None if when is None else round(when.timestamp() * 1_000_000)


@dataclass(frozen=True)
class Encoded:
    """An index as its snapshot file's bytes, not yet written (``encode``): ``head`` (magic, header
    and pickle body) and the out-of-band buffers, with the revision they hold."""

    group_id: str
    seq: int
    created_at: datetime | None
    head: bytes
    raws: list[memoryview]
    size: int  # the file's bytes, padding included


def encode(index: TenantIndex, *, copy: bool = False) -> Encoded:
    """``index`` pickled as a snapshot (protocol 5, its arrays and HNSW graphs as out-of-band
    buffers). The buffers are views of the index's own arrays unless ``copy``: then the index may
    change (a catch-up) before the result is written."""
    buffers: list[pickle.PickleBuffer] = []
    body = pickle.dumps(index, protocol=5, buffer_callback=buffers.append)
    raws = [memoryview(bytes(b.raw())) if copy else b.raw() for b in buffers]
    header = json.dumps(
        {
            "format": FORMAT,
            "group": index.group_id,
            "seq": index.seq,
            "created_at": _micros(index.created_at),
            "dimension": index.dimension,
            "precision": index.vector_precision,
            "ann_threshold": index.ann_threshold,
            "body": len(body),
            "crc32": zlib.crc32(body),
            "buffers": [r.nbytes for r in raws],
        }
    ).encode()
    at = len(MAGIC) + 8 + len(header) + len(body)
    size = at + sum(len(_pad(o)) + r.nbytes for o, r in zip(_offsets(at, raws), raws, strict=True))
    head = MAGIC + len(header).to_bytes(8, "big") + header + body
    return Encoded(index.group_id, index.seq, index.created_at, head, raws, size)


class Snapshots:
    """The snapshot directory (``GRAPHMEM_INDEX_SNAPSHOT_DIR``): save, load and discard by group,
    within ``max_bytes`` on disk (None: no budget)."""

    def __init__(self, directory: Path, max_bytes: int | None = None) -> None:
        self.directory = directory
        self.max_bytes = max_bytes
        self.evictions = 0  # files this process removed for the budget
        self.scans = 0  # directory listings made
        # the last listing (name -> bytes, last use in ns), kept current with this process's own
        # saves, touches and removals; other workers' files show at the next listing
        self._listing: dict[str, tuple[int, int]] = {}
        self._listed_at: float | None = None
        self._lock = threading.Lock()  # saves run in threads
        self.map_bytes = MAP_BYTES  # files from this size on are mapped (``load``)

    def path(self, group_id: str) -> Path:
        return self.directory / file_name(group_id)

    def save(self, index: TenantIndex) -> int:
        """Write ``index`` (flushed, not stale) as the group's snapshot, then evict the coldest
        files until the directory fits its budget; returns the file's bytes, 0 when the file alone
        would not fit the budget (then the group keeps no file: an older one is about as big)."""
        return self.write(encode(index))

    def write(self, encoded: Encoded) -> int:
        """``save``'s second half: write an ``encode``d index as its group's file."""
        size = encoded.size
        if self.max_bytes is not None and size > self.max_bytes:
            self.discard(encoded.group_id)
            return 0
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".tix")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(encoded.head)
                for raw in encoded.raws:
                    out.write(_pad(out.tell()))
                    out.write(raw)
            os.replace(tmp, self.path(encoded.group_id))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        if self.max_bytes is not None:
            self._admit(file_name(encoded.group_id), size, self.max_bytes)
        return size

    def _admit(self, name: str, size: int, max_bytes: int) -> None:
        """Count a file just saved; evict when the listing says the directory is over budget. The
        directory is listed again when the listing is ``RESCAN_S`` old or over budget, not at
        every save: a burst of cold loads over thousands of files would stat them all each time."""
        with self._lock:
            self._listing[name] = (size, time.time_ns())
            fresh = self._listed_at is not None and time.monotonic() - self._listed_at < RESCAN_S
            if fresh and sum(b for b, _ in self._listing.values()) <= max_bytes:
                return
        self.fit(keep=name)

    def fit(self, *, keep: str | None = None) -> int:
        """Remove the coldest snapshot files (never ``keep``) until the directory's own files fit
        ``max_bytes``, and dead writers' temporary files; returns the bytes the directory's files
        hold after. A file's last use is its modification time (``load`` touches it)."""
        with self._lock:
            return self._fit(keep)

    def _fit(self, keep: str | None) -> int:
        files: list[tuple[str, int, int]] = []  # (name, bytes, last use in ns)
        total, now = 0, time.time_ns()
        self.scans += 1
        try:
            entries = list(os.scandir(self.directory))
        except FileNotFoundError:
            self._listing, self._listed_at = {}, time.monotonic()
            return 0
        for entry in entries:
            try:
                stat = entry.stat(follow_symlinks=False)
            except FileNotFoundError:  # removed by another worker meanwhile
                continue
            if entry.name.startswith(_TMP_PREFIX) and entry.name.endswith(".tix"):
                if now - stat.st_mtime_ns > STALE_TMP_S * 1_000_000_000:
                    Path(entry.path).unlink(missing_ok=True)
                else:
                    total += stat.st_size  # another worker's save in flight
            elif _OWN_FILE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                files.append((entry.name, stat.st_size, min(stat.st_mtime_ns, now)))
                total += stat.st_size
        self._listed_at = time.monotonic()
        self._listing = {name: (size, used) for name, size, used in files}
        if self.max_bytes is None:
            return total
        files.sort(key=lambda f: f[2])  # the least recently used first
        while total > self.max_bytes:
            window = [f for f in files if f[0] != keep][:EVICTION_WINDOW]
            if not window:
                break
            name = victim(window, now)
            (self.directory / name).unlink(missing_ok=True)
            self._listing.pop(name, None)
            self.evictions += 1
            total -= next(f[1] for f in window if f[0] == name)
            files = [f for f in files if f[0] != name]
        return total

    def load(self, group_id: str, expected: Expected) -> TenantIndex | None:
        """The group's snapshot index; None when there is none. A file of another form or a corrupt
        one raises ``SnapshotError`` (the caller loads from Neo4j and overwrites it). The arrays
        are views of the file's bytes: read into memory once, or for a file of ``MAP_BYTES`` or
        more mapped copy-on-write, so that workers restoring the same big snapshot share its pages
        in the page cache until one writes to a page. (A map holds a file descriptor while the
        index lives: mapping only big files bounds them by the byte budget over ``MAP_BYTES``.)"""
        try:
            with self.path(group_id).open("rb") as f:
                size = os.fstat(f.fileno()).st_size
                mapped: mmap.mmap | bytearray
                if size >= self.map_bytes:
                    mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
                else:
                    mapped = bytearray(size)
                    if f.readinto(mapped) != size:
                        raise SnapshotError("the snapshot changed while it was read")
        except FileNotFoundError:
            return None
        header, start = _header(mapped)
        form = (header.get("dimension"), header.get("precision"), header.get("ann_threshold"))
        if header.get("group") != group_id or form != (
            expected.dimension,
            expected.precision,
            expected.ann_threshold,
        ):
            raise SnapshotError("the snapshot is of another group or index configuration")
        body = mapped[start : start + int(header["body"])]
        if zlib.crc32(body) != header["crc32"]:
            raise SnapshotError("the snapshot's checksum does not match")
        view, at, buffers = memoryview(mapped), start + len(body), []
        for size in header["buffers"]:
            at += len(_pad(at))
            buffers.append(view[at : at + int(size)])
            at += int(size)
        if at != len(mapped):
            raise SnapshotError("the snapshot is truncated")
        try:
            index = _Unpickler(io.BytesIO(body), buffers=buffers).load()
        except SnapshotError:
            raise
        except Exception as exc:  # a damaged pickle fails in many ways
            raise SnapshotError(f"the snapshot does not unpickle: {type(exc).__name__}") from exc
        if not isinstance(index, TenantIndex) or index.seq != header["seq"]:
            raise SnapshotError("the snapshot does not hold the index its header names")
        return index

    def touch(self, group_id: str) -> None:
        """Mark the group's file as used now (its modification time: the eviction's last use)."""
        try:
            os.utime(self.path(group_id))
        except OSError:  # evicted or replaced meanwhile, or a read-only directory
            return
        with self._lock:
            name = file_name(group_id)
            if name in self._listing:
                self._listing[name] = (self._listing[name][0], time.time_ns())

    def discard(self, group_id: str) -> None:
        """Remove the group's snapshot (forget: no copy of forgotten text stays on disk)."""
        self.path(group_id).unlink(missing_ok=True)
        with self._lock:
            self._listing.pop(file_name(group_id), None)


def _pad(at: int) -> bytes:
    """Zero bytes that align the next buffer to ``ALIGN`` (numpy's arrays want aligned data)."""
    return bytes(-at % ALIGN)


def _offsets(at: int, raws: list[memoryview]) -> list[int]:
    """Where each buffer's padding starts, the first at ``at`` (the end of the body)."""
    out = []
    for raw in raws:
        out.append(at)
        at += len(_pad(at)) + raw.nbytes
    return out


def _header(data: mmap.mmap | bytearray) -> tuple[dict[str, Any], int]:
    """The header and where the pickle's body starts."""
    if len(data) < len(MAGIC) + 8 or data[: len(MAGIC)] != MAGIC:
        raise SnapshotError("not a tenant index snapshot")
    size = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 8], "big")
    try:
        header = json.loads(data[len(MAGIC) + 8 : len(MAGIC) + 8 + size])
    except ValueError as exc:
        raise SnapshotError("the snapshot's header does not parse") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SnapshotError("the snapshot is of another format")
    return header, len(MAGIC) + 8 + size
