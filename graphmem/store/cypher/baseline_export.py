"""Paged reads of one tenant's graph, used to copy it into a baseline system (eval/baselines)."""

EPISODES = """
MATCH (e:Episode {group_id: $group_id}) WHERE e.id > $after
RETURN e.id AS id, e.external_id AS external_id, e.content AS content, e.speaker AS speaker,
       e.reference_time AS reference_time, e.ingested_at AS ingested_at
ORDER BY e.id LIMIT $limit
"""

ENTITIES = """
MATCH (x:Entity {group_id: $group_id}) WHERE x.id > $after
RETURN x.id AS id, x.name AS name, x.summary AS summary, x.created_at AS created_at,
       x.embedding AS embedding
ORDER BY x.id LIMIT $limit
"""

FACTS = """
MATCH (f:Fact {group_id: $group_id}) WHERE f.id > $after
RETURN f.id AS id, f.predicate AS predicate, f.statement AS statement, f.value AS value,
       f.subject_id AS subject_id, f.object_id AS object_id, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.recorded_at AS recorded_at, f.expired_at AS expired_at,
       f.embedding AS embedding, [(f)-[:EVIDENCED_BY]->(e:Episode) | e.id] AS evidence
ORDER BY f.id LIMIT $limit
"""

MENTIONS = """
MATCH (e:Episode {group_id: $group_id})-[:MENTIONS]->(x:Entity)
WHERE e.id > $after
RETURN e.id AS episode_id, collect(x.id) AS entity_ids
ORDER BY e.id LIMIT $limit
"""

# Every episode's (id, external id) in one row: one record instead of one per episode (the async
# driver's per-record cost made a paged read of 100k keys take ~20 s).
EPISODE_KEYS = """
MATCH (e:Episode {group_id: $group_id}) WHERE e.reference_time IS NOT NULL AND e.external_id <> ''
RETURN collect([e.id, e.external_id]) AS keys
"""

# What a full copy of the tenant holds: one node per episode, per entity and per distinct literal fact
# value; one edge per fact with a subject and an object or a value; one per (episode, entity) mention.
# ``reference_time IS NOT NULL`` / ``slot IS NOT NULL`` (always true) let the planner use the composite
# group indexes (as in lifecycle.py) instead of scanning every node of the label.
SOURCE_COUNTS = """
CALL () {
  MATCH (e:Episode {group_id: $group_id}) WHERE e.reference_time IS NOT NULL RETURN count(e) AS episodes
}
CALL () {
  MATCH (x:Entity {group_id: $group_id})
  OPTIONAL MATCH (x)<-[:MENTIONS]-(e:Episode {group_id: $group_id})
  RETURN count(DISTINCT x) AS entities,
         count(DISTINCT CASE WHEN e IS NOT NULL THEN [e.id, x.id] END) AS mentions
}
CALL () {
  MATCH (f:Fact {group_id: $group_id}) WHERE f.slot IS NOT NULL
  RETURN count(CASE WHEN f.subject_id <> '' AND (f.object_id <> '' OR f.value <> '') THEN 1 END) AS facts,
         count(DISTINCT CASE WHEN coalesce(f.object_id, '') = '' AND f.value <> '' THEN f.value END)
           AS literal_nodes
}
RETURN episodes, entities, mentions, facts, literal_nodes
"""

# The same counts on graphiti-core's side (its labels, its group ids; graphmem's nodes carry no uuid).
GRAPHITI_COUNTS = """
CALL () { MATCH (n:Episodic {group_id: $group_id}) RETURN count(n) AS episodes }
CALL () { MATCH (n:Entity {group_id: $group_id}) WHERE n.uuid IS NOT NULL RETURN count(n) AS entity_nodes }
CALL () { MATCH ()-[r:MENTIONS {group_id: $group_id}]->() RETURN count(r) AS mentions }
CALL () { MATCH ()-[r:RELATES_TO {group_id: $group_id}]->() RETURN count(r) AS facts }
RETURN episodes, entity_nodes, mentions, facts
"""

# Which of these graphiti uuids are already stored (a resumed copy skips them); uuid index seeks.
GRAPHITI_EPISODIC = "UNWIND $uuids AS u MATCH (n:Episodic {uuid: u}) RETURN n.uuid AS uuid"
GRAPHITI_ENTITY = "UNWIND $uuids AS u MATCH (n:Entity {uuid: u}) RETURN n.uuid AS uuid"
GRAPHITI_MENTIONS = "UNWIND $uuids AS u MATCH ()-[r:MENTIONS {uuid: u}]->() RETURN r.uuid AS uuid"
GRAPHITI_RELATES_TO = "UNWIND $uuids AS u MATCH ()-[r:RELATES_TO {uuid: u}]->() RETURN r.uuid AS uuid"
