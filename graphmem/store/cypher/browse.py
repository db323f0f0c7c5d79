"""Browsing queries for the explorer and agents: which groups exist, a session's turns in order."""

GROUP_IDS = """
MATCH (g:Group)
WHERE ($group_ids IS NULL OR g.id IN $group_ids) AND ($after IS NULL OR g.id > $after)
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

# A page of a group's sessions in session-id order, after $after (the previous page's last id):
# the distinct ids come off the (group_id, session_id) index in order, then each session is counted.
SESSIONS_PAGE = """
MATCH (e:Episode {group_id: $group_id})
WHERE e.session_id > $after
WITH DISTINCT e.session_id AS session_id
ORDER BY session_id LIMIT $limit
CALL (session_id) {
  MATCH (x:Episode {group_id: $group_id, session_id: session_id})
  RETURN count(x) AS episodes, min(x.reference_time) AS first_at, max(x.reference_time) AS last_at
}
CALL (session_id) {
  MATCH (f:Fact {group_id: $group_id})-[:EVIDENCED_BY]->(x:Episode {group_id: $group_id, session_id: session_id})
  RETURN count(DISTINCT f) AS facts
}
RETURN session_id, episodes, facts, first_at, last_at
ORDER BY session_id
"""

_EPISODE_FIELDS = """e {.id, .group_id, .external_id, .session_id, .source, .speaker, .content, .reference_time,
          .ingested_at, .content_hash}"""


def _episodes_page(descending: bool) -> str:
    """A page of a group's episodes by (reference_time, id), ascending or descending, after the
    keyset ($after_time, $after_id) of the previous page; $lo <= reference_time < $hi always holds
    a range, so the (group_id, reference_time) index seeks it (and gives the order)."""
    way, beyond = (" DESC", "<") if descending else ("", ">")
    return f"""
MATCH (e:Episode {{group_id: $group_id}})
WHERE e.reference_time >= $lo AND e.reference_time < $hi
  AND ($session_id IS NULL OR e.session_id = $session_id)
  AND ($speaker IS NULL OR e.speaker = $speaker)
  AND ($after_time IS NULL OR e.reference_time {beyond} $after_time
       OR (e.reference_time = $after_time AND e.id {beyond} $after_id))
WITH e ORDER BY e.reference_time{way}, e.id{way} LIMIT $limit
OPTIONAL MATCH (f:Fact {{group_id: $group_id}})-[:EVIDENCED_BY]->(e)
WITH e, collect(f.id) AS fact_ids
RETURN {_EPISODE_FIELDS} AS episode, fact_ids
ORDER BY e.reference_time{way}, e.id{way}
"""


EPISODES_PAGE_ASC = _episodes_page(descending=False)
EPISODES_PAGE_DESC = _episodes_page(descending=True)

# What a session digest is made of: the session's size and times, and each of its episodes that is
# evidence for current facts, with those facts' ids (the digest keeps the most productive turns).
SESSION_FACT_TURNS = """
MATCH (e:Episode {group_id: $group_id, session_id: $session_id})
OPTIONAL MATCH (f:Fact {group_id: $group_id})-[:EVIDENCED_BY]->(e)
WHERE f.valid_to IS NULL AND f.expired_at IS NULL AND coalesce(f.status, 'active') = 'active'
WITH e, collect(f.id) AS fact_ids
WITH count(e) AS episodes, min(e.reference_time) AS first_at, max(e.reference_time) AS last_at,
     collect(CASE WHEN size(fact_ids) > 0 THEN {id: e.id, fact_ids: fact_ids} END) AS producing
RETURN episodes, first_at, last_at, producing
"""

EPISODES_BY_IDS = f"""
MATCH (e:Episode {{group_id: $group_id}}) WHERE e.id IN $ids
RETURN {_EPISODE_FIELDS} AS episode
ORDER BY e.reference_time, e.id
"""
