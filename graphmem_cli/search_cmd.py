"""``graphmem search QUERY --group G``: hybrid search from the command line."""

from __future__ import annotations

from datetime import datetime

import click

from graphmem.clock import parse_iso
from graphmem.errors import InvalidInput
from graphmem.memory import GraphMemory
from graphmem.models.search import SearchRequest, SearchResult
from graphmem_cli.common import count_option, ensure_server, guarded, run_async, settings, with_memory


def _time(text: str | None, field: str) -> datetime | None:
    if not text:
        return None
    try:
        return parse_iso(text)
    except ValueError as exc:
        option = "--" + field.replace("_", "-")
        raise InvalidInput(f"{option} is not an ISO 8601 time: {text!r}", details={"field": field}) from exc


def _lines(result: SearchResult) -> list[str]:
    facts = {h.id: h.fact for h in result.facts}
    episodes = {h.id: h.episode for h in result.episodes}
    entities = {h.id: h.entity for h in result.entities}
    lines = []
    for rank, hit in enumerate(result.ranked, 1):
        if hit.type == "fact" and hit.id in facts:
            f = facts[hit.id]
            until = f.valid_to.date().isoformat() if f.valid_to else "now"
            since = f.valid_from.date().isoformat() if f.valid_from else "?"
            text = f"{f.statement}  [{since} .. {until}]"
        elif hit.type == "episode" and hit.id in episodes:
            e = episodes[hit.id]
            text = f"{e.speaker or '-'} @ {e.reference_time.date().isoformat()}: {e.content[:100]}"
        elif hit.type == "entity" and hit.id in entities:
            text = f"{entities[hit.id].name} ({entities[hit.id].kind})"
        else:
            continue
        lines.append(f"{rank:>3}  {hit.type:<7} {hit.score:8.4f}  {text}")
    return lines


@click.command("search")
@click.argument("query")
@click.option("--group", "-g", required=True, help="The group (tenant) to search.")
@click.option("--as-of", "as_of", default=None, help="What was true at this time (ISO 8601).")
@click.option(
    "--since", default=None, help="Only episodes said, and facts valid, from this time on (ISO 8601)."
)
@click.option(
    "--until", default=None, help="Only episodes said, and facts valid, before this time (ISO 8601)."
)
@count_option("--k", default=10, maximum=100, help="Results.")
@click.option("--recipe", default="default", show_default=True, help="Search preset.")
@click.option("--history", is_flag=True, help="Include superseded and ended facts.")
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@guarded
def search(
    query: str,
    group: str,
    as_of: str | None,
    since: str | None,
    until: str | None,
    k: int,
    recipe: str,
    history: bool,
    as_json: bool,
) -> None:
    """Search a group's memory (BM25 + vector + graph, fused), with provenance.

    \b
    Example:
      graphmem search "where does alice live?" --group team-a --k 5
      graphmem search "alice's employer" --group team-a --as-of 2024-06-01 --json
      graphmem search "trips" --group team-a --since 2024-01-01 --until 2024-07-01
    """
    request = SearchRequest(
        query=query,
        k=k,
        recipe=recipe,
        as_of=_time(as_of, "as_of"),
        since=_time(since, "since"),
        until=_time(until, "until"),
        include_history=history,
    )
    cfg = settings()
    ensure_server(cfg)

    async def work(memory: GraphMemory) -> SearchResult:
        return await memory.search(group, request)

    result = run_async(with_memory(cfg, work))
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    lines = _lines(result)
    click.echo("\n".join(lines) if lines else "no results")
