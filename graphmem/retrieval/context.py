"""Assemble a context block for a prompt: timestamps and confidences, near-duplicates removed,
within a token budget (tokens estimated as ~4 characters, CJK characters as one each)."""

from __future__ import annotations

from graphmem.models.search import EpisodeHit, FactHit, Hit
from graphmem.retrieval.fusion import jaccard, tokens
from graphmem.text import has_cjk


def estimate_tokens(text: str) -> int:
    if has_cjk(text):
        return sum(1 if "\u3400" <= ch <= "\u9fff" else 0 for ch in text) + len(text) // 8 + 1
    return len(text) // 4 + 1


def _line(hit: Hit) -> str:
    if isinstance(hit, FactHit):
        f = hit.fact
        when = f.valid_from.date().isoformat() if f.valid_from else "?"
        until = f.valid_to.date().isoformat() if f.valid_to else "now"
        return f"- [fact {when}..{until}, confidence {f.confidence:.2f}] {f.statement}"
    if isinstance(hit, EpisodeHit):
        e = hit.episode
        who = f"{e.speaker}: " if e.speaker else ""
        return f"- [{e.reference_time.date().isoformat()}] {who}{e.content}"
    return ""


def build_context(hits: list[Hit], budget: int, *, duplicate_threshold: float = 0.8) -> str:
    lines: list[str] = []
    seen: list[frozenset[str]] = []
    used = 0
    for hit in hits:
        line = _line(hit)
        if not line:
            continue
        toks = tokens(line.split("] ", 1)[-1])
        if any(jaccard(toks, s) >= duplicate_threshold for s in seen):
            continue
        cost = estimate_tokens(line)
        if used + cost > budget:
            break
        lines.append(line)
        seen.append(toks)
        used += cost
    return "\n".join(lines)
