"""``graphmem eval speed``: ingestion and search speed on a synthetic tenant (EVAL.md §3)."""

from __future__ import annotations

import json
from typing import Any

import click

from graphmem_cli.common import count_option, guarded, run_eval


def _table(r: dict[str, Any]) -> str:
    def ms(d: dict[str, Any] | None) -> str:
        return "–" if not d else f"{d['p50']} / {d['p95']} / {d['p99']}"

    lines = [
        f"group {r['group']} ({'reused' if r['reused_group'] else 'ingested'}): {r['group_size']}; "
        f"loaded with the {r.get('load_embedder') or '(reused group: see the run that loaded it)'} embedder, "
        f"queries embedded by {r.get('query_embedder')}",
        f"ingest: {r['ingest_episodes_per_s']} episodes/s, {r['ingest_facts_per_s']} facts/s "
        f"(seconds {r['ingest_seconds']})",
        f"embed only: {r['embed_only_per_s']} texts/s over {r['embed_only_texts']} texts; "
        f"ingest/embed ratio {r['ingest_vs_embed_ratio']}",
    ]
    if "search_ms" in r:
        lines += [
            f"search ms p50/p95/p99, {r['n_queries']} queries, k={r['k']}:",
            f"  library (query embedding included): {ms(r['search_ms']['library'])}",
            f"  HTTP: {ms(r['search_ms']['http'])}"
            + (
                f"  ({r['http_error']})"
                if r.get("http_error")
                else f"  (+{r['http_added_ms_p50']} ms at p50; per request, latency minus the search's "
                f"own total: {ms(r.get('http_added_per_request_ms'))})"
            ),
            f"  raw Neo4j calls: {ms(r['raw_ms'])}",
            f"  overhead ratio (library / raw): {r['overhead_ratio']}",
        ]
        if "index_warm_s" in r:
            lines.insert(-4, f"  (tenant index loaded in {r['index_warm_s']} s before timing)")
        if "stages_ms_p50" in r:
            lines.append(f"  stages (p50 ms): {r['stages_ms_p50']}")
        if "neo4j_channels" in r:
            n4 = r["neo4j_channels"]
            lines += [
                f"  with the tenant index off (every channel in Neo4j): {ms(n4['library_ms'])}; "
                f"its raw channel queries {ms(n4['raw_ms'])}",
            ]
    recall = r.get("ann_recall")
    if recall:
        for target in ("episode", "fact"):
            lines.append(
                f"  ANN vs exact vector recall ({target}s, queries by {recall['query_embedder']}): {recall[target]}"
            )
    g = r.get("graphiti")
    if g:
        lines.append(
            f"  graphiti-core search ({g.get('queries')} queries): {ms(g.get('search_ms'))}  load {g.get('load')}"
            if "error" not in g
            else f"  graphiti-core: {g['error']}"
        )
    lines.append(f"peak RSS: {r['peak_rss_mb']} MiB; load average start/end: {r['loadavg']}")
    return "\n".join(lines)


@click.command("speed")
@click.option("--episodes", type=click.IntRange(min=1), required=True, help="Synthetic episodes (turns).")
@click.option("--facts", type=click.IntRange(min=0), required=True, help="Synthetic explicit facts.")
@click.option("--seed", type=int, default=7, show_default=True)
@count_option("--queries", default=240, help="Queries in the mix.")
@count_option("--k", default=10, maximum=100, help="Hits per search.")
@count_option("--batch", default=250, maximum=500, help="Episodes per add_episodes call.")
@count_option("--embed-sample", default=2000, help="Texts the embed-only rate is measured on.")
@click.option(
    "--reuse-group",
    default=None,
    help="Search this group if it holds data (skip ingestion); otherwise ingest into it. Kept.",
)
@click.option(
    "--load-embedder",
    type=click.Choice(["configured", "hashing"]),
    default="configured",
    show_default=True,
    help="Embedder the tenant is ingested with; 'hashing' loads big tenants fast (queries still use "
    "the configured embedder, whose cost stays in the search numbers).",
)
@click.option(
    "--ann-recall",
    is_flag=True,
    help="Also measure recall@10 of the over-fetched ANN vector search against exact scoring.",
)
@click.option("--keep", is_flag=True, help="Keep the synthetic group (rerun with --reuse-group).")
@click.option("--no-http", is_flag=True, help="Skip the HTTP measurement.")
@click.option("--with-graphiti", is_flag=True, help="Also time graphiti-core's search on the same data.")
@count_option(
    "--graphiti-queries",
    default=40,
    help="Queries graphiti's search is timed on (the first of the mix; it takes seconds each at 100k).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object last.")
@guarded
def speed(
    episodes: int,
    facts: int,
    seed: int,
    queries: int,
    k: int,
    batch: int,
    embed_sample: int,
    reuse_group: str | None,
    load_embedder: str,
    ann_recall: bool,
    keep: bool,
    no_http: bool,
    with_graphiti: bool,
    graphiti_queries: int,
    as_json: bool,
) -> None:
    """Ingest a deterministic synthetic tenant, then time a fixed query mix.

    Reports ingest and embed-only rates, search p50/p95/p99 through the library and HTTP, the raw
    Neo4j calls and the overhead ratio, and peak memory.

    \b
    Examples:
      graphmem eval speed --episodes 5000 --facts 5000 --keep --json
      graphmem eval speed --episodes 100000 --facts 100000 --load-embedder hashing --keep
      graphmem eval speed --episodes 1000 --facts 1000 --load-embedder hashing --ann-recall --no-http
    """
    from eval.speed import SpeedOptions, run_speed

    opts = SpeedOptions(
        episodes=episodes,
        facts=facts,
        seed=seed,
        queries=queries,
        k=k,
        batch=batch,
        embed_sample=embed_sample,
        http=not no_http,
        with_graphiti=with_graphiti,
        graphiti_queries=graphiti_queries,
        reuse_group=reuse_group,
        keep=keep,
        load_embedder=load_embedder,
        ann_recall=ann_recall,
    )
    result = run_eval(lambda memory, cfg, log: run_speed(memory, cfg, opts, log))
    click.echo(_table(result))
    if as_json:
        click.echo(json.dumps(result))
