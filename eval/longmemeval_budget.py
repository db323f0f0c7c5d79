"""``eval longmemeval`` with an ingestion deadline, for a loaded host (a diagnostic entry point).

    python -m eval.longmemeval_budget --data ../shared/data/longmemeval/longmemeval_s_dev60.json.gz \\
        --until 06:30 --group-prefix recipes-lme60 --embed-cache out/embed-cache --no-facts --out out/lme60

Questions are taken round-robin over the types (``--limit``, default every one) and ingested one
after another until ``--until`` (UTC, HH:MM): no question is started after it, and the questions
ingested by then are scored by every retriever, exactly as ``graphmem eval longmemeval --limit K``
scores them (the first K in round-robin order are the K it takes). The groups are kept
(``--group-prefix``), so a rerun with ``--limit K`` reuses them. Settings are read from the
environment (NEO4J_URI, GRAPHMEM_HOME) as the write probes do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from eval import longmemeval_report as report
from eval.longmemeval import LongMemEvalOptions, run_longmemeval
from eval.retrievers import RETRIEVERS


def deadline(hhmm: str, now: datetime | None = None) -> float:
    """Epoch seconds of the next ``HH:MM`` UTC (today, or tomorrow when it has passed)."""
    now = now or datetime.now(UTC)
    hour, minute = (int(x) for x in hhmm.split(":"))
    at = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return at.timestamp() if at > now else at.timestamp() + 86400.0


async def _main(opts: LongMemEvalOptions) -> tuple[object, list[dict[str, object]]]:
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory

    settings = Settings()
    memory = await GraphMemory.from_settings(settings)
    try:
        memory.ctx.embedder.embed(["warm-up"])
        return await run_longmemeval(memory, settings, opts, lambda m: print(m, file=sys.stderr, flush=True))
    finally:
        await memory.close()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m eval.longmemeval_budget")
    p.add_argument("--data", type=Path, required=True)
    p.add_argument("--until", required=True, help="UTC HH:MM: start no question's ingestion after it")
    p.add_argument("--retriever", default="all")
    p.add_argument("--limit", type=int, default=60)
    p.add_argument("--group-prefix", required=True)
    p.add_argument("--embed-cache", type=Path, default=None)
    p.add_argument("--no-facts", action="store_true")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    names = tuple(RETRIEVERS) if args.retriever == "all" else tuple(args.retriever.split(","))
    opts = LongMemEvalOptions(
        data=args.data,
        retrievers=names,
        limit=args.limit,
        keep=True,
        group_prefix=args.group_prefix,
        embed_cache=args.embed_cache,
        facts=not args.no_facts,
        ingest_until=deadline(args.until),
    )
    dataset, results = asyncio.run(_main(opts))
    counts = dataset.type_counts()  # type: ignore[attr-defined]
    command = "python -m eval.longmemeval_budget " + " ".join(argv if argv is not None else sys.argv[1:])
    print(report.markdown(results, opts.ks, command=command, counts=counts))
    if args.out is not None:
        report.write(args.out, results, opts.ks, command=command, counts=counts)
    print(json.dumps({"n": dataset.n_questions, "results": results}, default=str))  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
