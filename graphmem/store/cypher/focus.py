"""Entity-centred search (``graphmem.retrieval.focus``): what the executor reads of the candidates when
the Neo4j source answered (the tenant index holds the same as speaker codes: ``tenant_index.fields.Speakers``).
"""

# Each candidate episode's analysed speaker terms; ids outside the group are left out.
FOCUS_SPEAKERS = """
UNWIND $episode_ids AS eid
MATCH (e:Episode {id: eid})
WHERE e.group_id = $group_id
RETURN e.id AS id, e.speaker_terms AS speaker_terms
"""
