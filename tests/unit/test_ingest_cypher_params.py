"""The ingest write's combined statements pass their lists in one map parameter."""

from __future__ import annotations

import re

import pytest

from graphmem.store.cypher import ingest as q

SCALARS = {"$group_id", "$group_token", "$now"}


@pytest.mark.parametrize("name", ["BEGIN_INGEST", "CREATE_EPISODES_TAILS", "LINK_EPISODES", "WRITE_FACTS"])
def test_combined_ingest_statements_take_lists_only_inside_p(name: str) -> None:
    """Regression (issue 17, round trips): with each step's list as its own parameter, Neo4j keyed
    its plan cache on which lists were empty (an empty list types differently from a list of
    maps), so the combined statements were planned again, seconds each, for every combination of
    empty steps, and 64 concurrent writers timed out behind the planning. Every list now travels
    inside the map parameter ``$p``, whose type does not depend on what it holds."""
    params = set(re.findall(r"\$[A-Za-z_]\w*", getattr(q, name)))
    assert params - SCALARS == {"$p"}
