"""Text helpers shared by indexing and querying: Chinese segmentation, Lucene escaping."""

from __future__ import annotations

import re
import threading
from typing import Any

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_LUCENE_WORDS = re.compile(r"\b(AND|OR|NOT|TO)\b")
_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_jieba: Any = None
_jieba_lock = threading.Lock()


def _segmenter() -> Any:
    global _jieba
    with _jieba_lock:
        if _jieba is None:
            import jieba

            jieba.setLogLevel(60)
            jieba.initialize()
            _jieba = jieba
    return _jieba


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def segment_cjk(text: str) -> list[str]:
    """jieba search-mode tokens of the CJK parts of ``text`` (empty for text without CJK)."""
    if not has_cjk(text):
        return []
    return [t for t in _segmenter().cut_for_search(text) if t.strip() and _WORD.search(t)]


def search_text(text: str) -> str:
    """What full-text indexes store: the text itself plus, for Chinese, space-separated words."""
    words = segment_cjk(text)
    return f"{text} {' '.join(words)}" if words else text


def query_terms(text: str) -> list[str]:
    """Terms of a user query for Lucene: words (and jieba words for Chinese), escaped."""
    terms = [t for t in _WORD.findall(text) if not has_cjk(t)] + segment_cjk(text)
    seen: dict[str, None] = {}
    for term in terms:
        seen.setdefault(escape_lucene(term.lower()), None)
    return [t for t in seen if t]


def escape_lucene(term: str) -> str:
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", term)
    return _LUCENE_WORDS.sub(lambda m: m.group(0).lower(), escaped)
