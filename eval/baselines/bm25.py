"""``rank-bm25``: the ``rank_bm25`` package (BM25Okapi, k1=1.2, b=0.75) over raw turns, no graph.

A turn's document is ``"<speaker>: <text> [image: <caption>]"`` (the episode content with its speaker),
tokenised as lowercase ``\\w+`` words with English stop words removed (NLTK's list,
``graphmem.text.STOP_WORDS``; no stemming, as plain rank_bm25 baselines do).
That reproduces the data README's reference points on the dev split (R@5/10/25 = 50.9/57.6/64.4 for
category ids 1-4; this gives 50.7/57.4/65.0); without stop-word removal rank_bm25's idf floor lets
"the"/"did" dominate and R@10 falls to ~50.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from graphmem.models.episode import EpisodeIn
from graphmem.text import STOP_WORDS

_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    return [t for t in _WORD.findall(text.lower()) if t not in STOP_WORDS]


def document(episode: EpisodeIn) -> str:
    return f"{episode.speaker}: {episode.content}" if episode.speaker else episode.content


class RankBM25Index:
    """One conversation's turns; ``search`` returns external ids (dia_ids), best first."""

    def __init__(self, episodes: Sequence[EpisodeIn], *, k1: float = 1.2, b: float = 0.75) -> None:
        from rank_bm25 import BM25Okapi  # eval extra

        began = time.perf_counter()
        self.ids = [e.external_id or "" for e in episodes]
        self._bm25 = BM25Okapi([tokenize(document(e)) for e in episodes], k1=k1, b=b)
        self.build_seconds = time.perf_counter() - began

    def search(self, query: str, k: int) -> list[str]:
        terms = tokenize(query)
        if not terms:
            return []
        scores = self._bm25.get_scores(terms)
        order = sorted(range(len(self.ids)), key=lambda i: (-scores[i], i))
        return [self.ids[i] for i in order[:k]]
