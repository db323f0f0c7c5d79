"""Episodes → entities and facts with valid time, SUPERSEDES and provenance, on the real Neo4j."""

from __future__ import annotations

import asyncio

import pytest

from graphmem.errors import Conflict, NotFound
from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn, FactIn
from tests.conftest import utc


def ep(text: str, month: int, ext: str, speaker: str = "Alice", year: int = 2024) -> EpisodeIn:
    return EpisodeIn(
        content=text, reference_time=utc(year, month, 1), speaker=speaker, session_id="s1", external_id=ext
    )


async def values(memory: GraphMemory, group: str, predicate: str, **kw: object) -> list[str]:
    facts = await memory.facts_about(group, "Alice", predicate=predicate, **kw)  # type: ignore[arg-type]
    return [f.value for f in facts]


async def test_same_episode_twice_is_one_episode(memory: GraphMemory, group: str) -> None:
    first = await memory.add_episodes(group, [ep("I live in Paris.", 1, "e1")])
    again = await memory.add_episodes(group, [ep("I live in Paris.", 1, "e1")])
    assert first.episodes[0].status == "created"
    assert again.episodes[0].status == "existing" and again.episodes[0].id == first.episodes[0].id
    assert again.facts == []
    same_batch = await memory.add_episodes(group, [ep("I like jazz.", 2, "e2"), ep("I like jazz.", 2, "e2")])
    assert [e.status for e in same_batch.episodes] == ["created", "existing"]


async def test_move_supersedes_and_late_episode_is_slotted_in(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("We relocated to Shanghai.", 9, "e2")])
    await memory.add_episodes(group, [ep("I just moved to Hangzhou.", 3, "e1")])
    assert await values(memory, group, "lives_in") == ["Shanghai"]
    assert await values(memory, group, "lives_in", as_of=utc(2024, 6, 1)) == ["Hangzhou"]
    history = await memory.facts_about(group, "Alice", predicate="lives_in", include_history=True)
    assert [f.value for f in history] == ["Hangzhou", "Shanghai"]
    assert history[1].supersedes == [history[0].id] and history[0].valid_to == history[1].valid_from
    quote = history[0].evidence[0]
    assert quote.external_id == "e1" and quote.quote and "Hangzhou" in quote.quote


async def test_restating_a_fact_adds_evidence_not_a_duplicate(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I work at Acme.", 1, "e1"), ep("I work at Acme.", 5, "e2")])
    facts = await memory.facts_about(group, "Alice", predicate="works_at")
    assert len(facts) == 1 and {e.external_id for e in facts[0].evidence} == {"e1", "e2"}


async def test_negation_ends_the_fact_without_successor(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(
        group, [ep("I work at Acme.", 1, "e1"), ep("I no longer work at Acme.", 6, "e2")]
    )
    assert await values(memory, group, "works_at") == []
    ended = await memory.facts_about(group, "Alice", predicate="works_at", include_history=True)
    assert len(ended) == 1 and ended[0].valid_to == utc(2024, 6, 1) and ended[0].supersedes == []


async def test_temporary_trip_never_replaces_home(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(
        group, [ep("I live in Berlin.", 1, "e1"), ep("I'm on a trip to Tokyo this week.", 4, "e2")]
    )
    assert await values(memory, group, "lives_in") == ["Berlin"]
    assert await values(memory, group, "located_at") == ["Tokyo"]


async def test_inferred_never_supersedes_user_stated(memory: GraphMemory, group: str) -> None:
    await memory.add_facts(
        group,
        [
            FactIn(subject="Alice", predicate="lives_in", object="Paris", valid_from=utc(2024, 1, 1)),
            FactIn(
                subject="Alice",
                predicate="lives_in",
                object="Rome",
                valid_from=utc(2024, 5, 1),
                source_kind="inferred",
                confidence=0.4,
            ),
        ],
    )
    current = await memory.facts_about(group, "Alice", predicate="lives_in")
    assert sorted((f.value, f.source_kind) for f in current) == [
        ("Paris", "user_stated"),
        ("Rome", "inferred"),
    ]
    assert all(f.supersedes == [] for f in current)


async def test_correction_expires_the_wrong_fact(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I live in Hangzhou.", 3, "e1")])
    before = utc(2030, 1, 1)  # system time: compare with known_at later
    await memory.add_episodes(group, [ep("Actually I live in Suzhou, not Hangzhou.", 4, "e2")])
    assert await values(memory, group, "lives_in") == ["Suzhou"]
    assert await values(memory, group, "lives_in", as_of=utc(2024, 3, 15)) == ["Suzhou"]
    history = await memory.facts_about(group, "Alice", predicate="lives_in", include_history=True)
    wrong = [f for f in history if f.value == "Hangzhou"]
    assert wrong and wrong[0].expired_at is not None and wrong[0].valid_to is None
    assert before > wrong[0].expired_at


async def test_known_at_shows_what_we_believed_then(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I live in Hangzhou.", 3, "e1")])
    [fact] = await memory.facts_about(group, "Alice", predicate="lives_in")
    await memory.retract_fact(group, fact.id, expected_version=fact.version)
    assert await values(memory, group, "lives_in") == []
    then = await memory.facts_about(group, "Alice", predicate="lives_in", known_at=fact.recorded_at)
    assert [f.value for f in then] == ["Hangzhou"]


async def test_explicit_facts_with_evidence_and_missing_evidence(memory: GraphMemory, group: str) -> None:
    res = await memory.add_episodes(group, [ep("Met Bob at the conference.", 2, "e1")])
    eid = res.episodes[0].id
    await memory.add_facts(
        group,
        [
            FactIn(
                subject="Alice",
                predicate="knows",
                object="Bob",
                valid_from=utc(2024, 2, 1),
                evidence_episode_ids=[eid],
            )
        ],
    )
    [fact] = await memory.facts_about(group, "Alice", predicate="knows")
    assert fact.evidence[0].episode_id == eid
    with pytest.raises(NotFound):
        await memory.add_facts(
            group, [FactIn(subject="Alice", predicate="owns", value="a boat", evidence_episode_ids=["nope"])]
        )
    assert await values(memory, group, "owns") == []  # nothing partial written


async def test_correct_fact_with_stale_version_conflicts(memory: GraphMemory, group: str) -> None:
    await memory.add_facts(
        group, [FactIn(subject="Alice", predicate="works_at", object="Acme", valid_from=utc(2024, 1, 1))]
    )
    [fact] = await memory.facts_about(group, "Alice", predicate="works_at")
    with pytest.raises(Conflict):
        await memory.correct_fact(group, fact.id, expected_version=fact.version + 7, object="Beta")
    fixed = await memory.correct_fact(group, fact.id, expected_version=fact.version, object="Beta")
    assert fixed.value == "Beta" and fixed.valid_from == utc(2024, 1, 1)
    ended = await memory.correct_fact(
        group, fixed.id, expected_version=fixed.version, end=True, valid_to=utc(2024, 8, 1)
    )
    assert ended.valid_to == utc(2024, 8, 1)


async def test_retract_reopens_the_fact_it_had_superseded(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I live in Paris.", 1, "e1"), ep("I moved to Rome.", 5, "e2")])
    [rome] = await memory.facts_about(group, "Alice", predicate="lives_in")
    await memory.retract_fact(group, rome.id)
    assert await values(memory, group, "lives_in") == ["Paris"]


async def test_chinese_names_do_not_collapse(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(
        group,
        [
            EpisodeIn(
                content="我住在北京。", reference_time=utc(2024, 1, 1), speaker="张伟", external_id="z1"
            ),
            EpisodeIn(
                content="我住在上海。", reference_time=utc(2024, 1, 1), speaker="李娜", external_id="z2"
            ),
        ],
    )
    assert [f.value for f in await memory.facts_about(group, "张伟", predicate="lives_in")] == ["北京"]
    assert [f.value for f in await memory.facts_about(group, "李娜", predicate="lives_in")] == ["上海"]


async def test_another_tenant_sees_nothing(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I live in Paris.", 1, "e1")])
    other = group + "-other"
    assert await memory.facts_about(other, "Alice") == []
    assert await memory.find_entities(other, "Alice") == []
    [fact] = await memory.facts_about(group, "Alice")
    with pytest.raises(NotFound):
        await memory.get_fact(other, fact.id)


async def test_eight_concurrent_writers_make_no_duplicates(memory: GraphMemory, group: str) -> None:
    """8 writers into one group: one entity per name, and a complete supersession chain."""
    cities = ["Paris", "Rome", "Oslo", "Lima", "Kyiv", "Doha", "Baku", "Riga"]

    async def writer(i: int) -> None:
        await memory.add_episodes(group, [ep(f"I moved to {cities[i]}.", i + 1, f"w{i}")])

    await asyncio.gather(*(writer(i) for i in range(8)))
    names = [e.name for e in await memory.find_entities(group, None, limit=100)]
    assert len(names) == len(set(n.casefold() for n in names))
    history = await memory.facts_about(group, "Alice", predicate="lives_in", include_history=True)
    assert [f.value for f in history] == cities
    assert all(history[i].supersedes == [history[i - 1].id] for i in range(1, 8))
    assert [f.value for f in await memory.facts_about(group, "Alice", predicate="lives_in")] == ["Riga"]


async def test_known_at_rebuilds_the_belief_of_that_moment(memory: GraphMemory, group: str) -> None:
    """Regression: a later move used to rewrite valid_to in place, so 'as known at S' showed a fact
    S did not know had ended. The belief at S is now recomputed from the claims recorded by S."""
    from graphmem.clock import utc_now

    await memory.add_episodes(group, [ep("I live in Paris.", 1, "e1")])
    middle = utc_now()
    await asyncio.sleep(0.01)
    await memory.add_episodes(group, [ep("I moved to Rome.", 5, "e2")])
    then = await memory.facts_about(group, "Alice", predicate="lives_in", known_at=middle)
    assert [(f.value, f.valid_to) for f in then] == [("Paris", None)]
    assert await values(memory, group, "lives_in") == ["Rome"]
    history_then = await memory.facts_about(
        group, "Alice", predicate="lives_in", known_at=middle, include_history=True
    )
    assert [f.value for f in history_then] == ["Paris"]


@pytest.mark.parametrize("order", ["given", "reversed"])
async def test_a_new_dislike_ends_the_like(memory: GraphMemory, group: str, order: str) -> None:
    """Regression: "I love yoga" then "I hate yoga now" left both current. Any arrival order."""
    episodes = [ep("I love yoga.", 1, "e1"), ep("These days I hate yoga.", 6, "e2")]
    for episode in episodes if order == "given" else list(reversed(episodes)):
        await memory.add_episodes(group, [episode])
    assert await values(memory, group, "likes") == []
    assert await values(memory, group, "dislikes") == ["yoga"]
    [liked] = await memory.facts_about(group, "Alice", predicate="likes", include_history=True)
    assert liked.valid_to == utc(2024, 6, 1) and {e.external_id for e in liked.evidence} == {"e1", "e2"}
