"""Cypher for the change feed: a group's revision state, full loads by id, changes since a revision.

Writes stamp each Episode, Fact and Entity whose searchable state they change with ``rev`` = the
group's ``lock_seq`` of that transaction (ingest.py, context.py, lifecycle.py); deletions and bulk
rewrites set ``Group.reset_seq`` instead. Labels never travel as parameters: each query is chosen
from the tables below.

Full loads seek the composite (group_id, reference_time) / (group_id, slot) / (group_id) indexes
(hence ``reference_time IS NOT NULL`` and ``slot IS NOT NULL``, always true); change reads seek the
(group_id, rev) indexes. Both order and limit before reading embeddings and edges.
"""

from graphmem.store.cypher.search import micros

# Read before every indexed search: created_at as an integer (see ``micros``).
GROUP_STATE = f"""
MATCH (g:Group {{id: $group_id}})
RETURN coalesce(g.lock_seq, 0) AS seq, coalesce(g.reset_seq, 0) AS reset_seq,
       {micros("g.created_at")} AS created_at, coalesce(g.episodes, 0) AS episodes,
       coalesce(g.facts, 0) AS facts, coalesce(g.entities, 0) AS entities
"""

_ROWS = {
    "episode": """
RETURN n.id AS id, n.rev AS rev, n.reference_time AS reference_time, n.search_text AS search_text,
       n.speaker_terms AS speaker_terms, n.terms AS terms,
       n.content AS text, n.embedding AS embedding, [(n)-[:MENTIONS]->(x:Entity) | x.id] AS mentions
""",
    "fact": """
RETURN n.id AS id, n.rev AS rev, n.search_text AS search_text, n.embedding AS embedding,
       n.subject_id AS subject_id, n.object_id AS object_id, coalesce(n.status, 'active') AS status,
       n.expired_at AS expired_at, n.valid_from AS valid_from, n.valid_to AS valid_to,
       COUNT { (n)-[:EVIDENCED_BY]->(:Episode) } AS evidence, n.recorded_at AS recorded_at,
       [(n)-[:EVIDENCED_BY]->(x:Episode) | x.id] AS evidence_ids,
       n.statement AS text, n.confidence AS confidence, n.tier AS tier
""",
    "entity": """
RETURN n.id AS id, n.rev AS rev, n.search_text AS search_text, n.name AS text, n.embedding AS embedding
""",
}

_GROUP_SCAN = {
    "episode": "MATCH (n:Episode {group_id: $group_id}) WHERE n.reference_time IS NOT NULL AND",
    "fact": "MATCH (n:Fact {group_id: $group_id}) WHERE n.slot IS NOT NULL AND",
    "entity": "MATCH (n:Entity {group_id: $group_id}) WHERE",
}

_LABEL = {"episode": "Episode", "fact": "Fact", "entity": "Entity"}

LOAD_PAGE = {
    label: f"""
{scan} n.id > $after
WITH n ORDER BY n.id LIMIT $limit
{_ROWS[label]}"""
    for label, scan in _GROUP_SCAN.items()
}

CHANGED = {
    label: f"""
MATCH (n:{name} {{group_id: $group_id}})
USING INDEX n:{name}(group_id, rev)
WHERE n.rev > $since
WITH n ORDER BY n.rev, n.id LIMIT $limit
{_ROWS[label]}"""
    for label, name in _LABEL.items()
}
