"""Browsing: the groups a caller may read, their sessions and episodes page by page (cursors), and a
session's turns with the facts each produced."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Literal

from graphmem.errors import InvalidInput, InvalidTimeRange
from graphmem.memory.context import MemoryContext
from graphmem.memory.reads import facts_by_ids
from graphmem.models.browse import (
    EpisodeItem,
    EpisodePage,
    GroupPage,
    GroupSummary,
    SessionPage,
    SessionSummary,
    SessionTurn,
)
from graphmem.models.episode import EpisodeRecord
from graphmem.store import browse


async def list_groups(
    ctx: MemoryContext, group_ids: Iterable[str] | None, *, limit: int = 1000
) -> list[GroupSummary]:
    """Groups that hold memory, of ``group_ids`` only when given (``None``: every group)."""
    ids = sorted(group_ids) if group_ids is not None else None
    rows = await browse.groups(ctx.store, group_ids=ids, limit=limit)
    return [GroupSummary(**row) for row in rows]


async def group_page(
    ctx: MemoryContext, group_ids: Iterable[str] | None, *, cursor: str | None = None, limit: int = 1000
) -> GroupPage:
    """A page of the groups that hold memory (of ``group_ids`` only, when given), in id order."""
    after = str(decode_cursor(cursor, "groups", 1)[0]) if cursor else None
    ids = sorted(group_ids) if group_ids is not None else None
    rows = await browse.groups(ctx.store, group_ids=ids, after=after, limit=limit + 1)
    groups = [GroupSummary(**row) for row in rows[:limit]]
    more = len(rows) > limit
    return GroupPage(
        groups=groups,
        next_cursor=encode_cursor("groups", groups[-1].group_id) if more else None,
        has_more=more,
    )


async def session_turns(
    ctx: MemoryContext, group_id: str, session_id: str, *, last_n: int = 100
) -> list[SessionTurn]:
    """The last ``last_n`` episodes of a session, oldest first, each with the facts it evidences."""
    rows = await browse.session_episodes(ctx.store, group_id=group_id, session_id=session_id, limit=last_n)
    fact_ids = [fid for row in rows for fid in row["fact_ids"]]
    facts = {f.id: f for f in await facts_by_ids(ctx, group_id, fact_ids)} if fact_ids else {}
    turns = []
    for row in rows:
        episode = _episode(row["episode"])
        turns.append(SessionTurn(episode=episode, facts=[facts[i] for i in row["fact_ids"] if i in facts]))
    return turns


# bounds of the reference-time range when the caller gives none: every episode lies inside
FAR_PAST = datetime(1, 1, 2, tzinfo=UTC)
FAR_FUTURE = datetime(9999, 12, 30, tzinfo=UTC)


def encode_cursor(kind: str, *values: Any) -> str:
    """An opaque cursor: the list it belongs to and the keyset of the page's last item."""
    raw = json.dumps([kind, *values], separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str, kind: str, arity: int) -> list[Any]:
    """The keyset ``encode_cursor(kind, ...)`` packed; ``InvalidInput`` (field ``cursor``) for a
    cursor of another list or order, or one this service did not issue."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        values = None
    if not (isinstance(values, list) and len(values) == arity + 1 and values[0] == kind):
        raise InvalidInput(
            "cursor must be a next_cursor of this list (same order)", details={"field": "cursor"}
        )
    return values[1:]


def _episode(row: dict[str, Any]) -> EpisodeRecord:
    return EpisodeRecord(**{k: v for k, v in row.items() if v is not None})


async def list_sessions(
    ctx: MemoryContext, group_id: str, *, cursor: str | None = None, limit: int = 100
) -> SessionPage:
    """The group's sessions in session-id order, each with its counts and first/last times."""
    after = str(decode_cursor(cursor, "sessions", 1)[0]) if cursor else ""
    rows = await browse.sessions_page(ctx.store, group_id=group_id, after=after, limit=limit + 1)
    sessions = [SessionSummary(**row) for row in rows[:limit]]
    more = len(rows) > limit
    return SessionPage(
        group_id=group_id,
        sessions=sessions,
        next_cursor=encode_cursor("sessions", sessions[-1].session_id) if more else None,
        has_more=more,
    )


async def list_episodes(
    ctx: MemoryContext,
    group_id: str,
    *,
    session_id: str | None = None,
    speaker: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    order: Literal["asc", "desc"] = "asc",
    cursor: str | None = None,
    limit: int = 100,
) -> EpisodePage:
    """The group's episodes by reference time (then id), ``since <= reference_time < until``, of one
    session and/or speaker when given; ``cursor`` continues a previous page of the same order."""
    if since is not None and until is not None and until <= since:
        raise InvalidTimeRange("until must be after since", details={"field": "until"})
    kind = f"episodes-{order}"
    after: tuple[datetime, str] | None = None
    if cursor:
        when, last_id = decode_cursor(cursor, kind, 2)
        try:
            after = (datetime.fromisoformat(str(when)), str(last_id))
        except ValueError:
            raise InvalidInput(
                "cursor must be a next_cursor of this list", details={"field": "cursor"}
            ) from None
    rows = await browse.episodes_page(
        ctx.store,
        group_id=group_id,
        lo=since or FAR_PAST,
        hi=until or FAR_FUTURE,
        session_id=session_id,
        speaker=speaker,
        after=after,
        descending=order == "desc",
        limit=limit + 1,
    )
    items = [EpisodeItem(episode=_episode(r["episode"]), fact_ids=r["fact_ids"]) for r in rows[:limit]]
    more = len(rows) > limit
    last = items[-1].episode if items else None
    return EpisodePage(
        group_id=group_id,
        episodes=items,
        next_cursor=encode_cursor(kind, last.reference_time.isoformat(), last.id) if more and last else None,
        has_more=more,
    )
