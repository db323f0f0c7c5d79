"""LoCoMo for ``graphmem eval facts`` (EVAL.md §4): turns, speakers and the observation citations.

Turns come from ``eval.locomo_data.load`` (the ingest reader, so the eval ingests what
``graphmem ingest --format locomo`` would). LoCoMo's ``observation`` field holds, per session and
speaker, ``[fact sentence, dia_id]`` pairs (a few cite a list of dia_ids); only the cited dia_ids
are kept here, those that name no turn of the conversation dropped. The observation sentences
themselves are never stored or printed.

The data is CC BY-NC: read from ``../shared/data/locomo/`` at run time, never copied here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.locomo_data import load
from graphmem.models.episode import EpisodeIn

_SPLIT_IDS = re.compile(r"[;,]\s*")


@dataclass
class FactsConversation:
    sample_id: str
    group_id: str
    speakers: tuple[str, ...]
    episodes: list[EpisodeIn] = field(default_factory=list)
    observed: set[str] = field(default_factory=set)  # dia_ids the observations cite

    @property
    def turns(self) -> dict[str, EpisodeIn]:
        return {e.external_id: e for e in self.episodes if e.external_id}


def load_conversations(
    path: str | Path,
    *,
    group_prefix: str,
    conversations: list[str] | None = None,
    sessions: int | None = None,
    limit: int | None = None,
) -> list[FactsConversation]:
    """The conversations of the file (``conversations``: those sample ids; ``limit``: the first N;
    ``sessions``: each one's first N sessions, observations of later sessions dropped too)."""
    dataset = load(path, group_prefix=group_prefix, conversations=conversations, sessions=sessions)
    raw = _raw(path)
    chosen = dataset.conversations[:limit] if limit is not None else dataset.conversations
    result = []
    for conv in chosen:
        sample = raw.get(conv.sample_id, {})
        known = conv.dia_ids
        speakers = tuple(dict.fromkeys(e.speaker for e in conv.episodes if e.speaker))
        observed = {d for d in observation_ids(sample) if d in known}
        result.append(FactsConversation(conv.sample_id, conv.group_id, speakers, conv.episodes, observed))
    return result


def _raw(path: str | Path) -> dict[str, dict[str, Any]]:
    with open(path, encoding="utf-8-sig") as fh:
        document = json.load(fh)
    samples = document if isinstance(document, list) else [document]
    return {str(s.get("sample_id")): s for s in samples if isinstance(s, dict)}


def observation_ids(sample: dict[str, Any]) -> list[str]:
    """Every dia_id the sample's observations cite, in file order (duplicates kept)."""
    ids: list[str] = []
    observation = sample.get("observation")
    if not isinstance(observation, dict):
        return ids
    for per_session in observation.values():
        if not isinstance(per_session, dict):
            continue
        for items in per_session.values():
            for item in items if isinstance(items, list) else []:
                if not isinstance(item, list | tuple) or len(item) < 2:
                    continue
                cited = item[1] if isinstance(item[1], list) else [item[1]]
                for one in cited:
                    ids.extend(p for p in _SPLIT_IDS.split(str(one).strip()) if p)
    return ids
