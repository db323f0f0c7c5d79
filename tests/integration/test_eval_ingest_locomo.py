"""`graphmem eval ingest --format locomo`: a LoCoMo file is ingested as one group per
conversation, the CPU-time ratio is reported beside the wall-clock one, and every group the
file made is forgotten afterwards. No wall-clock thresholds: benchmarks measure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eval.ingest_speed import IngestSpeedOptions, run_ingest_speed
from graphmem.memory import GraphMemory
from graphmem.store.driver import Store, run

GROUP_EPISODES = "MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n"


def locomo_file(path: Path) -> Path:
    def sample(sample_id: str) -> dict[str, Any]:
        turns = [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Lisbon last May."},
            {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice! Do you like it there?"},
            {"speaker": "Ann", "dia_id": "D1:3", "text": "I love it, and I work at a bakery now."},
        ]
        conversation = {"speaker_a": "Ann", "speaker_b": "Bo", "session_1": turns}
        conversation["session_1_date_time"] = "1:56 pm on 8 May, 2023"
        return {"sample_id": sample_id, "conversation": conversation, "qa": []}

    path.write_text(json.dumps([sample("x1"), sample("x2")]))
    return path


async def test_locomo_file_is_one_group_per_conversation_and_all_are_forgotten(
    tmp_path: Path, memory: GraphMemory, store: Store, group: str
) -> None:
    opts = IngestSpeedOptions(file=locomo_file(tmp_path / "l.json"), fmt="locomo", batch_size=2, group=group)
    report = await run_ingest_speed(memory, opts, lambda message: None)
    assert (report["episodes"], report["ingested"], report["groups"], report["error"]) == (6, 6, 2, None)
    for key in ("embed_only_cpu_ms_per_episode", "ingest_cpu_ms_per_episode", "cpu_ratio"):
        assert report[key] > 0
    async with store.transaction(write=False) as tx:
        for sample in ("x1", "x2"):
            assert (await run(tx, GROUP_EPISODES, g=f"{group}-{sample}"))[0]["n"] == 0
