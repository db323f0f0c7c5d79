"""A database-free timeline for English temporal statements: episodes go through the ``rules``
extractor, the speaker's facts of one functional predicate become slot claims, and
``temporal.chain.resolve_slot`` gives the slot's facts, as ingestion does (without entity merging
or the opposite-slot mirror). ``timeline`` returns the current value(s) and the history along the
SUPERSEDES chain, read the way ``eval/temporal_score`` reads them.

``compose`` fills a template's slots ({A} old value, {B} new value, {W} wrong value, {aA}/{aB}/{aW}
articles, {when} a time phrase with its leading space, {year} a past year) so a class of phrasings is
tested over several values and surroundings.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.models.extraction import Extraction
from graphmem.models.predicates import is_functional
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.temporal.chain import Run, resolve_slot
from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import value_key

SPEAKER = "Dana"
T0 = datetime(2023, 3, 10, 10, 0, tzinfo=UTC)
T1 = datetime(2024, 6, 15, 10, 0, tzinfo=UTC)
T2 = datetime(2024, 11, 2, 10, 0, tzinfo=UTC)
_EXTRACTOR = RulesExtractor()

CITIES = ("Leeds", "Bristol", "Denver", "Lisbon", "Osaka", "Toronto", "Melbourne", "Seattle", "Nairobi")
ORGS = (
    "Globex",
    "Initech",
    "Hooli",
    "Acme Corp",
    "Pied Piper",
    "Umbrella",
    "Stark Industries",
    "Wayne Enterprises",
)
TITLES = (
    "nurse",
    "accountant",
    "data analyst",
    "architect",
    "chef",
    "product manager",
    "teacher",
    "pharmacist",
)
VALUES = {"lives_in": CITIES, "works_at": ORGS, "job_title": TITLES}
CHATTER_BEFORE = ("", "Long week, honestly. ", "Thanks for asking! ")
CHATTER_AFTER = ("", " Anyway, how was your weekend?", " The weather has been lovely.")


@dataclass(frozen=True)
class Said:
    """One episode: what the speaker said and when."""

    text: str
    at: datetime


@functools.lru_cache(maxsize=4096)
def _extract(text: str, at: datetime, speaker: str) -> Extraction:
    return _EXTRACTOR.extract(content=text, speaker=speaker, reference_time=at)


def facts(text: str, at: datetime = T1, speaker: str = SPEAKER) -> list[tuple[str, str, str]]:
    """(predicate, value, claim kind) of the speaker's functional facts in one message."""
    out = _extract(text, at, speaker)
    return [
        (f.predicate, f.literal, f.claim)
        for f in out.facts
        if f.subject == speaker and is_functional(f.predicate)
    ]


def _claims(episodes: list[Said], predicate: str, subject: str) -> list[Claim]:
    claims = []
    for n, ep in enumerate(episodes):
        out = _extract(ep.text, ep.at, SPEAKER)
        for k, f in enumerate(out.facts):
            if f.subject != subject or f.predicate != predicate:
                continue
            claims.append(
                Claim(
                    ref=f"e{n}-{k}",
                    kind=f.claim,
                    value=f.literal,
                    value_key=value_key(f.literal),
                    at=f.valid_from or ep.at,
                    source_kind=f.source_kind,
                    recorded_at=T2,
                    until=f.valid_to,
                    replaces=value_key(f.replaces) if f.replaces else None,
                    guessed=f.guessed or None,
                )
            )
    return claims


@dataclass(frozen=True)
class Timeline:
    current: list[str]
    history: list[str]
    runs: list[Run]

    def at(self, when: datetime) -> list[str]:
        """The stated values holding at ``when`` (else the inferred ones)."""
        for tier in ("stated", "inferred"):
            held = [
                r.value
                for r in self.runs
                if r.tier == tier
                and (r.valid_from is None or r.valid_from <= when)
                and (r.valid_to is None or when < r.valid_to)
            ]
            if held:
                return held
        return []


def timeline(episodes: list[Said], predicate: str, subject: str = SPEAKER) -> Timeline:
    """The slot after ingesting ``episodes`` (in any order: the resolver is order-free)."""
    plan = resolve_slot([], _claims(episodes, predicate, subject), functional=True)
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
    return Timeline(current, history[::-1], runs)


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def compose(
    template: str, predicate: str, n: int, *, when: str = "", chatter: int = 0
) -> tuple[str, dict[str, str]]:
    """The template filled with the n-th draw of values (A, B, W all different) and chatter."""
    pool = VALUES[predicate]
    a, b, w = (pool[(n + k * 3) % len(pool)] for k in range(3))
    slots = {
        "A": a,
        "B": b,
        "W": w,
        "aA": article(a),
        "aB": article(b),
        "aW": article(w),
        "when": when,
        "year": "2019",
    }
    text = template.format(**slots)
    text = CHATTER_BEFORE[chatter % 3] + text + CHATTER_AFTER[(chatter // 3) % 3]
    return text, slots
