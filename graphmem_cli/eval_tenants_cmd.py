"""``graphmem eval tenants``: cold tenants under Zipf traffic, and where a cold load's time goes (docs/evals.md §9)."""

from __future__ import annotations

import json
from typing import Any

import click

from graphmem_cli.common import count_option, guarded, run_eval


def _ms(d: dict[str, Any]) -> str:
    return "–" if not d["n"] else f"{d['p50_ms']} / {d['p99_ms']} (n={d['n']})"


def _table(r: dict[str, Any]) -> str:
    return "\n".join(_pass_table(r, p) for p in r["passes"])


def _pass_table(r: dict[str, Any], p: dict[str, Any]) -> str:
    lines = [
        f"pass {p['pass']} ({p['drive_seconds']} s, load average {p['loadavg_1m'][0]} -> {p['loadavg_1m'][1]}):",
        f"{r['tenants']} tenants ({r['nodes']['total']} nodes, median {r['nodes']['median']}, max "
        f"{r['nodes']['max']}); {p['searches']} searches, {r['clients']} clients, zipf {r['zipf']}; "
        f"server {'restarted' if r['restarted'] else 'given'}; errors {p['errors']}",
        f"all: first search p50/p99 ms {_ms(p['first'])}; steady {_ms(p['steady'])}",
        f"{'size':>12} {'tenants':>7} {'hit':>4}  first p50 / p99 ms       (index wait)          steady p50 / p99 ms",
    ]
    for name, b in p["by_size"].items():
        lines.append(
            f"{name:>12} {b['tenants']:>7} {b['tenants_searched']:>4}  {_ms(b['first']):<24} "
            f"{_ms(b['first_index_wait']):<21} {_ms(b['steady'])}  first by {b['first_served_by']}"
        )
    lines.append(
        f"worker RSS MiB {p['worker_rss_mb']}; index bytes {p['index_bytes']}, tenants "
        f"{p['index_tenants']}, evictions {p['evictions']} (None: /metrics does not expose them)"
    )
    return "\n".join(lines)


def _profile_table(r: dict[str, Any]) -> str:
    lines = [
        f"{'nodes':>6} {'registry':>9} {'neo4j':>7} {'transfer':>9} {'(cpu)':>7} {'apply':>7} {'columns':>8}  apply split       "
        f"{'finish':>7} {'hnsw(all)':>9}  (ms, median)"
    ]
    for p in r["profiles"]:
        t, s = p["total"], p["apply_split"]
        lines.append(
            f"{p['nodes']:>6} {p['registry_ms']:>9} {t['server_ms']:>7} {t['client_ms']:>9} {t['client_cpu_ms']:>7} {t['apply_ms']:>7} {p['columns_read']['wall_ms']:>8}  "
            f"vec {s['vectors']:.2f} text {s['text_and_columns']:.2f}  {p['finish_ms']:>7} {p['hnsw_build_ms']:>9}"
        )
    return "\n".join(lines)


def _sizes(value: str | None) -> list[int] | None:
    if not value:
        return None
    try:
        out = [int(v) for v in value.split(",") if v.strip()]
    except ValueError as exc:
        raise click.BadParameter("a comma-separated list of node counts, e.g. 1000,5000") from exc
    if not out or any(not 10 <= n <= 200_000 for n in out):
        raise click.BadParameter("each size must be 10..200000 nodes")
    return out


@click.command("tenants")
@count_option("--tenants", default=40, help="Tenants seeded (long-tailed sizes).")
@count_option("--min-nodes", default=40, help="Size of the smallest tenants (nodes).")
@count_option("--max-nodes", default=5_000, maximum=200_000, help="Size of the largest tenant (nodes).")
@count_option("--searches", default=400, maximum=1_000_000, help="Searches driven (Zipf over tenants).")
@count_option("--clients", default=1, maximum=256, help="Concurrent clients.")
@click.option("--zipf", type=click.FloatRange(0, 5), default=1.1, show_default=True, help="Zipf exponent.")
@click.option(
    "--seconds",
    type=click.FloatRange(1, 3600),
    default=300.0,
    show_default=True,
    help="Bound on the traffic.",
)
@click.option("--seed", type=int, default=7, show_default=True)
@count_option("--workers", default=None, help="Worker processes of the server this command starts.")
@click.option("--url", default=None, help="A running server (loopback only; not restarted).")
@click.option(
    "--prefix", default=None, help="Group name prefix (with --keep a rerun reuses the seeded groups)."
)
@click.option("--keep", is_flag=True, help="Leave the groups (default: forget them at the end).")
@click.option(
    "--load-embedder",
    type=click.Choice(["hashing", "configured"]),
    default="hashing",
    show_default=True,
    help="Embedder the tenants are seeded with (queries always use the configured one).",
)
@click.option(
    "--index-max-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="GRAPHMEM_INDEX_MAX_BYTES of the server this command starts (default: its own setting).",
)
@count_option("--passes", default=1, maximum=5, help="Fresh servers driving the same traffic in turn.")
@click.option(
    "--snapshots",
    is_flag=True,
    help="Give the servers this command starts a tenant index snapshot directory (a temporary one, "
    "removed at the end): with --passes 2 the second pass restores what the first saved. "
    "Without it the servers run with snapshots off.",
)
@click.option(
    "--snapshot-max-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="With --snapshots: GRAPHMEM_INDEX_SNAPSHOT_MAX_BYTES of the servers (default: its own setting).",
)
@click.option(
    "--seeding",
    type=click.Choice(["copies", "library"]),
    default="copies",
    show_default=True,
    help="copies: a few templates seeded through the library, copied inside Neo4j (thousands of "
    "tenants in minutes); library: every tenant through the library.",
)
@count_option(
    "--seed-writers",
    default=2,
    maximum=16,
    help="With --seeding copies: copy transactions in flight at once.",
)
@click.option(
    "--profile",
    "profile_sizes",
    default=None,
    help="Instead of traffic: profile a cold index load of one tenant per size, e.g. 1000,5000.",
)
@count_option("--repeats", default=3, maximum=50, help="Loads per profiled tenant (medians).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def tenants(
    tenants: int,
    min_nodes: int,
    max_nodes: int,
    searches: int,
    clients: int,
    zipf: float,
    seconds: float,
    seed: int,
    workers: int | None,
    url: str | None,
    prefix: str | None,
    keep: bool,
    load_embedder: str,
    index_max_bytes: int | None,
    passes: int,
    snapshots: bool,
    snapshot_max_bytes: int | None,
    seeding: str,
    seed_writers: int,
    profile_sizes: str | None,
    repeats: int,
    as_json: bool,
) -> None:
    """Seed many tenants of long-tailed sizes, restart the server, drive Zipf traffic at them, and
    report first-search and steady-state latency by tenant size, worker memory and evictions.

    Loopback only; bounded by --seconds and --searches; forgets its groups unless --keep. Without
    --url it starts `graphmem serve` (no auth, loopback) after seeding, so every tenant is cold.
    With --profile it instead times where a cold index load goes (Neo4j, transfer, apply, HNSW).

    \b
    Example:
      graphmem eval tenants --tenants 40 --max-nodes 5000 --searches 400
      graphmem eval tenants --profile 1000,5000 --repeats 3
    """
    from eval.tenants import TenantsConfig, run_tenants
    from eval.tenants_profile import run_profile

    cfg = TenantsConfig(
        tenants=tenants,
        min_nodes=min_nodes,
        max_nodes=max_nodes,
        searches=searches,
        clients=clients,
        zipf=zipf,
        seconds=seconds,
        seed=seed,
        workers=workers,
        url=url,
        prefix=prefix,
        keep=keep,
        load_embedder=load_embedder,
        index_max_bytes=index_max_bytes,
        seeding=seeding,
        seed_writers=seed_writers,
        passes=passes,
        snapshots=snapshots,
        snapshot_max_bytes=snapshot_max_bytes,
    )
    sizes = _sizes(profile_sizes)

    async def work(memory: Any, settings: Any, log: Any) -> dict[str, Any]:
        if sizes is not None:
            return await run_profile(memory, cfg, sizes, repeats, log)
        return await run_tenants(memory, cfg, {"NEO4J_URI": settings.effective_uri}, log)

    try:
        result = run_eval(work)
    except (ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(_profile_table(result) if sizes is not None else _table(result))
    if as_json:
        click.echo(json.dumps(result))
