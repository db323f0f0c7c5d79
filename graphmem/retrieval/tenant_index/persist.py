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
dimension, precision, ANN threshold, payload length and CRC-32), then the pickle. Files are written
to a temporary name and renamed, so a reader never sees half a file, and several workers can share
one directory (each reads; the last writer wins). Unpickling admits only the index's own classes,
numpy's array reconstruction and a few builtins (``_Unpickler.find_class``): a file swapped in the
directory cannot name arbitrary callables.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import tempfile
import zlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.index import TenantIndex

MAGIC = b"GMTI\x01\n"
FORMAT = 1
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


class Snapshots:
    """The snapshot directory (``GRAPHMEM_INDEX_SNAPSHOT_DIR``): save, load and discard by group."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, group_id: str) -> Path:
        return self.directory / file_name(group_id)

    def save(self, index: TenantIndex) -> int:
        """Write ``index`` (flushed, not stale) as the group's snapshot; returns the file's bytes."""
        payload = pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL)
        header = json.dumps(
            {
                "format": FORMAT,
                "group": index.group_id,
                "seq": index.seq,
                "created_at": _micros(index.created_at),
                "dimension": index.dimension,
                "precision": index.vector_precision,
                "ann_threshold": index.ann_threshold,
                "length": len(payload),
                "crc32": zlib.crc32(payload),
            }
        ).encode()
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".tix")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + len(header).to_bytes(8, "big") + header)
                out.write(payload)
            os.replace(tmp, self.path(index.group_id))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return len(MAGIC) + 8 + len(header) + len(payload)

    def load(self, group_id: str, expected: Expected) -> TenantIndex | None:
        """The group's snapshot index; None when there is none. A file of another form or a corrupt
        one raises ``SnapshotError`` (the caller loads from Neo4j and overwrites it)."""
        try:
            data = self.path(group_id).read_bytes()
        except FileNotFoundError:
            return None
        header = _header(data)
        form = (header.get("dimension"), header.get("precision"), header.get("ann_threshold"))
        if header.get("group") != group_id or form != (
            expected.dimension,
            expected.precision,
            expected.ann_threshold,
        ):
            raise SnapshotError("the snapshot is of another group or index configuration")
        start = len(data) - int(header["length"])
        payload = memoryview(data)[start:]
        if zlib.crc32(payload) != header["crc32"]:
            raise SnapshotError("the snapshot's checksum does not match")
        try:
            index = _Unpickler(io.BytesIO(payload)).load()
        except SnapshotError:
            raise
        except Exception as exc:  # a damaged pickle fails in many ways
            raise SnapshotError(f"the snapshot does not unpickle: {type(exc).__name__}") from exc
        if not isinstance(index, TenantIndex) or index.seq != header["seq"]:
            raise SnapshotError("the snapshot does not hold the index its header names")
        return index

    def discard(self, group_id: str) -> None:
        """Remove the group's snapshot (forget: no copy of forgotten text stays on disk)."""
        self.path(group_id).unlink(missing_ok=True)


def _header(data: bytes) -> dict[str, Any]:
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 8:
        raise SnapshotError("not a tenant index snapshot")
    size = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 8], "big")
    try:
        header = json.loads(data[len(MAGIC) + 8 : len(MAGIC) + 8 + size])
    except ValueError as exc:
        raise SnapshotError("the snapshot's header does not parse") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SnapshotError("the snapshot is of another format")
    if len(MAGIC) + 8 + size + int(header.get("length", -1)) != len(data):
        raise SnapshotError("the snapshot is truncated")
    return header
