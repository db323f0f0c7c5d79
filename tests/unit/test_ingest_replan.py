"""The ingest write's statements keep their first plan (issue 17, Neo4j CPU per write)."""

from __future__ import annotations

import pytest

from graphmem.store.cypher import ingest as q

WRITE_PATH = [
    "BEGIN_INGEST",
    "CREATE_EPISODES_TAILS",
    "LINK_EPISODES",
    "WRITE_FACTS",
    "LOCK_GROUP",
    "EXISTING_EPISODE_KEYS",
    "FIND_ENTITIES",
    "ENTITY_CANDIDATES",
]


@pytest.mark.parametrize("name", WRITE_PATH)
def test_ingest_write_statements_skip_replanning(name: str) -> None:
    """Regression (issue 17): Neo4j threw away these statements' cached plans whenever the graph's
    statistics drifted (``Discarded stale query`` in debug.log, every minute or so on a growing
    store) and planned them again, 1-4 s of CPU each, which was most of its CPU per write under
    load; the smaller statements of the write (the lock, the reads before it, fuzzy candidates) were
    replanned as often. ``CYPHER replan=skip`` keeps the cached plan; the text is otherwise the same."""
    text = getattr(q, name)
    assert text.startswith("CYPHER replan=skip\n")
    assert text.count("CYPHER") == 1
