"""Entities: find by name, read one, its timeline."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from api.deps import MemoryDep, ReadGroup
from api.schemas.common import errors
from api.schemas.entities import EntityList, EntityPublic, Timeline

router = APIRouter(prefix="/v1/groups/{group}", tags=["entities"])

EntityId = Annotated[str, Path(min_length=1, max_length=200, description="Entity id (UUID).")]


@router.get(
    "/entities",
    operation_id="find_entities",
    summary="Find entities by name",
    description="Entities of the group whose normalised name or alias matches `name` (all when omitted).",
    responses=errors(),
)
async def find_entities(
    group: ReadGroup,
    memory: MemoryDep,
    name: Annotated[str | None, Query(min_length=1, max_length=200, examples=["alice"])] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> EntityList:
    found = await memory.find_entities(group, name, limit=limit)
    return EntityList.model_validate({"entities": [e.model_dump() for e in found]})


@router.get(
    "/entities/{entity_id}",
    operation_id="get_entity",
    summary="Read one entity",
    description="The entity: name, kind, aliases and summary.",
    responses=errors(404),
)
async def get_entity(group: ReadGroup, entity_id: EntityId, memory: MemoryDep) -> EntityPublic:
    return EntityPublic.model_validate((await memory.get_entity(group, entity_id)).model_dump())


@router.get(
    "/entities/{entity_id}/timeline",
    operation_id="entity_timeline",
    summary="An entity's timeline",
    description=(
        "Every fact with the entity as subject, current and past (superseded, ended, expired), in "
        "valid-time order, with `SUPERSEDES` links and evidence: how what we know changed over time."
    ),
    responses=errors(404),
)
async def entity_timeline(group: ReadGroup, entity_id: EntityId, memory: MemoryDep) -> Timeline:
    entity = await memory.get_entity(group, entity_id)
    facts = await memory.timeline(group, entity_id)
    return Timeline.model_validate({"entity": entity.model_dump(), "facts": [f.model_dump() for f in facts]})
