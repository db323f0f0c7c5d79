"""Okapi BM25 over one target's analysed ``search_text``, with the tenant's own statistics (pure).

Postings are per-term dicts (slot -> term frequency) so that a document can be rewritten in place
(an episode's session context changes when its neighbours arrive); each term's postings are turned
into numpy arrays once and cached until the term's postings change. Scoring a query is then a few
vectorised adds over the query terms' postings. k1/b and the IDF floor are ``graphmem.retrieval.bm25``'s.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from graphmem.retrieval.bm25 import K1, B, idf
from graphmem.retrieval.tenant_index.columns import Column


class Lexical:
    def __init__(self) -> None:
        self.postings: dict[str, dict[int, int]] = {}
        self.cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.texts: dict[int, str] = {}
        self.length = Column(np.float32)
        self.total_length = 0
        self.size = 0  # slots seen (the length column's extent)

    def set(self, slot: int, text: str | None) -> None:
        text = text or ""
        old = self.texts.get(slot)
        if old == text:
            return
        if old is not None:
            for term in Counter(old.split()):
                del self.postings[term][slot]
                self.cache.pop(term, None)
            self.total_length -= int(self.length.data[slot])
        tokens = text.split()
        bag = Counter(tokens)
        postings = self.postings
        for term, tf in bag.items():
            posting = postings.get(term)
            if posting is None:
                postings[term] = {slot: tf}
            else:
                posting[slot] = tf
        if self.cache:  # empty while a tenant loads: nothing to invalidate
            for term in bag:
                self.cache.pop(term, None)
        self.texts[slot] = text
        self.length[slot] = len(tokens)
        self.total_length += len(tokens)
        self.size = max(self.size, slot + 1)

    def _arrays(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        cached = self.cache.get(term)
        if cached is None:
            post = self.postings.get(term, {})
            cached = (
                np.fromiter(post.keys(), dtype=np.int64, count=len(post)),
                np.fromiter(post.values(), dtype=np.float32, count=len(post)),
            )
            self.cache[term] = cached
        return cached

    def scores(self, terms: list[str]) -> np.ndarray:
        """A dense score per slot (0 where no query term occurs)."""
        n_docs = len(self.texts)
        out = np.zeros(self.size, dtype=np.float32)
        if not n_docs or not terms:
            return out
        weights = idf({t: len(self.postings.get(t, ())) for t in terms}, n_docs)
        lengths = self.length.view(self.size)
        avgdl = max(self.total_length / n_docs, 1e-9)
        for term, w in weights.items():
            rows, tf = self._arrays(term)
            if len(rows):
                norm = K1 * (1 - B + B * lengths[rows] / avgdl)
                out[rows] += w * tf * (K1 + 1) / (tf + norm)
        return out
