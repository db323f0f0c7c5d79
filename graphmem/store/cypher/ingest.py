"""Cypher for the write path: group lock, episodes, entities, facts and their edges.

Revision stamps (the change feed, ``graphmem.store.snapshot``): every Episode, Fact or Entity whose
searchable state a write changes gets ``rev`` = its group's ``lock_seq``, which the transaction
bumped first (LOCK_GROUP), read inside the query (``OPTIONAL MATCH (g:Group ...)``).
"""

from graphmem.store.cypher.changes import append_records
from graphmem.store.cypher.context import REFRESH_AROUND

# The statements of the ingest write (the combined ones below, the group lock, the two reads
# before the lock and the fuzzy entity candidates) start with ``CYPHER replan=skip``: Neo4j
# discards a cached plan once the graph's statistics have drifted past a threshold (0.75
# divergence at first, decaying to 0.1; at most once per 10 s, ``Discarded stale query`` in
# debug.log), and a growing store drifts all the time, so each was planned again every minute or
# so, 1-4 s of CPU each for the combined statements, plus the JIT's work on the code each new plan
# generates: most of Neo4j's CPU per write under load. Their plans do not depend on the
# statistics: every MATCH starts from a unique id, the group's composite indexes or a hinted
# index, so the first plan stays right as the graph grows.
REPLAN_SKIP = "CYPHER replan=skip\n"

LOCK_GROUP = (
    REPLAN_SKIP + "MERGE (g:Group {id: $group_id}) "
    "ON CREATE SET g.created_at = $now, g.episodes = 0, g.facts = 0, g.entities = 0 "
    "SET g.lock_seq = coalesce(g.lock_seq, 0) + 1 RETURN g.lock_seq AS seq"
)

EXISTING_EPISODE_KEYS = (
    REPLAN_SKIP + "UNWIND $keys AS k "
    "OPTIONAL MATCH (e:Episode {key: k}) "
    "OPTIONAL MATCH (t:Tombstone {key: k}) "
    "RETURN k AS key, e.id AS id, e.content_hash AS content_hash, t.key IS NOT NULL AS tombstoned"
)

RELINK_SESSIONS = """
UNWIND $sessions AS sid
CALL (sid) {
  MATCH (e:Episode {group_id: $group_id, session_id: sid})
  OPTIONAL MATCH (e)-[n:NEXT]->()
  DELETE n
  WITH DISTINCT e
  ORDER BY e.reference_time, e.external_id, e.id
  WITH collect(e) AS chain
  UNWIND range(0, size(chain) - 2) AS i
  WITH chain[i] AS a, chain[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
"""

# Exact names through the (group_id, normalized_name) index; aliases only among :Aliased entities.
FIND_ENTITIES = (
    REPLAN_SKIP
    + """
UNWIND $names AS n
CALL (n) {
  MATCH (x:Entity {group_id: $group_id, normalized_name: n}) RETURN x
  UNION
  MATCH (x:Aliased {group_id: $group_id}) WHERE n IN x.alias_keys RETURN x
}
RETURN n AS key, x.id AS id, x.name AS name, x.kind AS kind
"""
)

ENTITY_CANDIDATES = (
    REPLAN_SKIP
    + """
UNWIND $queries AS q
CALL db.index.fulltext.queryNodes('entity_text', q.lucene, {limit: $limit}) YIELD node, score
RETURN q.key AS key, node.id AS id, node.name AS name, node.normalized_name AS normalized_name, node.kind AS kind,
       node.embedding AS embedding
"""
)

# The merge of entity rows ``$rows`` (at revision ``rev``), shared by MERGE_ENTITIES and the combined
# ingest statement below; it leaves ``x``, ``r`` and ``created`` in scope.
_MERGE_ENTITY_ROWS = """
UNWIND $rows AS r
MERGE (x:Entity {group_id: $group_id, normalized_name: r.normalized_name})
ON CREATE SET x.id = r.id, x.name = r.name, x.kind = r.kind, x.aliases = [], x.alias_keys = [],
              x.summary = '', x.created_at = $now, x.search_text = r.search_text,
              x.group_token = $group_token, x.rev = rev, x.new = true
WITH x, r
CALL (x, r) {
  WITH x, r WHERE x.new = true
  CALL db.create.setNodeVectorProperty(x, 'embedding', r.embedding)
}
WITH x, r, x.new IS NOT NULL AS created
REMOVE x.new
"""

MERGE_ENTITIES = (
    """
OPTIONAL MATCH (g:Group {id: $group_id})
WITH g.lock_seq AS rev"""
    + _MERGE_ENTITY_ROWS
    + """RETURN r.normalized_name AS key, x.id AS id, x.name AS name, created
"""
)

ADD_ALIASES = """
OPTIONAL MATCH (g:Group {id: $group_id})
WITH g.lock_seq AS rev
UNWIND $rows AS r
MATCH (x:Entity {id: r.id})
WHERE NOT r.alias_key IN coalesce(x.alias_keys, [])
SET x:Aliased, x.aliases = coalesce(x.aliases, []) + r.alias,
    x.alias_keys = coalesce(x.alias_keys, []) + r.alias_key,
    x.search_text = x.search_text + ' ' + r.search_text, x.rev = rev
"""

LOAD_SLOTS = """
UNWIND $slots AS s
MATCH (f:Fact {group_id: $group_id, slot: s})
RETURN f.id AS id, f.slot AS slot, f.value AS value, f.value_key AS value_key, f.tier AS tier,
       f.claims AS claims, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.expired_at AS expired_at, f.object_id AS object_id, f.version AS version
"""

# A correction (PATCH) links the expired fact and the one that corrected it, both ways.
LINK_CORRECTION = """
MATCH (old:Fact {group_id: $group_id, id: $old_id})
MATCH (new:Fact {group_id: $group_id, id: $new_id})
SET old.corrected_by = new.id, new.corrects = old.id
"""

FACT_FOR_UPDATE = """
MATCH (f:Fact {id: $fact_id})
WHERE f.group_id = $group_id
RETURN f.id AS id, f.slot AS slot, f.subject_id AS subject_id, f.subject AS subject,
       f.predicate AS predicate, coalesce(f.qualifier, '') AS qualifier, f.value AS value,
       f.value_key AS value_key, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.expired_at AS expired_at, f.version AS version, coalesce(f.importance, 0.5) AS importance,
       coalesce(f.tier, 'stated') AS tier
"""


# ---- The ingest write in few round trips (graphmem.memory.ingestion._commit) ----------------
# Each statement below runs several steps in one round trip, in order; an empty list makes its
# step a no-op (a unit subquery keeps the outer row whatever its UNWIND yields). Their lists
# travel in one map parameter ``$p``: Neo4j keys its plan cache on the parameters' types, and an
# empty list types differently from a list of maps, so separate list parameters gave each
# combination of empty steps its own plan, and planning one of these statements takes seconds
# (a map parameter types as MAP whatever it holds).

# Lock the group (as LOCK_GROUP), then, under the lock: the stored or tombstoned episode keys
# among ``keys`` (as EXISTING_EPISODE_KEYS), the entities named exactly or by alias (as
# FIND_ENTITIES) and which of ``evidence_ids`` are episodes of the group.
BEGIN_INGEST = (
    REPLAN_SKIP
    + """
MERGE (g:Group {id: $group_id})
ON CREATE SET g.created_at = $now, g.episodes = 0, g.facts = 0, g.entities = 0
SET g.lock_seq = coalesce(g.lock_seq, 0) + 1
WITH g.lock_seq AS seq
CALL () {
  UNWIND $p.keys AS k
  OPTIONAL MATCH (e:Episode {key: k})
  OPTIONAL MATCH (t:Tombstone {key: k})
  WITH k, e, t WHERE e IS NOT NULL OR t IS NOT NULL
  RETURN collect({key: k, id: e.id, content_hash: e.content_hash, tombstoned: t IS NOT NULL}) AS known
}
CALL () {
  UNWIND $p.names AS n
  CALL (n) {
    MATCH (x:Entity {group_id: $group_id, normalized_name: n}) RETURN x
    UNION
    MATCH (x:Aliased {group_id: $group_id}) WHERE n IN x.alias_keys RETURN x
  }
  RETURN collect({key: n, id: x.id, name: x.name, kind: x.kind}) AS entities
}
CALL () {
  UNWIND $p.evidence_ids AS eid
  MATCH (e:Episode {id: eid})
  WHERE e.group_id = $group_id
  RETURN collect(e.id) AS evidence
}
RETURN seq, known, entities, evidence
"""
)

# Create the episodes (``rev``: the group's lock_seq), then read each of ``sessions``' chain from
# the last episode before ``since`` (the session's earliest new episode) on: the part the new
# episodes can change, ordered as RELINK_SESSIONS orders, with each episode's NEXT targets. The
# hint keeps the planner off (group_id, reference_time), which would scan every earlier episode.
CREATE_EPISODES_TAILS = (
    REPLAN_SKIP
    + """
OPTIONAL MATCH (g:Group {id: $group_id})
WITH g.lock_seq AS rev
CALL (rev) {
  UNWIND $p.rows AS r
  CREATE (e:Episode {
    id: r.id, group_id: $group_id, key: r.key, external_id: r.external_id, session_id: r.session_id,
    source: r.source, speaker: r.speaker, content: r.content, reference_time: r.reference_time,
    ingested_at: $now, content_hash: r.content_hash, search_text: r.search_text,
    terms: r.terms, speaker_terms: r.speaker_terms, group_token: $group_token, access_count: 0, rev: rev})
  WITH e, r
  CALL db.create.setNodeVectorProperty(e, 'embedding', r.embedding)
}
UNWIND $p.sessions AS s
CALL (s) {
  MATCH (e:Episode {group_id: $group_id, session_id: s.id})
  USING INDEX e:Episode(group_id, session_id)
  WHERE e.reference_time < s.since
  WITH e ORDER BY e.reference_time DESC, e.external_id DESC, e.id DESC LIMIT 1
  RETURN collect(e) AS head
}
CALL (s) {
  MATCH (e:Episode {group_id: $group_id, session_id: s.id})
  USING INDEX e:Episode(group_id, session_id)
  WHERE e.reference_time >= s.since
  WITH e ORDER BY e.reference_time, e.external_id, e.id
  RETURN collect(e) AS tail
}
RETURN s.id AS session, [e IN head + tail | e.id] AS ids,
       [e IN head + tail | [(e)-[:NEXT]->(n) | n.id]] AS nexts
"""
)

# Drop and add NEXT edges (``unlink``, ``link``), REFRESH_AROUND (``ids``), then MERGE_ENTITIES
# (``entities``), ADD_ALIASES (``aliases``), MENTIONS edges (``mentions``: an episode and an entity
# id, or the normalised name of an entity this statement creates), then LOAD_SLOTS (``slots``).
# Returns MERGE_ENTITIES' rows and LOAD_SLOTS' rows (as maps).
LINK_EPISODES = (
    REPLAN_SKIP
    + """
CALL () {
  UNWIND $p.unlink AS r
  MATCH (:Episode {id: r.a})-[n:NEXT]->(:Episode {id: r.b})
  DELETE n
}
CALL () {
  UNWIND $p.link AS r
  MATCH (a:Episode {id: r.a}), (b:Episode {id: r.b})
  CREATE (a)-[:NEXT]->(b)
}
CALL () {"""
    + REFRESH_AROUND.replace("$ids", "$p.ids")
    + """}
OPTIONAL MATCH (g:Group {id: $group_id})
WITH g.lock_seq AS rev
CALL (rev) {"""
    + _MERGE_ENTITY_ROWS.replace("$rows", "$p.entities")
    + """  RETURN collect({key: r.normalized_name, id: x.id, name: x.name, created: created}) AS merged
}
CALL (rev) {
  UNWIND $p.aliases AS r
  MATCH (x:Entity {id: r.id})
  WHERE NOT r.alias_key IN coalesce(x.alias_keys, [])
  SET x:Aliased, x.aliases = coalesce(x.aliases, []) + r.alias,
      x.alias_keys = coalesce(x.alias_keys, []) + r.alias_key,
      x.search_text = x.search_text + ' ' + r.search_text, x.rev = rev
}
CALL (rev) {
  UNWIND $p.mentions AS r
  MATCH (e:Episode {id: r.episode_id})
  CALL (r) {
    MATCH (x:Entity {id: r.entity_id}) RETURN x
    UNION
    MATCH (x:Entity {group_id: $group_id, normalized_name: r.new_key}) RETURN x
  }
  MERGE (e)-[:MENTIONS]->(x)
  SET e.rev = rev
}
CALL () {
  UNWIND $p.slots AS s
  MATCH (f:Fact {group_id: $group_id, slot: s})
  RETURN collect(f {.id, .slot, .value, .value_key, .tier, .claims, .valid_from, .valid_to,
                    .expired_at, .object_id, .version}) AS slot_rows
}
RETURN merged, slot_rows
"""
)

# Resolved slot plans: delete merged-away facts (``delete_ids``), upsert facts (``rows``; ``rev`` in
# the unconditional SET: created and rewritten facts alike), rebuild their EVIDENCED_BY edges
# (``evidence``) and the slots' SUPERSEDES edges (``slots``, ``supersedes``); then the change
# records (``change_rows``, changes.APPEND) and the group's counters (``counts``: {episodes,
# facts, entities}, or null). Facts merged away by re-resolution do not reset the group on
# purpose: a routine write must not force change-feed readers to reload a large tenant.
WRITE_FACTS = (
    REPLAN_SKIP
    + """
CALL () {
  UNWIND $p.delete_ids AS fid
  MATCH (f:Fact {id: fid})
  DETACH DELETE f
}
OPTIONAL MATCH (g:Group {id: $group_id})
WITH g.lock_seq AS rev
CALL (rev) {
  UNWIND $p.rows AS r
  MERGE (f:Fact {id: r.id})
  ON CREATE SET f.group_id = $group_id, f.slot = r.slot, f.subject_id = r.subject_id,
    f.predicate = r.predicate, f.qualifier = r.qualifier, f.value = r.value, f.value_key = r.value_key,
    f.object_id = r.object_id, f.statement = r.statement, f.recorded_at = $now, f.version = 0,
    f.status = 'active', f.tier = r.tier, f.search_text = r.search_text, f.group_token = $group_token,
    f.access_count = 0, f.importance = r.importance, f.new = true
  SET f.valid_from = r.valid_from, f.valid_to = r.valid_to, f.expired_at = r.expired_at,
    f.claims = r.claims, f.confidence = r.confidence, f.source_kind = r.source_kind,
    f.subject = r.subject, f.version = f.version + 1, f.updated_at = $now, f.rev = rev
  WITH f, r
  CALL (f, r) {
    WITH f, r WHERE f.new = true
    MATCH (s:Entity {id: r.subject_id})
    CREATE (f)-[:SUBJECT]->(s)
    WITH f, r
    CALL db.create.setNodeVectorProperty(f, 'embedding', r.embedding)
  }
  CALL (f, r) {
    WITH f, r WHERE f.new = true AND r.object_id IS NOT NULL
    MATCH (o:Entity {id: r.object_id})
    CREATE (f)-[:OBJECT]->(o)
  }
  REMOVE f.new
}
CALL () {
  UNWIND $p.rows AS r
  MATCH (:Fact {id: r.id})-[ev:EVIDENCED_BY]->()
  DELETE ev
}
CALL () {
  UNWIND $p.evidence AS r
  MATCH (f:Fact {id: r.fact_id}), (e:Episode {id: r.episode_id})
  CREATE (f)-[:EVIDENCED_BY {quote: r.quote, start: r.start, end: r.end, claim: r.claim}]->(e)
}
CALL () {
  UNWIND $p.slots AS s
  MATCH (:Fact {group_id: $group_id, slot: s})-[r:SUPERSEDES]->()
  DELETE r
}
CALL () {
  UNWIND $p.supersedes AS r
  MATCH (n:Fact {id: r.new_id}), (o:Fact {id: r.old_id})
  CREATE (n)-[:SUPERSEDES {at: r.at}]->(o)
}
"""
    + append_records("$p.change_rows")
    + """CALL () {
  WITH 1 AS one WHERE $p.counts IS NOT NULL
  MATCH (g:Group {id: $group_id})
  SET g.episodes = g.episodes + $p.counts.episodes, g.facts = g.facts + $p.counts.facts,
      g.entities = g.entities + $p.counts.entities, g.updated_at = $now
}
RETURN size($p.rows) AS written
"""
)
