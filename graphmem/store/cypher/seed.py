"""Cypher that checks seeded tenants against ingested ones (``eval.tenants_seed``'s tests): the
shape of a group's nodes, relationships and Group node, without their values."""

# Each Episode, Fact and Entity of the group: its labels and property names (group-scoped seeks).
GROUP_NODE_SHAPES = """
CALL () {
  MATCH (n:Episode {group_id: $group_id}) RETURN n
  UNION ALL
  MATCH (n:Fact {group_id: $group_id}) RETURN n
  UNION ALL
  MATCH (n:Entity {group_id: $group_id}) RETURN n
}
RETURN labels(n) AS labels, keys(n) AS keys, valueType(n.embedding) AS embedding
"""

# The relationships among the group's nodes: type, end labels and property names.
GROUP_RELATIONSHIP_SHAPES = """
CALL () {
  MATCH (a:Episode {group_id: $group_id}) RETURN a
  UNION ALL
  MATCH (a:Fact {group_id: $group_id}) RETURN a
}
MATCH (a)-[r]->(b)
WHERE b.group_id = $group_id
RETURN type(r) AS type, labels(a) AS start, labels(b) AS end, keys(r) AS keys
"""

GROUP_NODE_KEYS = "MATCH (g:Group {id: $group_id}) RETURN keys(g) AS keys"
