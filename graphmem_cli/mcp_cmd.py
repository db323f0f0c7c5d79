"""``graphmem mcp``: the MCP server over stdio (for Claude Desktop, IDEs and other local clients)."""

from __future__ import annotations

import os
import sys
from contextlib import redirect_stdout

import click

from graphmem_cli.common import ensure_server, guarded, run_async, settings


@click.command("mcp")
@click.option("--no-neo4j", is_flag=True, help="Do not start the local Neo4j.")
@guarded
def mcp(no_neo4j: bool) -> None:
    """Serve the memory tools over MCP on stdin/stdout.

    The scope comes from the API key in GRAPHMEM_API_KEY (checked against GRAPHMEM_API_KEYS); with
    GRAPHMEM_NO_AUTH=1 the caller is the local admin. Over HTTP, the same tools are at /mcp of
    `graphmem serve` (docs/mcp.md).

    \b
    Example:
      GRAPHMEM_API_KEY=my-agent-key graphmem mcp
    """
    from api.mcp.stdio import KEY_ENV, serve_stdio, stdio_principal

    cfg = settings()
    principal = stdio_principal(cfg, os.environ.get(KEY_ENV))
    if not no_neo4j:
        with redirect_stdout(sys.stderr):  # stdout carries the protocol only
            ensure_server(cfg)
    run_async(serve_stdio(cfg, principal))
