"""Tenant index snapshots (issue 22): a restored index answers as the one it was saved from, takes
later writes as it would, a damaged or foreign file is refused, and the directory keeps its byte
budget by evicting the coldest files (``tenant_index.persist``)."""

from __future__ import annotations

import json
import os
import pickle
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.retrieval.tenant_index import persist
from graphmem.retrieval.tenant_index.graph import Adjacency
from graphmem.retrieval.tenant_index.index import TenantIndex, View
from graphmem.retrieval.tenant_index.persist import MAGIC, Expected, SnapshotError, Snapshots

DIM = 8
T = [datetime(2024, m, 1, tzinfo=UTC) for m in range(1, 13)]
EXPECTED = Expected(DIM, "i8", 4)
VIEWS = [View(), View(history=True), View(as_of=T[3]), View(since=T[1], until=T[6])]
QUERIES = [["pari", "live"], ["berlin"], ["cat", "pixel"], ["absent"]]


def vec(seed: int) -> list[float]:
    return np.random.default_rng(seed).standard_normal(DIM).tolist()


def episodes(n: int, offset: int = 0) -> list[dict]:
    words = ["alic live pari", "bob live berlin", "cat pixel sleep", "pari berlin train", "pixel cat"]
    return [
        {
            "id": f"e{i:03d}",
            "search_text": f"dana {words[i % 5]} next {words[(i + 1) % 5]}",
            "speaker_terms": "dana",
            "terms": words[i % 5],
            "text": words[i % 5],
            "embedding": vec(i),
            "reference_time": T[i % 12],
            "mentions": [f"n{i % 3}"],
        }
        for i in range(offset, offset + n)
    ]


def facts(n: int) -> list[dict]:
    return [
        {
            "id": f"f{i:03d}",
            "search_text": f"dana live {'pari' if i % 2 else 'berlin'}",
            "text": f"Dana lives in {i}",
            "embedding": vec(100 + i),
            "subject_id": "n0",
            "object_id": f"n{1 + i % 2}",
            "status": "active",
            "expired_at": None,
            "valid_from": T[i % 12],
            "valid_to": T[(i % 12) + 1 if i % 12 < 11 else 11] if i % 3 == 0 else None,
            "evidence": 1,
            "evidence_ids": [f"e{i % 12:03d}"],
            "recorded_at": T[0],
            "confidence": 0.9,
            "tier": None,
        }
        for i in range(n)
    ]


def entities() -> list[dict]:
    return [
        {"id": f"n{i}", "search_text": f"name{i} pari", "text": f"N{i}", "embedding": vec(200 + i)}
        for i in range(3)
    ]


def built() -> TenantIndex:
    index = TenantIndex("g1", DIM, ann_threshold=4, seq=7, created_at=T[0])  # HNSW graphs past 4
    index.apply("episode", episodes(12))
    index.apply("fact", facts(10))
    index.apply("entity", entities())
    index.finish()
    index.fields.activate()
    return index


def answers(index: TenantIndex) -> list[object]:
    """Every channel's ranking over every query and view, and the rerank's features."""
    out: list[object] = []
    query = np.asarray(vec(999), dtype=np.float32)
    query /= np.linalg.norm(query)
    for view in VIEWS:
        for terms in QUERIES:
            for label in ("episode", "fact", "entity"):
                out.append(index.bm25(label, terms, 5, view))
            out.append(
                index.bm25("episode", terms, 5, view, fields={"own": 1.0, "context": 0.7, "facts": 0.5})
            )
        for label in ("episode", "fact", "entity"):
            out.append(index.vector(label, query, 5, view))
        out += [index.graph("fact", ["n0", "n1"], 5, view), index.graph("episode", ["n1"], 5, view)]
    out.append(index.features([("fact", "f001"), ("episode", "e003"), ("entity", "n2")]))
    return out


def restored(index: TenantIndex, tmp_path: Path) -> TenantIndex:
    snapshots = Snapshots(tmp_path)
    snapshots.save(index)
    found = snapshots.load("g1", EXPECTED)
    assert found is not None
    return found


def test_a_restored_index_answers_as_the_index_it_was_saved_from(tmp_path: Path) -> None:
    index = built()
    assert index.targets["episode"].vectors.hnsw  # the HNSW graphs travel too
    copy = restored(index, tmp_path)
    assert (copy.seq, copy.created_at, copy.size) == (7, T[0], index.size)
    assert set(copy.targets["episode"].vectors.viewed) == {0}  # the graph reads the file's bytes
    assert answers(copy) == answers(index)
    assert copy.fields.frozen is not None  # the write-side maps stay columns while only read
    facts = range(len(index.targets["fact"].slots))
    assert [copy.fields.evidence(f) for f in facts] == [index.fields.evidence(f) for f in facts]
    assert copy.fields.entries() == index.fields.entries()


@pytest.mark.parametrize("mapped", [False, True])
def test_writes_after_a_restore_land_as_on_the_index_it_was_saved_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mapped: bool
) -> None:
    """The change feed applied to a restored index (its arrays views of the file's bytes, read or
    mapped copy-on-write): a rewritten text, new nodes, an ended fact; the file stays as saved."""
    if mapped:
        monkeypatch.setattr(persist, "MAP_BYTES", 0)
    index = built()
    copy = restored(index, tmp_path)
    saved = Snapshots(tmp_path).path("g1").read_bytes()
    rewritten = episodes(1)[0] | {"search_text": "dana berlin zoo", "terms": "berlin zoo"}
    ended = facts(2)[1] | {"expired_at": T[5]}
    for target in (index, copy):
        target.apply("episode", [rewritten, *episodes(3, offset=40)])
        target.apply("fact", [ended])
        target.finish()
    assert answers(copy) == answers(index)
    assert not copy.targets["episode"].vectors.viewed  # written: copied into usearch first
    assert copy.fields.frozen is None and copy.fields.evidence_of == index.fields.evidence_of
    assert copy.fields.fact_text == index.fields.fact_text and copy.fields.slot_of == index.fields.slot_of
    assert copy.fields.facts_of == index.fields.facts_of
    assert copy.bm25("episode", ["zoo"], 5, View())[0][0] == "e000"
    assert Snapshots(tmp_path).path("g1").read_bytes() == saved  # the map is copy-on-write
    again = restored(copy, tmp_path / "again")  # a restored, then written, index saves whole
    assert answers(again) == answers(index)


def test_a_damaged_foreign_or_missing_snapshot_is_refused(tmp_path: Path) -> None:
    snapshots = Snapshots(tmp_path)
    assert snapshots.load("g1", EXPECTED) is None
    snapshots.save(built())
    with pytest.raises(SnapshotError):
        snapshots.load("g1", Expected(DIM + 1, "i8", 4))  # another dimension
    path = snapshots.path("g1")
    data = bytearray(path.read_bytes())
    body = len(MAGIC) + 8 + int.from_bytes(data[len(MAGIC) : len(MAGIC) + 8], "big")
    data[body + 40] ^= 0xFF  # inside the pickle's body
    path.write_bytes(bytes(data))
    with pytest.raises(SnapshotError, match="checksum"):
        snapshots.load("g1", EXPECTED)
    data[body + 40] ^= 0xFF
    path.write_bytes(bytes(data[:-5]))
    with pytest.raises(SnapshotError, match="truncated"):
        snapshots.load("g1", EXPECTED)
    snapshots.discard("g1")
    assert not path.exists()


class _Payload:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("a snapshot ran code",))


def test_a_snapshot_naming_another_callable_is_refused(tmp_path: Path) -> None:
    """The unpickler admits the index's classes and numpy's arrays only."""
    snapshots = Snapshots(tmp_path)
    snapshots.save(built())
    path = snapshots.path("g1")
    data = path.read_bytes()
    payload = pickle.dumps(_Payload())
    start = len(MAGIC) + 8
    size = int.from_bytes(data[len(MAGIC) : start], "big")
    meta = json.loads(data[start : start + size]) | {
        "body": len(payload),
        "crc32": zlib.crc32(payload),
        "buffers": [],
    }
    head = json.dumps(meta).encode()
    path.write_bytes(MAGIC + len(head).to_bytes(8, "big") + head + payload)
    with pytest.raises(SnapshotError, match=r"may not name builtins\.print"):
        snapshots.load("g1", EXPECTED)


def _of(group: str) -> TenantIndex:
    """A small index of ``group`` (the same content as ``built``)."""
    index = TenantIndex(group, DIM, ann_threshold=4, seq=7, created_at=T[0])
    index.apply("episode", episodes(12))
    index.apply("fact", facts(10))
    index.finish()
    return index


def _held(snapshots: Snapshots) -> set[str]:
    return {p.name for p in snapshots.directory.glob("*.tix")}


def test_the_directory_keeps_its_budget_evicting_the_coldest_file(tmp_path: Path) -> None:
    """Past ``max_bytes`` a save removes the file idle longest (equal sizes; the window's bytes x
    idle time), never the file just saved; a restore touches its file, so a file used recently
    stays however old its save."""
    probe = Snapshots(tmp_path / "probe")
    one = probe.save(_of("g1"))
    snapshots = Snapshots(tmp_path / "dir", max_bytes=one * 5 // 2)  # two files fit, three do not
    for group in ("g1", "g2"):
        snapshots.save(_of(group))
    now = time.time()
    os.utime(snapshots.path("g1"), (now - 300, now - 300))
    os.utime(snapshots.path("g2"), (now - 200, now - 200))
    snapshots.touch("g1")  # restored just now: g2 is the colder
    snapshots.save(_of("g3"))
    assert _held(snapshots) == {persist.file_name("g1"), persist.file_name("g3")}
    assert snapshots.evictions == 1 and snapshots.fit() <= snapshots.max_bytes
    assert snapshots.load("g2", EXPECTED) is None  # evicted: a miss, loaded from Neo4j
    tight = Snapshots(tmp_path / "dir", max_bytes=one // 2)  # no file fits: none is kept
    assert tight.save(_of("g1")) == 0 and not tight.path("g1").exists()


def test_saves_list_the_directory_when_over_budget_or_when_the_listing_is_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst of saves under the budget lists the directory once, not at every save (thousands of
    files would each be stat-ed per save); another worker's files count from the next listing."""
    one = Snapshots(tmp_path / "probe").save(_of("g0"))
    mine = Snapshots(tmp_path / "dir", max_bytes=one * 7 // 2)
    for group in ("g1", "g2", "g3"):
        mine.save(_of(group))
    assert mine.scans == 1 and mine.evictions == 0
    Snapshots(tmp_path / "dir").save(_of("g4"))  # another worker: four files, over budget
    mine.save(_of("g3"))  # the listing is fresh and holds three: nothing to do yet
    assert mine.scans == 1 and len(_held(mine)) == 4
    monkeypatch.setattr(persist, "RESCAN_S", 0.0)
    mine.save(_of("g3"))  # listed again: over budget, the coldest goes
    assert mine.scans == 2 and mine.evictions == 1 and len(_held(mine)) == 3


def test_the_budget_counts_and_removes_only_the_directory_s_own_files(tmp_path: Path) -> None:
    """A foreign file is neither counted nor removed; a young temporary file (another worker's
    save in flight) is counted, a dead writer's old one removed."""
    snapshots = Snapshots(tmp_path, max_bytes=10**9)
    size = snapshots.save(_of("g1"))
    foreign = tmp_path / "notes.txt"
    foreign.write_bytes(b"x" * 1000)
    young, dead = tmp_path / ".tmp-young.tix", tmp_path / ".tmp-dead.tix"
    young.write_bytes(b"y" * 100)
    dead.write_bytes(b"z" * 100)
    old = time.time() - persist.STALE_TMP_S - 10
    os.utime(dead, (old, old))
    assert snapshots.fit() == size + 100
    assert foreign.exists() and young.exists() and not dead.exists()
    snapshots.max_bytes = 1  # nothing fits: the group's file goes, the foreign one stays
    snapshots.fit()
    assert not snapshots.path("g1").exists() and foreign.exists()


def test_workers_saving_and_restoring_side_by_side_read_whole_files_and_keep_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several workers (threads here) share one directory without locks: a restore reads a whole
    file or none (replaced and removed files stay readable to who opened them), and once every
    save is done the directory fits its budget (each save lists the directory here)."""
    monkeypatch.setattr(persist, "RESCAN_S", 0.0)
    one = Snapshots(tmp_path / "probe").save(_of("g0"))
    budget = one * 3

    def worker(n: int) -> list[object]:
        mine, seen = Snapshots(tmp_path / "dir", max_bytes=budget), []
        for i in range(4):
            mine.save(_of(f"g{(n + i) % 5}"))
            seen.append(mine.load(f"g{(n + 2 * i) % 5}", EXPECTED))
        return seen

    with ThreadPoolExecutor(3) as pool:
        results = [x for seen in pool.map(worker, range(3)) for x in seen]
    assert all(r is None or isinstance(r, TenantIndex) for r in results)
    assert Snapshots(tmp_path / "dir").fit() <= budget
    assert not list((tmp_path / "dir").glob(".tmp-*"))


def test_snapshots_are_on_by_default_under_the_home_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHMEM_INDEX_SNAPSHOTS", "GRAPHMEM_INDEX_SNAPSHOT_DIR", "GRAPHMEM_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHMEM_HOME", "/srv/gm")
    settings = Settings()
    assert settings.index_snapshot_path == Path("/srv/gm/index-snapshots")
    assert settings.index_snapshot_max_bytes == 2 << 30
    monkeypatch.setenv("GRAPHMEM_INDEX_SNAPSHOT_DIR", "/var/tix")
    assert Settings().index_snapshot_path == Path("/var/tix")
    monkeypatch.setenv("GRAPHMEM_INDEX_SNAPSHOTS", "false")
    assert Settings().index_snapshot_path is None


def test_adjacency_restored_as_columns_reads_and_takes_writes_as_the_dicts_it_was_saved_from() -> None:
    """The graph channel's adjacency pickles as ``FrozenAdjacency`` columns and is read from them
    until written: after a restore and after the same rewrites on both, every node's entities
    (in order) and every entity's nodes are those of the adjacency built by writes alone."""
    rng = np.random.default_rng(3)
    names = [f"n{i}" for i in range(12)]

    def writes(adjacency: Adjacency, n: int) -> None:
        for _ in range(n):
            picked = [names[int(i)] for i in rng.integers(0, len(names), int(rng.integers(0, 4)))]
            adjacency.set(int(rng.integers(0, 40)), [*picked, None])

    built_ = Adjacency()
    writes(built_, 120)
    copy = pickle.loads(pickle.dumps(built_))
    assert copy.frozen is not None and not copy.of_node
    assert [copy.node(s) for s in range(0, 40, 3)] == [built_.node(s) for s in range(0, 40, 3)]
    state = rng.bit_generator.state
    writes(built_, 60)
    rng.bit_generator.state = state
    writes(copy, 60)
    again = pickle.loads(pickle.dumps(copy))  # partly moved, then pickled whole
    for adjacency in (copy, again):
        assert [adjacency.node(s) for s in range(41)] == [built_.node(s) for s in range(41)]
        assert [sorted(adjacency.entity(e)) for e in [*names, "absent"]] == [
            sorted(built_.entity(e)) for e in [*names, "absent"]
        ]
