"""Cypher for the memory lifecycle: forget, export/import, re-embed, decay/archive.

Labels and relationship types never travel as parameters: each has its own constant here, chosen
from a fixed table by the repository functions (an unknown label is an error, not a query).

Group scans of episodes and facts add ``reference_time IS NOT NULL`` / ``slot IS NOT NULL`` (always
true): that lets the planner use the composite (group_id, reference_time) and (group_id, slot)
indexes instead of scanning every node of the label.
"""


# --- shared -------------------------------------------------------------------------------------

LOCK_EXISTING_GROUP = """
MATCH (g:Group {id: $group_id})
SET g.lock_seq = coalesce(g.lock_seq, 0) + 1
RETURN g.lock_seq AS seq
"""

# Change feed (graphmem.store.snapshot): a transaction that deletes or rewrites a group's nodes
# without stamping each of them marks the group reset at its own revision (after the lock's bump).
RESET_GROUP = "MATCH (g:Group {id: $group_id}) SET g.reset_seq = g.lock_seq"

# Lock several groups (in the given order: pass them sorted) and mark them reset, for writes that
# span groups (re-embedding a page of nodes).
LOCK_RESET_GROUPS = """
UNWIND $group_ids AS gid
MATCH (g:Group {id: gid})
WITH g, coalesce(g.lock_seq, 0) + 1 AS seq
SET g.lock_seq = seq, g.reset_seq = seq
"""

# Every relationship of a group joins two nodes of that group, so it is counted from both ends.
GROUP_COUNTS = """
CALL () {
  MATCH (n:Episode {group_id: $group_id}) WHERE n.reference_time IS NOT NULL
  RETURN count(n) AS episodes, sum(COUNT { (n)--() }) AS episode_degree
}
CALL () {
  MATCH (n:Fact {group_id: $group_id}) WHERE n.slot IS NOT NULL
  RETURN count(n) AS facts, sum(COUNT { (n)--() }) AS fact_degree
}
CALL () {
  MATCH (n:Entity {group_id: $group_id})
  RETURN count(n) AS entities, sum(COUNT { (n)--() }) AS entity_degree
}
CALL () { MATCH (n:Tombstone {group_id: $group_id}) WHERE n.scope IS NULL RETURN count(n) AS tombstones }
RETURN episodes, facts, entities, tombstones,
       (episode_degree + fact_degree + entity_degree) / 2 AS relationships
"""

RECOUNT_GROUP = """
MATCH (g:Group {id: $group_id})
CALL () {
  MATCH (n:Episode {group_id: $group_id}) WHERE n.reference_time IS NOT NULL RETURN count(n) AS episodes
}
CALL () { MATCH (n:Fact {group_id: $group_id}) WHERE n.slot IS NOT NULL RETURN count(n) AS facts }
CALL () { MATCH (n:Entity {group_id: $group_id}) RETURN count(n) AS entities }
SET g.episodes = episodes, g.facts = facts, g.entities = entities, g.updated_at = $now
"""

LIST_GROUPS = """
CALL () {
  MATCH (n:Episode) RETURN DISTINCT n.group_id AS group_id
  UNION MATCH (n:Fact) RETURN DISTINCT n.group_id AS group_id
  UNION MATCH (n:Entity) RETURN DISTINCT n.group_id AS group_id
  UNION MATCH (n:Tombstone) RETURN DISTINCT n.group_id AS group_id
  UNION MATCH (n:Group) RETURN DISTINCT n.id AS group_id
}
WITH group_id WHERE group_id IS NOT NULL
RETURN group_id ORDER BY group_id
"""

# --- forget ---------------------------------------------------------------------------------------

EPISODES_BY_IDS = """
UNWIND $ids AS eid
MATCH (e:Episode {id: eid})
WHERE e.group_id = $group_id
RETURN e.id AS id, e.key AS key, e.content_hash AS content_hash, e.session_id AS session_id
"""

EPISODES_BEFORE = """
MATCH (e:Episode {group_id: $group_id})
WHERE e.reference_time < $before
RETURN e.id AS id, e.key AS key, e.content_hash AS content_hash, e.session_id AS session_id
ORDER BY e.id
"""

SLOTS_OF_EPISODES = """
UNWIND $ids AS eid
MATCH (f:Fact)-[:EVIDENCED_BY]->(e:Episode {id: eid})
WHERE f.group_id = $group_id
RETURN DISTINCT f.slot AS slot
"""

ENTITIES_MENTIONED = """
UNWIND $ids AS eid
MATCH (:Episode {id: eid})-[:MENTIONS]->(x:Entity)
WHERE x.group_id = $group_id
RETURN DISTINCT x.id AS id
"""

ENTITY_IN_GROUP = "MATCH (x:Entity {id: $entity_id}) WHERE x.group_id = $group_id RETURN x.id AS id"

SLOTS_OF_ENTITY = """
MATCH (f:Fact)-[r:SUBJECT|OBJECT]->(x:Entity {id: $entity_id})
WHERE f.group_id = $group_id
RETURN DISTINCT f.slot AS slot, f.id AS fact_id, type(r) AS role
"""

ENTITIES_OF_SLOTS = """
UNWIND $slots AS s
MATCH (f:Fact {group_id: $group_id, slot: s})-[:SUBJECT|OBJECT]->(x:Entity)
RETURN DISTINCT x.id AS id
"""

LOAD_SLOT_FACTS = """
UNWIND $slots AS s
MATCH (f:Fact {group_id: $group_id, slot: s})
RETURN f.id AS id, f.slot AS slot, f.value AS value, f.value_key AS value_key, f.tier AS tier,
       f.claims AS claims, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.expired_at AS expired_at, f.object_id AS object_id, f.version AS version,
       f.subject_id AS subject_id, f.subject AS subject, f.predicate AS predicate,
       coalesce(f.qualifier, '') AS qualifier, coalesce(f.importance, 0.5) AS importance
"""

DELETE_EPISODES = """
UNWIND $ids AS eid
MATCH (e:Episode {id: eid})
WHERE e.group_id = $group_id
DETACH DELETE e
"""

WRITE_TOMBSTONES = """
UNWIND $rows AS r
MERGE (t:Tombstone {key: r.key})
SET t.group_id = $group_id, t.content_hash = r.content_hash, t.forgotten_at = $now
"""

# A forgotten group's marker: everything exported from the group before ``forgotten_at`` is
# forgotten content (explicit facts and entities carry no tombstone of their own).
WRITE_GROUP_TOMBSTONE = """
MERGE (t:Tombstone {key: $key})
SET t.group_id = $group_id, t.scope = 'group', t.forgotten_at = $now
"""

# A forgotten entity's tombstone: a hash of group and entity id only (no id, no name), so that an
# import of an earlier export leaves the entity out (graphmem.memory.lifecycle.transfer).
WRITE_ENTITY_TOMBSTONE = """
MERGE (t:Tombstone {key: $key})
SET t.group_id = $group_id, t.scope = 'entity', t.forgotten_at = $now
"""

GROUP_FORGOTTEN_AT = """
UNWIND $keys AS k
MATCH (t:Tombstone {key: k})
WHERE t.scope = 'group'
RETURN max(t.forgotten_at) AS forgotten_at
"""

TOMBSTONED_KEYS = """
UNWIND $keys AS k
MATCH (t:Tombstone {key: k})
RETURN t.key AS key
"""

DELETE_TOMBSTONES = """
UNWIND $keys AS k
MATCH (t:Tombstone {key: k})
DELETE t
"""

DELETE_ORPHAN_ENTITIES = """
UNWIND $ids AS xid
MATCH (x:Entity {id: xid})
WHERE x.group_id = $group_id AND NOT EXISTS { (x)--() }
DELETE x
"""

DELETE_ENTITY = "MATCH (x:Entity {id: $entity_id}) WHERE x.group_id = $group_id DETACH DELETE x"

TOMBSTONE_GROUP_EPISODES = """
MATCH (e:Episode {group_id: $group_id}) WHERE e.reference_time IS NOT NULL
MERGE (t:Tombstone {key: e.key})
SET t.group_id = $group_id, t.content_hash = e.content_hash, t.forgotten_at = $now
"""

DELETE_GROUP_LABEL = {
    "Fact": "MATCH (n:Fact {group_id: $group_id}) WHERE n.slot IS NOT NULL DETACH DELETE n",
    "Episode": "MATCH (n:Episode {group_id: $group_id}) WHERE n.reference_time IS NOT NULL DETACH DELETE n",
    "Entity": "MATCH (n:Entity {group_id: $group_id}) DETACH DELETE n",
    "Tombstone": "MATCH (n:Tombstone {group_id: $group_id}) DETACH DELETE n",
}

DELETE_GROUP_NODE = "MATCH (g:Group {id: $group_id}) DETACH DELETE g"

# --- export ---------------------------------------------------------------------------------------

EXPORT_NODES = {
    "Episode": """
MATCH (n:Episode {group_id: $group_id})
WHERE n.reference_time IS NOT NULL AND ($since IS NULL OR n.ingested_at >= $since)
RETURN properties(n) AS properties, labels(n) AS labels ORDER BY n.id
""",
    "Entity": """
MATCH (n:Entity {group_id: $group_id})
WHERE $since IS NULL OR n.created_at >= $since
RETURN properties(n) AS properties, labels(n) AS labels ORDER BY n.id
""",
    "Fact": """
MATCH (n:Fact {group_id: $group_id})
WHERE n.slot IS NOT NULL AND ($since IS NULL OR coalesce(n.updated_at, n.recorded_at) >= $since)
RETURN properties(n) AS properties, labels(n) AS labels ORDER BY n.id
""",
    "Tombstone": """
MATCH (n:Tombstone {group_id: $group_id})
WHERE $since IS NULL OR n.forgotten_at >= $since
RETURN properties(n) AS properties, labels(n) AS labels ORDER BY n.key
""",
}

# Relationships travel with their start node (facts own SUBJECT, OBJECT, SUPERSEDES, EVIDENCED_BY;
# episodes own MENTIONS and NEXT), so ``--since`` carries the edges of what it carries.
EXPORT_RELS = {
    "Fact": """
MATCH (a:Fact {group_id: $group_id})-[r]->(b)
WHERE a.slot IS NOT NULL AND ($since IS NULL OR coalesce(a.updated_at, a.recorded_at) >= $since)
RETURN type(r) AS rel_type, a.id AS start_id, b.id AS end_id, properties(r) AS properties
ORDER BY rel_type, start_id, end_id
""",
    "Episode": """
MATCH (a:Episode {group_id: $group_id})-[r]->(b)
WHERE a.reference_time IS NOT NULL AND ($since IS NULL OR a.ingested_at >= $since)
RETURN type(r) AS rel_type, a.id AS start_id, b.id AS end_id, properties(r) AS properties
ORDER BY rel_type, start_id, end_id
""",
}

# --- import ---------------------------------------------------------------------------------------


def _import_by_id(label: str) -> str:
    return f"""
OPTIONAL MATCH (g:Group {{id: $group_id}})
WITH g.lock_seq AS rev
UNWIND $rows AS r
MERGE (n:{label} {{id: r.id}})
SET n = r.properties
SET n.rev = rev
WITH n, r
CALL (n, r) {{
  WITH n, r WHERE r.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(n, 'embedding', r.embedding)
}}
RETURN count(n) AS written
"""


IMPORT_NODES = {
    "Episode": _import_by_id("Episode"),
    "Entity": _import_by_id("Entity"),
    "Fact": _import_by_id("Fact"),
    "Tombstone": """
UNWIND $rows AS r
MERGE (n:Tombstone {key: r.id})
SET n = r.properties
RETURN count(n) AS written
""",
}

# Secondary labels a node may carry besides its primary one (an unknown one is refused).
ADD_LABEL = {
    ("Entity", "Aliased"): "UNWIND $ids AS nid MATCH (n:Entity {id: nid}) SET n:Aliased",
}

# Nodes that would be overwritten in another group, or that clash with a uniqueness key.
IMPORT_CONFLICTS = {
    "Episode": """
UNWIND $rows AS r
OPTIONAL MATCH (a:Episode {id: r.id}) WHERE a.group_id <> $group_id
OPTIONAL MATCH (b:Episode {key: r.properties.key}) WHERE b.id <> r.id
WITH r, a, b WHERE a IS NOT NULL OR b IS NOT NULL
RETURN r.id AS id, coalesce(b.id, a.id) AS existing
""",
    "Entity": """
UNWIND $rows AS r
OPTIONAL MATCH (a:Entity {id: r.id}) WHERE a.group_id <> $group_id
OPTIONAL MATCH (b:Entity {group_id: $group_id, normalized_name: r.properties.normalized_name})
  WHERE b.id <> r.id
WITH r, a, b WHERE a IS NOT NULL OR b IS NOT NULL
RETURN r.id AS id, coalesce(b.id, a.id) AS existing
""",
    "Fact": """
UNWIND $rows AS r
MATCH (a:Fact {id: r.id}) WHERE a.group_id <> $group_id
RETURN r.id AS id, a.id AS existing
""",
    "Tombstone": """
UNWIND $rows AS r
MATCH (a:Tombstone {key: r.id}) WHERE a.group_id <> $group_id
RETURN r.id AS id, a.key AS existing
""",
}


def _import_rel(rel_type: str, start: str, end: str) -> str:
    return f"""
UNWIND $rows AS r
MATCH (a:{start} {{id: r.start_id}}), (b:{end} {{id: r.end_id}})
WHERE a.group_id = $group_id AND b.group_id = $group_id
MERGE (a)-[x:{rel_type}]->(b)
SET x = r.properties
RETURN count(x) AS written
"""


IMPORT_RELS = {
    "SUBJECT": _import_rel("SUBJECT", "Fact", "Entity"),
    "OBJECT": _import_rel("OBJECT", "Fact", "Entity"),
    "SUPERSEDES": _import_rel("SUPERSEDES", "Fact", "Fact"),
    "EVIDENCED_BY": _import_rel("EVIDENCED_BY", "Fact", "Episode"),
    "MENTIONS": _import_rel("MENTIONS", "Episode", "Entity"),
    "NEXT": _import_rel("NEXT", "Episode", "Episode"),
}

# --- re-embed -------------------------------------------------------------------------------------

EMBEDDED_TEXT = {
    "Episode": "CASE WHEN n.speaker IS NULL THEN n.content ELSE n.speaker + ': ' + n.content END",
    "Fact": "n.statement",
    "Entity": "n.name",
}


def _reembed_page(label: str) -> str:
    return f"""
MATCH (n:{label})
WHERE n.id > $after AND ($group_id IS NULL OR n.group_id = $group_id)
RETURN n.id AS id, n.group_id AS group_id, coalesce({EMBEDDED_TEXT[label]}, '') AS text
ORDER BY n.id LIMIT $limit
"""


def _set_embeddings(label: str) -> str:
    return f"""
UNWIND $rows AS r
MATCH (n:{label} {{id: r.id}})
CALL db.create.setNodeVectorProperty(n, 'embedding', r.embedding)
"""


REEMBED_PAGE = {label: _reembed_page(label) for label in EMBEDDED_TEXT}
SET_EMBEDDINGS = {label: _set_embeddings(label) for label in EMBEDDED_TEXT}

# One cursor per scope: key 'reembed' (all groups) or 'reembed:<group id>'.
GET_REEMBED_CURSOR = """
MATCH (m:GraphmemMeta {key: $key})
RETURN m.model AS model, m.dimension AS dimension, m.group_id AS group_id, m.label AS label,
       m.after AS after, m.episodes AS episodes, m.facts AS facts, m.entities AS entities,
       m.batches AS batches
"""

SET_REEMBED_CURSOR = """
MERGE (m:GraphmemMeta {key: $key})
SET m.model = $model, m.dimension = $dimension, m.group_id = $group_id, m.label = $label,
    m.after = $after, m.episodes = $episodes, m.facts = $facts, m.entities = $entities,
    m.batches = $batches, m.updated_at = datetime()
"""

DELETE_REEMBED_CURSOR = "MATCH (m:GraphmemMeta {key: $key}) DELETE m"

VECTOR_INDEX_DIMENSIONS = """
SHOW VECTOR INDEXES YIELD name, options
WHERE name IN ['episode_embedding', 'fact_embedding', 'entity_embedding']
RETURN name, options.indexConfig.`vector.dimensions` AS dimension
"""

# --- decay / archive ------------------------------------------------------------------------------

_IDLE_FILTER = """
WHERE f.slot IS NOT NULL AND coalesce(f.status, 'active') = 'active' AND f.expired_at IS NULL
  AND coalesce(f.last_access_at, f.recorded_at) <= $idle_before
RETURN f.id AS id, f.group_id AS group_id, coalesce(f.importance, 0.5) AS importance,
       coalesce(f.access_count, 0) AS access_count,
       coalesce(f.last_access_at, f.recorded_at) AS last_used
"""

IDLE_FACTS_OF_GROUP = "MATCH (f:Fact {group_id: $group_id})\n" + _IDLE_FILTER
IDLE_FACTS = "MATCH (f:Fact)\n" + _IDLE_FILTER

ARCHIVE_FACTS = """
UNWIND $ids AS fid
MATCH (f:Fact {id: fid})
WHERE coalesce(f.status, 'active') = 'active'
SET f.status = 'archived', f.archived_at = $now, f.updated_at = $now
RETURN count(f) AS archived
"""

_RESTORABLE = """
WHERE f.slot IS NOT NULL AND f.status = 'archived'
  AND (f.last_access_at > f.archived_at OR f.updated_at > f.archived_at)
"""

RESTORE_USED_OF_GROUP = (
    "MATCH (f:Fact {group_id: $group_id})"
    + _RESTORABLE
    + """SET f.status = 'active', f.updated_at = $now
REMOVE f.archived_at
RETURN count(f) AS restored
"""
)

# Groups with facts to restore (each is then restored under its own lock).
RESTORABLE_GROUPS = (
    "MATCH (f:Fact)" + _RESTORABLE + "RETURN DISTINCT f.group_id AS group_id ORDER BY group_id"
)
