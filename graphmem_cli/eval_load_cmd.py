"""``graphmem eval load``: concurrent clients against one API on loopback (EVAL.md §6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from graphmem_cli.common import count_option, guarded, log_to_stderr, run_async


def _table(result: dict[str, Any]) -> str:
    head = f"{'clients':>7} {'req/s':>7} {'errors':>6} {'shed':>5} {'lost':>4}  search p50/p90/p99 ms   write p50/p90/p99 ms"
    lines = [head]
    for r in result["runs"]:
        s, w = r["search"], r["write"]
        lines.append(
            f"{r['clients']:>7} {r['throughput_rps']:>7} {r['errors']:>6} {r['shed_429']:>5} "
            f"{r['acknowledged_writes_missing']:>4}  {s['p50_ms']:>6} / {s['p90_ms']} / {s['p99_ms']}"
            f"   {w['p50_ms']:>6} / {w['p90_ms']} / {w['p99_ms']}"
            + (f"   {json.dumps(r['error_kinds'])}" if r["error_kinds"] else "")
        )
    lines.append(_cpu_table(result))
    return "\n".join(lines)


def _cpu_table(result: dict[str, Any]) -> str:
    """CPU ms per request (server: event loop + threads; Neo4j), and per kind with --cpu-split."""
    lines = [
        "clients  CPU ms/request: server (loop + threads)  neo4j   per search / per write   "
        "writes/transaction   load"
    ]
    for r in result["runs"]:
        c, k = r.get("cpu", {}), r.get("cpu_by_kind", {})
        kinds = "-"
        if k:
            kinds = (
                f"server {k.get('server_ms_per_search')} / {k.get('server_ms_per_write')}, "
                f"neo4j {k.get('neo4j_ms_per_search')} / {k.get('neo4j_ms_per_write')}"
            )
        lines.append(
            f"{r['clients']:>7}  {c.get('server_ms_per_request')} ({c.get('server_loop_ms_per_request')}"
            f" + {c.get('server_threads_ms_per_request')})  {c.get('neo4j_ms_per_request')}   {kinds}"
            f"   {r.get('group_commit', {}).get('writes_per_transaction')}   {c.get('load_average')}"
        )
    return "\n".join(lines)


def _neo4j_pid(uri: str) -> int | None:
    """The local process listening on the Bolt port of a loopback ``NEO4J_URI``, if any."""
    from urllib.parse import urlparse

    from eval.load import is_loopback_url
    from eval.proc_cpu import listening_pid

    parsed = urlparse(uri)
    if not is_loopback_url(uri.replace(parsed.scheme, "http", 1)):
        return None
    return listening_pid(parsed.port or 7687)


def _clients(value: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(v) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise click.BadParameter("a comma-separated list of counts, e.g. 1,8,32,128") from exc
    if not counts or any(not 1 <= c <= 512 for c in counts):
        raise click.BadParameter("each client count must be 1..512")
    return counts


@click.command("load")
@click.option(
    "--clients", default="1,8,32,128", show_default=True, help="Client counts, run one after another."
)
@click.option(
    "--seconds", type=click.FloatRange(1, 600), default=30.0, show_default=True, help="Per client count."
)
@click.option("--write-ratio", type=click.FloatRange(0, 1), default=0.2, show_default=True)
@count_option("--groups", default=8, help="Tenants; client i uses group i mod G.")
@count_option("--seed-episodes", default=20, help="Episodes seeded into each group first.")
@click.option("--url", default=None, help="A running server (loopback only); default: start one.")
@click.option("--key", envvar="GRAPHMEM_LOAD_KEY", default=None, help="API key for --url (admin or agent).")
@count_option("--workers", default=None, help="Worker processes of the server this command starts.")
@click.option(
    "--cpu-split",
    is_flag=True,
    help="After each mix, a search-only phase: CPU ms per search, and the rest of the mix's per write.",
)
@click.option(
    "--server-pid", type=int, default=None, help="With --url: the server's pid, for its CPU per request."
)
@click.option(
    "--neo4j-pid",
    type=int,
    default=None,
    help="Neo4j's pid (default: the local process on NEO4J_URI's port).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write load.png and load.json here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def load(
    clients: str,
    seconds: float,
    write_ratio: float,
    groups: int,
    seed_episodes: int,
    url: str | None,
    key: str | None,
    workers: int | None,
    cpu_split: bool,
    server_pid: int | None,
    neo4j_pid: int | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """Run 1, 8, 32 and 128 concurrent clients (a search/write mix over G groups) against the API.

    Loopback only; bounded in time and requests; stops by itself and forgets its groups. Without
    --url it starts `graphmem serve` (no auth, loopback) against NEO4J_URI or the local Neo4j.
    Each run also reports the CPU ms the server and Neo4j spent per request (Linux /proc):
    unlike requests/s, that does not depend on what else the machine runs.

    \b
    Example:
      graphmem eval load --clients 1,8,32,128 --seconds 30 --out out/load
    """
    from eval.load import LoadConfig, plot, run_load, server_process
    from eval.proc_cpu import Sampler
    from graphmem_cli.common import ensure_server, settings

    cfg = LoadConfig(
        clients=_clients(clients),
        seconds=seconds,
        write_ratio=write_ratio,
        groups=groups,
        seed_episodes=seed_episodes,
        url=url,
        key=key,
        workers=workers,
        cpu_split=cpu_split,
    )
    env: dict[str, str] = {}
    local = settings()
    if url is None:
        ensure_server(local)
        env["NEO4J_URI"] = local.effective_uri
    if neo4j_pid is None:
        neo4j_pid = _neo4j_pid(local.effective_uri)
    try:
        with server_process(cfg, env) as (base, pid):
            sampler = Sampler(pid or server_pid, neo4j_pid)
            result = run_async(run_load(base, cfg, log_to_stderr, sampler))
    except (ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    if out is not None:
        result["png"] = str(plot(result, out))
        (out / "load.json").write_text(json.dumps(result, indent=2))
    click.echo(_table(result))
    if as_json:
        click.echo(json.dumps(result))
