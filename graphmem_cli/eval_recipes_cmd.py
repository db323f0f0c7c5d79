"""``graphmem eval recipes``: score every candidate recipe on LoCoMo and LongMemEval, pick the one with
the best worst-case gain over the best single channel (eval/recipe_select.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from graphmem_cli.common import count_option, guarded, run_eval
from graphmem_cli.eval_locomo_cmd import command_line

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("recipes")
@click.option("--locomo", "locomo", required=True, type=_FILE, help="LoCoMo JSON (locomo10.json schema).")
@click.option("--longmemeval", "lme", required=True, type=_FILE, help="LongMemEval JSON (.gz accepted).")
@count_option("--limit", default=12, help="LongMemEval questions, round-robin over question types.")
@click.option("--conversations", default=None, help="Only these LoCoMo sample ids (comma-separated).")
@count_option("--max-questions", default=None, help="At most N LoCoMo QA per conversation (file order).")
@click.option("--prefix", default="recipes", show_default=True, help="Group prefix (reused by a rerun).")
@click.option("--only", default=None, help="Only these candidates (comma-separated names).")
@click.option("--forget", "drop", is_flag=True, help="Remove the groups afterwards (default: keep them).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Write here.")
@click.option(
    "--embed-cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep the turns' embeddings in this directory and reuse them (eval.embed_cache).",
)
@click.option("--no-facts", "no_facts", is_flag=True, help="Ingest without fact extraction (episodes only).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def recipes(
    locomo: Path,
    lme: Path,
    limit: int,
    conversations: str | None,
    max_questions: int | None,
    prefix: str,
    only: str | None,
    drop: bool,
    out: Path | None,
    embed_cache: Path | None,
    no_facts: bool,
    as_json: bool,
) -> None:
    """Every candidate recipe side by side on both datasets, and the one chosen.

    \b
    Example:
      graphmem eval recipes --locomo ../shared/data/locomo/locomo_dev.json \\
        --longmemeval ../shared/data/longmemeval/longmemeval_s_dev60.json.gz --limit 12 --out out/recipes
    """
    from eval.recipe_select import SelectOptions, markdown, select

    opts = SelectOptions(
        locomo=locomo,
        longmemeval=lme,
        lme_limit=limit,
        conversations=[c.strip() for c in conversations.split(",")] if conversations else None,
        max_questions=max_questions,
        prefix=prefix,
        keep=not drop,
        only=[c.strip() for c in only.split(",")] if only else None,
        embed_cache=embed_cache,
        facts=not no_facts,
    )

    async def work(memory: Any, cfg: Any, log: Any) -> Any:
        memory.ctx.embedder.embed(["warm-up"])
        return await select(memory, cfg, opts, log)

    report = run_eval(work)
    text = markdown(report, opts.ks, command_line("recipes"))
    click.echo(text)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "recipes.md").write_text(text, encoding="utf-8")
        (out / "recipes.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if as_json:
        click.echo(json.dumps(report))
