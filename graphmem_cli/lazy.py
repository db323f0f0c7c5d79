"""A click group whose subcommands are imported only when used (keeps ``--help`` fast)."""

from __future__ import annotations

import importlib
from typing import Any

import click


class LazyGroup(click.Group):
    """``lazy``: name -> "module:attribute" of a click command. Missing modules are hidden."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in self.lazy if self.get_command(ctx, name) is not None)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:  # not built (yet): hide it rather than crash the CLI
                return None
            raise
        command: Any = getattr(mod, attr, None)
        return command if isinstance(command, click.Command) else None
