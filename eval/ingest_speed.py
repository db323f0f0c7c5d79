"""Batch-ingest benchmark: ``graphmem ingest`` speed against the embedder's on the same texts.

Steps, all in one process and one after another:
1. write the synthetic tenant's episodes (``eval.synthetic``) as a JSONL file, one group, unless a
   file is given;
2. embed only: the embedder alone on a sample of the file's texts (as ingestion embeds them,
   ``speaker: content``), in batches of the ingest batch size;
3. ingest the file with ``ingest.runner.run_ingest`` (as ``graphmem ingest --format jsonl``) into a
   fresh group;
4. embed only again (the host's load may have changed meanwhile; the ratio uses the mean);
5. forget the group unless it is kept.

``ratio`` = ingest episodes/s ÷ embed-only episodes/s; the target is >= 0.8 (issue 6).
``prepare_seconds`` / ``commit_seconds``: the wall time during which some batch was in each of the
runner's two stages (a batch prepares, i.e. extracts and embeds, while the one before it commits);
the one close to ``ingest_seconds`` bounds the rate. With the ``openai`` embedder,
``graphmem eval ingest --embed-concurrency 1,2,4`` repeats the run once per endpoint concurrency
(docs/evals.md §7).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval.metrics import peak_rss_mb
from eval.synthetic import Tenant
from graphmem.memory import GraphMemory
from graphmem.memory.ingestion import indexed_text
from ingest.runner import IngestOptions, run_ingest
from ingest.sources import open_source

Log = Callable[[str], None]


@dataclass
class IngestSpeedOptions:
    episodes: int = 20_000
    seed: int = 7
    file: Path | None = None
    batch_size: int = 256
    concurrency: int = 2
    embed_sample: int = 1000
    group: str | None = None
    keep: bool = False


def write_tenant(path: Path, episodes: int, seed: int) -> Path:
    """The synthetic tenant's episodes as ``jsonl`` lines (``docs/ingest.md``)."""
    with path.open("w", encoding="utf-8") as fh:
        for ep in Tenant(episodes_n=episodes, facts_n=0, seed=seed).episodes():
            record = {
                "session_id": ep.session_id,
                "speaker": ep.speaker,
                "content": ep.content,
                "timestamp": ep.reference_time.isoformat(),
                "external_id": ep.external_id,
            }
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def _sample(path: Path, n: int) -> list[str]:
    """Up to n texts spread evenly over the file, read and embedded as ingestion reads them."""
    episodes = [item.episode for item in open_source(path, "jsonl", group="sample") if item.episode]
    step = max(1, len(episodes) // max(n, 1))
    return [indexed_text(ep) for ep in episodes[::step][:n]]


def _embed_rate(memory: GraphMemory, texts: list[str], batch: int) -> float:
    began = time.perf_counter()
    for start in range(0, len(texts), batch):
        memory.ctx.embedder.embed(texts[start : start + batch])
    return len(texts) / (time.perf_counter() - began)


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def run_ingest_speed(memory: GraphMemory, opts: IngestSpeedOptions, log: Log) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="graphmem-ingest-speed-") as tmp:
        folder = Path(tmp)
        path = opts.file or write_tenant(folder / "tenant.jsonl", opts.episodes, opts.seed)
        group = opts.group or f"ingest-speed-{uuid.uuid4().hex[:8]}"
        texts = _sample(path, opts.embed_sample)
        load_before = _load()
        embed_before = _embed_rate(memory, texts, opts.batch_size)
        log(f"embed only: {embed_before:.1f} episodes/s (load {load_before}); ingesting into {group}")
        ingest_opts = IngestOptions(
            paths=(path,),
            fmt="jsonl",
            group=group,
            batch_size=opts.batch_size,
            concurrency=opts.concurrency,
            checkpoint=folder / "checkpoint.json",
            dead_letter=folder / "deadletter.jsonl",
        )
        load_start = _load()
        summary = await run_ingest(memory, ingest_opts)
        load_end = _load()
        embed_after = _embed_rate(memory, texts, opts.batch_size)
        if not opts.keep:
            await memory.forget_group(group, purge_tombstones=True)
    embed = (embed_before + embed_after) / 2
    return {
        "episodes": summary.read,
        "ingested": summary.ingested,
        "duplicates": summary.duplicates,
        "rejected": summary.rejected,  # a rate over a file whose records were refused means little
        "batches": summary.batches,
        "ingest_seconds": round(summary.seconds, 1),
        "prepare_seconds": round(summary.prepare_seconds, 3),
        "commit_seconds": round(summary.commit_seconds, 3),
        "ingest_episodes_per_s": round(summary.episodes_per_s, 2),
        "embed_only_per_s": round(embed, 2),
        "embed_only_before_after": [round(embed_before, 2), round(embed_after, 2)],
        "ratio": round(summary.episodes_per_s / embed, 3),
        "peak_rss_mb": peak_rss_mb(),
        "load_average": {"before": load_before, "ingest_start": load_start, "ingest_end": load_end},
        "facts_created": summary.facts["created"],
        "group": group if opts.keep else None,
        "error": summary.error,
    }
