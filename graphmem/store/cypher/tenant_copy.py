"""Cypher for copies of a group, made inside Neo4j (``graphmem eval tenants``' bulk seeding).

A copy's nodes take every property of the template's (embeddings included, so vectors never
travel), then the properties a copy must not share (``id``, ``group_id``, ``group_token`` and the
keys derived from them) from ``$rows``; relationships follow by the new ids. Labels never travel as
parameters: each query is chosen from the tables below.
"""

_LABELS = ("Episode", "Fact", "Entity")

# The template's nodes: what a copy rewrites (ids, derived keys) and its relationships.
TEMPLATE_NODES = {
    "Episode": "MATCH (n:Episode {group_id: $group_id}) RETURN n.id AS id, n.key AS key",
    "Fact": """
MATCH (n:Fact {group_id: $group_id})
RETURN n.id AS id, n.subject_id AS subject_id, n.object_id AS object_id, n.predicate AS predicate,
       n.value AS value, n.qualifier AS qualifier, n.claims AS claims
""",
    "Entity": "MATCH (n:Entity {group_id: $group_id}) RETURN n.id AS id, n.normalized_name AS normalized_name",
}

# Relationship types by (start label, end label): the ones a group's nodes hold among themselves.
RELATIONSHIPS = (
    ("Fact", "SUBJECT", "Entity"),
    ("Fact", "OBJECT", "Entity"),
    ("Fact", "EVIDENCED_BY", "Episode"),
    ("Fact", "SUPERSEDES", "Fact"),
    ("Episode", "MENTIONS", "Entity"),
    ("Episode", "NEXT", "Episode"),
)

TEMPLATE_RELATIONSHIPS = {
    rel: f"""
MATCH (a:{start} {{group_id: $group_id}})-[r:{rel}]->(b:{end} {{group_id: $group_id}})
RETURN a.id AS a, b.id AS b, properties(r) AS props
"""
    for start, rel, end in RELATIONSHIPS
}

# What a copy sets itself, by label (the rest is the template's; a uniqueness constraint is checked
# as each SET runs, so the node is written once, from the template's map with these replaced).
OWN_PROPERTIES = {
    "Episode": ("id", "group_id", "group_token", "key"),
    "Fact": ("id", "group_id", "group_token", "subject_id", "object_id", "slot", "claims"),
    "Entity": ("id", "group_id", "group_token", "normalized_name"),
}

COPY_NODES = {
    label: f"""
UNWIND $rows AS r
MATCH (src:{label} {{id: r.src}})
CREATE (n:{label})
SET n = src {{.*, {", ".join(f"{k}: r.set.{k}" for k in own)}}}
FOREACH (_ IN CASE WHEN src:Aliased THEN [1] ELSE [] END | SET n:Aliased)
RETURN count(n) AS n
"""
    for label, own in OWN_PROPERTIES.items()
}

COPY_RELATIONSHIPS = {
    rel: f"""
UNWIND $rows AS r
MATCH (a:{start} {{id: r.a}})
MATCH (b:{end} {{id: r.b}})
CREATE (a)-[x:{rel}]->(b)
SET x = r.props
RETURN count(x) AS n
"""
    for start, rel, end in RELATIONSHIPS
}

# The copies' Group nodes: the template's properties, their own id, counters and creation time.
COPY_GROUPS = """
UNWIND $groups AS r
MATCH (t:Group {id: r.template})
CREATE (g:Group)
SET g = t {.*, id: r.id, episodes: r.episodes, facts: r.facts, entities: r.entities,
           created_at: datetime(), updated_at: datetime()}
RETURN count(g) AS n
"""

# Deleting copies: a batch of each label's nodes of the groups at a time (group-scoped index seeks).
DELETE_BATCH = {
    "Episode": "MATCH (n:Episode {group_id: gid}) WHERE n.reference_time IS NOT NULL",
    "Fact": "MATCH (n:Fact {group_id: gid}) WHERE n.slot IS NOT NULL",
    "Entity": "MATCH (n:Entity {group_id: gid})",
}
DELETE_NODES = {
    label: f"""
UNWIND $groups AS gid
CALL (gid) {{
  {scan}
  RETURN n LIMIT $limit
}}
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS n
"""
    for label, scan in DELETE_BATCH.items()
}
DELETE_GROUPS = """
UNWIND $groups AS gid
MATCH (g:Group {id: gid})
DELETE g
RETURN count(*) AS n
"""
