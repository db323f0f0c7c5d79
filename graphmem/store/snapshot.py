"""The change feed of one group, for readers that mirror its Episode/Fact/Entity nodes (an
in-process search index): its revision state, full loads in id order, and the nodes changed since
a revision. Each call is one auto-commit READ query (``Store.read``).

A reader that holds a group as of revision ``seq`` is current again after applying
``changed(since=seq)`` (every write transaction bumps ``Group.lock_seq`` and stamps the nodes whose
searchable state it changes with it, as ``rev``), unless ``group_state`` shows ``reset_seq > seq``
(nodes were deleted or rewritten in bulk: forget, import, re-embed, archive, re-analysis), a lower
``seq`` or another ``created_at`` (the group was deleted and created again): then it reloads with
``load_page``. Facts merged away by ingestion are deleted without a reset: a reader keeps their
ids until it reloads, so it checks its hits against the graph.

Rows (datetimes as Python datetimes, embeddings as lists of floats, ``rev`` null on nodes written
before revision stamps existed):
- episode: ``id, rev, reference_time, search_text, speaker_terms, terms`` (the analysed speaker and
  content: ``search_text`` is these plus the session context), ``text`` (the content),
  ``embedding, mentions`` (ids of the entities it MENTIONS)
- fact: ``id, rev, search_text, embedding, subject_id, object_id, status`` ('active' when unset),
  ``expired_at, valid_from, valid_to, evidence`` (number of EVIDENCED_BY edges), ``evidence_ids``
  (the episodes it is EVIDENCED_BY), ``recorded_at,
  text`` (the statement), ``confidence, tier``
- entity: ``id, rev, search_text, text`` (the name), ``embedding``

``text``, ``confidence``, ``tier`` and the times are what a search's rerank reads (recency,
confidence, tier, MMR's word overlap), so a mirror can rank before it hydrates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.store.cypher import snapshot as q
from graphmem.store.driver import Store
from graphmem.store.search import from_micros


@dataclass(frozen=True)
class GroupState:
    seq: int  # Group.lock_seq (0 when null)
    reset_seq: int  # Group.reset_seq (0 when null)
    created_at: datetime | None
    episodes: int  # the Group counters
    facts: int
    entities: int


def _query(table: dict[str, str], label: str) -> str:
    if label not in table:
        raise InvalidInput(f"unknown label {label!r}", details={"label": label, "allowed": sorted(table)})
    return table[label]


async def group_state(store: Store, *, group_id: str) -> GroupState | None:
    """The group's revision state and counters (one round trip); None when it has no Group node."""
    rows = await store.read(q.GROUP_STATE, group_id=group_id)
    if not rows:
        return None
    r = rows[0]
    return GroupState(
        seq=int(r["seq"]),
        reset_seq=int(r["reset_seq"]),
        created_at=from_micros(r["created_at"]),
        episodes=int(r["episodes"]),
        facts=int(r["facts"]),
        entities=int(r["entities"]),
    )


async def load_page(
    store: Store, *, group_id: str, label: str, after_id: str, limit: int
) -> list[dict[str, Any]]:
    """Up to ``limit`` nodes of ``label`` ("episode", "fact", "entity") in the group with an id
    after ``after_id``, in id order (with or without ``rev``). Start with ``after_id=""``."""
    query = _query(q.LOAD_PAGE, label)
    return await store.read(query, group_id=group_id, after=after_id, limit=limit)


async def load_columns(
    store: Store, *, group_id: str, label: str, after_id: str, limit: int
) -> list[dict[str, Any]]:
    """``load_page``'s rows (the same keys and values), read as one record of columns: the fast
    way to load a whole group (no per-record framing, times as integers on the wire)."""
    query = _query(q.LOAD_COLUMNS, label)
    found = await store.read_values(query, group_id=group_id, after=after_id, limit=limit)
    return _rows(label, found[0][0] if found else [])


async def load_small(store: Store, *, group_id: str, limit: int) -> dict[str, list[dict[str, Any]]]:
    """Each label's first ``limit`` nodes (``load_columns`` from the start: the same rows), the
    three labels in one round trip: a small group's whole load when no label returns ``limit``."""
    found = await store.read_values(q.LOAD_SMALL, group_id=group_id, limit=limit)
    labels = ("episode", "fact", "entity")  # LOAD_SMALL's columns
    values = found[0] if found else [[] for _ in labels]
    return {label: _rows(label, column) for label, column in zip(labels, values, strict=True)}


def _rows(label: str, columns: list[list[Any]]) -> list[dict[str, Any]]:
    names = q.COLUMNS[label]
    times = [i for i, name in enumerate(names) if name in q.TIME_COLUMNS]
    rows = []
    for values in columns:
        for i in times:
            values[i] = from_micros(values[i])
        rows.append(dict(zip(names, values, strict=True)))
    return rows


async def changed(store: Store, *, group_id: str, label: str, since: int, limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` nodes of ``label`` in the group stamped with a revision after ``since``,
    in (rev, id) order; each node once, in its current state."""
    query = _query(q.CHANGED, label)
    return await store.read(query, group_id=group_id, since=since, limit=limit)
