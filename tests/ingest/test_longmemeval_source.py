"""The ``longmemeval`` source format: a tiny native file, plain and gzip, rejections, resume, and an
end-to-end ingest into the real Neo4j."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.memory import GraphMemory
from graphmem.store.driver import Store
from ingest.runner import IngestOptions, run_ingest
from ingest.sources import open_source
from ingest.sources.base import RecordError
from ingest.sources.longmemeval import parse_date


def question(qid: str, sessions: dict[str, list[dict[str, Any]]], dates: list[str]) -> dict[str, Any]:
    return {
        "question_id": qid,
        "question_type": "knowledge-update",
        "question": "Where do I live now?",
        "answer": "Lyon",
        "question_date": "2023/06/01 (Thu) 10:00",
        "haystack_session_ids": list(sessions),
        "haystack_dates": dates,
        "haystack_sessions": list(sessions.values()),
        "answer_session_ids": [s for s, turns in sessions.items() if any(t.get("has_answer") for t in turns)],
    }


def tiny() -> list[dict[str, Any]]:
    s1 = [
        {"role": "user", "content": "I moved to Paris last month.", "has_answer": True},
        {"role": "assistant", "content": "Congratulations on the move!"},
    ]
    s2 = [{"role": "user", "content": "We relocated to Lyon.", "has_answer": True}]
    other = [{"role": "user", "content": "Any tips for sourdough?"}]
    return [
        question("q1", {"s1": s1, "s2": s2}, ["2023/05/01 (Mon) 09:30", "2023/05/20 (Sat) 18:05"]),
        question("q2_abs", {"x9": other}, ["2023/01/02 (Mon) 00:00"]),
    ]


def write(path: Path, document: Any) -> Path:
    data = json.dumps(document).encode()
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return path


@pytest.mark.parametrize("name", ["tiny.json", "tiny.json.gz"])
def test_one_group_per_question_turns_as_episodes(tmp_path: Path, name: str) -> None:
    items = list(open_source(write(tmp_path / name, tiny()), "longmemeval", group="lme"))
    assert all(i.ok for i in items)
    assert [i.line for i in items] == [1, 2, 3, 4]
    assert [i.group_id for i in items] == ["lme-q1"] * 3 + ["lme-q2_abs"]
    episodes = [i.episode for i in items if i.episode is not None]
    assert [e.external_id for e in episodes] == ["s1:0", "s1:1", "s2:0", "x9:0"]
    assert [e.speaker for e in episodes] == ["user", "assistant", "user", "user"]
    assert [e.session_id for e in episodes] == ["s1", "s1", "s2", "x9"]
    assert episodes[0].content == "I moved to Paris last month."
    assert episodes[0].reference_time == datetime(2023, 5, 1, 9, 30, tzinfo=UTC)
    assert episodes[2].reference_time == datetime(2023, 5, 20, 18, 5, tzinfo=UTC)


def test_without_a_group_the_question_id_is_the_group(tmp_path: Path) -> None:
    items = list(open_source(write(tmp_path / "t.json", tiny()[0]), "longmemeval"))
    assert {i.group_id for i in items} == {"q1"}


def test_dates_are_read_in_the_run_timezone(tmp_path: Path) -> None:
    items = list(open_source(write(tmp_path / "t.json", tiny()), "longmemeval", timezone="Asia/Shanghai"))
    first = items[0].episode
    assert first is not None and first.reference_time == datetime(2023, 5, 1, 1, 30, tzinfo=UTC)


def test_resume_skips_the_turns_already_read(tmp_path: Path) -> None:
    path = write(tmp_path / "t.json", tiny())
    items = list(open_source(path, "longmemeval", start_line=2))
    assert [(i.line, i.episode.external_id if i.episode else None) for i in items] == [
        (3, "s2:0"),
        (4, "x9:0"),
    ]


def test_bad_turns_and_questions_are_rejected_with_a_reason(tmp_path: Path) -> None:
    doc = tiny()
    doc[0]["haystack_sessions"][0][1] = {"role": "assistant", "content": "   "}
    doc[0]["haystack_dates"][1] = "sometime"
    doc[1]["haystack_dates"] = []
    items = list(open_source(write(tmp_path / "t.json", doc), "longmemeval", group="g"))
    assert [i.ok for i in items] == [True, False, False, False]
    assert items[1].error == "missing field: content"
    assert items[2].error is not None and items[2].error.startswith("bad haystack_dates[1]")
    assert items[3].error == "haystack_dates must list one date per haystack session"


def test_a_malformed_document_is_one_rejection(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"question_id": ')
    (item,) = open_source(path, "longmemeval")
    assert item.error is not None and item.error.startswith("malformed JSON document")


def test_parse_date_forms() -> None:
    assert parse_date("2023/05/30 (Tue) 23:40", UTC, field="d") == datetime(2023, 5, 30, 23, 40, tzinfo=UTC)
    assert parse_date("2023/5/3 07:05", UTC, field="d") == datetime(2023, 5, 3, 7, 5, tzinfo=UTC)
    assert parse_date("2023-05-30T23:40:00Z", UTC, field="d") == datetime(2023, 5, 30, 23, 40, tzinfo=UTC)
    with pytest.raises(RecordError, match="bad d"):
        parse_date("2023/02/30 (Thu) 10:00", UTC, field="d")


async def test_ingest_end_to_end(tmp_path: Path, memory: GraphMemory, store: Store, group: str) -> None:
    path = write(tmp_path / "t.json.gz", tiny())
    opts = IngestOptions(
        paths=(path,), fmt="longmemeval", group=group, home=tmp_path / "home", backoff_s=0.001
    )
    summary = await run_ingest(memory, opts)
    assert (summary.ingested, summary.exit_code) == (4, 0)
    rows = await store.read(
        "MATCH (e:Episode) WHERE e.group_id IN $groups "
        "RETURN e.group_id AS g, e.external_id AS x, e.speaker AS who ORDER BY g, x",
        groups=[f"{group}-q1", f"{group}-q2_abs"],
    )
    assert [(r["g"][len(group) + 1 :], r["x"], r["who"]) for r in rows] == [
        ("q1", "s1:0", "user"),
        ("q1", "s1:1", "assistant"),
        ("q1", "s2:0", "user"),
        ("q2_abs", "x9:0", "user"),
    ]
    for g in (f"{group}-q1", f"{group}-q2_abs"):
        await memory.forget_group(g, purge_tombstones=True)
