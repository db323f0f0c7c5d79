"""Entity DTOs."""

from __future__ import annotations

from pydantic import BaseModel

from api.schemas.facts import FactPublic
from graphmem.models.entity import EntityRecord


class EntityPublic(EntityRecord):
    """A person, place, organisation or thing that facts are about."""


class EntityList(BaseModel):
    entities: list[EntityPublic]


class Timeline(BaseModel):
    """Every fact about the entity, current and past, in valid-time order."""

    entity: EntityPublic
    facts: list[FactPublic]
