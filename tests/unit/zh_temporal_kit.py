"""A database-free timeline for Chinese temporal statements told over several episodes.

Each episode goes through the ``rules`` extractor with its own reference time; the facts of one
subject and functional predicate become slot claims (with their episode, as ingestion gives them)
and ``temporal.chain.resolve_slot`` gives the slot's facts, as ingestion does (without entity
merging). ``Timeline`` reads them the way ``eval/temporal_score`` does: the current stated value,
the value holding at a date, and the history along the SUPERSEDES chain.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.models.extraction import Extraction
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.temporal.chain import Run, resolve_slot
from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import value_key

SPEAKER = "李娜"
RECORDED = datetime(2030, 1, 1, tzinfo=UTC)
_EXTRACTOR = RulesExtractor()


def day(year: int, month: int, d: int = 15) -> datetime:
    return datetime(year, month, d, 10, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Said:
    """One episode: what the speaker said and when."""

    text: str
    at: datetime


@functools.lru_cache(maxsize=4096)
def extract(text: str, at: datetime, speaker: str = SPEAKER) -> Extraction:
    return _EXTRACTOR.extract(content=text, speaker=speaker, reference_time=at)


def claims(episodes: list[Said], predicate: str, subject: str) -> list[Claim]:
    out = []
    for n, ep in enumerate(episodes):
        for k, f in enumerate(extract(ep.text, ep.at).facts):
            if f.subject != subject or f.predicate != predicate:
                continue
            out.append(
                Claim(
                    ref=f"e{n}-{k}",
                    kind=f.claim,
                    value=f.literal,
                    value_key=value_key(f.literal),
                    at=f.valid_from or ep.at,
                    source_kind=f.source_kind,
                    recorded_at=RECORDED,
                    until=f.valid_to,
                    episode_id=f"e{n}",
                    start=f.start,
                    replaces=value_key(f.replaces) if f.replaces else None,
                    guessed=f.guessed or None,
                )
            )
    return out


@dataclass(frozen=True)
class Timeline:
    current: str | None
    history: list[str]
    runs: list[Run]

    def at(self, when: datetime) -> str | None:
        """The stated value holding at ``when`` (else the inferred one), None when none does."""
        for tier in ("stated", "inferred"):
            held = [
                r.value
                for r in self.runs
                if r.tier == tier
                and (r.valid_from is None or r.valid_from <= when)
                and (r.valid_to is None or when < r.valid_to)
            ]
            if held:
                return held[-1] if len(set(held)) == 1 else "|".join(held)
        return None


def timeline(episodes: list[Said], predicate: str, subject: str = SPEAKER) -> Timeline:
    """The slot after ingesting ``episodes`` (the resolver is order-free)."""
    plan = resolve_slot([], claims(episodes, predicate, subject), functional=True)
    runs = plan.runs
    current: list[str] = []
    for tier in ("stated", "inferred"):
        current = [r.value for r in runs if r.tier == tier and r.valid_to is None]
        if current:
            break
    stated = [r for r in runs if r.tier == "stated"]
    superseded = {id(r.previous) for r in stated if r.previous is not None}
    heads = [r for r in stated if id(r) not in superseded]
    open_heads = [r for r in heads if r.valid_to is None]
    head = (open_heads or heads or [None])[-1]
    history: list[str] = []
    while head is not None:
        history.append(head.value)
        head = head.previous
    now = "|".join(current) if current else None
    return Timeline(now, history[::-1], runs)


@dataclass(frozen=True)
class Case:
    """A bank's case: the episodes told, and what the graph should say about one slot after them."""

    episodes: tuple[Said, ...]
    subject: str
    predicate: str
    current: str | None
    history: tuple[str, ...]
    held: tuple[tuple[datetime, str | None], ...] = ()

    @property
    def name(self) -> str:
        return " / ".join(e.text for e in self.episodes)


def check(case: Case) -> None:
    """``case`` holds told in order and reversed: ingestion order must not matter."""
    for episodes in (list(case.episodes), list(case.episodes)[::-1]):
        got = timeline(episodes, case.predicate, case.subject)
        assert (got.current, got.history) == (case.current, list(case.history)), case.name
        for when, value in case.held:
            assert got.at(when) == value, (case.name, when)
