"""Repository function for ``graphmem eval facts``: a group's facts with their evidence ids."""

from __future__ import annotations

from typing import Any

from graphmem.store.cypher import facts_eval as q
from graphmem.store.driver import Store

PAGE = 2000


async def facts_with_evidence(store: Store, *, group_id: str, page: int = PAGE) -> list[dict[str, Any]]:
    """Every fact of the group (history included), in id order: id, subject, predicate, value,
    statement, source_kind, tier, current, external_ids (of its evidence episodes), quote."""
    rows: list[dict[str, Any]] = []
    after = ""
    while True:
        batch = await store.read(q.FACTS_WITH_EVIDENCE, group_id=group_id, after=after, limit=page)
        rows.extend(batch)
        if len(batch) < page:
            return rows
        after = batch[-1]["id"]
