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
