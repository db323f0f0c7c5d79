"""Logical backup and restore, stop-free: one JSONL export per group plus ``manifest.json``.

Each group is exported in one transaction under its write lock (a consistent snapshot of that
group); groups are independent, so the backup needs no global pause. ``restore`` checks every
file's SHA-256 against the manifest before importing anything, then imports group by group
(idempotent). The clean-shutdown copy of the data directory is documented in docs/lifecycle.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from graphmem.errors import InvalidInput
from graphmem.memory.context import MemoryContext
from graphmem.memory.lifecycle import records
from graphmem.memory.lifecycle.transfer import export_group, import_records
from graphmem.models.lifecycle import BackupGroup, BackupReport, ImportReport
from graphmem.store import lifecycle as repo

MANIFEST = "manifest.json"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class _Writer:
    """Streams JSONL lines to a file while hashing them and counting nodes and relationships."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sha = hashlib.sha256()
        self.nodes = self.rels = 0
        self._file: TextIO = path.open("w", encoding="utf-8", newline="\n")

    def write(self, record: dict[str, Any]) -> None:
        line = records.dumps(record) + "\n"
        self._file.write(line)
        self.sha.update(line.encode("utf-8"))
        self.nodes += record.get("type") == "node"
        self.rels += record.get("type") == "rel"

    def close(self) -> None:
        self._file.close()


async def backup(ctx: MemoryContext, out_dir: Path, *, group_ids: list[str] | None = None) -> BackupReport:
    _prepare(out_dir)
    meta = await repo.embedding_meta(ctx.store)
    report = BackupReport(
        directory=str(out_dir),
        created_at=ctx.clock(),
        embedding_model=meta["model"] if meta else ctx.embedder.model_name,
        dimension=int(meta["dimension"]) if meta else ctx.embedder.dimension,
    )
    groups = group_ids if group_ids is not None else await repo.list_groups(ctx.store)
    for n, group_id in enumerate(groups, start=1):
        writer = _Writer(out_dir / f"{n:05d}-{_UNSAFE.sub('_', group_id)[:60]}.jsonl")
        try:
            async for record in export_group(ctx, group_id):
                writer.write(record)
        finally:
            writer.close()
        report.groups.append(
            BackupGroup(
                group_id=group_id,
                file=writer.path.name,
                nodes=writer.nodes,
                relationships=writer.rels,
                sha256=writer.sha.hexdigest(),
            )
        )
    _write_manifest(out_dir, report)
    return report


def _prepare(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    if (out_dir / MANIFEST).exists():
        raise InvalidInput(f"{out_dir} already holds a backup; choose an empty directory", details={})


def _write_manifest(out_dir: Path, report: BackupReport) -> None:
    """Written last, atomically: a directory without a manifest is an incomplete backup."""
    tmp = out_dir / (MANIFEST + ".tmp")
    tmp.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    tmp.replace(out_dir / MANIFEST)


def read_manifest(in_dir: Path) -> BackupReport:
    path = in_dir / MANIFEST
    if not path.exists():
        raise InvalidInput(f"{in_dir} holds no {MANIFEST}: not a (complete) graphmem backup", details={})
    return BackupReport.model_validate(json.loads(path.read_text(encoding="utf-8")))


def _verify(in_dir: Path, manifest: BackupReport) -> None:
    for group in manifest.groups:
        digest = hashlib.sha256((in_dir / group.file).read_bytes()).hexdigest()
        if digest != group.sha256:
            raise InvalidInput(
                f"{group.file} does not match its checksum in the manifest; the backup is damaged",
                details={"file": group.file},
            )


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for n, line in enumerate(handle, start=1):
            if line.strip():
                yield records.loads(line, line_no=n)


async def restore(ctx: MemoryContext, in_dir: Path, *, allow_forgotten: bool = False) -> ImportReport:
    manifest = read_manifest(in_dir)
    _verify(in_dir, manifest)
    report = ImportReport()
    for group in manifest.groups:
        lines = read_jsonl(in_dir / group.file)
        report = report.merge(await import_records(ctx, lines, allow_forgotten=allow_forgotten))
    return report
