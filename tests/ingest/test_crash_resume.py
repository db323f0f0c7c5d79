"""Crash safety: ``python -m ingest`` killed with SIGKILL at random points, then resumed, stores
every input record exactly once (issue 6 acceptance)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

import pytest

from graphmem.store.driver import Store
from ingest.checkpoint import Checkpoint

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
RECORDS = 1_000  # three kills land at most 3 x 6 x BATCH records in, plus what a linger lets commit
BATCH = 40
START_TIMEOUT_S = 120.0
FINISH_TIMEOUT_S = 240.0
EPISODES_OF_GROUP = "MATCH (e:Episode {group_id: $g}) RETURN e.external_id AS x"


def write_records(path: Path) -> Path:
    with path.open("w") as fh:
        for i in range(RECORDS):
            record = {"content": f"c{i}", "timestamp": 1_700_000_000 + i, "external_id": f"x{i}"}
            fh.write(json.dumps(record) + "\n")
    return path


def committed(checkpoint: Path, source: Path) -> int:
    return Checkpoint.load(checkpoint).get(source).count


async def start(args: list[str]) -> asyncio.subprocess.Process:
    env = os.environ | {"HF_HUB_OFFLINE": "1"}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "ingest", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def kill_after(
    proc: asyncio.subprocess.Process, checkpoint: Path, source: Path, target: int, linger: float
) -> None:
    """Wait until the checkpoint reaches ``target`` records, linger, then SIGKILL the run."""
    async with asyncio.timeout(START_TIMEOUT_S):
        while committed(checkpoint, source) < target:
            if proc.returncode is not None:
                _, err = await proc.communicate()
                pytest.fail(f"ingest exited early ({proc.returncode}): {err.decode()[-2000:]}")
            await asyncio.sleep(0.05)
    await asyncio.sleep(linger)  # lands mid-batch, or between a commit and its checkpoint
    proc.kill()
    await proc.communicate()
    assert proc.returncode == -9


async def test_kill_9_three_times_then_resume_stores_each_record_once(
    tmp_path: Path, store: Store, group: str
) -> None:
    source = write_records(tmp_path / "log.jsonl")
    checkpoint = tmp_path / "run.checkpoint.json"
    args = [str(source), "--format", "jsonl", "--group", group, "--batch-size", str(BATCH), "--resume"]
    args += ["--checkpoint", str(checkpoint), "--progress", "none", "--json"]
    rng = random.Random(20240606)
    began = time.monotonic()
    positions = []
    for _ in range(3):
        before = committed(checkpoint, source)
        target = before + BATCH * rng.randint(1, 6)  # at least one checkpoint by this process
        proc = await start(args)
        await kill_after(proc, checkpoint, source, target, linger=rng.uniform(0.0, 0.6))
        positions.append(committed(checkpoint, source))
        print(f"killed at {positions[-1]} (target {target}) after {time.monotonic() - began:.0f}s")
    assert positions == sorted(positions) and positions[-1] < RECORDS

    proc = await start(args)
    out, err = await asyncio.wait_for(proc.communicate(), FINISH_TIMEOUT_S)
    assert proc.returncode == 0, err.decode()[-2000:]
    summary = json.loads(out.decode().strip().splitlines()[-1])
    assert summary["read"] == RECORDS - positions[-1] and summary["rejected"] == 0
    ids = [row["x"] for row in await store.read(EPISODES_OF_GROUP, g=group)]
    assert len(ids) == RECORDS
    assert set(ids) == {f"x{i}" for i in range(RECORDS)}
    assert committed(checkpoint, source) == RECORDS
