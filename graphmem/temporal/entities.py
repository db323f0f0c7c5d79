"""Entity resolution decisions (pure): exact key, alias, or a conservative fuzzy match."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from graphmem.temporal.normalize import normalize_name

FUZZY_RATIO = 0.88
EMBEDDING_COSINE = 0.85
MIN_FUZZY_LENGTH = 5
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    normalized_name: str
    kind: str
    embedding: np.ndarray | None


def kinds_compatible(a: str, b: str) -> bool:
    return a == b or "thing" in (a, b)


def fuzzy_match(
    name: str, kind: str, embedding: np.ndarray | None, candidates: list[Candidate]
) -> Candidate | None:
    """Return the candidate ``name`` is a variant of, or None. Conservative on purpose: the names
    must be long enough, nearly identical as strings *and* close as embeddings, of compatible kinds, and
    hold the same numbers. People never merge by similarity ("Alice" vs "Alicia"); names that differ in a
    number are different things ("Topic 10" / "Topic 100", "Room 101" / "Room 102", "iPhone 14" / "15");
    "Acme Corp" merges into "Acme Corp." (same key anyway)."""
    key = normalize_name(name)
    if len(key) < MIN_FUZZY_LENGTH or kind == "person":  # people's names are never guessed
        return None
    numbers = _NUMBER.findall(key)
    best: tuple[float, Candidate] | None = None
    for cand in candidates:
        if not kinds_compatible(kind, cand.kind) or len(cand.normalized_name) < MIN_FUZZY_LENGTH:
            continue
        if _NUMBER.findall(cand.normalized_name) != numbers:
            continue
        ratio = SequenceMatcher(None, key, cand.normalized_name).ratio()
        if ratio < FUZZY_RATIO:
            continue
        if embedding is not None and cand.embedding is not None:
            if float(np.dot(embedding, cand.embedding)) < EMBEDDING_COSINE:
                continue
        if best is None or ratio > best[0]:
            best = (ratio, cand)
    return best[1] if best else None
