"""Retrieval channel queries. Each call runs in its own READ transaction so channels run concurrently."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.store.cypher import search as q
from graphmem.store.driver import Store

Hits = list[tuple[str, float]]


def _hits(rows: list[dict[str, Any]]) -> Hits:
    return [(r["id"], float(r["score"])) for r in rows]


def _time(
    as_of: datetime | None, history: bool, since: datetime | None = None, until: datetime | None = None
) -> dict[str, Any]:
    """The time view's parameters (``FACT_VISIBLE`` / ``EPISODE_VISIBLE``)."""
    return {"as_of": as_of, "history": history, "since": since, "until": until}


async def bm25(
    store: Store,
    *,
    target: str,
    group_id: str,
    lucene: str,
    limit: int,
    as_of: datetime | None,
    history: bool,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Hits:
    query = {"episode": q.BM25_EPISODES, "fact": q.BM25_FACTS, "entity": q.BM25_ENTITIES}[target]
    rows = await store.read(
        query, group_id=group_id, lucene=lucene, limit=limit, **_time(as_of, history, since, until)
    )
    return _hits(rows)


async def sizes(store: Store, *, group_id: str) -> dict[str, dict[str, Any]]:
    """``{"group": the tenant's counters, "total": every tenant's, "state": its revision state,
    "saved": its saved BM25 statistics}`` by label (state: ``seq``, ``reset_seq``, ``created_at``
    in epoch microseconds, -1 when unset; saved: ``labels`` and ``fields``, the JSON
    ``save_stats`` wrote, or None), in one round trip."""
    row = (await store.read(q.SIZES, group_id=group_id))[0]
    labels = ("episodes", "facts", "entities")
    created = row["created_at"]
    return {
        "group": {k: int(row[k]) for k in labels},
        "total": {k: int(row[f"all_{k}"]) for k in labels},
        "state": {
            "seq": int(row["seq"]),
            "reset_seq": int(row["reset_seq"]),
            "created_at": -1 if created is None else int(created),
        },
        "saved": {"labels": row["bm25_stats"], "fields": row["bm25_field_stats"]},
    }


async def save_stats(store: Store, *, group_id: str, kind: str, state: dict[str, int], value: str) -> None:
    """Save the group's BM25 statistics (``kind`` ``labels`` or ``fields``, JSON ``value``) on its
    Group node, unless its revision state has moved on from ``state`` meanwhile."""
    await store.write(
        q.SAVE_STATS[kind],
        group_id=group_id,
        seq=state["seq"],
        reset_seq=state["reset_seq"],
        created_at=state["created_at"],
        value=value,
    )


async def lexical_matches(
    store: Store,
    *,
    target: str,
    group_id: str,
    lucene: str,
    limit: int,
    view: dict[str, Any],
) -> list[dict[str, Any]]:
    """The tenant's ``target`` nodes matching ``lucene`` (at most ``limit``): ``id``, ``text`` (the
    analysed ``search_text``) and ``visible`` (in the time ``view``)."""
    return await store.read(
        q.LEXICAL_MATCHES[target], group_id=group_id, lucene=lucene, limit=limit, **_time(**view)
    )


async def lexical_stats(store: Store, *, group_id: str) -> dict[str, tuple[int, int]]:
    """``(nodes, analysed terms in all)`` of each label in the tenant, by target name."""
    row = (await store.read(q.LEXICAL_STATS, group_id=group_id))[0]
    return {
        t: (int(row[p] or 0), int(row[f"{t}_terms"] or 0))
        for t, p in (("episode", "episodes"), ("fact", "facts"), ("entity", "entities"))
    }


async def term_counts(
    store: Store, *, target: str, group_id: str, queries: list[tuple[str, str]], cap: int
) -> dict[str, int]:
    """In-tenant document frequency of each term (``(term, Lucene query)`` pairs), up to ``cap``."""
    if not queries:
        return {}
    rows = await store.read(
        q.TERM_COUNTS[target], group_id=group_id, queries=[list(p) for p in queries], cap=cap
    )
    return {r["term"]: int(r["df"]) for r in rows}


def overfetch(limit: int, group_size: int, total: int) -> int:
    """ANN candidates to fetch so that ~``limit`` survive the group filter (Neo4j 5.26 filters
    after the ANN step): scale by the group's share of the index, with a safety factor."""
    share = max(group_size, 1) / max(total, 1)
    return int(min(10_000, max(limit * 4, math.ceil(limit / share * 2))))


def vector_plan(limit: int, group_size: int, total: int, exact_threshold: int) -> tuple[bool, int]:
    """(exact, fetch): score the whole tenant exactly when it is small (``exact_threshold``) or when
    the ANN step would have to fetch at least as many nodes as the tenant holds (a small tenant in a
    big database): exact is then both cheaper and exact. Otherwise over-fetch from the ANN index."""
    fetch = overfetch(limit, group_size, total)
    return group_size <= exact_threshold or group_size <= fetch, fetch


async def vector(
    store: Store,
    *,
    target: str,
    group_id: str,
    embedding: list[float],
    limit: int,
    exact: bool,
    fetch: int,
    as_of: datetime | None,
    history: bool,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Hits:
    queries = {
        ("episode", True): q.VECTOR_EPISODES_EXACT,
        ("episode", False): q.VECTOR_EPISODES_ANN,
        ("fact", True): q.VECTOR_FACTS_EXACT,
        ("fact", False): q.VECTOR_FACTS_ANN,
        ("entity", True): q.VECTOR_ENTITIES_EXACT,
        ("entity", False): q.VECTOR_ENTITIES_ANN,
    }
    rows = await store.read(
        queries[(target, exact)],
        group_id=group_id,
        vector=embedding,
        limit=limit,
        fetch=fetch,
        **_time(as_of, history, since, until),
    )
    return _hits(rows)


async def entities_by_keys(store: Store, *, group_id: str, keys: list[str]) -> list[str]:
    rows = await store.read(q.ENTITIES_BY_KEYS, group_id=group_id, keys=keys) if keys else []
    return [r["id"] for r in rows]


async def graph(
    store: Store,
    *,
    target: str,
    group_id: str,
    seeds: list[str],
    limit: int,
    as_of: datetime | None,
    history: bool,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Hits:
    if not seeds:
        return []
    query = q.GRAPH_EXPAND if target == "fact" else q.GRAPH_EPISODES
    return _hits(
        await store.read(
            query, group_id=group_id, seeds=seeds, limit=limit, **_time(as_of, history, since, until)
        )
    )


async def fact_evidence(
    store: Store,
    *,
    group_id: str,
    fact_ids: list[str],
    as_of: datetime | None,
    history: bool,
    since: datetime | None = None,
    until: datetime | None = None,
) -> dict[str, tuple[str, ...]]:
    """Each fact's evidence episodes (EVIDENCED_BY) inside the time view, by fact id."""
    if not fact_ids:
        return {}
    rows = await store.read(
        q.FACT_EVIDENCE, group_id=group_id, fact_ids=fact_ids, **_time(as_of, history, since, until)
    )
    return {r["id"]: tuple(r["episodes"]) for r in rows if r["episodes"]}


async def hydrate(
    store: Store,
    *,
    group_id: str,
    ids: dict[str, list[str]],
    as_of: datetime | None,
    history: bool,
    since: datetime | None = None,
    until: datetime | None = None,
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """(fact rows as ``reads.FACTS_BY_IDS`` returns them, episodes by id, entities by id) for the
    ``ids`` by type, in one round trip; facts and episodes outside the time view are left out.
    Its times come as integers (``micros``), so the rows are taken as the driver decoded them
    (``read_values``: no walk of every nested value for temporal types). The ids and the view go
    as two maps, so every search shares one plan (``cypher.search.HYDRATE``)."""
    if not any(ids.values()):
        return [], {}, {}
    facts, episodes, entities = (
        await store.read_values(
            q.HYDRATE,
            group_id=group_id,
            ids={t: list(ids.get(t, [])) for t in ("fact", "episode", "entity")},
            view=_time(as_of, history, since, until),
        )
    )[0]
    for r in facts:
        fact = r["fact"]
        for key in ("valid_from", "valid_to", "recorded_at", "expired_at"):
            fact[key] = from_micros(fact[key])
        for ev in r["evidence"]:
            ev["reference_time"] = from_micros(ev["reference_time"])
    for e in episodes:
        e["reference_time"] = from_micros(e["reference_time"])
        e["ingested_at"] = from_micros(e["ingested_at"])
    return facts, {e["id"]: e for e in episodes}, {x["id"]: x for x in entities}


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def from_micros(value: int | None) -> datetime | None:
    """The inverse of ``cypher.search.micros``: a UTC datetime, exact to the microsecond."""
    return None if value is None else EPOCH + timedelta(microseconds=value)


async def touch(store: Store, *, group_id: str, ids: list[str], now: datetime) -> None:
    if ids:
        await store.write(q.TOUCH, group_id=group_id, touch={"ids": ids}, now=now)


async def bm25_episode_candidates(
    store: Store,
    *,
    group_id: str,
    lucene: str,
    limit: int,
    as_of: datetime | None,
    history: bool,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[dict[str, Any]]:
    return await store.read(
        q.BM25_EPISODE_CANDIDATES,
        group_id=group_id,
        lucene=lucene,
        limit=limit,
        **_time(as_of, history, since, until),
    )


async def term_document_frequency(store: Store, *, token: str, terms: list[str], cap: int) -> dict[str, int]:
    """In-tenant document frequency of each term, counted up to ``cap``."""
    rows = await store.read(q.TERM_DF, terms=terms, token=token, cap=cap) if terms else []
    return {r["term"]: int(r["df"]) for r in rows}


async def episode_field_matches(
    store: Store, *, group_id: str, lucene: str, limit: int, view: dict[str, Any]
) -> list[dict[str, Any]]:
    """Episodes matching ``lucene`` in their own text or their live facts': ``id``, ``visible``,
    ``search_text``, ``speaker_terms``, ``terms`` and ``facts`` (the live facts' analysed texts)."""
    return await store.read(
        q.EPISODE_FIELD_MATCHES, group_id=group_id, lucene=lucene, limit=limit, **_time(**view)
    )


async def episode_field_stats(store: Store, *, group_id: str) -> tuple[int, dict[str, int]]:
    """(episodes, analysed terms in all by field) of the tenant."""
    row = (await store.read(q.EPISODE_FIELD_STATS, group_id=group_id))[0]
    return int(row["episodes"] or 0), {f: int(row[f] or 0) for f in ("own", "context", "facts")}
