"""BM25 with tenant-local statistics, to rescore Lucene's candidates (pure).

Neo4j's full-text index is shared by every tenant, so Lucene's IDF counts every tenant's documents:
a name that is everywhere in one conversation ("Caroline") looks rare next to other tenants and
drowns the words that matter. The channel fetches Lucene's candidates, counts each query term's
document frequency *inside the tenant*, and rescores with Okapi BM25; IDF follows the usual
non-negative floor for terms in more than half of the documents. Documents arrive analysed
(``graphmem.text.search_text``: stems, no stop words), so a document's terms are its words.
k1 0.9 and b 0.4 (Anserini's defaults) beat 1.2/0.75 on the LoCoMo dev split: short chat turns
gain little from strong length normalisation (R@10 0.633 vs 0.611, docs/design-notes.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence


def tokens(analysed: str) -> list[str]:
    return analysed.split()


def idf(df: Mapping[str, int], n_docs: int, *, floor: float = 0.25) -> dict[str, float]:
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
    k1: float = 0.9,
    b: float = 0.4,
) -> list[tuple[str, float]]:
    """Rank ``docs`` (id -> text) for ``query_terms`` with tenant-local ``df`` over ``n_docs``."""
    weights = idf({t: df.get(t, 0) for t in query_terms}, max(n_docs, 1))
    bags = {doc_id: Counter(tokens(text)) for doc_id, text in docs.items()}
    lengths = {doc_id: sum(bag.values()) for doc_id, bag in bags.items()}
    avgdl = (sum(lengths.values()) / len(lengths)) if lengths else 1.0
    scored = []
    for doc_id, bag in bags.items():
        norm = k1 * (1 - b + b * lengths[doc_id] / max(avgdl, 1e-9))
        score = sum(w * bag[t] * (k1 + 1) / (bag[t] + norm) for t, w in weights.items() if bag[t])
        scored.append((doc_id, score))
    return sorted(scored, key=lambda item: (-item[1], item[0]))
