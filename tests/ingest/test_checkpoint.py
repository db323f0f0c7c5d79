"""Checkpoints (atomic, durable, resumable) and dead letters."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from graphmem.errors import InvalidInput
from ingest.checkpoint import Checkpoint, Position
from ingest.deadletter import DeadLetterWriter
from ingest.sources import SourceItem, open_source


def write_messages(path: Path, n: int, broken_every: int = 0) -> Path:
    lines = []
    for i in range(n):
        if broken_every and i % broken_every == broken_every - 1:
            lines.append("{not json " + str(i))
        else:
            lines.append(
                json.dumps({"content": f"m{i}", "timestamp": 1_700_000_000 + i, "external_id": f"e{i}"})
            )
    path.write_text("\n".join(lines) + "\n")
    return path


def test_missing_file_loads_empty(tmp_path: Path) -> None:
    checkpoint = Checkpoint.load(tmp_path / "run.json")
    assert checkpoint.get("a.jsonl") == Position(0, 0, 0)
    assert checkpoint.sources == {}
    assert not (tmp_path / "run.json").exists()


def test_commit_round_trips_and_keys_by_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    checkpoint = Checkpoint.load(tmp_path / "state" / "run.json")
    checkpoint.commit("a.jsonl", 120, 10, 9)
    checkpoint.commit(tmp_path / "b.csv", 5, 1, 1)
    checkpoint.commit("a.jsonl", 240, 20, 19)

    again = Checkpoint.load(tmp_path / "state" / "run.json")
    assert again.get(tmp_path / "a.jsonl") == Position(240, 20, 19)
    assert again.get("b.csv") == Position(5, 1, 1)
    document = json.loads((tmp_path / "state" / "run.json").read_text())
    assert document["version"] == 1
    assert document["sources"][str(tmp_path / "a.jsonl")] == {
        "offset": 240,
        "line": 20,
        "count": 19,
    }
    assert sorted(p.name for p in (tmp_path / "state").iterdir()) == ["run.json"]


def test_commit_is_atomic_and_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.json"
    checkpoint = Checkpoint.load(path)
    checkpoint.commit("a", 1, 1, 1)
    before = path.read_bytes()
    synced: list[int] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)

    def crash(src: object, dst: object) -> None:
        raise OSError("disk vanished")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk vanished"):
        checkpoint.commit("a", 2, 2, 2)
    assert path.read_bytes() == before  # old state intact, no torn file
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # temp file cleaned up
    assert len(synced) == 1  # the temp file was fsynced before the rename

    monkeypatch.undo()
    monkeypatch.setattr(os, "fsync", recording_fsync)
    checkpoint.commit("a", 3, 3, 3)
    assert len(synced) == 3  # temp file and directory
    assert Checkpoint.load(path).get("a") == Position(3, 3, 3)


@pytest.mark.parametrize(
    "text",
    [
        "{torn",
        "[]",
        '{"version": 2, "sources": {}}',
        '{"version": 1, "sources": {"a": {"offset": 1}}}',
        '{"version": 1, "sources": {"a": {"offset": -1, "line": 0, "count": 0}}}',
    ],
)
def test_corrupt_checkpoint_is_a_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "run.json"
    path.write_text(text)
    with pytest.raises(InvalidInput, match="corrupt checkpoint"):
        Checkpoint.load(path)


def test_negative_positions_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        Checkpoint.load(tmp_path / "run.json").commit("a", -1, 0, 0)


def run_batches(source: Path, state: Path, batch: int, stop_after: int | None) -> list[SourceItem]:
    """Ingest ``source`` in batches, committing after each; stop (crash) after some batches."""
    checkpoint = Checkpoint.load(state)
    position = checkpoint.get(source)
    items = open_source(source, "jsonl", group="g", start_offset=position.offset, start_line=position.line)
    seen: list[SourceItem] = []
    count, pending, batches = position.count, 0, 0
    for item in items:
        seen.append(item)
        count, pending = count + 1, pending + 1
        if pending == batch:
            checkpoint.commit(source, *item.resume_from, count)
            pending, batches = 0, batches + 1
            if stop_after is not None and batches == stop_after:
                return seen
    if seen:
        checkpoint.commit(source, *seen[-1].resume_from, count)
    return seen


@pytest.mark.parametrize("name", ["log.jsonl", "log.jsonl.gz"])
def test_crash_and_resume_yields_every_record_once(tmp_path: Path, name: str) -> None:
    source = write_messages(tmp_path / "log.jsonl", 1_000, broken_every=97)
    if name.endswith(".gz"):
        packed = tmp_path / name
        packed.write_bytes(gzip.compress(source.read_bytes()))
        source = packed
    state = tmp_path / "run.json"
    first = run_batches(source, state, batch=64, stop_after=5)
    second = run_batches(source, state, batch=64, stop_after=None)
    everything = list(open_source(source, "jsonl", group="g"))
    assert first + second == everything
    assert Checkpoint.load(state).get(source).count == len(everything) == 1_000
    assert run_batches(source, state, batch=64, stop_after=None) == []


def rejected_item(line: int, reason: str = "malformed JSON: x") -> SourceItem:
    return SourceItem("a.jsonl", line, line * 10, "", None, reason, f"raw {line}")


def test_dead_letters_are_appended_per_flush(tmp_path: Path) -> None:
    path = tmp_path / "out" / "dead.jsonl"
    with DeadLetterWriter(path) as writer:
        writer.add(rejected_item(1))
        assert writer.pending == 1 and not path.exists()
        writer.flush()
        assert path.exists() and writer.written == 1
        writer.add(rejected_item(2, "missing field: content"))
    with DeadLetterWriter(path) as writer:
        writer.add(rejected_item(3))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records == [
        {"path": "a.jsonl", "line": 1, "reason": "malformed JSON: x", "raw": "raw 1"},
        {"path": "a.jsonl", "line": 2, "reason": "missing field: content", "raw": "raw 2"},
        {"path": "a.jsonl", "line": 3, "reason": "malformed JSON: x", "raw": "raw 3"},
    ]


def test_dead_letters_refuse_good_items_and_create_nothing_when_idle(tmp_path: Path) -> None:
    path = tmp_path / "dead.jsonl"
    good = SourceItem("a", 1, 1, "g", None)
    with DeadLetterWriter(path) as writer:
        with pytest.raises(ValueError, match="only rejected"):
            writer.add(good)
        writer.flush()
    assert not path.exists()


def test_dead_letters_from_a_real_source(tmp_path: Path) -> None:
    source = write_messages(tmp_path / "log.jsonl", 100, broken_every=10)
    with DeadLetterWriter(tmp_path / "dead.jsonl") as writer:
        for item in open_source(source, "jsonl", group="g"):
            if not item.ok:
                writer.add(item)
    lines = (tmp_path / "dead.jsonl").read_text().splitlines()
    assert len(lines) == 10
    assert all(json.loads(x)["reason"].startswith("malformed JSON") for x in lines)
