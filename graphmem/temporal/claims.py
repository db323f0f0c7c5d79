"""Claims: the per-evidence statements a fact's history is computed from.

Every fact node keeps the claims that support it (``claims``, JSON strings). Because a slot's history
is a pure function of its claims (``chain.resolve_slot``), ingesting the same claims in any order gives
the same facts, intervals and SUPERSEDES links (DESIGN §1, rule 4).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from graphmem.clock import parse_iso
from graphmem.models.extraction import WHATEVER_HOLDS


@dataclass(frozen=True)
class Claim:
    ref: str
    kind: str  # assert | end | correct
    value: str
    value_key: str
    at: datetime | None
    source_kind: str
    recorded_at: datetime
    object_id: str | None = None
    until: datetime | None = None
    confidence: float = 1.0
    episode_id: str | None = None
    quote: str | None = None
    start: int | None = None
    end: int | None = None
    replaces: str | None = None
    guessed: bool | None = None  # a correction of a guessed slot: only where its mistake held

    @property
    def ends_whatever_holds(self) -> bool:
        return self.kind == "end" and self.value == WHATEVER_HOLDS

    @property
    def tier(self) -> str:
        """Inferred claims form their own history: they never supersede stated ones."""
        return "inferred" if self.source_kind == "inferred" else "stated"

    def to_json(self) -> str:
        data: dict[str, Any] = {k: v for k, v in asdict(self).items() if v is not None}
        for key in ("at", "until", "recorded_at"):
            if key in data:
                data[key] = data[key].isoformat()
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Claim:
        data = json.loads(text)
        for key in ("at", "until", "recorded_at"):
            if data.get(key):
                data[key] = parse_iso(data[key])
        return cls(**{"at": None, **data})  # to_json leaves out None, and ``at`` has no default

    def moved_to(self, at: datetime | None) -> Claim:
        return replace(self, at=at, kind="assert")
