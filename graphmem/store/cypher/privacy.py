"""Cypher for the PII vault (``:PiiVault``, docs/schema.md) and the texts forget scans for tokens.

A vault entry is one token of one group: ``key`` (sha256 of group and token, unique), ``group_id``,
``token``, ``kind``, ``nonce`` and ``ciphertext`` (AES-GCM, base64), ``created_at``. The first
spelling of a value written is the one kept (MERGE ... ON CREATE).
"""

VAULT_WRITE = """
UNWIND $rows AS r
MERGE (v:PiiVault {key: r.key})
ON CREATE SET v.group_id = $group_id, v.token = r.token, v.kind = r.kind, v.nonce = r.nonce,
              v.ciphertext = r.ciphertext, v.created_at = $now
RETURN count(v) AS written
"""

VAULT_GET = """
MATCH (v:PiiVault {key: $key})
WHERE v.group_id = $group_id
RETURN v.token AS token, v.kind AS kind, v.nonce AS nonce, v.ciphertext AS ciphertext,
       v.created_at AS created_at
"""

VAULT_TOKENS = """
MATCH (v:PiiVault {group_id: $group_id})
WHERE $tokens IS NULL OR v.token IN $tokens
RETURN v.token AS token ORDER BY token
"""

# Whether the group has a vault at all (forget skips its token bookkeeping when not).
VAULT_ANY = """
MATCH (v:PiiVault {group_id: $group_id})
WHERE v.token IS NOT NULL
RETURN v.token AS token LIMIT 1
"""

VAULT_DELETE_GROUP = """
MATCH (v:PiiVault {group_id: $group_id})
DETACH DELETE v
RETURN count(*) AS deleted
"""

# The entries among ``$tokens`` no episode, fact or entity of the group still names.
VAULT_COLLECT = """
UNWIND $tokens AS t
MATCH (v:PiiVault {group_id: $group_id, token: t})
WHERE NOT EXISTS {
        MATCH (e:Episode {group_id: $group_id})
        WHERE e.content CONTAINS t OR coalesce(e.speaker, '') CONTAINS t }
  AND NOT EXISTS {
        MATCH (f:Fact {group_id: $group_id})
        WHERE f.statement CONTAINS t OR coalesce(f.value, '') CONTAINS t }
  AND NOT EXISTS {
        MATCH (n:Entity {group_id: $group_id})
        WHERE n.name CONTAINS t OR any(a IN coalesce(n.aliases, []) WHERE a CONTAINS t) }
DETACH DELETE v
RETURN count(*) AS deleted
"""

# What a forget may remove, read before it does: episodes' text, the slots' facts, entities' names.
TEXTS = """
CALL () {
  UNWIND $episode_ids AS eid
  MATCH (e:Episode {id: eid})
  WHERE e.group_id = $group_id
  RETURN [e.content, coalesce(e.speaker, '')] AS texts
  UNION ALL
  UNWIND $slots AS s
  MATCH (f:Fact {group_id: $group_id, slot: s})
  RETURN [f.statement, coalesce(f.value, '')] AS texts
  UNION ALL
  UNWIND $entity_ids AS nid
  MATCH (n:Entity {id: nid})
  WHERE n.group_id = $group_id
  RETURN [n.name] + coalesce(n.aliases, []) AS texts
}
UNWIND texts AS text
RETURN collect(DISTINCT text) AS texts
"""

# --- proof of forgetting (graphmem/memory/lifecycle/proof.py) -------------------------------------

# The group's content nodes (counts, and up to 100 ids of each), or only the episodes of one
# external id, and its tombstones.
PROOF_GRAPH = """
CALL () {
  MATCH (n:Episode {group_id: $group_id})
  WHERE n.reference_time IS NOT NULL AND ($external_id IS NULL OR n.external_id = $external_id)
  RETURN count(n) AS n_episodes, collect(n.id)[..100] AS episodes }
CALL () {
  MATCH (n:Fact {group_id: $group_id}) WHERE $external_id IS NULL AND n.slot IS NOT NULL
  RETURN count(n) AS n_facts, collect(n.id)[..100] AS facts }
CALL () {
  MATCH (n:Entity {group_id: $group_id}) WHERE $external_id IS NULL
  RETURN count(n) AS n_entities, collect(n.id)[..100] AS entities }
CALL () {
  MATCH (t:Tombstone {group_id: $group_id}) WHERE $key IS NULL OR t.key = $key
  RETURN count(t) AS tombstones }
RETURN n_episodes, episodes, n_facts, facts, n_entities, entities, tombstones
"""

# Nodes of the group whose text holds one of the probes (exact substring).
PROOF_TEXT = """
UNWIND $probes AS p
CALL (p) {
  MATCH (n:Episode {group_id: $group_id}) WHERE n.content CONTAINS p RETURN n.id AS id
  UNION
  MATCH (n:Fact {group_id: $group_id}) WHERE n.statement CONTAINS p OR coalesce(n.value, '') CONTAINS p
  RETURN n.id AS id
  UNION
  MATCH (n:Entity {group_id: $group_id}) WHERE n.name CONTAINS p RETURN n.id AS id
}
RETURN collect(DISTINCT id) AS ids
"""

# Full-text hits of the group in one index (``$lucene`` is Lucene, escaped by the caller).
PROOF_FULLTEXT = """
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $limit}) YIELD node
WHERE node.group_id = $group_id
RETURN node.id AS id, coalesce(node.content, node.statement, node.name, '') AS text
"""

# The group's nodes that carry an embedding (what the vector indexes hold for it).
PROOF_EMBEDDED = """
MATCH (n) WHERE n.group_id = $group_id AND (n:Episode OR n:Fact OR n:Entity) AND n.embedding IS NOT NULL
RETURN count(n) AS embedded
"""

# Nearest neighbours of a vector in one index that belong to the group and are near-identical.
PROOF_VECTOR = """
CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score
WHERE node.group_id = $group_id AND score >= $min_score
RETURN node.id AS id
"""

# Change records of the group still holding content: any payload (a group), or a payload naming
# the external id or a probe. Forget, import and reveal records carry no content (hashes, counts,
# labels, tokens).
PROOF_CHANGES = """
MATCH (c:Change {group_id: $group_id})
WHERE c.payload IS NOT NULL AND NOT c.kind IN ['forget', 'import', 'pii_revealed']
  AND (($external_id IS NULL AND size($probes) = 0)
       OR ($external_id IS NOT NULL AND c.payload CONTAINS $external_id)
       OR any(p IN $probes WHERE c.payload CONTAINS p))
RETURN collect(c.id) AS ids
"""

# Vault entries (of ``$tokens``, or all) that no remaining text of the group names.
PROOF_VAULT = """
MATCH (v:PiiVault {group_id: $group_id})
WHERE $tokens IS NULL OR v.token IN $tokens
WITH v, v.token AS t
RETURN v.token AS token,
       EXISTS { MATCH (e:Episode {group_id: $group_id})
                WHERE e.content CONTAINS t OR coalesce(e.speaker, '') CONTAINS t }
       OR EXISTS { MATCH (f:Fact {group_id: $group_id})
                   WHERE f.statement CONTAINS t OR coalesce(f.value, '') CONTAINS t }
       OR EXISTS { MATCH (n:Entity {group_id: $group_id}) WHERE n.name CONTAINS t } AS named
"""
