"""Cypher for the retrieval channels. Group and time filters run inside Neo4j."""

from graphmem.store.cypher.reads import fact_projection


def micros(expr: str) -> str:
    """A datetime as microseconds since the epoch (null stays null): the driver decodes a DateTime
    in about 0.2 ms of Python, an integer in next to nothing, and a hydration reads ~30 of them."""
    return f"{expr}.epochSeconds * 1000000 + {expr}.microsecond"


# Time filters: $as_of (valid time, null = now) and $history (include superseded/ended facts).
FACT_VISIBLE = """
  f.group_id = $group_id AND f.expired_at IS NULL
  AND ($history OR coalesce(f.status, 'active') = 'active')
  AND ($history OR (
        CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL
             ELSE (f.valid_from IS NULL OR f.valid_from <= $as_of)
                  AND (f.valid_to IS NULL OR f.valid_to > $as_of) END))
"""

EPISODE_VISIBLE = "e.group_id = $group_id AND ($as_of IS NULL OR e.reference_time <= $as_of)"

BM25_EPISODES = f"""
CALL db.index.fulltext.queryNodes('episode_text', $lucene, {{limit: $limit}}) YIELD node AS e, score
WHERE {EPISODE_VISIBLE}
RETURN e.id AS id, score
"""

BM25_FACTS = f"""
CALL db.index.fulltext.queryNodes('fact_text', $lucene, {{limit: $limit}}) YIELD node AS f, score
WHERE {FACT_VISIBLE}
RETURN f.id AS id, score
"""

BM25_ENTITIES = """
CALL db.index.fulltext.queryNodes('entity_text', $lucene, {limit: $limit}) YIELD node AS x, score
WHERE x.group_id = $group_id
RETURN x.id AS id, score
"""

VECTOR_EPISODES_ANN = f"""
CALL db.index.vector.queryNodes('episode_embedding', $fetch, $vector) YIELD node AS e, score
WHERE {EPISODE_VISIBLE}
RETURN e.id AS id, score ORDER BY score DESC LIMIT $limit
"""

# Exact scoring over the tenant. ``reference_time``/``recorded_at`` are always set; saying so lets the
# planner seek the (group_id, ...) composite index instead of scanning every tenant's nodes.
VECTOR_EPISODES_EXACT = f"""
MATCH (e:Episode {{group_id: $group_id}})
WHERE e.reference_time IS NOT NULL AND {EPISODE_VISIBLE}
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
RETURN e.id AS id, score ORDER BY score DESC LIMIT $limit
"""

VECTOR_FACTS_ANN = f"""
CALL db.index.vector.queryNodes('fact_embedding', $fetch, $vector) YIELD node AS f, score
WHERE {FACT_VISIBLE}
RETURN f.id AS id, score ORDER BY score DESC LIMIT $limit
"""

VECTOR_FACTS_EXACT = f"""
MATCH (f:Fact {{group_id: $group_id}})
WHERE f.recorded_at IS NOT NULL AND {FACT_VISIBLE}
WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
RETURN f.id AS id, score ORDER BY score DESC LIMIT $limit
"""

VECTOR_ENTITIES_EXACT = """
MATCH (x:Entity {group_id: $group_id})
WITH x, vector.similarity.cosine(x.embedding, $vector) AS score
RETURN x.id AS id, score ORDER BY score DESC LIMIT $limit
"""

VECTOR_ENTITIES_ANN = """
CALL db.index.vector.queryNodes('entity_embedding', $fetch, $vector) YIELD node AS x, score
WHERE x.group_id = $group_id
RETURN x.id AS id, score ORDER BY score DESC LIMIT $limit
"""

ENTITIES_BY_KEYS = """
UNWIND $keys AS k
MATCH (x:Entity {group_id: $group_id, normalized_name: k})
RETURN x.id AS id
"""

# Graph channel: seeds -> facts about them (1 hop) -> entities they point to -> their facts (2 hops);
# episodes mentioning a seed. Score by distance and evidence count.
GRAPH_EXPAND = f"""
UNWIND $seeds AS sid
MATCH (s:Entity {{id: sid}})
WHERE s.group_id = $group_id
CALL (s) {{
  MATCH (f:Fact)-[:SUBJECT|OBJECT]->(s)
  WHERE {FACT_VISIBLE}
  RETURN f, 1 AS hop
  UNION
  MATCH (f1:Fact)-[:SUBJECT|OBJECT]->(s)
  WHERE f1.group_id = $group_id AND f1.expired_at IS NULL
  MATCH (f1)-[:SUBJECT|OBJECT]->(o:Entity)<-[:SUBJECT|OBJECT]-(f:Fact)
  WHERE o <> s AND f <> f1 AND {FACT_VISIBLE}
  RETURN f, 2 AS hop
  LIMIT 200
}}
WITH f, min(hop) AS hop, count(*) AS paths
OPTIONAL MATCH (f)-[ev:EVIDENCED_BY]->()
WITH f, hop, paths, count(ev) AS evidence
RETURN f.id AS id, (1.0 / hop) * (1.0 + log(1.0 + evidence)) * (1.0 + 0.1 * paths) AS score
ORDER BY score DESC LIMIT $limit
"""

GRAPH_EPISODES = f"""
UNWIND $seeds AS sid
MATCH (e:Episode)-[:MENTIONS]->(s:Entity {{id: sid}})
WHERE {EPISODE_VISIBLE}
WITH e, count(DISTINCT s) AS seeds
RETURN e.id AS id, toFloat(seeds) AS score
ORDER BY score DESC, e.reference_time DESC LIMIT $limit
"""

# The hits' records in one round trip, re-checked against the time view: a candidate that has since
# been superseded, retracted or deleted (the tenant index can be behind on those) drops out here.
HYDRATE = f"""
CALL () {{
  CALL () {{
    UNWIND $fact_ids AS fid
    MATCH (f:Fact {{id: fid}})
    WHERE {FACT_VISIBLE}
    WITH f
    {fact_projection(micros)}
  }}
  RETURN collect({{fact: fact, object: object, evidence: evidence, supersedes: supersedes,
                   superseded_by: superseded_by}}) AS facts
}}
CALL () {{
  UNWIND $episode_ids AS eid
  MATCH (e:Episode {{id: eid}})
  WHERE {EPISODE_VISIBLE}
  RETURN collect(e {{.id, .external_id, .session_id, .speaker, .content, .source, .content_hash,
                     reference_time: {micros("e.reference_time")},
                     ingested_at: {micros("e.ingested_at")}}}) AS episodes
}}
CALL () {{
  UNWIND $entity_ids AS xid
  MATCH (x:Entity {{id: xid}})
  WHERE x.group_id = $group_id
  RETURN collect(x {{.id, .name, .kind, .aliases, .summary}}) AS entities
}}
RETURN facts, episodes, entities
"""

TOUCH = """
UNWIND $ids AS nid
MATCH (n {id: nid})
WHERE n.group_id = $group_id AND (n:Fact OR n:Episode)
SET n.access_count = coalesce(n.access_count, 0) + 1, n.last_access_at = $now
"""

# The tenant's counters and the label totals (count store, constant time) in one round trip.
SIZES = """
CALL () { MATCH (n:Episode) RETURN count(n) AS all_episodes }
CALL () { MATCH (n:Fact) RETURN count(n) AS all_facts }
CALL () { MATCH (n:Entity) RETURN count(n) AS all_entities }
OPTIONAL MATCH (g:Group {id: $group_id})
RETURN coalesce(g.episodes, 0) AS episodes, coalesce(g.facts, 0) AS facts,
       coalesce(g.entities, 0) AS entities, all_episodes, all_facts, all_entities
"""

BM25_EPISODE_CANDIDATES = f"""
CALL db.index.fulltext.queryNodes('episode_text', $lucene, {{limit: $limit}}) YIELD node AS e, score
WHERE {EPISODE_VISIBLE}
RETURN e.id AS id, score, e.search_text AS text
"""

# In-group document frequency of each term (counted up to $cap), for tenant-local BM25 statistics:
# Lucene's own IDF is computed over every tenant in the index.
TERM_DF = """
UNWIND $terms AS t
CALL (t) {
  CALL db.index.fulltext.queryNodes('episode_text', '+group_token:' + $token + ' +search_text:' + t,
                                    {limit: $cap}) YIELD node
  RETURN count(node) AS df
}
RETURN t AS term, df
"""
