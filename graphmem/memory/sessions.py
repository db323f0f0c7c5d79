"""Short-term memory: a session's digest, alone or beside a search's long-term hits, in one call.

The digest needs no model: the session's current facts (those its episodes are evidence for), its
key turns (earlier turns that gave the most current facts) and its newest ``last_n`` turns. Its text
is filled in priority order (newest turns, then facts, then key turns) within the window's token
budget and laid out oldest first. A search that names a session (``SearchRequest.session``) runs
the digest and the long-term search together; the digest's budget is taken out of the search's, so
the whole ``context`` stays within ``token_budget``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.memory.browse import session_turns
from graphmem.memory.context import MemoryContext
from graphmem.memory.reads import facts_by_ids
from graphmem.models.browse import SessionDigest, SessionTurn, SessionWindow
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord
from graphmem.models.search import SearchRequest, SearchResult
from graphmem.retrieval.context import estimate_tokens
from graphmem.store import browse

TURN_CHARS = 300  # a turn's text in the digest is cut here (the record keeps it whole)


async def session_digest(ctx: MemoryContext, group_id: str, window: SessionWindow) -> SessionDigest:
    """The digest of ``window.id`` in ``group_id`` (empty, not an error, for an unknown session:
    a new conversation has no turns yet)."""
    summary, recent = await asyncio.gather(
        browse.session_fact_turns(ctx.store, group_id=group_id, session_id=window.id),
        session_turns(ctx, group_id, window.id, last_n=window.last_n) if window.last_n else _none(),
    )
    recent_ids = {t.episode.id for t in recent}
    producing = [p for p in summary["producing"] if p["id"] not in recent_ids]
    producing.sort(key=lambda p: -len(p["fact_ids"]))
    key_ids = [p["id"] for p in producing[: window.key_turns]]
    fact_ids = list(dict.fromkeys(fid for p in summary["producing"] for fid in p["fact_ids"]))
    facts, key_rows = await asyncio.gather(
        facts_by_ids(ctx, group_id, fact_ids) if fact_ids and window.facts else _none(),
        browse.episodes_by_ids(ctx.store, group_id=group_id, ids=key_ids) if key_ids else _none(),
    )
    facts = sorted(facts, key=lambda f: (f.recorded_at, f.id), reverse=True)[: window.facts]
    key_turns = [
        SessionTurn(episode=EpisodeRecord(**{k: v for k, v in r["episode"].items() if v is not None}))
        for r in key_rows
    ]
    digest = SessionDigest(
        group_id=group_id,
        session_id=window.id,
        episodes=summary["episodes"],
        first_at=summary["first_at"],
        last_at=summary["last_at"],
        facts=facts,
        key_turns=key_turns,
        recent=recent,
    )
    return digest.model_copy(update={"context": digest_text(digest, window.token_budget)})


async def _none() -> list[Any]:
    return []


def _day(when: datetime | None) -> str:
    return when.date().isoformat() if when else "?"


def turn_line(episode: EpisodeRecord) -> str:
    who = f"{episode.speaker}: " if episode.speaker else ""
    text = " ".join(episode.content.split())
    if len(text) > TURN_CHARS:
        text = text[: TURN_CHARS - 1].rstrip() + "…"
    return f"- [{_day(episode.reference_time)}] {who}{text}"


def fact_line(fact: FactRecord) -> str:
    return f"- [fact {_day(fact.valid_from)}..now] {fact.statement}"


def digest_text(digest: SessionDigest, budget: int) -> str:
    """The digest as a text block within ``budget`` tokens: lines are taken newest turn first, then
    facts, then key turns, while they fit; each section is printed oldest first."""
    if budget <= 0 or digest.episodes == 0:
        return ""
    span = f"{_day(digest.first_at)} to {_day(digest.last_at)}"
    header = f"Session {digest.session_id} ({digest.episodes} turns, {span}):"
    used = estimate_tokens(header)
    if used > budget:
        return ""
    sections: dict[str, list[tuple[int, str]]] = {"facts": [], "key": [], "recent": []}
    wanted = [
        *(("recent", i, turn_line(t.episode)) for i, t in reversed(list(enumerate(digest.recent)))),
        *(("facts", i, fact_line(f)) for i, f in enumerate(digest.facts)),
        *(("key", i, turn_line(t.episode)) for i, t in enumerate(digest.key_turns)),
    ]
    titles = {"facts": "Facts from this session:", "key": "Key earlier turns:", "recent": "Latest turns:"}
    for section, position, line in wanted:
        cost = estimate_tokens(line) + (0 if sections[section] else estimate_tokens(titles[section]))
        if used + cost > budget:
            continue
        used += cost
        sections[section].append((position, line))
    lines = [header]
    for section in ("facts", "key", "recent"):
        if sections[section]:
            lines.append(titles[section])
            lines.extend(line for _, line in sorted(sections[section]))
    return "\n".join(lines) if len(lines) > 1 else header


Search = Callable[[SearchRequest], Awaitable[SearchResult]]


async def search_with_session(
    ctx: MemoryContext, search: Search, request: SearchRequest, groups: list[str]
) -> SearchResult:
    """``search`` (over ``groups``) and the digest of ``request.session`` together, in one result:
    ``result.session`` holds the digest and ``context`` starts with its text."""
    window = request.session
    assert window is not None
    group = session_group(window, groups)
    reserved = min(window.token_budget, request.token_budget)
    window = window.model_copy(update={"token_budget": reserved})
    long_term = request.model_copy(update={"session": None, "token_budget": request.token_budget - reserved})
    result, digest = await asyncio.gather(search(long_term), session_digest(ctx, group, window))
    context = "\n\n".join(part for part in (digest.context, result.context) if part)
    return result.model_copy(update={"session": digest, "context": context})


def session_group(window: SessionWindow, groups: list[str]) -> str:
    """The session's group: ``window.group_id``, one of the searched groups, else the only one."""
    if window.group_id is not None:
        if window.group_id not in groups:
            raise InvalidInput(
                "session.group_id must be one of the searched groups",
                details={"field": "session.group_id", "groups": groups},
            )
        return window.group_id
    if len(groups) != 1:
        raise InvalidInput(
            "session.group_id is required in a search over several groups",
            details={"field": "session.group_id"},
        )
    return groups[0]
