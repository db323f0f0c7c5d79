"""graphmem: temporal knowledge-graph memory for AI agents, on Neo4j.

Importing this package does no work: no connections, no model loading.
"""

from graphmem.config import Settings
from graphmem.errors import (
    AlreadyExists,
    ConfigError,
    Conflict,
    EmbedderUnavailable,
    EmbeddingMismatch,
    ExtractionFailed,
    Forbidden,
    GraphMemError,
    IdempotencyConflict,
    InvalidInput,
    InvalidQuery,
    InvalidTimeRange,
    NotFound,
    PayloadTooLarge,
    StoreUnavailable,
    Unauthorized,
    UnknownParameter,
)
from graphmem.memory import GraphMemory
from graphmem.models import (
    EntityRecord,
    EpisodeIn,
    EpisodeRecord,
    Evidence,
    FactChange,
    FactIn,
    FactRecord,
    IngestResult,
)

__all__ = [
    "AlreadyExists",
    "ConfigError",
    "Conflict",
    "EmbedderUnavailable",
    "EmbeddingMismatch",
    "EntityRecord",
    "EpisodeIn",
    "EpisodeRecord",
    "Evidence",
    "ExtractionFailed",
    "FactChange",
    "FactIn",
    "FactRecord",
    "Forbidden",
    "GraphMemError",
    "GraphMemory",
    "IdempotencyConflict",
    "IngestResult",
    "InvalidInput",
    "InvalidQuery",
    "InvalidTimeRange",
    "NotFound",
    "PayloadTooLarge",
    "Settings",
    "StoreUnavailable",
    "Unauthorized",
    "UnknownParameter",
]
