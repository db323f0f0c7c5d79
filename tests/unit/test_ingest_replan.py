"""The ingest write's combined statements keep their first plan (issue 17, Neo4j CPU per write)."""

from __future__ import annotations

import pytest

from graphmem.store.cypher import ingest as q


@pytest.mark.parametrize("name", ["BEGIN_INGEST", "CREATE_EPISODES_TAILS", "LINK_EPISODES", "WRITE_FACTS"])
def test_combined_ingest_statements_skip_replanning(name: str) -> None:
    """Regression (issue 17): Neo4j threw away these statements' cached plans whenever the graph's
    statistics drifted (``Discarded stale query`` in debug.log, every minute or so on a growing
    store) and planned them again, 1-4 s of CPU each, which was most of its CPU per write under
    load. ``CYPHER replan=skip`` keeps the cached plan; the statement text is otherwise the same."""
    text = getattr(q, name)
    assert text.startswith("CYPHER replan=skip\n")
    assert text.count("CYPHER") == 1
