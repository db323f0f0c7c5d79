"""Entity-centred search (``graphmem.retrieval.focus``): what the executor reads of the candidates when
the Neo4j source answered (the tenant index holds the same in its own-words field and fact postings).
"""

# Each candidate's own words (``tenant_index.fields.split_fields`` reads them the same way) and each
# candidate fact's analysed statement; ids outside the group are left out.
FOCUS_TEXTS = """
CALL () {
  UNWIND $episode_ids AS eid
  MATCH (e:Episode {id: eid})
  WHERE e.group_id = $group_id
  RETURN 'episode' AS type, e.id AS id, e.search_text AS search_text, e.speaker_terms AS speaker_terms,
         e.terms AS terms
  UNION ALL
  UNWIND $fact_ids AS fid
  MATCH (f:Fact {id: fid})
  WHERE f.group_id = $group_id
  RETURN 'fact' AS type, f.id AS id, f.search_text AS search_text, null AS speaker_terms, null AS terms
}
RETURN type, id, search_text, speaker_terms, terms
"""
