"""LoCoMo (``locomo10.json`` schema) for the retrieval metric: episodes per conversation, and QA.

Episodes come from the ingest reader (``ingest.sources``, format ``locomo``) so the eval ingests
exactly what ``graphmem ingest --format locomo`` would. QA are read here: evidence strings that do not
name a turn of the same conversation (``'D8:6; D9:17'``, ``'D'``, ``'D30:05'``...) are dropped, and a
QA left with no evidence is skipped and counted (the data README's quirks).

The data is CC BY-NC: it is read from ``../shared/data/locomo/`` at run time, never copied here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.models.episode import EpisodeIn
from ingest.sources import open_source

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_SESSION = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Question:
    question: str
    category: int
    evidence: tuple[str, ...]  # resolvable dia_ids only, de-duplicated, in the data's order
    dropped: int = 0  # evidence strings that did not resolve


@dataclass
class Conversation:
    sample_id: str
    group_id: str
    episodes: list[EpisodeIn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    skipped: int = 0  # QA without resolvable evidence

    @property
    def dia_ids(self) -> set[str]:
        return {e.external_id for e in self.episodes if e.external_id}


@dataclass
class Dataset:
    conversations: list[Conversation]
    rejected_turns: int = 0  # turns the reader refused (should be 0 for the official file)

    @property
    def n_questions(self) -> int:
        return sum(len(c.questions) for c in self.conversations)

    @property
    def skipped(self) -> int:
        return sum(c.skipped for c in self.conversations)


def load(
    path: str | Path,
    *,
    group_prefix: str,
    conversations: list[str] | None = None,
    sessions: int | None = None,
    max_questions: int | None = None,
) -> Dataset:
    """Read the file. ``conversations`` keeps those sample ids; ``sessions`` keeps the first N sessions
    of each (evidence outside them is dropped like an unresolved id, and a QA left with none is
    skipped); ``max_questions`` caps QA per conversation (in file order) — the last two exist for
    small, bounded test runs."""
    raw = _raw(path)
    wanted = set(conversations) if conversations else None
    by_group: dict[str, Conversation] = {}
    rejected = 0
    for item in open_source(path, "locomo", group=group_prefix):
        if not item.ok or item.episode is None:
            rejected += 1
            continue
        sample_id = item.group_id[len(group_prefix) + 1 :]
        if wanted is not None and sample_id not in wanted:
            continue
        if sessions is not None and _session_number(item.episode) > sessions:
            continue
        conv = by_group.setdefault(item.group_id, Conversation(sample_id, item.group_id))
        conv.episodes.append(item.episode)
    for conv in by_group.values():
        known = conv.dia_ids
        qa = raw.get(conv.sample_id, [])
        for entry in qa:
            question = _question(entry, known)
            if question is None:
                conv.skipped += 1
            elif max_questions is None or len(conv.questions) < max_questions:
                conv.questions.append(question)
    ordered = sorted(by_group.values(), key=lambda c: list(raw).index(c.sample_id))
    return Dataset(ordered, rejected)


def _raw(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """sample_id -> its QA list (file order kept)."""
    with open(path, encoding="utf-8-sig") as fh:
        document = json.load(fh)
    samples = document if isinstance(document, list) else [document]
    return {str(s.get("sample_id")): list(s.get("qa") or []) for s in samples if isinstance(s, dict)}


def _session_number(episode: EpisodeIn) -> int:
    # session_id is "<sample_id>:session_<N>" (ingest.sources.locomo)
    tail = (episode.session_id or "").rsplit(":", 1)[-1]
    match = _SESSION.match(tail)
    return int(match.group(1)) if match else 0


def _question(entry: dict[str, Any], known: set[str]) -> Question | None:
    text = str(entry.get("question") or "").strip()
    try:
        category = int(entry.get("category"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    raw = entry.get("evidence") or []
    strings = [str(e).strip() for e in raw] if isinstance(raw, list) else [str(raw)]
    resolved = [e for e in strings if e in known]
    evidence = tuple(dict.fromkeys(resolved))
    if not text or not evidence:
        return None
    return Question(text, category, evidence, dropped=len(strings) - len(resolved))
