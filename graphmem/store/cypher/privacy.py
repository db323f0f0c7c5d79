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
