"""Entry point of the ``graphmem`` console script."""

from __future__ import annotations

import click

from graphmem_cli.neo4j_cmd import neo4j_group
from graphmem_cli.serve_cmd import serve


@click.group()
@click.version_option("0.1.0", prog_name="graphmem")
def cli() -> None:
    """graphmem: temporal knowledge-graph memory for AI agents.

    \b
    Example:
      graphmem neo4j start && graphmem serve
    """


cli.add_command(neo4j_group)
cli.add_command(serve)


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
