"""Okapi BM25 with tenant-local statistics (pure): the one definition both candidate sources score by.

Neo4j's full-text index is shared by every tenant, so Lucene's IDF counts every tenant's documents:
a name that is everywhere in one conversation ("Caroline") looks rare next to other tenants and
drowns the words that matter. Both sources therefore rank with the tenant's own statistics: the
tenant index (``tenant_index.lexical``, numpy over its postings) and the Neo4j source
(``retrieval.sources``: Lucene finds the tenant's matching documents and returns each one's term
frequencies and length; ``score`` ranks them). The statistics are the same on both: a term's
document frequency and the average length over every node of the label in the tenant (whatever
the search's time view), ``n_docs`` the number of those nodes. IDF follows the usual non-negative
floor for terms in more than half of the documents. Documents arrive analysed
(``graphmem.text.search_text``: stems, no stop words), so a document's terms are its words.
Length normalisation is read from the tenant's own statistics: ``length_b`` sets b from a field's
average length, ``1 / (1 + (LENGTH_PIVOT / avgdl) ** LENGTH_POWER)``. In short documents (chat
lines) a term occurs once and a longer line is not a broader one, so length says little and b stays
low (avgdl 14 terms: b 0.18); in long documents (assistant answers, notes) length tracks how much
they cover, so the usual full normalisation holds (avgdl 95: b 0.91). A tenant that mixes one-line
chat with long answers has a long average and is normalised. The average is in the statistics both
sources already share (``Stats``), so both rank alike and a search pays one power per field. k1 0.9
(Anserini's default). Chosen on both dev sets by ``eval.lexical_probe`` (docs/design-notes.md,
"Recipe selection"): a fixed 0.9 / 0.4 favoured LoCoMo's chat, 1.2 / 0.75 LongMemEval's answers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

K1 = 0.9  # the one definition: tenant_index.lexical imports it and ``length_b``
LENGTH_PIVOT = 30.0  # analysed terms: the average length at which b is 0.5
LENGTH_POWER = 2.0  # how sharply b moves from short-document to long-document tenants
IDF_FLOOR = 0.25


def length_b(avgdl: float) -> float:
    """BM25's b for a field whose documents average ``avgdl`` analysed terms (0 < b < 1, rising
    with the average): little normalisation for short chat lines, nearly full for long texts."""
    if avgdl <= 0:
        return 0.0
    return 1.0 / (1.0 + (LENGTH_PIVOT / avgdl) ** LENGTH_POWER)


@dataclass(frozen=True, slots=True)
class Stats:
    """A label's lexical statistics in one tenant: how many nodes, and their analysed terms in all."""

    n_docs: int
    total_length: int

    @property
    def avgdl(self) -> float:
        return max(self.total_length / self.n_docs, 1e-9) if self.n_docs else 1e-9

    @property
    def b(self) -> float:
        return length_b(self.avgdl)


@dataclass(frozen=True, slots=True)
class Match:
    """One document matching a query: its id, its frequency of each query term (in query order),
    its length in terms, and whether the search's time view shows it."""

    id: str
    tf: tuple[int, ...]
    length: int
    visible: bool = True


def score(
    query_terms: Sequence[str], matches: Sequence[Match], stats: Stats, *, df: Mapping[str, int] | None = None
) -> list[tuple[str, float]]:
    """The visible ``matches`` with a positive score, best first (ties by id). ``df`` defaults to
    the counts over ``matches`` (exact when they are every document of the tenant holding a term);
    ``tenant_index.lexical.Lexical.scores`` computes the same numbers over its postings."""
    if df is None:
        df = {t: sum(1 for m in matches if m.tf[i]) for i, t in enumerate(query_terms)}
    weights = idf({t: df.get(t, 0) for t in query_terms}, stats.n_docs) if stats.n_docs else {}
    avgdl, b = stats.avgdl, stats.b
    scored = []
    for m in matches:
        if not m.visible:
            continue
        norm = K1 * (1 - b + b * m.length / avgdl)
        total = 0.0
        for i, t in enumerate(query_terms):
            if m.tf[i]:
                total += weights[t] * m.tf[i] * (K1 + 1) / (m.tf[i] + norm)
        if total > 0:
            scored.append((m.id, total))
    return sorted(scored, key=lambda item: (-item[1], item[0]))


def tokens(analysed: str) -> list[str]:
    return analysed.split()


def idf(df: Mapping[str, int], n_docs: int, *, floor: float = IDF_FLOOR) -> dict[str, float]:
    raw = {t: math.log((n_docs - d + 0.5) / (d + 0.5)) for t, d in df.items()}
    positive = [v for v in raw.values() if v > 0]
    eps = floor * (sum(positive) / len(positive)) if positive else 0.01
    return {t: v if v > 0 else eps for t, v in raw.items()}


def rescore(
    query_terms: Sequence[str],
    docs: Mapping[str, str],
    df: Mapping[str, int],
    n_docs: int,
    *,
    k1: float = K1,
    b: float | None = None,
) -> list[tuple[str, float]]:
    """Rank ``docs`` (id -> text) for ``query_terms`` with tenant-local ``df`` over ``n_docs``, the
    average length taken over ``docs`` and b from it unless given (a reference implementation)."""
    weights = idf({t: df.get(t, 0) for t in query_terms}, max(n_docs, 1))
    bags = {doc_id: Counter(tokens(text)) for doc_id, text in docs.items()}
    lengths = {doc_id: sum(bag.values()) for doc_id, bag in bags.items()}
    avgdl = (sum(lengths.values()) / len(lengths)) if lengths else 1.0
    b = length_b(avgdl) if b is None else b
    scored = []
    for doc_id, bag in bags.items():
        norm = k1 * (1 - b + b * lengths[doc_id] / max(avgdl, 1e-9))
        score = sum(w * bag[t] * (k1 + 1) / (bag[t] + norm) for t, w in weights.items() if bag[t])
        scored.append((doc_id, score))
    return sorted(scored, key=lambda item: (-item[1], item[0]))
