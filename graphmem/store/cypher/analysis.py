"""Re-analysis of ``search_text`` when ``graphmem.text.ANALYSIS_VERSION`` changes (paged by id)."""

from __future__ import annotations

GET_ANALYSIS_VERSION = "MATCH (m:GraphmemMeta {key: 'analysis'}) RETURN m.version AS version"
SET_ANALYSIS_VERSION = (
    "MERGE (m:GraphmemMeta {key: 'analysis'}) SET m.version = $version, m.updated_at = datetime()"
)

# Each label's text properties, in id order after $after (one group when $group_id is set).
_IN = "WHERE n.id > $after AND ($group_id IS NULL OR n.group_id = $group_id) "
PAGE = {
    "Episode": f"MATCH (n:Episode) {_IN}"
    "RETURN n.id AS id, n.speaker AS speaker, n.content AS content ORDER BY n.id LIMIT $limit",
    "Fact": f"MATCH (n:Fact) {_IN}RETURN n.id AS id, n.statement AS statement ORDER BY n.id LIMIT $limit",
    "Entity": f"MATCH (n:Entity) {_IN}"
    "RETURN n.id AS id, n.name AS name, n.aliases AS aliases ORDER BY n.id LIMIT $limit",
}

SET_FIELDS = {
    "Episode": "UNWIND $rows AS r MATCH (n:Episode {id: r.id}) "
    "SET n.search_text = r.search_text, n.terms = r.terms, n.speaker_terms = r.speaker_terms",
    "Fact": "UNWIND $rows AS r MATCH (n:Fact {id: r.id}) SET n.search_text = r.search_text",
    "Entity": "UNWIND $rows AS r MATCH (n:Entity {id: r.id}) SET n.search_text = r.search_text",
}

# The pass rewrites search_text without the groups' locks: at its end every group it covered gets a
# new revision, marked reset, so change-feed readers reload it (graphmem.store.snapshot). Locked in
# id order, as LOCK_RESET_GROUPS (lifecycle.py) locks them.
RESET_GROUPS = """
MATCH (g:Group) WHERE $group_id IS NULL OR g.id = $group_id
WITH g ORDER BY g.id
WITH g, coalesce(g.lock_seq, 0) + 1 AS seq
SET g.lock_seq = seq, g.reset_seq = seq
"""

PAGE_EPISODE_GROUPS = (
    f"MATCH (n:Episode) {_IN}RETURN n.id AS id, n.group_id AS group_id ORDER BY n.id LIMIT $limit"
)
