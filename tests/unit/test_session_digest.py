"""The session digest's text (graphmem.memory.sessions.digest_text): within its budget for every
budget, the newest turns kept first, each section oldest first; cursors round-trip and refuse others."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.errors import InvalidInput
from graphmem.memory.browse import decode_cursor, encode_cursor
from graphmem.memory.sessions import digest_text
from graphmem.models.browse import SessionDigest, SessionTurn
from graphmem.models.episode import EpisodeRecord
from graphmem.models.fact import FactRecord
from graphmem.retrieval.context import estimate_tokens

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def _turn(i: int, text: str) -> SessionTurn:
    when = T0 + timedelta(days=i)
    return SessionTurn(
        episode=EpisodeRecord(id=f"e{i}", group_id="g", content=text, reference_time=when, ingested_at=when)
    )


def _fact(i: int) -> FactRecord:
    return FactRecord(
        id=f"f{i}", group_id="g", subject="Alice", subject_id="a", predicate="likes", value=f"thing {i}",
        statement=f"Alice likes thing {i}", valid_from=T0, recorded_at=T0 + timedelta(hours=i),
    )  # fmt: skip


DIGEST = SessionDigest(
    group_id="g",
    session_id="s",
    episodes=40,
    first_at=T0,
    last_at=T0 + timedelta(days=39),
    facts=[_fact(i) for i in range(10)],
    key_turns=[_turn(i, f"key turn {i} " * 5) for i in range(3)],
    recent=[_turn(30 + i, f"recent turn {i} " + "word " * 80) for i in range(10)],
)


@pytest.mark.parametrize("budget", [0, 5, 12, 20, 40, 80, 150, 300, 600, 2000])
def test_the_text_stays_within_every_budget(budget: int) -> None:
    text = digest_text(DIGEST, budget)
    assert sum(estimate_tokens(line) for line in text.splitlines()) <= budget


def test_the_newest_turns_come_first_and_sections_read_oldest_first() -> None:
    small = digest_text(DIGEST, 120)
    assert "recent turn 9" in small and "recent turn 0" not in small  # newest kept when space is short
    full = digest_text(DIGEST, 20_000)
    lines = full.splitlines()
    assert lines[0] == "Session s (40 turns, 2024-01-01 to 2024-02-09):"
    assert (
        lines.index("Facts from this session:")
        < lines.index("Key earlier turns:")
        < lines.index("Latest turns:")
    )
    recent = [line for line in lines if "recent turn" in line]
    assert recent == sorted(recent, key=lambda line: line[3:13]) and len(recent) == 10
    assert all(len(line) <= 320 for line in recent)  # a long turn is cut


def test_an_empty_session_has_no_text() -> None:
    assert digest_text(SessionDigest(group_id="g", session_id="s"), 500) == ""


def test_cursors_round_trip_and_refuse_another_lists() -> None:
    cursor = encode_cursor("episodes-asc", "2024-01-01T00:00:00+00:00", "e1")
    assert decode_cursor(cursor, "episodes-asc", 2) == ["2024-01-01T00:00:00+00:00", "e1"]
    for bad, kind in ((cursor, "episodes-desc"), (cursor, "sessions"), ("%%%", "sessions"), ("", "sessions")):
        with pytest.raises(InvalidInput):
            decode_cursor(bad, kind, 2 if kind.startswith("episodes") else 1)
