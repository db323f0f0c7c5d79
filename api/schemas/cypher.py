"""Analyst Cypher DTOs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmem.store.analyst import AnalystResult


class CypherBody(BaseModel):
    """One read-only Cypher statement with ``$parameters``. Writes, ``LOAD CSV``, schema and admin
    commands, and procedures outside the allow-list are refused (403 ``forbidden``)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "query": "match (f:Fact {group_id: $g})-[:SUBJECT]->(e:Entity) "
                    "RETURN e.name AS who, f.statement AS fact LIMIT 10",
                    "params": {"g": "team-a"},
                    "format": "json",
                }
            ]
        },
    )

    query: str = Field(min_length=1, max_length=100_000)
    params: dict[str, Any] = Field(default_factory=dict)
    format: Literal["json", "csv"] = "json"


class CypherResponse(AnalystResult):
    """Rows keyed by column; nodes as ``{id, element_id, labels, properties}`` (embeddings left out),
    relationships with ``start``/``end`` element ids, temporal values as ISO 8601 strings.
    ``truncated`` is true when the row cap (``GRAPHMEM_CYPHER_ROW_CAP``) cut the result."""
