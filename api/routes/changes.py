"""The change log of a group: every state change, in the order the group's writes committed."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import MemoryDep, ReadGroup
from api.schemas.changes import ChangeList
from api.schemas.common import errors
from graphmem.models.common import UtcDatetime

router = APIRouter(prefix="/v1/groups/{group}", tags=["changes"])


@router.get(
    "/changes",
    operation_id="list_changes",
    summary="Read the change log",
    description=(
        "Append-only records of every state change of the group (episode added; fact created, "
        "superseded, ended, corrected, retracted, archived, merged; entity merged; forget; import), "
        "each with its actor, reason and consent id, versions before and after and source episodes, "
        "in commit order. `since`/`until` bound `recorded_at` (system time); `target` keeps records "
        "naming one id; `cursor` is the previous page's `next_cursor`. A forget leaves its record and "
        "nulls the `payload` (content) of earlier records naming what it removed, keeping hashes."
    ),
    responses=errors(),
)
async def list_changes(
    group: ReadGroup,
    memory: MemoryDep,
    since: Annotated[UtcDatetime | None, Query(description="recorded_at >= since (ISO 8601).")] = None,
    until: Annotated[UtcDatetime | None, Query(description="recorded_at < until (ISO 8601).")] = None,
    target: Annotated[
        str | None, Query(min_length=1, max_length=200, description="A fact, episode or entity id.")
    ] = None,
    cursor: Annotated[str | None, Query(max_length=40, pattern=r"^[0-9]+\.[0-9]+$")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> ChangeList:
    page = await memory.changes(group, since=since, until=until, target=target, cursor=cursor, limit=limit)
    return ChangeList.model_validate(page.model_dump())
