"""Domain models: plain pydantic objects shared by every layer."""

from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeIn, EpisodeRecord, IngestResult
from graphmem.models.extraction import ExtractedEntity, ExtractedFact, Extraction
from graphmem.models.fact import Evidence, FactChange, FactIn, FactRecord
from graphmem.models.predicates import VOCABULARY, Predicate, is_functional, lookup

__all__ = [
    "VOCABULARY",
    "EntityRecord",
    "EpisodeIn",
    "EpisodeRecord",
    "Evidence",
    "ExtractedEntity",
    "ExtractedFact",
    "Extraction",
    "FactChange",
    "FactIn",
    "FactRecord",
    "IngestResult",
    "Predicate",
    "is_functional",
    "lookup",
]
