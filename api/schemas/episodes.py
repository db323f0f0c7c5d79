"""Episode DTOs: one episode or a batch in, ids and fact changes out."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from api.schemas.facts import FactPublic
from graphmem.models.episode import EpisodeIn, EpisodeRecord, IngestResult

EPISODE_EXAMPLE = {
    "content": "I moved to Berlin last month and started at Acme as a data engineer.",
    "reference_time": "2025-03-14T09:30:00Z",
    "speaker": "alice",
    "session_id": "chat-42",
    "external_id": "msg-1001",
    "source": "message",
}


class EpisodeCreate(EpisodeIn):
    """One episode: a chat turn or a document. ``reference_time`` is when it was said (world time).
    Idempotent: the same ``external_id`` (or, without one, the same content, session, speaker and
    time) in the same group is stored once."""

    model_config = ConfigDict(json_schema_extra={"examples": [EPISODE_EXAMPLE]})


class EpisodeBatch(BaseModel):
    """Several episodes ingested in one transaction (at most ``GRAPHMEM_MAX_BATCH``, default 500)."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"episodes": [EPISODE_EXAMPLE]}]}
    )

    episodes: list[EpisodeCreate] = Field(min_length=1)


def _episode_shape(value: Any) -> str:
    return "batch" if isinstance(value, dict) and "episodes" in value else "one"


EpisodeBody = Annotated[
    Annotated[EpisodeCreate, Tag("one")] | Annotated[EpisodeBatch, Tag("batch")],
    Discriminator(_episode_shape),
]


class IngestResponse(IngestResult):
    """Per episode: its id and whether it was ``created``, already ``existing``, or ``forgotten`` (a
    tombstone refuses re-ingestion); per fact: what the write did (created, superseded, ...) and
    its valid interval after the write (``created`` with a ``valid_to`` was created already ended)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "episodes": [{"id": "4f0c…", "external_id": "msg-1001", "status": "created"}],
                    "facts": [
                        {
                            "fact_id": "9a1e…",
                            "change": "created",
                            "statement": "alice lives in Berlin",
                            "valid_from": "2025-02-14T09:30:00Z",
                            "valid_to": None,
                        }
                    ],
                }
            ]
        }
    )


class EpisodePublic(EpisodeRecord):
    """A stored episode (immutable evidence)."""


class EpisodeDetail(BaseModel):
    """An episode and the facts it is evidence for."""

    episode: EpisodePublic
    facts: list[FactPublic]
