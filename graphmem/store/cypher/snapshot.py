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

# Every statement here keeps its first plan (``CYPHER replan=skip``, as HYDRATE and the ingest write
# do; issue 17): each is anchored on an index (Group.id unique, the (group_id, rev) index named by
# its hint, the group composite indexes), so the statistics a growing store drifts through cannot
# give a better plan, and each replan cost Neo4j CPU under load.
REPLAN_SKIP = "CYPHER replan=skip\n"

# Read before every indexed search: created_at as an integer (see ``micros``).
GROUP_STATE = f"""{REPLAN_SKIP}MATCH (g:Group {{id: $group_id}})
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
    label: f"""{REPLAN_SKIP}{scan} n.id > $after
WITH n ORDER BY n.id LIMIT $limit
{_ROWS[label]}"""
    for label, scan in _GROUP_SCAN.items()
}

CHANGED = {
    label: f"""{REPLAN_SKIP}MATCH (n:{name} {{group_id: $group_id}})
USING INDEX n:{name}(group_id, rev)
WHERE n.rev > $since
WITH n ORDER BY n.rev, n.id LIMIT $limit
{_ROWS[label]}"""
    for label, name in _LABEL.items()
}

# Full loads as columns: ``load_page``'s nodes and fields, the page as one record (``rows``: one list
# per node, in ``COLUMNS`` order) with times as epoch microseconds (``micros``). A record per node
# cost more than the query itself: Bolt framing per record and the driver's DateTime decoding
# (about 0.2 ms each, four per fact) made 3,126 facts take 5.5 s as rows and 1.1 s as columns on the
# shared dev Neo4j (`graphmem eval tenants --profile`).
_COLUMN_EXPRESSIONS = {
    "episode": (
        ("id", "n.id"),
        ("rev", "n.rev"),
        ("reference_time", micros("n.reference_time")),
        ("search_text", "n.search_text"),
        ("speaker_terms", "n.speaker_terms"),
        ("terms", "n.terms"),
        ("text", "n.content"),
        ("embedding", "n.embedding"),
        ("mentions", "[(n)-[:MENTIONS]->(x:Entity) | x.id]"),
    ),
    "fact": (
        ("id", "n.id"),
        ("rev", "n.rev"),
        ("search_text", "n.search_text"),
        ("embedding", "n.embedding"),
        ("subject_id", "n.subject_id"),
        ("object_id", "n.object_id"),
        ("status", "coalesce(n.status, 'active')"),
        ("expired_at", micros("n.expired_at")),
        ("valid_from", micros("n.valid_from")),
        ("valid_to", micros("n.valid_to")),
        ("evidence", "COUNT { (n)-[:EVIDENCED_BY]->(:Episode) }"),
        ("recorded_at", micros("n.recorded_at")),
        ("evidence_ids", "[(n)-[:EVIDENCED_BY]->(x:Episode) | x.id]"),
        ("text", "n.statement"),
        ("confidence", "n.confidence"),
        ("tier", "n.tier"),
    ),
    "entity": (
        ("id", "n.id"),
        ("rev", "n.rev"),
        ("search_text", "n.search_text"),
        ("text", "n.name"),
        ("embedding", "n.embedding"),
    ),
}
COLUMNS = {label: tuple(name for name, _ in exprs) for label, exprs in _COLUMN_EXPRESSIONS.items()}
TIME_COLUMNS = frozenset({"reference_time", "expired_at", "valid_from", "valid_to", "recorded_at"})

LOAD_COLUMNS = {
    label: f"""{REPLAN_SKIP}{scan} n.id > $after
WITH n ORDER BY n.id LIMIT $limit
RETURN collect([{", ".join(expr for _, expr in _COLUMN_EXPRESSIONS[label])}]) AS rows"""
    for label, scan in _GROUP_SCAN.items()
}

# A small group's whole load in one round trip (``snapshot.load_small``): each label's first
# ``$limit`` nodes in id order as ``LOAD_COLUMNS`` reads them, the three as one record. A first-ever
# load of a small tenant read its three labels as three statements side by side: three round trips,
# three connections and three records for a few dozen nodes (issue 22).
LOAD_SMALL = (
    REPLAN_SKIP
    + "\n".join(
        f"""CALL () {{
  {scan.removesuffix(" AND").removesuffix(" WHERE")}
  WITH n ORDER BY n.id LIMIT $limit
  RETURN collect([{", ".join(expr for _, expr in _COLUMN_EXPRESSIONS[label])}]) AS {label}
}}"""
        for label, scan in _GROUP_SCAN.items()
    )
    + "\nRETURN episode, fact, entity"
)
