"""Entry point of the ``graphmem`` console script. Subcommands load lazily (fast ``--help``)."""

from __future__ import annotations

import importlib
from typing import Any

import click

# name -> "module:attribute" of a click command or group
COMMANDS: dict[str, str] = {
    "serve": "graphmem_cli.serve_cmd:serve",
    "neo4j": "graphmem_cli.neo4j_cmd:neo4j_group",
    "ingest": "graphmem_cli.ingest_cmd:ingest",
    "search": "graphmem_cli.search_cmd:search",
    "cypher": "graphmem_cli.cypher_cmd:cypher",
    "forget": "graphmem_cli.lifecycle_cmd:forget",
    "export": "graphmem_cli.lifecycle_cmd:export",
    "import": "graphmem_cli.lifecycle_cmd:import_",
    "reembed": "graphmem_cli.lifecycle_cmd:reembed",
    "maintain": "graphmem_cli.lifecycle_cmd:maintain",
    "backup": "graphmem_cli.lifecycle_cmd:backup",
    "restore": "graphmem_cli.lifecycle_cmd:restore",
    "eval": "graphmem_cli.eval_cmd:eval_group",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if self._load(name) is not None)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name)

    @staticmethod
    def _load(name: str) -> click.Command | None:
        target = COMMANDS.get(name)
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


@click.group(cls=LazyGroup)
@click.version_option("0.1.0", prog_name="graphmem")
def cli() -> None:
    """graphmem: temporal knowledge-graph memory for AI agents.

    \b
    Example:
      graphmem neo4j start && graphmem serve
    """


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
