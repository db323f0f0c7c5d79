"""``graphmem eval temporal|locomo|longmemeval|speed|ingest`` (EVAL.md). Subcommands live in their own modules."""

from __future__ import annotations

import click

from graphmem_cli.lazy import LazyGroup

SUBCOMMANDS = {
    "temporal": "graphmem_cli.eval_temporal_cmd:temporal",
    "locomo": "graphmem_cli.eval_locomo_cmd:locomo",
    "longmemeval": "graphmem_cli.eval_longmemeval_cmd:longmemeval",
    "recipes": "graphmem_cli.eval_recipes_cmd:recipes",
    "speed": "graphmem_cli.eval_speed_cmd:speed",
    "ingest": "graphmem_cli.eval_ingest_cmd:ingest_speed",
    "facts": "graphmem_cli.eval_facts_cmd:facts",
    "load": "graphmem_cli.eval_load_cmd:load",
    "tenants": "graphmem_cli.eval_tenants_cmd:tenants",
}


@click.group("eval", cls=LazyGroup, lazy=SUBCOMMANDS)
def eval_group() -> None:
    """Measure quality and speed (prints a table; --json prints one JSON object last).

    \b
    Example:
      graphmem eval temporal --data eval/data/temporal_suite.jsonl
    """
