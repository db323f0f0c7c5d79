"""CPU per episode of each stage of batch ingestion's prepare step, without a database.

``python -m eval.ingest_stages --data locomo_dev.json [--format locomo] [--limit N] [--batch 256]``
reads the file as ``graphmem ingest`` does (``ingest.sources.open_source``), cuts each group's
episodes into batches of ``--batch`` in reading order (as the runner does), and runs the stages of
``graphmem.memory.ingestion.prepare_episodes`` one after another on one thread, each timed in CPU
time of the process (``time.process_time``: helper threads count) and of the thread:

- ``extract``: the configured extractor over the batch (``ingestion.extract_batch``);
- ``embed_turns``: the embedder over the batch's indexed texts (``speaker: content``);
- ``embed_ahead``: the names and statements ``_embed_ahead`` embeds before the lock (the group's
  known entities are those of its earlier batches here: no database); ``ahead_repeats`` counts
  those texts already embedded ahead for an earlier batch of the run (what a per-run cache of
  their vectors would save);
- ``embed_alone``: the embedder alone over the same texts in the file's order, in chunks of
  ``--batch`` (what ``eval.ingest_speed`` compares against).

With ``--overlap thread`` the extraction runs in a second thread beside the turn embedding, as
``prepare_episodes`` runs them (``extract+embed_turns``, process CPU of both threads): against the
sequential sum it shows what running the two at once costs in CPU (caches, memory bandwidth).
``--overlap process`` runs it in a worker process instead (``pool.PooledExtractor``, one worker,
started and warmed before the clock starts); the worker's CPU is added to ``extract+embed_turns``.
Either way ``overlap`` reports, summed over batches: the wall time of the turn embedding and of
the extraction, the embedding thread's CPU, and ``embed_in_ort_wall`` (wall time inside ONNX
Runtime's ``run``, which releases the GIL): the embedding's wall minus that is the time its thread
spent in Python or waiting for the GIL, the measure of how much a GIL-holding extraction thread
delays it (``embed_outside_ort_ms``, per episode; compare with the sequential run's).

Also reports the batch sizes and the fact count, so a change can show it left the output alone.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from graphmem.config import Settings
from graphmem.memory import ingestion
from graphmem.models.episode import EpisodeIn
from graphmem.providers.embedders.factory import embedder_from_settings
from graphmem.providers.extractors.pool import PooledExtractor
from graphmem.providers.extractors.rules import RulesExtractor
from ingest.sources import open_source


def batches(path: str | Path, fmt: str, batch: int, limit: int | None) -> list[tuple[str, list[EpisodeIn]]]:
    """(group, episodes) of each group's episodes in reading order, cut into batches of ``batch``
    (as the runner cuts them)."""
    groups: dict[str, list[EpisodeIn]] = {}
    out: list[tuple[str, list[EpisodeIn]]] = []
    n = 0
    for item in open_source(Path(path), fmt, group="stages"):
        if item.episode is None:
            continue
        buffer = groups.setdefault(item.group_id, [])
        buffer.append(ingestion.clean_episode(item.episode))
        n += 1
        if len(buffer) >= batch:
            out.append((item.group_id, groups.pop(item.group_id)))
        if limit and n >= limit:
            break
    out.extend((g, b) for g, b in groups.items() if b)
    return out


class _Clock:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.thread: dict[str, float] = {}

    def run(self, name: str, fn: Any, *args: Any) -> Any:
        c0, t0 = time.process_time(), time.thread_time()
        out = fn(*args)
        self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - c0
        self.thread[name] = self.thread.get(name, 0.0) + time.thread_time() - t0
        return out


class _OrtClock:
    """Wraps the ONNX Runtime session of the embedder: wall time spent inside ``run``."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.wall = 0.0

    def run(self, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return self.session.run(*args, **kwargs)
        finally:
            self.wall += time.perf_counter() - began


class _Overlap:
    """Per-batch wall and CPU of the two sides when the extraction runs beside the embedding."""

    def __init__(self) -> None:
        self.sums = dict.fromkeys(("embed_wall", "embed_cpu", "extract_wall", "all_wall", "in_ort"), 0.0)
        self.ort: _OrtClock | None = None

    def run(self, extractor: Any, embedder: Any, episodes: list[EpisodeIn], texts: list[str]) -> Any:
        """The batch's extraction in a thread (it waits on the worker when ``extractor`` is a pool)
        while this one embeds its turns (``prepare_episodes``)."""

        def extract() -> tuple[Any, float]:
            began = time.perf_counter()
            return ingestion.extract_batch(extractor, episodes), time.perf_counter() - began

        began = time.perf_counter()
        with ThreadPoolExecutor(max_workers=1) as pool:
            extractions = pool.submit(extract)
            t0, c0, o0 = time.perf_counter(), time.thread_time(), self.ort.wall if self.ort else 0.0
            embedder.embed(texts)
            self.sums["embed_wall"] += time.perf_counter() - t0
            self.sums["embed_cpu"] += time.thread_time() - c0
            self.sums["in_ort"] += (self.ort.wall if self.ort else 0.0) - o0
            out, wall = extractions.result()
        self.sums["extract_wall"] += wall
        self.sums["all_wall"] += time.perf_counter() - began
        return out


def measure(
    path: str | Path,
    *,
    fmt: str = "locomo",
    batch: int = 256,
    limit: int | None = None,
    overlap: str | None = None,
) -> dict[str, Any]:
    embedder = embedder_from_settings(Settings())
    extractor: Any = RulesExtractor()
    pooled = None
    if overlap == "process":
        pooled = extractor = PooledExtractor(extractor, processes=1)
    work = batches(path, fmt, batch, limit)
    episodes = [ep for _, b in work for ep in b]
    embedder.embed(["warm up"])
    ingestion.extract_batch(extractor, [episodes[0]])
    side = _Overlap()
    if hasattr(embedder, "_session"):
        side.ort = embedder._session = _OrtClock(embedder._session)
    pool_cpu = pooled.cpu_seconds if pooled else 0.0
    load_start = [round(x, 2) for x in os.getloadavg()]
    wall0, cpu0 = time.perf_counter(), time.process_time()
    clock = _Clock()
    known: dict[str, dict[str, str]] = {}
    seen: set[str] = set()
    facts = ahead_texts = ahead_repeats = 0
    for group, b in work:
        turn_texts = [ingestion.indexed_text(ep) for ep in b]
        if overlap:
            extractions = clock.run("extract+embed_turns", side.run, extractor, embedder, b, turn_texts)
        else:
            extractions = clock.run("extract", ingestion.extract_batch, extractor, b)
            clock.run("embed_turns", embedder.embed, turn_texts)
        prepared = [
            ingestion.Prepared(f"e{i}", f"k{i}", ep, x)
            for i, (ep, x) in enumerate(zip(b, extractions, strict=True))
        ]
        facts += sum(len(x.facts) for x in extractions)
        group_known = known.setdefault(group, {})
        texts = ingestion.ahead_texts(prepared, group_known)
        ahead_texts += len(texts)
        ahead_repeats += sum(t in seen for t in texts)
        seen.update(texts)
        clock.run("embed_ahead", embedder.embed, texts)
        for key, (name, _) in ingestion.wanted_entities(prepared).items():
            group_known.setdefault(key, name)
    prepare_wall, prepare_cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if pooled:
        worker = pooled.cpu_seconds - pool_cpu
        clock.cpu["extract+embed_turns"] += worker
        prepare_cpu += worker
        pooled.close()
    texts_all = [ingestion.indexed_text(ep) for ep in episodes]
    for start in range(0, len(texts_all), batch):
        clock.run("embed_alone", embedder.embed, texts_all[start : start + batch])
    n = max(len(episodes), 1)
    prepare = sum(v for k, v in clock.cpu.items() if k != "embed_alone")
    report: dict[str, Any] = {}
    if overlap:
        ms = {k: round(1000 * v / n, 2) for k, v in side.sums.items() if k != "in_ort"}
        in_ort = side.sums["in_ort"]
        report["overlap"] = {
            "mode": overlap,
            **{k + "_ms": v for k, v in ms.items()},
            "embed_in_ort_wall_ms": round(1000 * in_ort / n, 2),
            "embed_outside_ort_ms": round(1000 * (side.sums["embed_wall"] - in_ort) / n, 2),
            "cores_used": round(prepare_cpu / prepare_wall, 2) if prepare_wall else None,
            "load_start": load_start,
        }
    return {
        "episodes": len(episodes),
        "batches": len(work),
        "batch_sizes": [len(b) for _, b in work],
        "facts": facts,
        "ahead_texts": ahead_texts,
        "ahead_repeats": ahead_repeats,
        "cpu_ms_per_episode": {k: round(1000 * v / n, 2) for k, v in clock.cpu.items()},
        "thread_cpu_ms_per_episode": {k: round(1000 * v / n, 2) for k, v in clock.thread.items()},
        "prepare_cpu_ms_per_episode": round(1000 * prepare / n, 2),
        "embed_alone_over_prepare": round(clock.cpu["embed_alone"] / prepare, 3) if prepare else None,
        **report,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--format", default="locomo")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument(
        "--overlap",
        choices=("thread", "process"),
        default=None,
        help="extract beside the turn embedding: in a thread, or in a worker process",
    )
    args = ap.parse_args()
    out = measure(args.data, fmt=args.format, batch=args.batch, limit=args.limit, overlap=args.overlap)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
