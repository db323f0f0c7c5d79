"""Text analysis shared by the index and the queries, and tenant-local BM25 rescoring (pure)."""

from __future__ import annotations

from graphmem.retrieval import bm25
from graphmem.text import analyze, episode_text, node_text_fields, query_terms, search_text


def test_index_and_query_agree_on_stems_and_drop_stop_words() -> None:
    doc = search_text("Melanie: I painted two sunsets while the kids were at camp")
    assert doc.split() == ["melani", "paint", "two", "sunset", "kid", "camp"]
    assert set(query_terms("What paintings did Melanie make of the sunset?")) <= set(doc.split()) | {"make"}


def test_lucene_operators_and_specials_never_reach_the_query() -> None:
    assert query_terms('AND OR "(*') == []
    terms = query_terms("INV-2024-0042 (urgent) OR NOT")
    assert terms == ["inv", "2024", "0042", "urgent"]
    assert all(ch not in "".join(terms) for ch in '+-!(){}[]^"~*?:\\/&|')


def test_chinese_is_segmented_and_english_words_are_not_repeated() -> None:
    terms = analyze("我住在上海。 I live in Shanghai")
    assert terms[:2] == ["live", "shanghai"]
    assert "上海" in terms
    assert terms.count("shanghai") == 1 and "Shanghai" not in terms


def test_analysed_fields_per_label() -> None:
    episode = node_text_fields("Episode", {"speaker": "Caroline", "content": "Went hiking"})
    assert episode == {"speaker_terms": "carolin", "terms": "went hike", "search_text": "carolin went hike"}
    assert node_text_fields("Fact", {"statement": "Alice lives in Paris"}) == {
        "search_text": "alic live pari"
    }
    entity = node_text_fields("Entity", {"name": "Robert Smith", "aliases": ["Bob", "Bobby"]})
    assert entity == {"search_text": "robert smith bob bobbi"}
    assert episode_text(None, "x") == "x" and episode_text("A", "x") == "A: x"


def test_tenant_local_bm25_prefers_the_rare_term() -> None:
    docs = {
        "d1": search_text("Caroline: hello there Melanie"),
        "d2": search_text("Caroline: I adopted a puppy"),
        "d3": search_text("Caroline: how are you"),
    }
    terms = sorted(set(query_terms("Did Caroline adopt a puppy?")))
    df = {t: sum(t in d.split() for d in docs.values()) for t in terms}
    ranked = bm25.rescore(terms, docs, df, len(docs))
    assert ranked[0][0] == "d2"
    assert ranked[0][1] > ranked[1][1] > 0
