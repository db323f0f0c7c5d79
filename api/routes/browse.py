"""Browsing: the groups a key can read, a group's sessions (cursor-paginated), a session's turns."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from api.deps import MemoryDep, PrincipalDep, ReadGroup
from api.schemas.browse import GroupList, SessionDigestPublic, SessionList, SessionTurns
from api.schemas.common import errors
from graphmem.models.browse import SessionWindow

router = APIRouter(tags=["browse"])

Cursor = Annotated[
    str | None,
    Query(min_length=1, max_length=2000, description="The previous page's `next_cursor`."),
]
PageLimit = Annotated[int, Query(ge=1, le=1000, description="Items per page.")]

SessionId = Annotated[str, Path(min_length=1, max_length=200, description="The episodes' `session_id`.")]


@router.get(
    "/v1/groups",
    operation_id="list_groups",
    summary="Groups this key can read",
    description=(
        "The groups holding memory that the caller may read, with episode, fact and entity counts: an "
        "agent key's own groups, every group for analyst and admin keys. In id order, "
        "cursor-paginated: pass `next_cursor` back as `cursor` while `has_more`."
    ),
    responses=errors(),
)
async def list_groups(
    principal: PrincipalDep, memory: MemoryDep, cursor: Cursor = None, limit: PageLimit = 1000
) -> GroupList:
    readable = sorted(principal.groups) if principal.groups is not None else None
    page = await memory.group_page(readable, cursor=cursor, limit=limit)
    return GroupList.model_validate(page.model_dump())


@router.get(
    "/v1/groups/{group}/sessions/{session_id:path}/episodes",
    operation_id="session_episodes",
    summary="A session's turns",
    description=(
        "The last `last_n` episodes of a session, oldest first, each with the facts it is evidence for. "
        "A session id may hold `/` (sent as `%2F` or as is)."
    ),
    responses=errors(),
)
async def session_episodes(
    group: ReadGroup,
    session_id: SessionId,
    memory: MemoryDep,
    last_n: Annotated[int, Query(ge=1, le=1000, description="How many of the latest turns.")] = 100,
) -> SessionTurns:
    turns = await memory.session_turns(group, session_id, last_n=last_n)
    return SessionTurns.model_validate(
        {"group_id": group, "session_id": session_id, "turns": [t.model_dump() for t in turns]}
    )


@router.get(
    "/v1/groups/{group}/sessions",
    operation_id="list_sessions",
    summary="A group's sessions",
    description=(
        "The group's sessions in `session_id` order, each with its episode count, the number of "
        "facts its episodes are evidence for and the reference times of its first and last "
        "episodes. Cursor-paginated: pass `next_cursor` back as `cursor` while `has_more`."
    ),
    responses=errors(),
)
async def list_sessions(
    group: ReadGroup, memory: MemoryDep, cursor: Cursor = None, limit: PageLimit = 100
) -> SessionList:
    page = await memory.list_sessions(group, cursor=cursor, limit=limit)
    return SessionList.model_validate(page.model_dump())


@router.get(
    "/v1/groups/{group}/sessions/{session_id:path}/digest",
    operation_id="session_digest",
    summary="A session's digest",
    description=(
        "The session summed up without a model: its current facts (newest first), its key turns "
        "(earlier turns that gave the most current facts), its newest `last_n` turns, and `context`, "
        "their text within `token_budget`. A search gives the same digest beside its hits when the "
        "request names the session (`session: {id, last_n}`). An unknown session has an empty digest."
    ),
    responses=errors(),
)
async def session_digest(
    group: ReadGroup,
    session_id: SessionId,
    memory: MemoryDep,
    last_n: Annotated[int, Query(ge=0, le=100, description="How many of its newest turns.")] = 10,
    facts: Annotated[int, Query(ge=0, le=100, description="At most this many current facts.")] = 20,
    key_turns: Annotated[int, Query(ge=0, le=20, description="How many key earlier turns.")] = 3,
    token_budget: Annotated[int, Query(ge=0, le=8000, description="Tokens for `context`.")] = 400,
) -> SessionDigestPublic:
    window = SessionWindow(
        id=session_id, last_n=last_n, facts=facts, key_turns=key_turns, token_budget=token_budget
    )
    digest = await memory.session_digest(group, window)
    return SessionDigestPublic.model_validate(digest.model_dump())
