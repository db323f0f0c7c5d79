"""Cypher for the retrieval channels. Group and time filters run inside Neo4j."""

import re

from graphmem.store.cypher.reads import fact_projection


def micros(expr: str) -> str:
    """A datetime as microseconds since the epoch (null stays null): the driver decodes a DateTime
    in about 0.2 ms of Python, an integer in next to nothing, and a hydration reads ~30 of them."""
    return f"{expr}.epochSeconds * 1000000 + {expr}.microsecond"


# Time filters: $as_of (valid time, null = now), $history (include superseded/ended facts) and the
# range [$since, $until) (null = open) that a fact's valid interval or an episode's reference time
# must meet; with a range and no $as_of, facts true at some time in it show, ended ones included.
# The numpy twin is ``TenantIndex._mask`` (graphmem/retrieval/tenant_index/index.py);
# tests/integration/test_view_rules.py runs one table of cases through both.
HOP2_LIMIT = 200  # 2-hop facts per seed entity, here and in tenant_index/graph.py

FACT_VISIBLE = """
  f.group_id = $group_id AND f.expired_at IS NULL
  AND ($since IS NULL OR f.valid_to IS NULL OR f.valid_to > $since)
  AND ($until IS NULL OR f.valid_from IS NULL OR f.valid_from < $until)
  AND ($history OR coalesce(f.status, 'active') = 'active')
  AND ($history OR (
        CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL OR $since IS NOT NULL OR $until IS NOT NULL
             ELSE (f.valid_from IS NULL OR f.valid_from <= $as_of)
                  AND (f.valid_to IS NULL OR f.valid_to > $as_of) END))
"""

EPISODE_VISIBLE = """e.group_id = $group_id AND ($as_of IS NULL OR e.reference_time <= $as_of)
  AND ($since IS NULL OR e.reference_time >= $since) AND ($until IS NULL OR e.reference_time < $until)"""

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
RETURN e.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""

# Exact scoring over the tenant. ``reference_time``/``recorded_at`` are always set; saying so lets the
# planner seek the (group_id, ...) composite index instead of scanning every tenant's nodes.
VECTOR_EPISODES_EXACT = f"""
MATCH (e:Episode {{group_id: $group_id}})
WHERE e.reference_time IS NOT NULL AND {EPISODE_VISIBLE}
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
RETURN e.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""

VECTOR_FACTS_ANN = f"""
CALL db.index.vector.queryNodes('fact_embedding', $fetch, $vector) YIELD node AS f, score
WHERE {FACT_VISIBLE}
RETURN f.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""

VECTOR_FACTS_EXACT = f"""
MATCH (f:Fact {{group_id: $group_id}})
WHERE f.recorded_at IS NOT NULL AND {FACT_VISIBLE}
WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
RETURN f.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""

VECTOR_ENTITIES_EXACT = """
MATCH (x:Entity {group_id: $group_id})
WITH x, vector.similarity.cosine(x.embedding, $vector) AS score
RETURN x.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""

VECTOR_ENTITIES_ANN = """
CALL db.index.vector.queryNodes('entity_embedding', $fetch, $vector) YIELD node AS x, score
WHERE x.group_id = $group_id
RETURN x.id AS id, score ORDER BY score DESC, id LIMIT $limit
"""

ENTITIES_BY_KEYS = """
UNWIND $keys AS k
MATCH (x:Entity {group_id: $group_id, normalized_name: k})
RETURN x.id AS id
"""

# Graph channel: seeds -> facts about them (1 hop) -> entities they point to -> their facts (2 hops);
# episodes mentioning a seed. Score by distance and evidence count; ties by id. The numpy twin is
# graphmem/retrieval/tenant_index/graph.py (the same score, HOP2_LIMIT 2-hop facts per seed).
GRAPH_EXPAND = f"""
UNWIND $seeds AS sid
MATCH (s:Entity {{id: sid}})
WHERE s.group_id = $group_id
CALL (s) {{
  MATCH (f:Fact)-[:SUBJECT|OBJECT]->(s)
  WHERE {FACT_VISIBLE}
  RETURN DISTINCT f, 1 AS hop
  UNION
  CALL (s) {{
    MATCH (f1:Fact)-[:SUBJECT|OBJECT]->(s)
    WHERE f1.group_id = $group_id AND f1.expired_at IS NULL
    MATCH (f1)-[:SUBJECT|OBJECT]->(o:Entity)<-[:SUBJECT|OBJECT]-(f:Fact)
    WHERE o <> s AND f <> f1 AND {FACT_VISIBLE}
    RETURN DISTINCT f
    LIMIT {HOP2_LIMIT}
  }}
  RETURN f, 2 AS hop
}}
WITH f, min(hop) AS hop, count(*) AS paths
WITH f, hop, paths, COUNT {{ (f)-[:EVIDENCED_BY]->(:Episode) }} AS evidence
RETURN f.id AS id, (1.0 / hop) * (1.0 + log(1.0 + evidence)) * (1.0 + 0.1 * paths) AS score
ORDER BY score DESC, id LIMIT $limit
"""

GRAPH_EPISODES = f"""
UNWIND $seeds AS sid
MATCH (e:Episode)-[:MENTIONS]->(s:Entity {{id: sid}})
WHERE {EPISODE_VISIBLE}
WITH e, count(DISTINCT s) AS seeds
RETURN e.id AS id, toFloat(seeds) AS score
ORDER BY score DESC, e.reference_time DESC, id LIMIT $limit
"""

# The evidence channel (graphmem.retrieval.pipeline): each fact's evidence episodes in the view.
FACT_EVIDENCE = f"""
UNWIND $fact_ids AS fid
MATCH (f:Fact {{id: fid}})-[:EVIDENCED_BY]->(e:Episode)
WHERE f.group_id = $group_id AND {EPISODE_VISIBLE}
RETURN fid AS id, collect(DISTINCT e.id) AS episodes
"""

VIEW_PARAMS = ("as_of", "history", "since", "until")


def view_in_map(text: str) -> str:
    """``text`` (a statement written with the time view's ``$as_of``, ``$history``, ``$since`` and
    ``$until``) reading them from one map parameter, ``$view``."""
    return re.sub(r"\$(" + "|".join(VIEW_PARAMS) + r")\b", r"$view.\1", text)


# The hits' records in one round trip, re-checked against the time view: a candidate that has since
# been superseded, retracted or deleted (the tenant index can be behind on those) drops out here.
# HYDRATE and TOUCH run on every search and keep their first plan (``CYPHER replan=skip``, as the
# ingest write does: graphmem/store/cypher/ingest.py): both start from unique ids, so the statistics
# a growing store drifts through cannot make a better plan, and each replan cost Neo4j CPU and JIT work.
# HYDRATE's ids and time view travel as two maps (``$ids``: fact, episode, entity lists; ``$view``):
# Neo4j 5 caches a plan per statement text and parameter types, a list's or string's type carrying
# a size bucket (1, 2-10, 11-100, 101-1,000 items) and a null another type than a datetime, while a
# map is one type whatever it holds. With three lists and four view values as parameters, each new
# combination of list sizes and views (a hit list without entities, a dated search) was planned
# again, about 0.7-0.9 s of Neo4j CPU for this statement on the shared dev VM: a fresh database's
# first searches paid it in their ``hydrate`` stage (issue 22). As maps it is planned once per
# group id size bucket (``TenantIndexes.warm_up`` plans those before a worker serves).
HYDRATE = "CYPHER replan=skip\n" + view_in_map(f"""CALL () {{
  CALL () {{
    UNWIND $ids.fact AS fid
    MATCH (f:Fact {{id: fid}})
    WHERE {FACT_VISIBLE}
    WITH f
    {fact_projection(micros)}
  }}
  RETURN collect({{fact: fact, object: object, evidence: evidence, supersedes: supersedes,
                   superseded_by: superseded_by}}) AS facts
}}
CALL () {{
  UNWIND $ids.episode AS eid
  MATCH (e:Episode {{id: eid}})
  WHERE {EPISODE_VISIBLE}
  RETURN collect(e {{.id, .external_id, .session_id, .speaker, .content, .source, .content_hash,
                     reference_time: {micros("e.reference_time")},
                     ingested_at: {micros("e.ingested_at")}}}) AS episodes
}}
CALL () {{
  UNWIND $ids.entity AS xid
  MATCH (x:Entity {{id: xid}})
  WHERE x.group_id = $group_id
  RETURN collect(x {{.id, .name, .kind, .aliases, .summary}}) AS entities
}}
RETURN facts, episodes, entities
""")

# TOUCH's ids travel in a map (``$touch.ids``) for the same reason as HYDRATE's: as a list each size
# bucket (1, 2-10, 11-100 hits) was planned again on a fresh database.
TOUCH = """CYPHER replan=skip
UNWIND $touch.ids AS nid
MATCH (n {id: nid})
WHERE n.group_id = $group_id AND (n:Fact OR n:Episode)
SET n.access_count = coalesce(n.access_count, 0) + 1, n.last_access_at = $now
"""

# The tenant's counters and revision state, and the label totals (count store, constant time), in
# one round trip.
SIZES = f"""
CALL () {{ MATCH (n:Episode) RETURN count(n) AS all_episodes }}
CALL () {{ MATCH (n:Fact) RETURN count(n) AS all_facts }}
CALL () {{ MATCH (n:Entity) RETURN count(n) AS all_entities }}
OPTIONAL MATCH (g:Group {{id: $group_id}})
RETURN coalesce(g.episodes, 0) AS episodes, coalesce(g.facts, 0) AS facts,
       coalesce(g.entities, 0) AS entities, all_episodes, all_facts, all_entities,
       coalesce(g.lock_seq, 0) AS seq, coalesce(g.reset_seq, 0) AS reset_seq,
       {micros("g.created_at")} AS created_at, g.bm25_stats AS bm25_stats,
       g.bm25_field_stats AS bm25_field_stats
"""

# The BM25 statistics a search counted, saved on the Group node for the revision state they hold
# for (``$value``: JSON with that state as its key); written only while the state is still that one.
_SAVE_STATS = """
MATCH (g:Group {{id: $group_id}})
WHERE coalesce(g.lock_seq, 0) = $seq AND coalesce(g.reset_seq, 0) = $reset_seq
  AND coalesce({created}, -1) = $created_at
SET g.{prop} = $value
"""
SAVE_STATS = {
    kind: _SAVE_STATS.format(created=micros("g.created_at"), prop=prop)
    for kind, prop in (("labels", "bm25_stats"), ("fields", "bm25_field_stats"))
}

# The lexical source of the Neo4j path: the tenant's documents matching any query term (Lucene
# finds them; its scores are not used), each with its analysed text and whether the time view
# shows it. ``retrieval.sources`` counts each query term in the text (in Python: splitting and
# counting 2,000 texts in Cypher's interpreted lists took most of a cold search's second at 20k
# nodes) and ranks them with the tenant's own statistics (LEXICAL_STATS), as the tenant index does.
_INDEX_OF = {"episode": ("episode_text", "e"), "fact": ("fact_text", "f"), "entity": ("entity_text", "x")}
_VISIBLE_OF = {"episode": EPISODE_VISIBLE, "fact": FACT_VISIBLE, "entity": "true"}
LEXICAL_MATCHES = {
    target: f"""
CALL db.index.fulltext.queryNodes('{index}', $lucene, {{limit: $limit}}) YIELD node AS {v}
WHERE {v}.group_id = $group_id
RETURN {v}.id AS id, coalesce({v}.search_text, '') AS text, {_VISIBLE_OF[target]} AS visible
"""
    for target, (index, v) in _INDEX_OF.items()
}

# Per label: the tenant's nodes and their analysed terms in all (BM25's N and average length), over
# the nodes a tenant index loads (``snapshot``'s group scans, which seek the composite indexes).
_TERMS = "[w IN split(coalesce(n.search_text, ''), ' ') WHERE w <> '']"
LEXICAL_STATS = f"""
CALL () {{
  MATCH (n:Episode {{group_id: $group_id}}) WHERE n.reference_time IS NOT NULL
  RETURN count(n) AS episodes, sum(size({_TERMS})) AS episode_terms
}}
CALL () {{
  MATCH (n:Fact {{group_id: $group_id}}) WHERE n.slot IS NOT NULL
  RETURN count(n) AS facts, sum(size({_TERMS})) AS fact_terms
}}
CALL () {{
  MATCH (n:Entity {{group_id: $group_id}})
  RETURN count(n) AS entities, sum(size({_TERMS})) AS entity_terms
}}
RETURN episodes, episode_terms, facts, fact_terms, entities, entity_terms
"""

# Episodes as the tenant index's fields (graphmem/retrieval/tenant_index/fields.py): ``own`` (the
# speaker's and the turn's terms, the prefix of search_text), ``context`` (the rest) and ``facts``
# (the terms of the live facts it evidences), for a recipe that weighs them (field_weights).
_EPISODE_FIELDS = """
WITH e, [w IN split(coalesce(e.search_text, ''), ' ') WHERE w <> ''] AS words,
     [w IN split(coalesce(e.speaker_terms, '') + ' ' + coalesce(e.terms, ''), ' ') WHERE w <> ''] AS own0
WITH e, words, own0, e.terms IS NOT NULL AND words[0..size(own0)] = own0 AS split_ok
WITH e, CASE WHEN split_ok THEN own0 ELSE words END AS own,
     CASE WHEN split_ok THEN words[size(own0)..] ELSE [] END AS context,
     reduce(acc = [], text IN COLLECT {
       MATCH (f:Fact)-[:EVIDENCED_BY]->(e)
       WHERE f.slot IS NOT NULL AND f.expired_at IS NULL AND coalesce(f.status, 'active') = 'active'
       WITH DISTINCT f
       RETURN coalesce(f.search_text, '')
     } | acc + [w IN split(text, ' ') WHERE w <> '']) AS facts
"""

# Episodes matching $lucene in their own text or their live facts', with what their fields are made
# of (``tenant_index.fields.split_fields`` splits own and context in Python, for both sources).
EPISODE_FIELD_MATCHES = f"""
CALL () {{
  CALL db.index.fulltext.queryNodes('episode_text', $lucene, {{limit: $limit}}) YIELD node AS e
  WHERE e.group_id = $group_id
  RETURN e
  UNION
  CALL db.index.fulltext.queryNodes('fact_text', $lucene, {{limit: $limit}}) YIELD node AS f
  WHERE f.group_id = $group_id AND f.expired_at IS NULL AND coalesce(f.status, 'active') = 'active'
  MATCH (f)-[:EVIDENCED_BY]->(e:Episode)
  RETURN e
}}
WITH e WHERE e.reference_time IS NOT NULL
RETURN e.id AS id, {EPISODE_VISIBLE} AS visible, e.search_text AS search_text,
       e.speaker_terms AS speaker_terms, e.terms AS terms,
       COLLECT {{
         MATCH (f:Fact)-[:EVIDENCED_BY]->(e)
         WHERE f.slot IS NOT NULL AND f.expired_at IS NULL AND coalesce(f.status, 'active') = 'active'
         WITH DISTINCT f
         RETURN coalesce(f.search_text, '')
       }} AS facts
"""

EPISODE_FIELD_STATS = f"""
MATCH (e:Episode {{group_id: $group_id}}) WHERE e.reference_time IS NOT NULL
{_EPISODE_FIELDS}
RETURN count(e) AS episodes, sum(size(own)) AS own, sum(size(context)) AS context, sum(size(facts)) AS facts
"""

# A term's document frequency in the tenant by label (Lucene's count, up to $cap), for a query whose
# matches outnumber what LEXICAL_MATCHES returns. $queries: [term, Lucene query] pairs.
TERM_COUNTS = {
    target: f"""
UNWIND $queries AS pair
CALL (pair) {{
  CALL db.index.fulltext.queryNodes('{index}', pair[1], {{limit: $cap}}) YIELD node
  WHERE node.group_id = $group_id
  RETURN count(node) AS df
}}
RETURN pair[0] AS term, df
"""
    for target, (index, _) in _INDEX_OF.items()
}

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
