"""Okapi BM25 over one target's analysed ``search_text``, with the tenant's own statistics (pure).

Postings are per-term dicts (slot -> term frequency) so that a document can be rewritten in place
(an episode's session context changes when its neighbours arrive); each term's postings are turned
into numpy arrays once and cached until the term's postings change. Scoring a query is then a few
vectorised adds over the query terms' postings. k1, b (``length_b`` of the average length) and the
IDF floor are ``graphmem.retrieval.bm25``'s.

Pickled (``tenant_index.persist``), the postings and texts travel as ``Frozen`` columns (the terms
sorted, one CSR of slots and frequencies, the texts as one string with offsets): unpickling then
copies a few arrays instead of building a dict per term. A loaded ``Lexical`` reads a term's
postings and a slot's text from the columns until a write touches them; then that term (or text)
moves into the dicts, which win from then on.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmem.retrieval.bm25 import K1, idf, length_b
from graphmem.retrieval.tenant_index.columns import Column, Strings


@dataclass
class Frozen:
    """Postings and texts as columns: ``terms`` sorted, the postings of term i at
    ``rows[starts[i]:starts[i + 1]]`` (slots, ascending) with their frequencies in ``tf``; the
    text of slot s is ``texts[s]`` where ``has_text[s]``."""

    terms: Strings
    starts: np.ndarray
    rows: np.ndarray
    tf: np.ndarray
    has_text: np.ndarray
    texts: Strings

    @classmethod
    def of(cls, postings: dict[str, dict[int, int]], texts: dict[int, str], size: int) -> Frozen:
        terms = sorted(t for t, p in postings.items() if p)
        counts = np.fromiter((len(postings[t]) for t in terms), dtype=np.int64, count=len(terms))
        starts = np.zeros(len(terms) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        rows = np.empty(int(starts[-1]), dtype=np.int64)
        tf = np.empty(int(starts[-1]), dtype=np.float32)
        for i, term in enumerate(terms):
            post = sorted(postings[term].items())
            rows[starts[i] : starts[i + 1]] = [s for s, _ in post]
            tf[starts[i] : starts[i + 1]] = [f for _, f in post]
        has_text = np.zeros(size, dtype=np.bool_)
        has_text[list(texts)] = True
        return cls(
            Strings(terms), starts, rows, tf, has_text, Strings([texts.get(s, "") for s in range(size)])
        )

    def find(self, term: str) -> int:
        """The term's row in ``terms``; -1 when absent."""
        i = bisect_left(self.terms, term)
        return i if i < len(self.terms) and self.terms[i] == term else -1

    def postings(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        return self.rows[self.starts[i] : self.starts[i + 1]], self.tf[self.starts[i] : self.starts[i + 1]]

    def text(self, slot: int) -> str | None:
        if slot >= len(self.has_text) or not self.has_text[slot]:
            return None
        return self.texts[slot]

    def nbytes(self) -> int:
        arrays = (self.starts, self.rows, self.tf, self.has_text)
        return sum(a.nbytes for a in arrays) + self.terms.nbytes() + self.texts.nbytes()


class Lexical:
    def __init__(self) -> None:
        self.postings: dict[str, dict[int, int]] = {}
        self.cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.texts: dict[int, str] = {}
        self.length = Column(np.float32)
        self.total_length = 0
        self.size = 0  # slots seen (the length column's extent)
        self.n_docs = 0  # slots with a text
        self.frozen: Frozen | None = None  # a loaded index's columns (module docstring)

    # --- pickling: the dicts as columns -------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))
        postings = dict(self.postings)
        if self.frozen is not None:  # read, not moved: pickling leaves the index as it was
            for i in range(len(self.frozen.terms)):
                term = self.frozen.terms[i]
                if term not in postings:
                    postings[term] = _as_dict(*self.frozen.postings(i))
        texts = {s: t for s in range(self.size) if (t := self._text(s)) is not None}
        state.update(postings={}, cache={}, texts={}, frozen=Frozen.of(postings, texts, self.size))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)

    def _posting(self, term: str) -> dict[int, int] | None:
        """The term's postings as a dict, moved out of the frozen columns on first use."""
        found = self.postings.get(term)
        if found is None and self.frozen is not None:
            i = self.frozen.find(term)
            if i >= 0:
                rows, tf = self.frozen.postings(i)
                found = self.postings[term] = _as_dict(rows, tf)
        return found

    def _text(self, slot: int) -> str | None:
        found = self.texts.get(slot)
        if found is None and self.frozen is not None:
            return self.frozen.text(slot)
        return found

    def _df(self, term: str) -> int:
        found = self.postings.get(term)
        if found is not None:
            return len(found)
        if self.frozen is not None:
            i = self.frozen.find(term)
            if i >= 0:
                return int(self.frozen.starts[i + 1] - self.frozen.starts[i])
        return 0

    # --- writes and scoring -------------------------------------------------------------------
    def set(self, slot: int, text: str | None) -> None:
        text = text or ""
        old = self._text(slot)
        if old == text:
            return
        if old is not None:
            for term in Counter(old.split()):
                posting = self._posting(term)
                assert posting is not None
                del posting[slot]
                self.cache.pop(term, None)
            self.total_length -= int(self.length.data[slot])
        else:
            self.n_docs += 1
        tokens = text.split()
        bag = Counter(tokens)
        for term, tf in bag.items():
            posting = self._posting(term)
            if posting is None:
                self.postings[term] = {slot: tf}
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
            post = self.postings.get(term)
            if post is None and self.frozen is not None and (i := self.frozen.find(term)) >= 0:
                cached = self.frozen.postings(i)
            else:
                post = post or {}
                cached = (
                    np.fromiter(post.keys(), dtype=np.int64, count=len(post)),
                    np.fromiter(post.values(), dtype=np.float32, count=len(post)),
                )
            self.cache[term] = cached
        return cached

    def scores(self, terms: list[str]) -> np.ndarray:
        """A dense score per slot (0 where no query term occurs)."""
        n_docs = self.n_docs
        out = np.zeros(self.size, dtype=np.float32)
        if not n_docs or not terms:
            return out
        weights = idf({t: self._df(t) for t in terms}, n_docs)
        lengths = self.length.view(self.size)
        avgdl = max(self.total_length / n_docs, 1e-9)
        b = length_b(avgdl)
        for term, w in weights.items():
            rows, tf = self._arrays(term)
            if len(rows):
                norm = K1 * (1 - b + b * lengths[rows] / avgdl)
                out[rows] += w * tf * (K1 + 1) / (tf + norm)
        return out

    def nbytes(self) -> int:
        """The frozen columns' bytes (0 when none)."""
        return 0 if self.frozen is None else self.frozen.nbytes()


def _as_dict(rows: np.ndarray, tf: np.ndarray) -> dict[int, int]:
    return dict(zip(rows.tolist(), tf.astype(np.int64).tolist(), strict=True))
