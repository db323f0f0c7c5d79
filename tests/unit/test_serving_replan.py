"""The search path's per-request statements keep their first plan (issue 17, Neo4j CPU per search)."""

from __future__ import annotations

import pytest

from graphmem.store.cypher import search as q

SEARCH_PATH = ["HYDRATE", "TOUCH"]


@pytest.mark.parametrize("name", SEARCH_PATH)
def test_search_statements_skip_replanning(name: str) -> None:
    """Regression (issue 17): with the ingest write's statements keeping their plans, the stale-plan
    discards Neo4j still logged under load (``Discarded stale query``, ~14 a 20 s measure) came from
    the statements every search sends. Their plans start from unique ids (NodeUniqueIndexSeek on
    Fact, Episode and Entity ids), so the statistics a growing store drifts through cannot give a
    better one; ``CYPHER replan=skip`` keeps the cached plan, the text is otherwise unchanged."""
    text = getattr(q, name)
    assert text.startswith("CYPHER replan=skip\n")
    assert text.count("CYPHER") == 1
