"""A claim of an open (multi-valued) predicate restated in a later episode, ingested in a later
batch, adds the later episode's evidence to the fact that holds: the facts eval counts the turns
that evidence current facts, so a restatement must link, not duplicate and not be lost."""

from __future__ import annotations

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from tests.conftest import utc


def ep(text: str, month: int, ext: str, session: str) -> EpisodeIn:
    return EpisodeIn(
        content=text, reference_time=utc(2024, month, 1), speaker="Alice", session_id=session, external_id=ext
    )


async def test_a_liking_restated_later_gains_the_later_evidence(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I love hiking.", 1, "e1", "s1")])
    await memory.add_episodes(group, [ep("Honestly, I love hiking.", 5, "e2", "s2")])
    facts = [f for f in await memory.facts_about(group, "Alice", predicate="likes") if f.value == "hiking"]
    assert len(facts) == 1
    assert {e.external_id for e in facts[0].evidence} == {"e1", "e2"}


async def test_a_deed_restated_later_gains_the_later_evidence(memory: GraphMemory, group: str) -> None:
    await memory.add_episodes(group, [ep("I finished my screenplay.", 2, "e1", "s1")])
    await memory.add_episodes(group, [ep("After finishing my screenplay I took a long nap.", 3, "e2", "s2")])
    facts = [f for f in await memory.facts_about(group, "Alice", predicate="finishes")]
    assert len(facts) == 1
    assert {e.external_id for e in facts[0].evidence} == {"e1", "e2"}
