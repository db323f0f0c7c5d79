"""Batched parsing is a speed-up only: one ``nlp.pipe`` over a whole batch of turns gives the same
annotations and the same facts as parsing each turn by itself, whatever the pipe's batch size.

The texts are a small fixed set written for this test: moves, jobs, names the model has not seen
at the start of a sentence (the masked re-parse), a sentence repeated across turns (parsed once,
shared), questions and filler the claim check skips, a named employer (the on-demand entity
recogniser), and a Chinese turn."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.providers.extractors import en_parse
from graphmem.providers.extractors.rules import ExtractRequest, RulesExtractor

AT = datetime(2024, 3, 5, 9, 30, tzinfo=UTC)
TURNS = [
    ("Ann", "I moved to Porto last spring. The light there is lovely."),
    ("Bo", "Nice! I still work at Globex, but I'm thinking of leaving."),
    ("Ann", "Zoltan lives in Quito now and he adopted a puppy named Biscuit."),
    ("Bo", "Did you go to the pottery class yesterday?"),
    ("Ann", "Yes, I went to the pottery class yesterday. Wow, so much fun."),
    ("Bo", "Mirela started a new job at Initech in January."),
    ("Ann", "Sounds like a plan. I went to the pottery class yesterday."),
    ("Bo", "My sister is a nurse and she lives in Leeds with her two cats."),
    ("Ann", "我去年从杭州搬到了上海。"),
    ("Bo", "Haha ok"),
]


def requests() -> list[ExtractRequest]:
    return [ExtractRequest(text, who, AT, "Bo" if who == "Ann" else "Ann") for who, text in TURNS]


def facts(extractions: list[Any]) -> list[list[dict[str, Any]]]:
    return [[f.model_dump() for f in x.facts] for x in extractions]


def annotations(docs: list[Any]) -> list[list[tuple[Any, ...]]]:
    return [[(t.text, t.tag_, t.pos_, t.dep_, t.head.i, t.lemma_, str(t.morph)) for t in doc] for doc in docs]


def test_one_batch_gives_the_facts_of_one_turn_at_a_time() -> None:
    extractor = RulesExtractor()
    batched = extractor.extract_batch(requests())
    alone = [extractor.extract_batch([r])[0] for r in requests()]
    assert facts(batched) == facts(alone)
    assert sum(len(x) for x in facts(batched)) >= 5  # the set does yield facts


@pytest.mark.parametrize("batch_size", [1, 3])
def test_the_pipe_batch_size_changes_no_annotation(monkeypatch: pytest.MonkeyPatch, batch_size: int) -> None:
    texts = [text for _, text in TURNS]
    default = annotations(en_parse.parse_many(texts))
    monkeypatch.setattr(en_parse, "BATCH_SIZE", batch_size)
    assert annotations(en_parse.parse_many(texts)) == default
    assert annotations([en_parse.parse_many([t])[0] for t in texts]) == default
