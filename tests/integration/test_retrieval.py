"""Hybrid retrieval: each channel finds what only it can, time views, tenancy, escaping, Chinese."""

from __future__ import annotations

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn, FactIn
from graphmem.models.search import SearchResult
from tests.conftest import utc

DISTRACTORS = [
    "We talked about the weather and the new bakery downtown.",
    "The meeting moved to Thursday afternoon.",
    "My brother fixed the bike chain yesterday.",
    "The concert tickets sold out in minutes.",
]


def ep(text: str, ext: str, month: int = 1, speaker: str = "Alice") -> EpisodeIn:
    return EpisodeIn(content=text, reference_time=utc(2024, month, 1), speaker=speaker, external_id=ext)


def channels_of(result: SearchResult, external_id: str) -> set[str]:
    for hit in result.episodes:
        if hit.episode.external_id == external_id:
            return {name.split(":")[0] for name in hit.channels}
    return set()


async def seed(memory: GraphMemory, group: str, *extra: EpisodeIn) -> None:
    await memory.add_episodes(group, [ep(t, f"d{i}") for i, t in enumerate(DISTRACTORS)] + list(extra))


async def test_an_exact_identifier_is_found_by_bm25(memory: GraphMemory, group: str) -> None:
    await seed(memory, group, ep("Your order ZX-48213-Q has shipped.", "order"))
    result = await memory.search(group, "ZX-48213-Q", recipe="episodes_only")
    assert result.source_external_ids()[0] == "order"
    assert "bm25" in channels_of(result, "order")


async def test_a_paraphrase_is_found_by_vectors_only(memory: GraphMemory, group: str) -> None:
    await seed(memory, group, ep("She adores kittens and owns three.", "cats"))
    result = await memory.search(group, "Which pets does Maria fancy?", recipe="episodes_only")
    assert channels_of(result, "cats") == {"vector"}  # no shared word: bm25 cannot see it
    assert "cats" in result.source_external_ids()[:3]


async def test_a_two_hop_relation_is_found_by_the_graph(memory: GraphMemory, group: str) -> None:
    await memory.add_facts(
        group,
        [
            FactIn(subject="Alice", predicate="works_at", object="Acme", valid_from=utc(2024, 1, 1)),
            FactIn(subject="Bob", predicate="works_at", object="Acme", valid_from=utc(2024, 1, 1)),
            FactIn(subject="Carol", predicate="lives_in", object="Oslo", valid_from=utc(2024, 1, 1)),
        ],
    )
    result = await memory.search(group, "Alice", recipe="facts_only", k=10)
    bob = [h for h in result.facts if h.fact.subject == "Bob"]
    assert bob, "Bob shares Alice's employer: two hops away"
    assert any(name.startswith("graph:") for name in bob[0].channels)
    assert not any(name.startswith("bm25:") for name in bob[0].channels)


async def test_superseded_facts_only_with_as_of_or_history(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(
        group, [ep("I live in Hangzhou.", "e1", 3), ep("I moved to Shanghai.", "e2", 9)]
    )
    now = await memory.search(group, "Where does Alice live?", recipe="facts_only")
    assert [h.fact.value for h in now.facts if h.fact.predicate == "lives_in"] == ["Shanghai"]
    then = await memory.search(group, "Where does Alice live?", recipe="facts_only", as_of=utc(2024, 6, 1))
    assert [h.fact.value for h in then.facts if h.fact.predicate == "lives_in"] == ["Hangzhou"]
    history = await memory.search(group, "Where does Alice live?", recipe="facts_only", include_history=True)
    assert {h.fact.value for h in history.facts if h.fact.predicate == "lives_in"} == {"Hangzhou", "Shanghai"}


async def test_no_channel_returns_another_tenants_items(memory: GraphMemory, group: str) -> None:
    other = group + "-b"
    await seed(memory, group, ep("I live in Hangzhou and my order ZX-1 shipped.", "mine"))
    await memory.add_episodes(other, [ep("Nothing to see here.", "theirs")])
    for recipe in ("default", "bm25", "vector", "entities", "history"):
        result = await memory.search(other, "Alice Hangzhou ZX-1 order", recipe=recipe)
        assert "mine" not in result.source_external_ids()
        assert all(h.fact.group_id == other for h in result.facts)


async def test_lucene_special_characters_and_chinese(memory: GraphMemory, group: str) -> None:
    await seed(
        memory,
        group,
        EpisodeIn(
            content="我上周去杭州出差了。", reference_time=utc(2024, 5, 1), speaker="张伟", external_id="zh"
        ),
    )
    for query in ('AND OR "(*', "+-&&||!(){}[]^~*?:\\/", "NOT"):
        await memory.search(group, query)  # no InvalidQuery
    result = await memory.search(group, "杭州出差", recipe="episodes_only")
    assert result.source_external_ids()[0] == "zh"
    assert "bm25" in channels_of(result, "zh")


async def test_results_carry_provenance_and_a_context_block(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I work at Acme.", "w1", 2)])
    result = await memory.search(group, "Where does Alice work?", token_budget=200)
    fact = next(h.fact for h in result.facts if h.fact.predicate == "works_at")
    assert fact.evidence[0].external_id == "w1" and fact.evidence[0].quote
    assert "Acme" in result.context and "confidence" in result.context
