"""Whole-group operations: forget a group (admin keys only)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import AdminGroup, MemoryDep
from api.schemas.common import errors
from api.schemas.lifecycle import ForgetResponse

router = APIRouter(prefix="/v1/groups", tags=["groups"])


@router.delete(
    "/{group}",
    operation_id="forget_group",
    summary="Forget a whole group (admin)",
    description=(
        "Deletes every episode, fact and entity of the group in one operation and reports the counts. "
        "Requires an admin key: agent keys may forget episodes of their groups, not whole groups. "
        "Tombstones of the forgotten episodes are kept (a re-ingest reports `forgotten`) unless "
        "`purge_tombstones=true`, which also deletes the group's tombstones (`tombstones_deleted`)."
    ),
    responses=errors(404),
)
async def forget_group(
    group: AdminGroup,
    memory: MemoryDep,
    purge_tombstones: Annotated[
        bool, Query(description="Delete the group's tombstones too, so its episodes may be ingested again.")
    ] = False,
) -> ForgetResponse:
    report = await memory.forget_group(group, purge_tombstones=purge_tombstones)
    return ForgetResponse.model_validate(report.model_dump())
