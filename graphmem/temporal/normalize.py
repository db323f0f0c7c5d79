"""Unicode-aware name normalisation, value keys, slot keys and readable statements."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from graphmem.models.predicates import lookup

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+", re.UNICODE)
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)


def normalize_name(name: str) -> str:
    """NFKC, case-fold, drop punctuation and a leading article, collapse spaces.

    Chinese (and any other script) survives: ``\\w`` is Unicode-aware, so "张伟" stays "张伟".
    If stripping punctuation would leave nothing, the folded original is kept.
    """
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    cleaned = _SPACE.sub(" ", _PUNCT.sub(" ", folded)).strip()
    cleaned = _ARTICLE.sub("", cleaned)
    return cleaned or folded


def value_key(value: str) -> str:
    return normalize_name(value)


def slot_key(subject_id: str, predicate: str, value: str, qualifier: str = "") -> str:
    """The history a fact belongs to: functional predicates share one slot per subject
    (and qualifier); multi-valued ones get a slot per value."""
    parts = [subject_id, predicate, qualifier]
    if not lookup(predicate).functional:
        parts.append(value_key(value))
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()


def statement(subject: str, predicate: str, value: str) -> str:
    phrase = lookup(predicate).phrase or predicate.replace("_", " ")
    if predicate == "has_pet":
        return f"{subject} has a pet: {value}"
    if predicate == "plans":
        return f"{subject} plans to {value}"
    return f"{subject} {phrase} {value}"


def group_token(group_id: str) -> str:
    """A single Lucene token standing for the group inside full-text indexes."""
    return "g" + hashlib.sha1(group_id.encode("utf-8")).hexdigest()[:20]
