"""Entry point of the ``graphmem`` console script. Subcommands load lazily (fast ``--help``)."""

from __future__ import annotations

import click

from graphmem_cli.lazy import LazyGroup

# name -> "module:attribute" of a click command or group
COMMANDS: dict[str, str] = {
    "serve": "graphmem_cli.serve_cmd:serve",
    "mcp": "graphmem_cli.mcp_cmd:mcp",
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
    "changes": "graphmem_cli.changes_cmd:changes_group",
    "proof": "graphmem_cli.proof_cmd:proof",
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
@click.version_option("0.1.0", prog_name="graphmem")
@click.option("--reason", default=None, help="Why: kept on the change-log records of this command's writes.")
@click.option("--consent-id", default=None, help="The consent the writes are made under (change log).")
def cli(reason: str | None, consent_id: str | None) -> None:
    """graphmem: temporal knowledge-graph memory for AI agents.

    \b
    Example:
      graphmem neo4j start && graphmem serve
      graphmem --reason "user request" --consent-id c-42 forget --group g --episode ID --yes
    """


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
