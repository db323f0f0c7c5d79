"""Browsing DTOs: groups, and a session's turns."""

from __future__ import annotations

from pydantic import BaseModel

from api.schemas.facts import FactPublic
from graphmem.models.browse import EpisodePage, SessionDigest, SessionPage
from graphmem.models.episode import EpisodeRecord


class GroupPublic(BaseModel):
    """A group (tenant) holding memory, with its node counts."""

    group_id: str
    episodes: int = 0
    facts: int = 0
    entities: int = 0


class GroupList(BaseModel):
    groups: list[GroupPublic]
    next_cursor: str | None = None
    has_more: bool = False


class SessionTurnPublic(BaseModel):
    """One turn of a session and the facts it is evidence for."""

    episode: EpisodeRecord
    facts: list[FactPublic]


class SessionTurns(BaseModel):
    group_id: str
    session_id: str
    turns: list[SessionTurnPublic]


class SessionList(SessionPage):
    """A page of the group's sessions in session-id order: episode and fact counts, the reference
    times of the first and last episodes. ``next_cursor`` (while ``has_more``) reads on."""


class EpisodeList(EpisodePage):
    """A page of the group's episodes in reference-time order (then id), each with the ids of the
    facts it is evidence for. ``next_cursor`` (while ``has_more``) reads on."""


class SessionDigestPublic(SessionDigest):
    """A session's current facts, key turns and newest turns (oldest first), and ``context``:
    their text within the token budget, ready for a prompt."""
