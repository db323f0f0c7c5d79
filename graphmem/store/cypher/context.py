"""Episode search context: an episode's ``search_text`` is its speaker's and its own analysed terms
plus its session neighbours' content terms (the episodes before and after it on the NEXT chain).

Answers sit next to questions in a conversation ("What did you paint?" / "A sunset."), so a turn is
found by the words around it as well as its own; on the LoCoMo dev split plain BM25 R@10 rises
from 0.633 to 0.706 (docs/design-notes.md). Neighbours' speakers are left out (every turn would
carry both names). Derived only from ``terms``/``speaker_terms`` and the chain, so it is recomputed
whenever the chain changes: ingestion, forgetting, import, re-analysis. Every episode written is
stamped with the group's current ``lock_seq`` (``rev``, the change feed: graphmem.store.snapshot).
"""

from __future__ import annotations

_SET = """
OPTIONAL MATCH (p:Episode)-[:NEXT]->(x)
OPTIONAL MATCH (x)-[:NEXT]->(n:Episode)
WITH x, head(collect(DISTINCT p.terms)) AS before, head(collect(DISTINCT n.terms)) AS after
OPTIONAL MATCH (g:Group {id: $group_id})
SET x.search_text = trim(reduce(s = '', t IN [x.speaker_terms, x.terms, before, after] |
                                CASE WHEN t IS NULL OR t = '' THEN s ELSE s + ' ' + t END)),
    x.rev = g.lock_seq
"""

# The given episodes and their chain neighbours (after new episodes joined a chain).
REFRESH_AROUND = (
    """
UNWIND $ids AS id
MATCH (e:Episode {id: id}) WHERE e.group_id = $group_id
OPTIONAL MATCH (e)-[:NEXT]-(m:Episode)
WITH collect(e) + collect(m) AS xs
UNWIND xs AS x
WITH DISTINCT x
"""
    + _SET
)

# Exactly the given episodes (re-analysis pages, imports).
REFRESH_IDS = (
    """
UNWIND $ids AS id
MATCH (x:Episode {id: id}) WHERE x.group_id = $group_id
"""
    + _SET
)

# Every episode of the given sessions (after episodes left them).
REFRESH_SESSIONS = (
    """
UNWIND $sessions AS sid
MATCH (x:Episode {group_id: $group_id, session_id: sid})
"""
    + _SET
)
