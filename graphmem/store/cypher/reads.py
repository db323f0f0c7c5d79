"""Cypher for reads: facts (current, at a time, as known at a time), timelines, provenance."""

from collections.abc import Callable


def fact_projection(when: Callable[[str], str] = lambda expr: expr) -> str:
    """A fact's record with evidence, supersession links and object name; ``when`` wraps each
    datetime expression (search hydration reads them as integers, see ``search.HYDRATE``)."""
    return f"""
OPTIONAL MATCH (f)-[ev:EVIDENCED_BY]->(e:Episode)
WITH f, collect(CASE WHEN e IS NULL THEN null ELSE {{
  episode_id: e.id, external_id: e.external_id, session_id: e.session_id, speaker: e.speaker,
  reference_time: {when("e.reference_time")}, quote: ev.quote, start: ev.start, end: ev.end, claim: ev.claim
}} END) AS evidence
OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact)
WITH f, evidence, collect(old.id) AS supersedes
OPTIONAL MATCH (newer:Fact)-[:SUPERSEDES]->(f)
WITH f, evidence, supersedes, collect(newer.id) AS superseded_by
OPTIONAL MATCH (f)-[:OBJECT]->(o:Entity)
RETURN f {{.id, .group_id, .subject, .subject_id, .predicate, .value, .qualifier, .statement,
          valid_from: {when("f.valid_from")}, valid_to: {when("f.valid_to")},
          recorded_at: {when("f.recorded_at")}, expired_at: {when("f.expired_at")},
          .confidence, .source_kind, .version, .status, .object_id, .tier, .corrected_by,
          .corrects}} AS fact,
       o.name AS object, evidence, supersedes, superseded_by
"""


FACT_PROJECTION = fact_projection()

# $mode: 'current' | 'as_of' | 'history'; $known_at: system time (null = now, i.e. unexpired)
FACT_FILTER = """
WHERE ($predicate IS NULL OR f.predicate = $predicate)
  AND ($mode = 'history'
       OR ($known_at IS NULL AND f.expired_at IS NULL)
       OR ($known_at IS NOT NULL AND f.recorded_at <= $known_at
           AND (f.expired_at IS NULL OR f.expired_at > $known_at)))
  AND (CASE $mode
        WHEN 'current' THEN f.valid_to IS NULL AND coalesce(f.status, 'active') = 'active'
        WHEN 'as_of' THEN (f.valid_from IS NULL OR f.valid_from <= $as_of)
                          AND (f.valid_to IS NULL OR f.valid_to > $as_of)
                          AND coalesce(f.status, 'active') = 'active'
        ELSE true END)
"""

FACTS_OF_SUBJECT = (
    """
CALL () {
  MATCH (s:Entity {group_id: $group_id, normalized_name: $subject_key}) RETURN s
  UNION
  MATCH (s:Aliased {group_id: $group_id}) WHERE $subject_key IN s.alias_keys RETURN s
}
MATCH (f:Fact {group_id: $group_id})-[:SUBJECT]->(s)
"""
    + FACT_FILTER
    + "WITH f ORDER BY f.predicate, f.valid_from, f.recorded_at, f.id\n"
    + FACT_PROJECTION
)

# Every fact of a subject with its slot and claims (for reads "as known at" a system time).
SUBJECT_SLOTS = """
CALL () {
  MATCH (s:Entity {group_id: $group_id, normalized_name: $subject_key}) RETURN s
  UNION
  MATCH (s:Aliased {group_id: $group_id}) WHERE $subject_key IN s.alias_keys RETURN s
}
MATCH (f:Fact {group_id: $group_id})-[:SUBJECT]->(s)
WHERE ($predicate IS NULL OR f.predicate = $predicate) AND f.recorded_at <= $known_at
RETURN f.id AS id, f.slot AS slot, f.claims AS claims
"""

FACTS_OF_GROUP = (
    "MATCH (f:Fact {group_id: $group_id})\n"
    + FACT_FILTER
    + "WITH f ORDER BY f.subject, f.predicate, f.valid_from, f.id LIMIT $limit\n"
    + FACT_PROJECTION
)

FACTS_BY_IDS = (
    "UNWIND $ids AS fid MATCH (f:Fact {id: fid}) WHERE f.group_id = $group_id\n"
    + "WITH f\n"
    + FACT_PROJECTION
)

TIMELINE = (
    """
MATCH (s:Entity {id: $entity_id, group_id: $group_id})
MATCH (f:Fact {group_id: $group_id})-[:SUBJECT]->(s)
WITH f ORDER BY f.predicate, f.valid_from, f.recorded_at, f.id
"""
    + FACT_PROJECTION
)

ENTITY_BY_ID = """
MATCH (x:Entity {id: $entity_id, group_id: $group_id})
RETURN x {.id, .group_id, .name, .normalized_name, .kind, .aliases, .summary, .created_at} AS entity
"""

ENTITIES_BY_NAME = """
CALL () {
  MATCH (x:Entity {group_id: $group_id})
  WHERE $key IS NULL OR x.normalized_name STARTS WITH $key
  RETURN x
  UNION
  MATCH (x:Aliased {group_id: $group_id}) WHERE $key IN x.alias_keys RETURN x
}
RETURN x {.id, .group_id, .name, .normalized_name, .kind, .aliases, .summary, .created_at} AS entity
ORDER BY x.normalized_name LIMIT $limit
"""

EPISODE_BY_ID = """
MATCH (e:Episode {id: $episode_id, group_id: $group_id})
OPTIONAL MATCH (f:Fact)-[:EVIDENCED_BY]->(e)
RETURN e {.id, .group_id, .external_id, .session_id, .source, .speaker, .content, .reference_time,
          .ingested_at, .content_hash} AS episode, collect(f.id) AS fact_ids
"""

GROUP_STATS = """
OPTIONAL MATCH (g:Group {id: $group_id})
RETURN coalesce(g.episodes, 0) AS episodes, coalesce(g.facts, 0) AS facts,
       coalesce(g.entities, 0) AS entities
"""
