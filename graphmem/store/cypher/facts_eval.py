"""Cypher for ``graphmem eval facts``: every fact of a group with its subject, currency and the
external ids (LoCoMo dia_ids) of the episodes that evidence it, paged by fact id."""

FACTS_WITH_EVIDENCE = """
MATCH (f:Fact {group_id: $group_id})
WHERE f.id > $after
WITH f ORDER BY f.id LIMIT $limit
OPTIONAL MATCH (f)-[ev:EVIDENCED_BY]->(e:Episode)
WITH f, collect(DISTINCT e.external_id) AS external_ids, collect(ev.quote) AS quotes
RETURN f.id AS id, f.subject AS subject, f.predicate AS predicate, f.value AS value,
       f.statement AS statement, f.source_kind AS source_kind, f.tier AS tier,
       (f.valid_to IS NULL AND f.expired_at IS NULL AND coalesce(f.status, 'active') = 'active') AS current,
       external_ids, [q IN quotes WHERE q IS NOT NULL][0] AS quote
ORDER BY f.id
"""
