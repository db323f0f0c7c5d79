"""The change feed's statements keep their first plan (issue 17: Neo4j CPU per search and load)."""

from __future__ import annotations

import pytest

from graphmem.store.cypher import snapshot as q

STATEMENTS = [("GROUP_STATE", None), ("LOAD_SMALL", None)] + [
    (name, label)
    for name in ("CHANGED", "LOAD_PAGE", "LOAD_COLUMNS")
    for label in ("episode", "fact", "entity")
]


@pytest.mark.parametrize(("name", "label"), STATEMENTS)
def test_change_feed_statements_skip_replanning(name: str, label: str | None) -> None:
    """The group state is read before every indexed search and the changes after any write; both,
    and the full loads, are anchored on indexes (Group.id, (group_id, rev) by hint, the group
    composite indexes), so ``CYPHER replan=skip`` keeps the cached plan; the text is otherwise
    the statement's own, with one CYPHER prefix."""
    table = getattr(q, name)
    text = table if label is None else table[label]
    assert text.startswith("CYPHER replan=skip\n")
    assert text.count("CYPHER") == 1
    assert "$group_id" in text
