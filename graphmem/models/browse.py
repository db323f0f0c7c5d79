"""Browsing a group: its sessions, its episodes page by page, and a session's digest.

Lists are cursor-paginated: ``next_cursor`` (set while ``has_more``) is passed back as ``cursor``
to read the next page; a cursor is opaque and only valid for the list (and order) that issued it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from graphmem.models.common import GroupId, UtcDatetime
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord


class GroupSummary(BaseModel):
    """A group (tenant) holding memory, with its node counts."""

    group_id: str
    episodes: int = 0
    facts: int = 0
    entities: int = 0


class GroupPage(BaseModel):
    """A page of the groups a caller may read, in id order."""

    groups: list[GroupSummary] = []
    next_cursor: str | None = None
    has_more: bool = False


class SessionTurn(BaseModel):
    """One turn of a session and the facts it is evidence for."""

    episode: EpisodeRecord
    facts: list[FactRecord] = []


class SessionSummary(BaseModel):
    """A session of a group: its episode count, the facts its episodes are evidence for (any
    state), and the reference times of its first and last episodes."""

    session_id: str
    episodes: int = 0
    facts: int = 0
    first_at: UtcDatetime | None = None
    last_at: UtcDatetime | None = None


class SessionPage(BaseModel):
    """A page of a group's sessions, in session-id order."""

    group_id: str
    sessions: list[SessionSummary] = []
    next_cursor: str | None = None
    has_more: bool = False


class EpisodeItem(BaseModel):
    """An episode of a list, with the ids of the facts it is evidence for."""

    episode: EpisodeRecord
    fact_ids: list[str] = []


class EpisodePage(BaseModel):
    """A page of a group's episodes in reference-time order (then id)."""

    group_id: str
    episodes: list[EpisodeItem] = []
    next_cursor: str | None = None
    has_more: bool = False


class SessionWindow(BaseModel):
    """Short-term memory asked for with a search: the session's digest next to the long-term hits.

    ``last_n`` newest turns (oldest first), the session's current facts (at most ``facts``) and its
    key turns, rendered within ``token_budget`` tokens, which are taken out of the search's own
    ``token_budget``. ``group_id`` names the session's group in a search over several groups."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=200, description="The session's `session_id`.")
    last_n: int = Field(default=10, ge=0, le=100, description="How many of its newest turns.")
    facts: int = Field(default=20, ge=0, le=100, description="At most this many of its current facts.")
    key_turns: int = Field(
        default=3, ge=0, le=20, description="Earlier turns that gave the most current facts."
    )
    token_budget: int = Field(default=400, ge=0, le=8000, description="Tokens for the digest's text.")
    group_id: GroupId | None = Field(default=None, description="The session's group (several-group search).")


class SessionDigest(BaseModel):
    """A session summed up without a model: its size and times, its current facts (newest first),
    its key turns (earlier turns that gave the most current facts) and its newest turns, both
    oldest first; ``context`` is the text of all of it within the window's token budget."""

    group_id: str
    session_id: str
    episodes: int = 0
    first_at: UtcDatetime | None = None
    last_at: UtcDatetime | None = None
    facts: list[FactRecord] = []
    key_turns: list[SessionTurn] = []
    recent: list[SessionTurn] = []
    context: str = ""
