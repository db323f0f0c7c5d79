"""What an extractor returns for one episode: entities mentioned and claims made."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.models.common import SourceKind

ClaimKind = Literal["assert", "end", "correct"]
# The value of an ``end`` claim that names none ("I quit", 我辞职了, in an episode that does not name
# the employer): it ends whatever value of the slot holds at the claim's time (``temporal.chain``).
WHATEVER_HOLDS = "(current)"


class ExtractedEntity(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    kind: str = "thing"


class ExtractedFact(BaseModel):
    """One claim. ``claim``: ``assert`` (holds from ``valid_from``), ``end`` (the value stops holding
    at ``valid_from``, e.g. "I no longer work at X"), ``correct`` (``value`` replaces the mistaken
    ``replaces`` value, e.g. "actually it was X, not Y"). ``guessed``: a correction whose predicate
    the extractor could not tell ("Actually it's Initech, not Globex" in a later message): it
    applies only in a slot where the value it replaces held (``temporal.chain``)."""

    subject: str = Field(min_length=1, max_length=200)
    subject_kind: str = "person"
    predicate: str = Field(min_length=1, max_length=100)
    object: str | None = None
    object_kind: str = "thing"
    value: str | None = None
    qualifier: str = ""
    claim: ClaimKind = "assert"
    replaces: str | None = None
    guessed: bool = False
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    source_kind: SourceKind = "extracted"
    quote: str | None = None
    start: int | None = None
    end: int | None = None

    @property
    def literal(self) -> str:
        return self.object if self.object is not None else (self.value or "")


class Extraction(BaseModel):
    entities: list[ExtractedEntity] = []
    facts: list[ExtractedFact] = []
