"""``graphmem eval locomo``: evidence recall@k on LoCoMo for graphmem and the baselines (EVAL.md §2)."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from graphmem_cli.common import count_option, guarded, run_eval

F = TypeVar("F", bound=Callable[..., Any])


def parse_ks(value: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(x) for x in value.split(",") if x.strip()}))
    except ValueError:
        raise click.BadParameter("expected comma-separated integers, e.g. 1,5,10,25") from None
    if not ks or ks[0] < 1 or ks[-1] > 100:
        raise click.BadParameter("each k must be between 1 and 100")
    return ks


def retriever_names(value: str) -> tuple[str, ...]:
    """``--retriever``: one name, a comma-separated list, or ``all``."""
    from eval.retrievers import RETRIEVERS

    names = RETRIEVERS if value == "all" else tuple(r.strip() for r in value.split(",") if r.strip())
    bad = [n for n in names if n not in RETRIEVERS] or ([] if names else [value])
    if bad:
        raise click.BadParameter(
            f"unknown retriever {bad[0]!r}; choose {', '.join(RETRIEVERS)} or all", param_hint="--retriever"
        )
    return names


def retrieval_options(out_help: str) -> Callable[[F], F]:
    """The options every retrieval eval shares: --retriever, --k, --out, --keep, --group-prefix."""
    options = [
        click.option(
            "--retriever",
            default="graphmem",
            show_default=True,
            help="rank-bm25 | vector | hybrid | graphmem | graphmem-neo4j (tenant index off) | graphiti | all.",
        ),
        click.option("--k", "k", default="1,5,10,25", show_default=True, help="Comma-separated cut-offs."),
        click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help=out_help),
        click.option("--keep", is_flag=True, help="Leave the eval groups in Neo4j (debugging)."),
        click.option(
            "--group-prefix",
            default=None,
            help="Group prefix (default: a fresh run id); with --keep, a rerun reuses the ingested groups.",
        ),
    ]

    def wrap(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return wrap


def command_line(name: str) -> str | None:
    """The command as typed (for the report), when run as ``graphmem eval <name> ...``."""
    if sys.argv[1:3] != ["eval", name]:
        return None
    return f"graphmem eval {name} " + " ".join(shlex.quote(a) for a in sys.argv[3:])


@click.command("locomo")
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="LoCoMo JSON (locomo10.json schema), e.g. ../shared/data/locomo/locomo_dev.json.",
)
@retrieval_options("Write results.md, recall.png and results.json here.")
@click.option("--conversations", default=None, help="Only these sample ids (comma-separated).")
@count_option("--sessions", default=None, help="Only the first N sessions of each conversation (small runs).")
@count_option("--max-questions", default=None, help="At most N QA per conversation (small runs).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def locomo(
    data: Path,
    retriever: str,
    k: str,
    out: Path | None,
    conversations: str | None,
    sessions: int | None,
    max_questions: int | None,
    keep: bool,
    group_prefix: str | None,
    as_json: bool,
) -> None:
    """Evidence recall@k per category id and for ids 1-4, search latency and ingest time.

    Each conversation is ingested into its own group, searched with every question, and removed.

    \b
    Example:
      graphmem eval locomo --data ../shared/data/locomo/locomo_dev.json --retriever all --out out/locomo
    """
    from eval import report
    from eval.locomo import LocomoOptions, category_counts, run_locomo

    ks = parse_ks(k)
    opts = LocomoOptions(
        data=data,
        retrievers=retriever_names(retriever),
        ks=ks,
        conversations=[c.strip() for c in conversations.split(",")] if conversations else None,
        sessions=sessions,
        max_questions=max_questions,
        keep=keep,
        group_prefix=group_prefix,
    )

    async def work(memory: Any, cfg: Any, log: Any) -> Any:
        memory.ctx.embedder.embed(["warm-up"])  # load the model outside any timing
        return await run_locomo(memory, cfg, opts, log)

    dataset, results = run_eval(work)
    command = command_line("locomo")
    counts = category_counts(dataset)
    click.echo(report.markdown(results, ks, command=command, counts=counts))
    if out is not None:
        paths = report.write(out, results, ks, command=command, counts=counts)
        click.echo(f"wrote {paths['markdown']}, {paths['chart']}, {paths['json']}", err=True)
    if as_json:
        payload = results[0] if len(results) == 1 else {"results": results}
        click.echo(json.dumps(payload))
