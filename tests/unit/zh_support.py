"""What the Chinese rules-extractor tests share: one extractor, a speaker 小明 and a Wednesday."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models.extraction import ExtractedFact
from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)
EXTRACTOR = RulesExtractor()
Row = tuple[str, str, str, str]  # (subject, predicate, value, claim)


def facts(text: str) -> list[ExtractedFact]:
    return EXTRACTOR.extract(content=text, speaker="小明", reference_time=REF).facts


def rows(text: str) -> list[Row]:
    return [(f.subject, f.predicate, f.literal, f.claim) for f in facts(text)]


def me(predicate: str, value: str, claim: str = "assert") -> Row:
    return ("小明", predicate, value, claim)
