"""Drafts: claims whose subject and object are still names (before entity resolution)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.clock import as_utc
from graphmem.models.extraction import ExtractedFact
from graphmem.models.fact import FactIn
from graphmem.models.predicates import lookup

IMPORTANCE = {"user_stated": 0.8, "tool": 0.7, "imported": 0.7, "extracted": 0.6, "inferred": 0.4}


@dataclass(frozen=True)
class Draft:
    ref: str
    subject: str
    subject_kind: str
    predicate: str
    value: str
    object_name: str | None
    object_kind: str
    qualifier: str
    kind: str
    at: datetime | None
    source_kind: str
    confidence: float
    until: datetime | None = None
    replaces: str | None = None
    guessed: bool = False
    episode_id: str | None = None
    quote: str | None = None
    start: int | None = None
    end: int | None = None

    @property
    def importance(self) -> float:
        base = IMPORTANCE.get(self.source_kind, 0.5)
        return base * (0.5 if lookup(self.predicate).temporary else 1.0)


def from_extracted(fact: ExtractedFact, *, ref: str, episode_id: str, at: datetime) -> Draft:
    entity_object = fact.object is not None and lookup(fact.predicate).object_is_entity
    value = fact.literal
    return Draft(
        ref=ref,
        subject=fact.subject,
        subject_kind=fact.subject_kind,
        predicate=fact.predicate,
        value=value,
        object_name=value if entity_object else None,
        object_kind=fact.object_kind,
        qualifier=fact.qualifier,
        kind=fact.claim,
        at=as_utc(fact.valid_from) if fact.valid_from else at,
        until=as_utc(fact.valid_to) if fact.valid_to else None,
        replaces=fact.replaces,
        guessed=fact.guessed,
        source_kind=fact.source_kind,
        confidence=fact.confidence,
        episode_id=episode_id,
        quote=fact.quote,
        start=fact.start,
        end=fact.end,
    )


def from_explicit(fact: FactIn, *, ref: str, episode_id: str | None) -> Draft:
    definition = lookup(fact.predicate)
    value = fact.object if fact.object is not None else (fact.value or "")
    return Draft(
        ref=ref,
        subject=fact.subject,
        subject_kind="person",
        predicate=fact.predicate,
        value=value,
        object_name=fact.object,
        object_kind=definition.object_kind,
        qualifier="",
        kind="assert",
        at=fact.valid_from,
        until=fact.valid_to,
        source_kind=fact.source_kind,
        confidence=fact.confidence,
        episode_id=episode_id,
    )
