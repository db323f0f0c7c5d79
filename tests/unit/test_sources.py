"""The candidate-source rules that must be defined once (graphmem/retrieval/sources.py, bm25.py):
rankings merged without overwrite, the one BM25 both sources score by, the Lucene query."""

from __future__ import annotations

from collections import Counter

import pytest

from graphmem.retrieval import bm25
from graphmem.retrieval.config import recipe
from graphmem.retrieval.sources import (
    GRAPH_SEEDS,
    ORDER,
    Probe,
    counted,
    decode_stats,
    encode_stats,
    episode_fields,
    lexical_rankings,
    lucene_query,
    merge,
    ordered,
    query_terms,
    seeds_of,
)
from graphmem.retrieval.tenant_index.fields import split_fields
from graphmem.retrieval.tenant_index.index import View
from graphmem.retrieval.tenant_index.lexical import Lexical

# (documents by slot, query terms): empty documents count in N and pull the average length down
CASES = [
    (["alic live berlin", "bob live pari", "berlin berlin wall", ""], ["berlin", "live"]),
    (["caroline support group", "caroline caroline", "caroline lgbtq", "group hike"], ["caroline", "group"]),
    (["上海 工作", "住在 上海 上海", "北京"], ["上海", "北京", "missing"]),
    (["a b c d e f g h", "a", "b b b b"], ["a", "b"]),
]


def _matches(docs: list[str], terms: list[str]) -> list[bm25.Match]:
    out = []
    for slot, text in enumerate(docs):
        bag = Counter(text.split())
        if any(bag[t] for t in terms):
            out.append(bm25.Match(str(slot), tuple(bag[t] for t in terms), len(text.split())))
    return out


@pytest.mark.parametrize(("docs", "terms"), CASES)
def test_the_neo4j_scorer_equals_the_tenant_index_postings(docs: list[str], terms: list[str]) -> None:
    """One BM25, two spellings: ``bm25.score`` over the matches Cypher returns (term frequencies,
    lengths) and ``Lexical.scores`` over the index's postings give the same scores, with the
    statistics over every document of the label (the empty ones too)."""
    lexical = Lexical()
    for slot, text in enumerate(docs):
        lexical.set(slot, text)
    dense = lexical.scores(terms)
    stats = bm25.Stats(len(docs), sum(len(d.split()) for d in docs))
    scored = dict(bm25.score(terms, _matches(docs, terms), stats))
    expected = {str(slot): float(s) for slot, s in enumerate(dense) if s > 0}
    assert scored.keys() == expected.keys()
    for key, value in expected.items():
        assert scored[key] == pytest.approx(value, rel=1e-5)


def test_invisible_matches_count_in_the_statistics_but_are_not_ranked() -> None:
    docs, terms = ["berlin", "berlin", "pari"], ["berlin"]
    matches = _matches(docs, terms)
    hidden = [matches[0], bm25.Match(matches[1].id, matches[1].tf, matches[1].length, visible=False)]
    stats = bm25.Stats(3, 3)
    assert [i for i, _ in bm25.score(terms, hidden, stats)] == ["0"]
    assert bm25.score(terms, hidden, stats)[0][1] == bm25.score(terms, matches, stats)[0][1]


def test_a_channel_ranked_twice_is_refused() -> None:
    """Regression (issue 16, one search engine): with the ``entities`` recipe the graph channel
    wrote its three seed entities under ``bm25:entity``, replacing the entity BM25 ranking or not
    depending on which coroutine finished last. Rankings are keyed by (channel, target) and merged;
    a second ranking of one channel is an error, never a silent overwrite."""
    rankings = {("bm25", "entity"): [("x1", 2.0), ("x2", 1.0)]}
    with pytest.raises(ValueError, match="bm25:entity"):
        merge(rankings, {("bm25", "entity"): [("x1", 2.0)]})
    merge(rankings, {("vector", "entity"): [("x2", 0.5)]})
    assert set(rankings) == {("bm25", "entity"), ("vector", "entity")}


def test_the_graph_seeds_come_from_the_full_entity_ranking() -> None:
    """The entities recipe shows the whole entity BM25 ranking; the graph takes its first seeds."""
    probe = Probe("g", ("ana", "porto"), View(), recipe("entities"))
    entity = [(f"x{i}", 10.0 - i) for i in range(8)]
    found = {"entity": entity, "fact": [("f1", 1.0)]}
    assert lexical_rankings(found, probe)[("bm25", "entity")] == entity
    assert seeds_of(entity) == [f"x{i}" for i in range(GRAPH_SEEDS)]
    assert probe.lexical_targets() == ["entity", "fact"] and probe.graph_targets() == ["fact"]


def test_the_default_recipe_ranks_entities_for_seeds_only() -> None:
    probe = Probe("g", ("ana",), View(), recipe("default"))
    assert "entity" in probe.lexical_targets()
    assert ("bm25", "entity") not in lexical_rankings(
        {"entity": [("x", 1.0)], "fact": [], "episode": []}, probe
    )


def test_fusion_reads_the_rankings_in_one_order() -> None:
    shuffled = {c: [] for c in reversed(ORDER)}
    assert list(ordered(shuffled)) == list(ORDER)  # type: ignore[arg-type]


def test_the_lucene_query_quotes_chinese_terms_and_escapes_the_rest() -> None:
    query = lucene_query("tok", ["上海", "c++", "berlin"])
    assert query == '+group_token:tok +search_text:("上海" c\\+\\+ berlin)'


def test_query_terms_are_analysed_once_for_both_sources() -> None:
    assert query_terms("Where does Ana live? Ana!") == ("ana", "live")
    assert "上海" in query_terms("她住在上海吗")


def test_saved_statistics_hold_only_for_the_revision_state_they_were_counted_at() -> None:
    """Issue 22: the BM25 statistics a search counted are saved on the Group node with the
    revision state; any write, deletion or re-creation of the group makes them unusable."""
    stats = {"episode": bm25.Stats(500, 8_989), "episode:own": bm25.Stats(500, 3_743)}
    saved = encode_stats((7, 2, 1_700_000_000_000_000), stats)
    assert decode_stats(saved, (7, 2, 1_700_000_000_000_000)) == stats
    for other in ((8, 2, 1_700_000_000_000_000), (7, 3, 1_700_000_000_000_000), (7, 2, -1)):
        assert decode_stats(saved, other) is None
    assert decode_stats(None, (7, 2, -1)) is None
    assert decode_stats("{not json", (7, 2, -1)) is None
    assert decode_stats('{"key": [7, 2, -1]}', (7, 2, -1)) is None


def test_the_neo4j_source_counts_terms_as_the_index_splits_texts() -> None:
    """Issue 22: splitting 2,000 matched texts into term counts in Cypher took most of a 20k-node
    tenant's cold search; the counts are now made in Python from the analysed text, by the split
    the tenant index uses (whitespace), and episode fields by ``split_fields`` itself."""
    match = counted("e1", "alic live porto  alic", ["alic", "porto", "lisbon"], True)
    assert (match.id, match.tf, match.length, match.visible) == ("e1", (2, 1, 0), 4, True)
    row = {
        "search_text": "dana alic live porto river",
        "speaker_terms": "dana",
        "terms": "alic live",
        "facts": ["alic live porto", "dana like river"],
    }
    fields = episode_fields(row)
    assert fields == {
        "own": "dana alic live",
        "context": "porto river",
        "facts": "alic live porto dana like river",
    }
    assert (fields["own"], fields["context"]) == split_fields(row)
    legacy = episode_fields({**row, "terms": None, "facts": []})  # written before fields existed
    assert legacy == {"own": "dana alic live porto river", "context": "", "facts": ""}
