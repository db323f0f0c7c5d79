"""The change log (docs/schema.md, ``:Change``): one append-only record per state change.

``Actor`` says who made a change: an API key (``key:<id>`` with its role), an extractor
(``extractor:<name>@<version>``), a CLI command (``cli:<command>``), ``maintain`` or ``library``.
``ChangeMeta`` is what the edge knows about a write (actor, reason, consent id); ``ChangeRecord``
is one stored record as readers get it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from graphmem.errors import InvalidInput
from graphmem.models.common import UtcDatetime

ChangeKind = Literal[
    "episode_added",
    "fact_created",
    "fact_evidence_added",
    "fact_updated",
    "fact_ended",
    "fact_superseded",
    "fact_corrected",
    "fact_retracted",
    "fact_merged",
    "fact_archived",
    "entity_merged",
    "forget",
    "import",
    "pii_revealed",
]

MAX_REASON = 500
MAX_CONSENT_ID = 200


@dataclass(frozen=True)
class Actor:
    id: str
    role: str | None = None

    @classmethod
    def api_key(cls, key_id: str, role: str) -> Actor:
        return cls(f"key:{key_id}", role)

    @classmethod
    def cli(cls, command: str) -> Actor:
        return cls(f"cli:{command}", "operator")

    @classmethod
    def extractor(cls, name: str, version: str) -> Actor:
        return cls(f"extractor:{name}@{version}", "extractor")


MAINTAIN = Actor("maintain", "system")
LIBRARY = Actor("library", None)


@dataclass(frozen=True)
class ChangeMeta:
    """Who asks for the writes at hand, why, and under which consent (both optional)."""

    actor: Actor = LIBRARY
    reason: str | None = None
    consent_id: str | None = None

    def __post_init__(self) -> None:
        for name, cap in (("reason", MAX_REASON), ("consent_id", MAX_CONSENT_ID)):
            value = getattr(self, name)
            if value is not None and (not value.strip() or len(value) > cap or "\x00" in value):
                raise InvalidInput(
                    f"{name} must be 1 to {cap} characters", details={"field": name, "max_length": cap}
                )


class ChangeRecord(BaseModel):
    """One change as stored. ``seq`` is the writing transaction's place in the group's order
    (its ``lock_seq``), ``n`` the record's place within that transaction. ``payload`` holds the
    content (a statement, an external id, a speaker); forget sets it to null and ``redacted_at``,
    keeping ``payload_hash`` (sha256 of the payload's canonical JSON)."""

    id: str
    group_id: str
    seq: int
    n: int
    kind: str
    target_ids: list[str]
    version_before: int | None = None
    version_after: int | None = None
    occurred_at: UtcDatetime | None = None
    recorded_at: UtcDatetime
    actor: str
    actor_role: str | None = None
    requested_by: str | None = None
    reason: str | None = None
    consent_id: str | None = None
    source_episode_ids: list[str] = []
    valid_from: UtcDatetime | None = None
    valid_to: UtcDatetime | None = None
    content_hash: str | None = None
    payload: dict[str, Any] | None = None
    payload_hash: str | None = None
    redacted_at: UtcDatetime | None = None

    @property
    def cursor(self) -> str:
        return f"{self.seq}.{self.n}"


class ChangePage(BaseModel):
    """``next_cursor``: pass it back to read on (also once ``has_more`` is false, to poll for
    records written later)."""

    changes: list[ChangeRecord]
    next_cursor: str | None = None
    has_more: bool = False
