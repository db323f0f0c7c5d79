"""Browsing queries for the explorer and agents: which groups exist, a session's turns in order."""

GROUP_IDS = """
MATCH (g:Group)
WHERE $group_ids IS NULL OR g.id IN $group_ids
RETURN g.id AS group_id, coalesce(g.episodes, 0) AS episodes, coalesce(g.facts, 0) AS facts,
       coalesce(g.entities, 0) AS entities
ORDER BY g.id LIMIT $limit
"""

SESSION_EPISODES = """
MATCH (e:Episode {group_id: $group_id, session_id: $session_id})
WHERE e.reference_time IS NOT NULL
WITH e ORDER BY e.reference_time DESC, e.external_id DESC, e.id DESC LIMIT $limit
OPTIONAL MATCH (f:Fact {group_id: $group_id})-[:EVIDENCED_BY]->(e)
WITH e, collect(f.id) AS fact_ids
RETURN e {.id, .group_id, .external_id, .session_id, .source, .speaker, .content, .reference_time,
          .ingested_at, .content_hash} AS episode, fact_ids
ORDER BY e.reference_time, e.external_id, e.id
"""
