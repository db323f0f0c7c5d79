"""``graphmem serve``: the HTTP API under uvicorn."""

from __future__ import annotations

import click

from graphmem_cli.common import ensure_server, fail, guarded, settings

# uvicorn's supervisor (workers > 1) kills a worker that has not answered its ping in this many
# seconds and starts another. Its default, 5 s, is shorter than a worker's start on a busy 2-core
# host (imports, the embedder's and the parser's models hold the GIL for seconds): at load ~18 the
# workers of `graphmem eval load --workers 2` were killed 5-30 s after each start, over and over,
# and never all served (issue 17).
WORKER_HEALTHCHECK_S = 60


@click.command("serve")
@click.option("--host", default=None, help="Bind address (default GRAPHMEM_HOST, 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default GRAPHMEM_PORT, 8000).")
@click.option("--workers", default=None, type=int, help="uvicorn worker processes.")
@click.option("--no-neo4j", is_flag=True, help="Do not start the local Neo4j.")
@guarded
def serve(host: str | None, port: int | None, workers: int | None, no_neo4j: bool) -> None:
    """Serve the HTTP API (starts the local Neo4j first unless NEO4J_URI is set).

    \b
    Example:
      graphmem serve --port 8000
    """
    import os

    import uvicorn

    from api.security import check_bind

    cfg = settings()
    cfg = cfg.model_copy(
        update={k: v for k, v in {"host": host, "port": port, "workers": workers}.items() if v}
    )
    problem = check_bind(cfg)
    if problem:
        fail(problem)
    if not no_neo4j:
        ensure_server(cfg)
    os.environ["GRAPHMEM_HOST"] = cfg.host  # the app factory (in each worker) re-reads settings
    uvicorn.run(
        "api.main:app_from_env",
        factory=True,
        host=cfg.host,
        port=cfg.port,
        workers=cfg.workers,
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        log_level="info",
        access_log=False,
    )
