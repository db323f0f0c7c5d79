"""``graphmem cypher QUERY``: read-only Cypher for analysts (the same checks as ``POST /v1/cypher``)."""

from __future__ import annotations

import json
from typing import Any

import click

from graphmem.errors import InvalidInput
from graphmem.store.analyst import AnalystResult, run_readonly
from graphmem.store.driver import Store
from graphmem_cli.common import ensure_server, guarded, run_async, settings


def parse_params(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``k=v`` pairs; ``v`` is read as JSON when it parses (``42``, ``true``, ``[1,2]``), else text."""
    params: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidInput(f"--param must look like name=value, got {pair!r}", details={"field": "param"})
        try:
            params[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            params[name.strip()] = raw
    return params


async def _run(query: str, params: dict[str, Any]) -> AnalystResult:
    cfg = settings()
    store = Store.connect(cfg.effective_uri, auth=cfg.neo4j_auth_tuple, database=cfg.neo4j_database)
    try:
        return await run_readonly(
            store, query, params, timeout_s=cfg.cypher_timeout_s, row_cap=cfg.cypher_row_cap
        )
    finally:
        await store.close()


@click.command("cypher")
@click.argument("query")
@click.option(
    "--param", "-p", "params", multiple=True, metavar="NAME=VALUE", help="A $parameter (JSON or text)."
)
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@guarded
def cypher(query: str, params: tuple[str, ...], fmt: str) -> None:
    """Run one read-only Cypher statement (writes, LOAD CSV, admin commands and procedures outside
    the allow-list are refused; GRAPHMEM_CYPHER_TIMEOUT_S and GRAPHMEM_CYPHER_ROW_CAP bound it).

    \b
    Example:
      graphmem cypher "match (f:Fact {group_id: \\$g}) RETURN f.statement AS fact LIMIT 5" --param g=team-a
      graphmem cypher "CALL db.labels()" --format csv
    """
    ensure_server(settings())
    result = run_async(_run(query, parse_params(params)))
    if fmt == "csv":
        click.echo(result.to_csv(), nl=False)
    else:
        click.echo(json.dumps(result.model_dump(), ensure_ascii=False, indent=2))
    if result.truncated:
        click.echo(f"warning: truncated at {result.row_count} rows (GRAPHMEM_CYPHER_ROW_CAP)", err=True)
