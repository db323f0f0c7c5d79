"""The batch runner: checkpoint order, retries, dead letters and progress on an in-memory fake
store (fast), then every format, gzip, a 2,000-line file and the CLI against the real Neo4j."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.errors import ConfigError, InvalidInput, StoreUnavailable
from graphmem.memory import GraphMemory
from graphmem.models.episode import EpisodeIn, EpisodeOutcome, IngestResult
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from ingest.checkpoint import Checkpoint
from ingest.cli import ingest
from ingest.progress import BarProgress, PlainProgress, input_size, open_progress, total_bytes
from ingest.runner import IngestOptions, run_ingest, state_paths
from ingest.summary import Summary

T0 = 1_700_000_000
EPISODES_OF_GROUP = "MATCH (e:Episode {group_id: $g}) RETURN e.external_id AS x"


def message(i: int, **extra: Any) -> str:
    record = {"content": f"note {i}", "timestamp": T0 + i, "external_id": f"e{i}", "session_id": "s"}
    return json.dumps(record | extra)


def write(path: Path, lines: Sequence[str]) -> Path:
    data = "".join(line + "\n" for line in lines).encode()
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return path


def options(tmp_path: Path, *paths: Path, **overrides: Any) -> IngestOptions:
    settings: dict[str, Any] = {"fmt": "jsonl", "group": "g", "home": tmp_path / "home", "backoff_s": 0.001}
    return IngestOptions(paths=paths, **(settings | overrides))


def dead_letters(summary: Summary) -> list[dict[str, Any]]:
    path = Path(summary.dead_letter)
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


class FakeStore:
    """``add_episodes`` idempotent by episode key, in memory; ``hook`` runs before each write."""

    def __init__(self, hook: Callable[[str, Sequence[EpisodeIn]], Any] | None = None) -> None:
        self.groups: dict[str, dict[str, EpisodeIn]] = defaultdict(dict)
        self.hook = hook
        self.calls = 0

    async def add_episodes(
        self, group_id: str, episodes: Sequence[EpisodeIn], *, allow_forgotten: bool = False
    ) -> IngestResult:
        self.calls += 1
        if self.hook is not None:
            await self.hook(group_id, episodes)
        outcomes = []
        for episode in episodes:
            key = episode.idempotency_key(group_id)
            status = "existing" if key in self.groups[group_id] else "created"
            self.groups[group_id][key] = episode
            outcomes.append(EpisodeOutcome(id=key[:12], external_id=episode.external_id, status=status))
        return IngestResult(episodes=outcomes)

    def external_ids(self, group: str = "g") -> list[str | None]:
        return sorted((e.external_id for e in self.groups[group].values()), key=str)


# --- runner on a fake store ----------------------------------------------------------------------


async def test_batches_checkpoint_and_rerun_adds_nothing(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", [message(i) for i in range(10)])
    store = FakeStore()
    first = await run_ingest(store, options(tmp_path, path, batch_size=4))
    assert (first.read, first.ingested, first.batches, first.exit_code) == (10, 10, 3, 0)
    position = Checkpoint.load(first.checkpoint).get(path)
    assert (position.offset, position.line, position.count) == (path.stat().st_size, 10, 10)

    again = await run_ingest(store, options(tmp_path, path, batch_size=4))
    assert (again.ingested, again.duplicates) == (0, 10)
    resumed = await run_ingest(store, options(tmp_path, path, resume=True))
    assert (resumed.read, resumed.batches, resumed.exit_code) == (0, 0, 0)


async def test_resume_without_checkpoint_starts_at_the_beginning(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", [message(i) for i in range(5)])
    summary = await run_ingest(FakeStore(), options(tmp_path, path, resume=True))
    assert (summary.read, summary.ingested) == (5, 5)


async def test_transient_errors_are_retried(tmp_path: Path) -> None:
    failures = iter([StoreUnavailable("down"), StoreUnavailable("down")])

    async def flaky(group: str, episodes: Sequence[EpisodeIn]) -> None:
        if (error := next(failures, None)) is not None:
            raise error

    path = write(tmp_path / "m.jsonl", [message(i) for i in range(6)])
    summary = await run_ingest(FakeStore(flaky), options(tmp_path, path, batch_size=3))
    assert (summary.ingested, summary.retries, summary.exit_code) == (6, 2, 0)


async def test_fatal_error_keeps_the_committed_prefix_and_resume_finishes(tmp_path: Path) -> None:
    async def down_after_two(group: str, episodes: Sequence[EpisodeIn]) -> None:
        if store.calls > 2:
            raise StoreUnavailable("gone")

    path = write(tmp_path / "m.jsonl", [message(i) for i in range(10)])
    store = FakeStore(down_after_two)
    summary = await run_ingest(store, options(tmp_path, path, batch_size=3, max_retries=1, concurrency=1))
    assert summary.exit_code == 1 and summary.error is not None
    assert summary.error.startswith("store_unavailable")
    assert Checkpoint.load(summary.checkpoint).get(path).count == 6

    store.hook = None
    resumed = await run_ingest(store, options(tmp_path, path, resume=True))
    assert (resumed.read, resumed.ingested, resumed.exit_code) == (4, 4, 0)
    assert store.external_ids() == sorted((f"e{i}" for i in range(10)), key=str)


async def test_checkpoint_waits_for_the_slowest_group(tmp_path: Path) -> None:
    """A committed batch of group b must not move the checkpoint past an unfinished batch of a."""
    seen: list[tuple[int, int]] = []
    b_called = asyncio.Event()

    async def slow_a(group: str, episodes: Sequence[EpisodeIn]) -> None:
        if group == "b":
            b_called.set()
        elif not seen:
            await b_called.wait()
            await asyncio.sleep(0.05)  # b's batch commits and settles meanwhile
            seen.append((len(store.groups["b"]), Checkpoint.load(opts.checkpoint_path).get(path).count))

    lines = [message(i, group_id="ab"[i % 2]) for i in range(12)]
    path = write(tmp_path / "m.jsonl", lines)
    store = FakeStore(slow_a)
    opts = options(tmp_path, path, batch_size=2, concurrency=3, group=None)
    summary = await run_ingest(store, opts)
    (b_stored, count), *_ = seen
    assert b_stored >= 2 and count == 0
    assert (summary.ingested, summary.exit_code) == (12, 0)
    assert Checkpoint.load(opts.checkpoint_path).get(path).count == 12


async def test_groups_run_concurrently_but_each_group_in_order(tmp_path: Path) -> None:
    active: dict[str, int] = defaultdict(int)
    peaks = {"all": 0, "group": 0}
    order: list[str] = []

    async def track(group: str, episodes: Sequence[EpisodeIn]) -> None:
        active[group] += 1
        peaks["all"] = max(peaks["all"], sum(active.values()))
        peaks["group"] = max(peaks["group"], active[group])
        order.extend(e.external_id or "" for e in episodes if group == "g0")
        await asyncio.sleep(0.01)
        active[group] -= 1

    lines = [message(i, group_id=f"g{i % 4}") for i in range(80)]
    path = write(tmp_path / "m.jsonl", lines)
    summary = await run_ingest(FakeStore(track), options(tmp_path, path, batch_size=5, concurrency=3))
    assert summary.ingested == 80
    assert peaks == {"all": 3, "group": 1}
    assert order == [f"e{i}" for i in range(0, 80, 4)]


async def test_bad_records_go_to_dead_letters_once(tmp_path: Path) -> None:
    lines = [message(i) if i % 5 else "{broken" for i in range(1, 21)]
    path = write(tmp_path / "m.jsonl", lines)
    store = FakeStore()
    summary = await run_ingest(store, options(tmp_path, path, batch_size=4))
    assert (summary.read, summary.ingested, summary.rejected, summary.exit_code) == (20, 16, 4, 3)
    records = dead_letters(summary)
    assert [r["line"] for r in records] == [5, 10, 15, 20]
    assert all(r["reason"].startswith("malformed JSON") and r["raw"] == "{broken" for r in records)

    again = await run_ingest(store, options(tmp_path, path))
    assert (again.rejected, again.dead_letters_written, again.exit_code) == (4, 0, 3)
    assert len(dead_letters(again)) == 4


async def test_torn_dead_letter_line_is_repaired(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", ["{broken", message(2)])
    opts = options(tmp_path, path)
    opts.dead_letter_path.parent.mkdir(parents=True)
    opts.dead_letter_path.write_text(
        '{"path": "x", "line": 1, "reason": "r", "raw": null}\n{"path": "y", "li'
    )
    summary = await run_ingest(FakeStore(), opts)
    assert [r["path"] for r in dead_letters(summary)] == ["x", str(path)]


async def test_a_record_the_store_refuses_is_isolated(tmp_path: Path) -> None:
    async def refuse_poison(group: str, episodes: Sequence[EpisodeIn]) -> None:
        if any(e.content == "poison" for e in episodes):
            raise InvalidInput("bad episode")

    lines = [message(i) for i in range(7)] + [message(7, content="poison")] + [message(8)]
    path = write(tmp_path / "m.jsonl", lines)
    store = FakeStore(refuse_poison)
    summary = await run_ingest(store, options(tmp_path, path, batch_size=9))
    assert (summary.ingested, summary.rejected, summary.exit_code) == (8, 1, 3)
    (record,) = dead_letters(summary)
    assert (record["line"], record["reason"]) == (8, "invalid_input: bad episode")
    assert "poison" in record["raw"]


async def test_fatal_store_errors_are_not_retried(tmp_path: Path) -> None:
    async def misconfigured(group: str, episodes: Sequence[EpisodeIn]) -> None:
        raise ConfigError("wrong model")

    path = write(tmp_path / "m.jsonl", [message(1)])
    summary = await run_ingest(FakeStore(misconfigured), options(tmp_path, path))
    assert (summary.retries, summary.error, summary.exit_code) == (0, "config_error: wrong model", 1)


def test_options_are_validated_and_state_is_named_by_paths_and_group(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", [message(1)])
    with pytest.raises(InvalidInput):
        options(tmp_path, tmp_path / "missing.jsonl")
    with pytest.raises(InvalidInput):
        options(tmp_path, path, fmt="xml")
    home = tmp_path / "home"
    same = state_paths([path], "g", home)
    assert (
        same
        == state_paths([Path(str(path))], "g", home)
        == (
            options(tmp_path, path).checkpoint_path,
            options(tmp_path, path).dead_letter_path,
        )
    )
    assert same[0].parent == home / "ingest" and same[0].name.endswith(".checkpoint.json")
    assert state_paths([path], "other", home) != same
    twice = options(tmp_path, path, tmp_path / ".." / tmp_path.name / "m.jsonl")
    assert twice.paths == (path,)


# --- progress and summary ------------------------------------------------------------------------


def test_plain_progress_prints_rate_and_eta(tmp_path: Path) -> None:
    stream = io.StringIO()
    progress = open_progress("auto", stream=stream, total=1000, interval_s=0)
    assert isinstance(progress, PlainProgress)
    progress.advance(nbytes=250)
    progress.show(Summary(read=3, ingested=2, rejected=1))
    assert "3 read, 2 ingested, 0 duplicates, 1 rejected" in stream.getvalue()
    assert "25.0%, ETA" in stream.getvalue()


def test_bar_progress_draws_to_any_stream() -> None:
    stream = io.StringIO()
    bar = BarProgress(stream, total=None)
    bar.advance(records=5)
    bar.show(Summary(ingested=5))
    bar.close()
    assert "ingest" in stream.getvalue()


def test_progress_totals_count_uncompressed_bytes(tmp_path: Path) -> None:
    plain = write(tmp_path / "m.jsonl", [message(i) for i in range(50)])
    packed = write(tmp_path / "m.jsonl.gz", [message(i) for i in range(50)])
    assert input_size(packed) == input_size(plain) == plain.stat().st_size
    assert total_bytes([plain, packed], "jsonl") == 2 * plain.stat().st_size
    assert total_bytes([plain], "locomo") is None


def test_summary_json_and_text() -> None:
    summary = Summary(read=10, ingested=8, duplicates=1, rejected=1, seconds=2.0, dead_letter="d.jsonl")
    summary.facts.update({"created": 3, "superseded": 1})
    data = summary.to_dict()
    assert (data["episodes_per_s"], data["facts_created"], data["exit_code"]) == (4.5, 3, 3)
    assert "1 duplicates skipped" in summary.render() and "d.jsonl" in summary.render()


# --- end to end into Neo4j -----------------------------------------------------------------------


async def stored_ids(store: Store, group: str) -> list[str]:
    return sorted(row["x"] for row in await store.read(EPISODES_OF_GROUP, g=group))


def openai_file(path: Path) -> Path:
    def conversation(cid: str) -> str:
        messages = [{"role": "system", "content": "be brief"}] + [
            {"role": "user" if k % 2 == 0 else "assistant", "content": f"{cid} says {k}", "timestamp": T0 + k}
            for k in range(3)
        ]
        return json.dumps({"id": cid, "messages": messages})

    return write(path, [conversation("c1"), conversation("c2")])


def locomo_file(path: Path) -> Path:
    def sample(sample_id: str) -> dict[str, Any]:
        turns = [{"speaker": "A", "dia_id": f"D1:{k}", "text": f"{sample_id} turn {k}"} for k in range(1, 4)]
        conversation = {"speaker_a": "A", "speaker_b": "B", "session_1": turns}
        conversation["session_1_date_time"] = "1:56 pm on 8 May, 2023"
        return {"sample_id": sample_id, "conversation": conversation, "qa": []}

    path.write_text(json.dumps([sample("x1"), sample("x2")]))
    return path


def csv_file(path: Path) -> Path:
    rows = ["text,ts,who,id"] + [f'"csv, row {i}",{T0 + i},bob,r{i}' for i in range(5)]
    return write(path, rows)


async def test_jsonl_and_gzip_end_to_end(
    tmp_path: Path, memory: GraphMemory, store: Store, group: str
) -> None:
    plain = write(tmp_path / "a.jsonl", [message(i) for i in range(6)])
    packed = write(tmp_path / "b.jsonl.gz", [message(i) for i in range(6, 12)])
    summary = await run_ingest(memory, options(tmp_path, plain, packed, group=group, batch_size=4))
    assert (summary.read, summary.ingested, summary.exit_code) == (12, 12, 0)
    assert await stored_ids(store, group) == sorted(f"e{i}" for i in range(12))
    checkpoint = Checkpoint.load(summary.checkpoint)
    assert [checkpoint.get(p).count for p in (plain, packed)] == [6, 6]


async def test_openai_end_to_end(tmp_path: Path, memory: GraphMemory, store: Store, group: str) -> None:
    summary = await run_ingest(
        memory, options(tmp_path, openai_file(tmp_path / "c.jsonl"), fmt="openai", group=group)
    )
    assert (summary.ingested, summary.exit_code) == (6, 0)
    assert await stored_ids(store, group) == [f"{c}:{k}" for c in ("c1", "c2") for k in (1, 2, 3)]


async def test_locomo_end_to_end(tmp_path: Path, memory: GraphMemory, store: Store, group: str) -> None:
    path = locomo_file(tmp_path / "l.json")
    summary = await run_ingest(memory, options(tmp_path, path, fmt="locomo", group=group, batch_size=2))
    assert (summary.ingested, summary.exit_code) == (6, 0)
    for sample in ("x1", "x2"):
        assert await stored_ids(store, f"{group}-{sample}") == ["D1:1", "D1:2", "D1:3"]


async def test_csv_end_to_end(tmp_path: Path, memory: GraphMemory, store: Store, group: str) -> None:
    mapping = {"content": "text", "timestamp": "ts", "speaker": "who", "external_id": "id"}
    path = csv_file(tmp_path / "m.csv")
    summary = await run_ingest(memory, options(tmp_path, path, fmt="csv", group=group, csv_mapping=mapping))
    assert (summary.ingested, summary.exit_code) == (5, 0)
    assert await stored_ids(store, group) == [f"r{i}" for i in range(5)]


@pytest.fixture
async def hashing_memory(store: Store, memory: GraphMemory) -> GraphMemory:
    """The real store and extractor with the hashing embedder (384-d, as the indexes): what the
    runner's bulk tests check is batching, dead letters and idempotency, not the vectors. Opened
    without migrations: the session's ``memory`` has applied them (and they would refuse a second
    model)."""
    return await GraphMemory.open(
        store=store, embedder=HashingEmbedder(384), extractor=RulesExtractor(), migrate=False
    )


async def test_two_thousand_lines_with_one_percent_broken(
    tmp_path: Path, hashing_memory: GraphMemory, store: Store, group: str
) -> None:
    """Seven full batches and a partial one, a broken line in each hundred: every good line is
    stored once, every broken one dead-lettered once under its line number, and a rerun adds
    nothing."""
    lines = [message(i) if i % 100 != 42 else f"{{broken {i}" for i in range(2_000)]
    path = write(tmp_path / "big.jsonl", lines)
    summary = await run_ingest(hashing_memory, options(tmp_path, path, group=group))
    assert (summary.read, summary.ingested, summary.rejected, summary.exit_code) == (2_000, 1_980, 20, 3)
    assert summary.batches == 8
    records = dead_letters(summary)
    assert [r["line"] for r in records] == [i + 1 for i in range(42, 2_000, 100)]
    assert len(await stored_ids(store, group)) == 1_980

    again = await run_ingest(hashing_memory, options(tmp_path, path, group=group))
    assert (again.ingested, again.duplicates, again.rejected) == (0, 1_980, 20)
    assert len(dead_letters(again)) == 20
    assert len(await stored_ids(store, group)) == 1_980


async def test_crash_between_write_and_checkpoint_adds_no_duplicate(
    tmp_path: Path, memory: GraphMemory, store: Store, group: str
) -> None:
    """The second batch commits, then the run dies before checkpointing it: resume re-sends it."""

    class DiesAfterSecondWrite:
        calls = 0

        async def add_episodes(self, group_id: str, episodes: Sequence[EpisodeIn], **kw: Any) -> IngestResult:
            result = await memory.add_episodes(group_id, episodes, **kw)
            self.calls += 1
            if self.calls == 2:
                raise ConfigError("simulated crash after commit")
            return result

    path = write(tmp_path / "m.jsonl", [message(i) for i in range(10)])
    opts = options(tmp_path, path, group=group, batch_size=4, concurrency=1)
    crashed = await run_ingest(DiesAfterSecondWrite(), opts)
    assert crashed.exit_code == 1 and Checkpoint.load(opts.checkpoint_path).get(path).count == 4

    resumed = await run_ingest(memory, options(tmp_path, path, group=group, batch_size=4, resume=True))
    assert (resumed.read, resumed.duplicates, resumed.ingested) == (6, 4, 2)
    assert await stored_ids(store, group) == sorted(f"e{i}" for i in range(10))


def test_cli_json_summary_and_exit_codes(tmp_path: Path, group: str) -> None:
    path = write(tmp_path / "m.jsonl", [message(i) for i in range(3)] + ["{broken"])
    args = [str(path), "--format", "jsonl", "--group", group, "--json", "--progress", "none"]
    args += ["--checkpoint", str(tmp_path / "cp.json"), "--dead-letter", str(tmp_path / "dl.jsonl")]
    first = CliRunner().invoke(ingest, args)
    assert first.exit_code == 3, first.output
    data = json.loads(first.stdout.strip().splitlines()[-1])
    assert (data["read"], data["ingested"], data["rejected"], data["exit_code"]) == (4, 3, 1, 3)
    resumed = CliRunner().invoke(ingest, [*args, "--resume"])
    assert json.loads(resumed.stdout.strip().splitlines()[-1])["read"] == 0
    assert resumed.exit_code == 0


def test_docs_list_exactly_the_cli_options() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "ingest.md").read_text()
    documented = set(re.findall(r"^\| `(--[a-z-]+)", docs, flags=re.MULTILINE))
    options = {opt for param in ingest.params for opt in param.opts if opt.startswith("--")}
    assert documented == options


def test_cli_help_and_usage_errors(tmp_path: Path) -> None:
    help_text = CliRunner().invoke(ingest, ["--help"]).output
    assert "Example:" in help_text and "--resume" in help_text and "Exit codes" in help_text
    path = write(tmp_path / "m.csv", ["content,timestamp"])
    bad_map = CliRunner().invoke(ingest, [str(path), "--format", "csv", "--csv-map", "content"])
    assert bad_map.exit_code == 2 and "FIELD=COLUMN" in bad_map.output
    missing = CliRunner().invoke(ingest, [str(tmp_path / "nope.jsonl"), "--format", "jsonl"])
    assert missing.exit_code == 2


@pytest.mark.parametrize("retries", [0, 2])
async def test_retries_are_one_layer(tmp_path: Path, store: Store, retries: int) -> None:
    """Bug: ``Store.execute`` retried a transient error six times inside the runner's own retries,
    so ``--retries 0`` still retried (and ``--retries 5`` meant 36 tries); the runner's is the only
    layer."""
    tries = 0

    async def deadlock(tx: Any) -> None:
        nonlocal tries
        tries += 1
        raise StoreUnavailable("deadlock", details={"transient": True})

    async def hook(group: str, episodes: Sequence[EpisodeIn]) -> None:
        await store.execute(deadlock)

    path = write(tmp_path / "m.jsonl", [message(i) for i in range(3)])
    summary = await run_ingest(FakeStore(hook), options(tmp_path, path, batch_size=3, max_retries=retries))
    assert (tries, summary.retries, summary.exit_code) == (retries + 1, retries, 1)
    tries = 0
    with pytest.raises(StoreUnavailable):
        await store.execute(deadlock)  # outside the runner the store keeps its deadlock retries
    assert tries == 6


async def test_an_edited_record_is_a_dead_lettered_conflict(
    tmp_path: Path, memory: GraphMemory, group: str
) -> None:
    """Bug: a re-sent external_id with other content counted as a duplicate and its text was
    dropped silently; the record is dead-lettered as ``idempotency_conflict``, the rest ingested."""
    first = write(tmp_path / "a.jsonl", [message(i) for i in range(3)])
    assert (await run_ingest(memory, options(tmp_path, first, group=group))).ingested == 3
    edited = write(tmp_path / "b.jsonl", [message(0), message(1, content="note one, edited"), message(3)])
    summary = await run_ingest(memory, options(tmp_path, edited, group=group))
    assert (summary.ingested, summary.duplicates, summary.rejected, summary.exit_code) == (1, 1, 1, 3)
    [letter] = dead_letters(summary)
    assert letter["line"] == 2 and letter["reason"].startswith("idempotency_conflict: ")
