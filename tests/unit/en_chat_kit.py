"""What the English chat-statement tests share: one extractor, a two-party session (Dana speaks,
Sam listens), and facts built by hand for the gates."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models.extraction import ExtractedFact
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.providers.extractors.rules_en_parse import Speakers

REF = datetime(2024, 6, 15, 10, 0, tzinfo=UTC)
SPEAKERS = Speakers("Dana", "Sam")
_EX = RulesExtractor()


def facts(text: str) -> list[ExtractedFact]:
    """Dana's message's facts, Sam being "you"."""
    return _EX.extract(content=text, speaker="Dana", reference_time=REF, other_speaker="Sam").facts


def rows(text: str) -> list[tuple[str, str]]:
    """(predicate, literal) of Dana's own facts."""
    return [(f.predicate, f.literal) for f in facts(text) if f.subject == "Dana"]


def fact(predicate: str, value: str, subject: str = "Dana", quote: str = "") -> ExtractedFact:
    return ExtractedFact(subject=subject, predicate=predicate, value=value, quote=quote)
