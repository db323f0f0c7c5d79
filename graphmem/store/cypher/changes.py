"""Cypher for the change log (``:Change``, docs/schema.md).

Order: a record's ``seq`` is its transaction's ``Group.lock_seq`` (bumped under the group lock by
LOCK_GROUP / LOCK_EXISTING_GROUP), ``n`` its place in the transaction. APPEND reads the group's
last record through the (group_id, seq) index: a second append in the same transaction continues
its ``n``; a group re-created after a purge (its counter restarted) is moved past the last record,
and a record written after the Group node was deleted (forget_group) takes the next ``seq``.
"""

# The last record: the index gives (group_id, seq) in order only when ORDER BY names both columns,
# so the top seq costs one index entry; its transaction's records then give the top n. (ORDER BY
# c.seq DESC, c.n DESC sorted every record of the group, on every append.)
_LAST = """
CALL () {
  OPTIONAL MATCH (c:Change)
  USING INDEX c:Change(group_id, seq)
  WHERE c.group_id = $group_id AND c.seq >= 0
  WITH c ORDER BY c.group_id DESC, c.seq DESC LIMIT 1
  OPTIONAL MATCH (d:Change {group_id: $group_id, seq: c.seq})
  RETURN c.seq AS top, max(d.n) AS top_n
}
"""

# What APPEND does after matching the group ``g``, ending with the CREATE of the records; also
# run as one step of the ingest write (``cypher.ingest.WRITE_FACTS``, see ``append_records``).
_APPEND_BODY = (
    _LAST
    + """
WITH g, coalesce(top, 0) AS top, coalesce(top_n, -1) AS top_n, coalesce(g.lock_seq, 0) AS lock
WITH g, lock, top, top_n,
     CASE WHEN lock > top THEN lock WHEN lock = top THEN top ELSE top + 1 END AS seq
WITH g, lock, seq, CASE WHEN seq = top THEN top_n + 1 ELSE 0 END AS base
FOREACH (_ IN CASE WHEN g IS NOT NULL AND lock < seq THEN [1] ELSE [] END | SET g.lock_seq = seq)
WITH seq, base
UNWIND range(0, size($rows) - 1) AS i
WITH seq, base, i, $rows[i] AS r
CREATE (c:Change {
  id: r.id, group_id: $group_id, seq: seq, n: base + i, kind: r.kind, target_ids: r.target_ids,
  version_before: r.version_before, version_after: r.version_after, occurred_at: r.occurred_at,
  recorded_at: $now, actor: r.actor, actor_role: r.actor_role, requested_by: r.requested_by,
  reason: r.reason, consent_id: r.consent_id, source_episode_ids: r.source_episode_ids,
  valid_from: r.valid_from, valid_to: r.valid_to, content_hash: r.content_hash,
  payload: r.payload, payload_hash: r.payload_hash})
"""
)

APPEND = "OPTIONAL MATCH (g:Group {id: $group_id})\n" + _APPEND_BODY + "RETURN count(c) AS written\n"


def append_records(rows: str) -> str:
    """APPEND as a unit subquery over the records in the parameter ``rows`` (``"$change_rows"``),
    for another write query to end with; it does nothing when the list is empty."""
    body = _APPEND_BODY.replace("$rows", rows)
    return f"CALL () {{\n  WITH 1 AS one WHERE size({rows}) > 0\n  OPTIONAL MATCH (g:Group {{id: $group_id}})\n{body}}}\n"


# A page in log order after the cursor (seq, n); since/until bound recorded_at (system time).
PAGE = """
MATCH (c:Change {group_id: $group_id})
WHERE c.seq >= $seq AND (c.seq > $seq OR c.n > $n)
  AND ($since IS NULL OR c.recorded_at >= $since)
  AND ($until IS NULL OR c.recorded_at < $until)
  AND ($target IS NULL OR $target IN c.target_ids)
RETURN c {.*} AS change
ORDER BY c.seq, c.n
LIMIT $limit
"""

# Forget: the content goes from every record naming a forgotten id (as a target or a source
# episode); ids, kinds, times, hashes and the records themselves stay.
REDACT = """
MATCH (c:Change {group_id: $group_id})
WHERE c.payload IS NOT NULL
  AND ($ids IS NULL OR any(t IN c.target_ids WHERE t IN $ids)
       OR any(e IN c.source_episode_ids WHERE e IN $ids))
SET c.payload = null, c.redacted_at = $now
RETURN count(c) AS redacted
"""

# The facts of ``ids`` that ARCHIVE_FACTS archived at ``now`` (for their change records).
ARCHIVED_AT = """
UNWIND $ids AS fid
MATCH (f:Fact {id: fid, group_id: $group_id})
WHERE f.status = 'archived' AND f.archived_at = $now
RETURN f.id AS id, f.version AS version, f.statement AS statement
"""

# Replay: the stored episodes a log names (forgotten ones are simply missing).
EPISODES_FOR_REPLAY = """
UNWIND $ids AS eid
MATCH (e:Episode {id: eid})
WHERE e.group_id = $group_id
RETURN e.id AS id, e.external_id AS external_id, e.session_id AS session_id, e.source AS source,
       e.speaker AS speaker, e.content AS content, e.reference_time AS reference_time
"""

# Replay: give facts of the scratch group the ids derived from the live ones.
RENAME_FACTS = """
UNWIND $rows AS r
MATCH (f:Fact {id: r.old})
WHERE f.group_id = $group_id
SET f.id = r.new
RETURN count(f) AS renamed
"""
