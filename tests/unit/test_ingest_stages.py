"""The pieces of ``prepare_episodes`` that the DB-free stage profiler (``eval.ingest_stages``) runs:
``ingestion.extract_batch`` (the extractor over a batch, "you" bound to the other speaker) and
``ingestion.ahead_texts`` (the names and statements embedded before the group lock)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from eval import ingest_stages
from graphmem.memory import ingestion
from graphmem.models.episode import EpisodeIn
from graphmem.models.extraction import ExtractedEntity, ExtractedFact, Extraction
from graphmem.providers.extractors.rules import RulesExtractor

AT = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)


def _episode(speaker: str, content: str, session: str = "s1") -> EpisodeIn:
    return EpisodeIn(content=content, speaker=speaker, session_id=session, reference_time=AT)


def _prepared(extraction: Extraction, n: int = 0) -> ingestion.Prepared:
    return ingestion.Prepared(f"id{n}", f"key{n}", _episode("Ann", "text"), extraction)


def _fact(subject: str, predicate: str, obj: str) -> ExtractedFact:
    return ExtractedFact(subject=subject, predicate=predicate, object=obj, quote=f"{subject} {obj}")


def test_extract_batch_is_the_extractor_per_episode_with_you_as_the_other_speaker() -> None:
    episodes = [
        _episode("Ann", "I moved to Lisbon last year."),
        _episode("Bob", "You told me you work at Initech now."),
        _episode("Ann", "Yes, I started at Initech in March."),
    ]
    extractor = RulesExtractor()
    batched = ingestion.extract_batch(extractor, episodes)
    assert len(batched) == len(episodes)
    assert [x.model_dump() for x in batched] == [
        x.model_dump() for x in ingestion.extract_batch(extractor, episodes)
    ]  # deterministic
    subjects = {f.subject for x in batched for f in x.facts}
    assert "Ann" in subjects and not subjects & {"I", "you", "You", "me"}


class _OneByOne:
    """An extractor without ``extract_batch``: called once per episode."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def extract(self, *, content: str, speaker: str | None, reference_time: datetime) -> Extraction:
        self.calls.append(content)
        return Extraction(entities=[ExtractedEntity(name=f"  {speaker}\x00 ", kind="person")], facts=[])


def test_extract_batch_calls_a_plain_extractor_per_episode_and_cleans_names() -> None:
    plain = _OneByOne()
    out = ingestion.extract_batch(plain, [_episode("Ann", "one"), _episode("Bob", "two")])
    assert plain.calls == ["one", "two"]
    assert [x.entities[0].name for x in out] == ["Ann", "Bob"]


def test_ahead_texts_are_unknown_names_and_statements_with_known_display_names() -> None:
    extraction = Extraction(
        entities=[ExtractedEntity(name="Lisbon", kind="place")],
        facts=[_fact("ann", "lives_in", "Lisbon")],
    )
    prepared = [_prepared(extraction)]
    unknown = ingestion.ahead_texts(prepared, {})
    assert "Lisbon" in unknown and "ann" in unknown
    assert any("Lisbon" in t and t not in ("Lisbon", "ann") for t in unknown)  # the statement
    known = ingestion.ahead_texts(prepared, {"ann": "Ann", "lisbon": "Lisbon"})
    assert "ann" not in known and "Lisbon" not in known  # known names are not embedded again
    (statement,) = known
    assert statement.startswith("Ann")  # the statement reads with the known display name
    assert known == sorted(known)


def test_ahead_texts_of_a_batch_without_facts_are_its_new_names_only() -> None:
    extraction = Extraction(entities=[ExtractedEntity(name="Initech", kind="organization")], facts=[])
    assert ingestion.ahead_texts([_prepared(extraction)], {}) == ["Initech"]
    assert ingestion.ahead_texts([_prepared(extraction)], {"initech": "Initech"}) == []
    assert ingestion.wanted_entities([_prepared(extraction)]) == {"initech": ("Initech", "organization")}


def _locomo(path: Path) -> Path:
    turns = [
        {"speaker": "Ann", "dia_id": f"D1:{i}", "text": text}
        for i, text in enumerate(
            ["I moved to Lisbon last year.", "Nice! Do you like it?", "I love it, I work at Initech now."], 1
        )
    ]
    sample = {
        "sample_id": "c1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1": turns,
            "session_1_date_time": "1:56 pm on 8 May, 2023",
        },
    }
    path.write_text(json.dumps([sample]), encoding="utf-8")
    return path


def test_stage_batches_cut_each_group_in_reading_order(tmp_path: Path) -> None:
    path = _locomo(tmp_path / "locomo.json")
    work = ingest_stages.batches(path, "locomo", 2, None)
    assert [len(b) for _, b in work] == [2, 1]
    assert work[0][1][0].content == "I moved to Lisbon last year."
    assert len({g for g, _ in work}) == 1
    assert [len(b) for _, b in ingest_stages.batches(path, "locomo", 2, 2)] == [2]
