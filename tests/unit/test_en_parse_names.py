"""The English parser with names the small model has not seen at the start of a sentence."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.en_parse import parse_many
from graphmem.providers.extractors.rules import RulesExtractor

AT = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "subject", "predicate", "value"),
    [
        ("Alice lives in Berlin.", "Alice", "lives_in", "Berlin"),
        ("Zoltan lives in Quito.", "Zoltan", "lives_in", "Quito"),
        ("Mirela works at Acme.", "Mirela", "works_at", "Acme"),
        ("Oksana moved to Lisbon last year.", "Oksana", "lives_in", "Lisbon"),
    ],
)
def test_an_unseen_leading_name_is_a_subject(sentence: str, subject: str, predicate: str, value: str) -> None:
    """Bug: en_core_web_sm tags an unseen sentence-initial name as a noun or adjective ('Zoltan lives
    in Quito': Zoltan ADJ, lives NOUN ROOT), so third-person statements about people gave no fact."""
    facts = RulesExtractor().extract(content=sentence, speaker="bob", reference_time=AT).facts
    assert (subject, predicate, value) in {(f.subject, f.predicate, f.object) for f in facts}


@pytest.mark.parametrize(
    "sentence", ["Sounds like a good plan!", "Dogs live in kennels.", "Wow, that is great."]
)
def test_common_words_keep_their_parse(sentence: str) -> None:
    (doc,) = parse_many([sentence])
    assert doc[0].pos_ != "PROPN"
    assert doc.text == sentence
