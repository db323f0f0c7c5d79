"""Episodes: immutable evidence (one chat turn, one document)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from graphmem.models.common import UtcDatetime
from graphmem.models.fact import FactChange

# The reference times an episode may carry, for the API, the library and `graphmem ingest` alike:
# 1970-01-01 to the end of 2100 (UTC). Outside it a time is almost always a unit or parsing slip
# (epoch milliseconds read as seconds, a zero date), and relative expressions resolved against it
# stay far from datetime's own limits (years 1 and 9999).
REFERENCE_TIME_MIN = datetime(1970, 1, 1, tzinfo=UTC)
REFERENCE_TIME_MAX = datetime(2100, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)


def check_reference_time(value: datetime) -> datetime:
    """``value`` when it lies in [REFERENCE_TIME_MIN, REFERENCE_TIME_MAX], else a validation error
    of type ``reference_time_out_of_range`` (the API's 422 names the field)."""
    if not REFERENCE_TIME_MIN <= value <= REFERENCE_TIME_MAX:
        raise PydanticCustomError(
            "reference_time_out_of_range",
            "reference_time must lie between 1970-01-01 and 2100-12-31 (UTC), got {value}",
            {
                "value": value.isoformat(),
                "min": REFERENCE_TIME_MIN.isoformat(),
                "max": REFERENCE_TIME_MAX.isoformat(),
            },
        )
    return value


ReferenceTime = Annotated[UtcDatetime, AfterValidator(check_reference_time)]


class EpisodeIn(BaseModel):
    """One episode to ingest. ``reference_time`` is when it was said (world time)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    content: str = Field(min_length=1, max_length=100_000)
    reference_time: ReferenceTime = Field(
        description="When it was said or written: 1970-01-01 to 2100-12-31 UTC (422 "
        "reference_time_out_of_range outside)"
    )
    speaker: str | None = Field(default=None, max_length=200)
    session_id: str | None = Field(default=None, max_length=200)
    external_id: str | None = Field(default=None, max_length=200)
    source: Literal["message", "text", "json"] = "message"

    def content_hash(self) -> str:
        return hashlib.sha256(self.content.encode("utf-8")).hexdigest()

    def idempotency_key(self, group_id: str) -> str:
        """group + external id, else content hash + session + time (DESIGN §3)."""
        if self.external_id:
            basis = f"{group_id}\x1fext\x1f{self.external_id}"
        else:
            basis = (
                f"{group_id}\x1fhash\x1f{self.content_hash()}\x1f{self.session_id or ''}"
                f"\x1f{self.reference_time.isoformat()}\x1f{self.speaker or ''}"
            )
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()


class EpisodeRecord(BaseModel):
    id: str
    group_id: str
    content: str
    reference_time: UtcDatetime
    ingested_at: UtcDatetime
    speaker: str | None = None
    session_id: str | None = None
    external_id: str | None = None
    source: str = "message"
    content_hash: str = ""


class EpisodeOutcome(BaseModel):
    id: str
    external_id: str | None
    status: Literal["created", "existing", "forgotten"]


class IngestResult(BaseModel):
    episodes: list[EpisodeOutcome] = []
    facts: list[FactChange] = []

    @property
    def created(self) -> int:
        return sum(1 for e in self.episodes if e.status == "created")

    @property
    def existing(self) -> int:
        return sum(1 for e in self.episodes if e.status != "created")
