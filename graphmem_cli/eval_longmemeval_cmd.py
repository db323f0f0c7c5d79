"""``graphmem eval longmemeval``: turn and session recall on LongMemEval, every retriever (EVAL.md §5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from graphmem_cli.common import count_option, guarded, run_eval
from graphmem_cli.eval_locomo_cmd import command_line, parse_ks, retrieval_options, retriever_names


@click.command("longmemeval")
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="LongMemEval JSON (.gz accepted), e.g. ../shared/data/longmemeval/longmemeval_s_dev60.json.gz.",
)
@retrieval_options("Write results.md and results.json here.")
@count_option("--limit", default=None, help="At most N questions, round-robin over question types.")
@click.option(
    "--embed-cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep the turns' embeddings in this directory and reuse them (eval.embed_cache); queries are "
    "always embedded afresh.",
)
@click.option(
    "--no-facts",
    "no_facts",
    is_flag=True,
    help="Ingest without fact extraction (episodes only; the results say facts: false).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def longmemeval(
    data: Path,
    retriever: str,
    k: str,
    out: Path | None,
    limit: int | None,
    keep: bool,
    group_prefix: str | None,
    embed_cache: Path | None,
    no_facts: bool,
    as_json: bool,
) -> None:
    """Turn evidence recall@k, session recall_any/all@k, MRR and newest-first rate per question type.

    Each question's haystack is ingested into its own group, searched with the question as of the
    question date, and removed. Embedding dominates ingestion on a CPU: --embed-cache DIR embeds
    each distinct turn once across runs; --no-facts skips extraction (episodes-only numbers).

    \b
    Example:
      graphmem eval longmemeval --data ../shared/data/longmemeval/longmemeval_s_dev60.json.gz \\
        --retriever all --limit 12 --out out/lme
      graphmem eval longmemeval --data ../shared/data/longmemeval/longmemeval_s_dev60.json.gz \\
        --retriever rank-bm25,vector,hybrid,graphmem --embed-cache out/embed-cache --no-facts
    """
    from eval import longmemeval_report as report
    from eval.longmemeval import LongMemEvalOptions, run_longmemeval

    opts = LongMemEvalOptions(
        data=data,
        retrievers=retriever_names(retriever),
        ks=parse_ks(k),
        limit=limit,
        keep=keep,
        group_prefix=group_prefix,
        embed_cache=embed_cache,
        facts=not no_facts,
    )

    async def work(memory: Any, cfg: Any, log: Any) -> Any:
        memory.ctx.embedder.embed(["warm-up"])  # load the model outside any timing
        return await run_longmemeval(memory, cfg, opts, log)

    dataset, results = run_eval(work)
    command = command_line("longmemeval")
    counts = dataset.type_counts()
    click.echo(report.markdown(results, opts.ks, command=command, counts=counts))
    if out is not None:
        paths = report.write(out, results, opts.ks, command=command, counts=counts)
        click.echo(f"wrote {paths['markdown']}, {paths['json']}", err=True)
    if as_json:
        click.echo(json.dumps({"results": results}))
