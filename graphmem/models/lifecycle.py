"""Reports and policies of the memory lifecycle: forget, export/import, re-embed, decay, backup."""

from __future__ import annotations

import math
from datetime import datetime

from pydantic import BaseModel, Field

from graphmem.config import Settings

EXPORT_FORMAT_VERSION = 1


class ForgetReport(BaseModel):
    """What one forget removed. Counts are measured in the graph inside the forget's transaction
    (before minus after), so they equal what disappeared from the group."""

    episodes: int = 0
    facts_deleted: int = 0
    facts_updated: int = 0  # surviving facts rewritten (evidence dropped, interval re-resolved)
    entities_deleted: int = 0
    edges_deleted: int = 0  # net: relationships of the group before minus after
    tombstones: int = 0  # tombstones written
    tombstones_deleted: int = 0  # only ``forget_group(..., purge_tombstones=True)``

    def describe(self) -> str:
        parts = [
            f"{self.episodes} episodes",
            f"{self.facts_deleted} facts deleted",
            f"{self.facts_updated} facts updated",
            f"{self.entities_deleted} entities deleted",
            f"{self.edges_deleted} relationships deleted",
            f"{self.tombstones} tombstones written",
        ]
        if self.tombstones_deleted:
            parts.append(f"{self.tombstones_deleted} tombstones deleted")
        return "forgot " + ", ".join(parts)


class ImportReport(BaseModel):
    groups: list[str] = []
    nodes: int = 0
    relationships: int = 0
    relationships_skipped: int = 0  # an endpoint was neither in the file nor in the database
    reembedded: int = 0  # nodes embedded again because the file's model differs from ours
    tombstones_skipped: int = 0  # tombstones cannot follow a group rename (their key hashes the group)
    forgotten: int = 0  # episodes left out because a tombstone says they were forgotten
    forgotten_facts: int = 0  # facts left out because only forgotten episodes supported them
    tombstones_removed: int = 0  # allow_forgotten: tombstones of the episodes brought back
    forgotten_entities: int = 0  # entities left out because forget_entity tombstoned them

    def merge(self, other: ImportReport) -> ImportReport:
        return ImportReport(
            groups=sorted(set(self.groups) | set(other.groups)),
            nodes=self.nodes + other.nodes,
            relationships=self.relationships + other.relationships,
            relationships_skipped=self.relationships_skipped + other.relationships_skipped,
            reembedded=self.reembedded + other.reembedded,
            tombstones_skipped=self.tombstones_skipped + other.tombstones_skipped,
            forgotten=self.forgotten + other.forgotten,
            forgotten_facts=self.forgotten_facts + other.forgotten_facts,
            tombstones_removed=self.tombstones_removed + other.tombstones_removed,
            forgotten_entities=self.forgotten_entities + other.forgotten_entities,
        )

    def describe(self) -> str:
        text = (
            f"imported {self.nodes} nodes and {self.relationships} relationships "
            f"into {', '.join(self.groups) or 'no group'}"
        )
        if self.reembedded:
            text += f"; re-embedded {self.reembedded} nodes with the configured model"
        if self.relationships_skipped:
            text += f"; skipped {self.relationships_skipped} relationships with a missing endpoint"
        if self.tombstones_skipped:
            text += f"; skipped {self.tombstones_skipped} tombstones (group renamed)"
        if self.forgotten:
            text += (
                f"; left out {self.forgotten} forgotten episodes and the {self.forgotten_facts} facts "
                "only they supported (--allow-forgotten brings them back)"
            )
        if self.forgotten_entities:
            text += f"; left out {self.forgotten_entities} forgotten entities and the facts about them"
        if self.tombstones_removed:
            text += f"; brought back {self.tombstones_removed} forgotten episodes (tombstones removed)"
        return text


class ExportStats(BaseModel):
    group_id: str
    nodes: int = 0
    relationships: int = 0


class ReembedReport(BaseModel):
    model: str
    dimension: int
    previous_model: str | None = None
    previous_dimension: int | None = None
    group_id: str | None = None
    episodes: int = 0
    facts: int = 0
    entities: int = 0
    batches: int = 0
    resumed: bool = False
    indexes_recreated: bool = False

    def describe(self) -> str:
        scope = f"group {self.group_id}" if self.group_id else "all groups"
        text = (
            f"re-embedded {self.episodes} episodes, {self.facts} facts, {self.entities} entities "
            f"({scope}) with {self.model} ({self.dimension}-d) in {self.batches} batches"
        )
        if self.resumed:
            text += ", resuming an interrupted run"
        if self.indexes_recreated:
            text += "; vector indexes recreated"
        return text


class DecayPolicy(BaseModel):
    """Use-based decay (docs/lifecycle.md): a fact's effective importance halves every
    ``half_life_days`` without use and grows with log(1 + access_count)."""

    half_life_days: float = Field(default=90.0, gt=0)
    archive_threshold: float = Field(default=0.05, ge=0)
    archive_min_idle_days: float = Field(default=180.0, ge=0)

    @classmethod
    def from_settings(cls, settings: Settings) -> DecayPolicy:
        return cls(
            half_life_days=settings.decay_half_life_days,
            archive_threshold=settings.archive_threshold,
            archive_min_idle_days=settings.archive_min_idle_days,
        )

    def effective_importance(self, importance: float, *, idle_days: float, access_count: int) -> float:
        decay = 0.5 ** (max(idle_days, 0.0) / self.half_life_days)
        return importance * decay * (1.0 + math.log1p(max(access_count, 0)))

    def should_archive(self, importance: float, *, idle_days: float, access_count: int) -> bool:
        if idle_days < self.archive_min_idle_days:
            return False
        effective = self.effective_importance(importance, idle_days=idle_days, access_count=access_count)
        return effective < self.archive_threshold


class MaintainReport(BaseModel):
    now: datetime
    group_id: str | None = None
    scanned: int = 0
    archived: int = 0
    restored: int = 0  # archived facts used or updated since they were archived

    def describe(self) -> str:
        scope = f"group {self.group_id}" if self.group_id else "all groups"
        return (
            f"maintained {scope} at {self.now.isoformat()}: scanned {self.scanned} idle facts, "
            f"archived {self.archived}, restored {self.restored}"
        )


class BackupGroup(BaseModel):
    group_id: str
    file: str
    nodes: int
    relationships: int
    sha256: str


class BackupReport(BaseModel):
    directory: str
    created_at: datetime
    embedding_model: str
    dimension: int
    format_version: int = EXPORT_FORMAT_VERSION
    groups: list[BackupGroup] = []

    def describe(self) -> str:
        nodes = sum(g.nodes for g in self.groups)
        rels = sum(g.relationships for g in self.groups)
        return (
            f"backed up {len(self.groups)} groups ({nodes} nodes, {rels} relationships) to {self.directory}"
        )
