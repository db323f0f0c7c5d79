"""Validators shared by the domain models."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from graphmem.clock import as_utc

SourceKind = Literal["user_stated", "extracted", "inferred", "tool", "imported"]
SOURCE_STRENGTH: dict[str, int] = {
    "inferred": 0,
    "extracted": 1,
    "tool": 1,
    "imported": 1,
    "user_stated": 2,
}

UtcDatetime = Annotated[datetime, AfterValidator(as_utc)]
GroupId = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:\-]+$")]
