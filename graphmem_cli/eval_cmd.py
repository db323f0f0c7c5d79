"""``graphmem eval temporal|locomo|speed`` (EVAL.md). Subcommands live in their own modules."""

from __future__ import annotations

import importlib
from typing import Any

import click

SUBCOMMANDS = {
    "temporal": "graphmem_cli.eval_temporal_cmd:temporal",
    "locomo": "graphmem_cli.eval_locomo_cmd:locomo",
    "speed": "graphmem_cli.eval_speed_cmd:speed",
}


class _Lazy(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(n for n in SUBCOMMANDS if self.get_command(ctx, n) is not None)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                return None
            raise
        command: Any = getattr(mod, attr, None)
        return command if isinstance(command, click.Command) else None


@click.group("eval", cls=_Lazy)
def eval_group() -> None:
    """Measure quality and speed (prints a table; --json prints one JSON object last).

    \b
    Example:
      graphmem eval temporal --data eval/data/temporal_suite.jsonl
    """
