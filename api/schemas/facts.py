"""Fact DTOs: explicit creation, correction (PATCH), and the public fact shape."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from graphmem.errors import InvalidTimeRange
from graphmem.models.common import UtcDatetime
from graphmem.models.fact import FactIn, FactRecord

FACT_EXAMPLE = {
    "subject": "alice",
    "predicate": "lives_in",
    "object": "Berlin",
    "valid_from": "2025-02-01T00:00:00Z",
    "source_kind": "user_stated",
    "confidence": 1.0,
}


class FactCreate(FactIn):
    """An explicit fact from a caller that already knows it. Exactly one of ``object`` (an entity)
    and ``value`` (a literal). A functional predicate (``lives_in``, ``works_at``...) supersedes
    the subject's current value; ``evidence_episode_ids`` must be episodes of the same group."""

    model_config = ConfigDict(json_schema_extra={"examples": [FACT_EXAMPLE]})


class FactBatch(BaseModel):
    """Several explicit facts written in one transaction (at most ``GRAPHMEM_MAX_BATCH``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"facts": [FACT_EXAMPLE]}]})

    facts: list[FactCreate] = Field(min_length=1)


def _fact_shape(value: Any) -> str:
    return "batch" if isinstance(value, dict) and "facts" in value else "one"


FactBody = Annotated[
    Annotated[FactCreate, Tag("one")] | Annotated[FactBatch, Tag("batch")],
    Discriminator(_fact_shape),
]


class FactPatch(BaseModel):
    """Correct a fact (new ``value`` or ``object``: the old one is expired, the new takes its place)
    or end it in the world (``end: true`` and/or ``valid_to``). Send the fact's ``version`` as
    ``If-Match``."""

    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        json_schema_extra={
            "examples": [{"object": "Munich"}, {"end": True, "valid_to": "2025-06-30T00:00:00Z"}],
            "minProperties": 1,
        },
    )

    value: str | None = Field(default=None, min_length=1, max_length=2000)
    object: str | None = Field(default=None, min_length=1, max_length=500)
    valid_from: UtcDatetime | None = None
    valid_to: UtcDatetime | None = None
    end: bool = False

    @model_validator(mode="after")
    def _check(self) -> FactPatch:
        if self.value is not None and self.object is not None:
            raise ValueError("give either 'value' or 'object', not both")
        if not (self.end or self.valid_to or self.value is not None or self.object is not None):
            raise ValueError("nothing to change: give 'value', 'object', 'valid_to' or 'end'")
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise InvalidTimeRange("valid_to must be after valid_from", details={"field": "valid_to"})
        return self


class FactPublic(FactRecord):
    """A fact with valid time (``valid_from``/``valid_to``), system time (``recorded_at``/
    ``expired_at``), its ``version`` (for ``If-Match``), supersession links and evidence."""


class FactList(BaseModel):
    facts: list[FactPublic]
