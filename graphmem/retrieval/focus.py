"""Entity-centred search (pure): the names a question is about, and the boost of what they hold.

A question that names a person ("When did Caroline go to the LGBTQ support group?") is about that
person's own turns and facts: on LoCoMo dev 793 of 885 QA (ids 1-4) name one of the two speakers,
and 1,113 of their 1,153 evidence turns are that speaker's. In a conversation the name is in about
half of the turns (every turn is spoken by one of two people), so BM25 weighs it at about ln 2 and
the vectors not at all: the other speaker's turns on the same topic rank alongside. ``focus_terms``
reads the names (capitalised words past the first word, analysed as the index analyses them);
the executor (``retrieval.pipeline``) finds the candidate episodes that person told
(``speaker_terms``) and ``boost`` raises their fused score. A turn that only says the name is not
raised: in a two-person chat it is mostly the other speaker addressing them (replayed on LoCoMo
dev, raising those too kept about a third of the gain at R@10), and facts whose statement names
the person added nothing at R@10 for 0.8 ms of CPU a query at 100k facts (docs/design-notes.md,
"Seventh session: retrieval — the graph's own contribution"). A name no candidate was told by
("Netflix", in a chat log of "user" and "assistant") moves nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Set
from typing import Any

from graphmem.retrieval.intent import ASSISTANT_ROLES, USER_ROLES, role_pointed_at
from graphmem.text import analyze

Key = tuple[str, str]

# a capitalised word (a name) that is not the sentence's first: "Caroline", "Caroline's", "McDonald"
_SENTENCE = re.compile(r"[^.?!]+[.?!]*")
_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)


def _is_name(word: str) -> bool:
    core = re.split(r"['’]", word)[0]
    return len(core) >= 2 and core[0].isupper() and not core.isupper() and core[1:] != core[1:].upper()


def focus_terms(query: str) -> tuple[str, ...]:
    """The analysed terms of the capitalised words of ``query`` past a sentence's first word, or
    first with a possessive (names by their spelling: "Caroline", "Caroline's", "Mel"; not
    "When", "LGBTQ", "I").
    English only: Chinese and lowercase text yield none. In the order they appear, no repeats."""
    out: dict[str, None] = {}
    for sentence in _SENTENCE.findall(query):
        words = _WORD.findall(sentence)
        for i, word in enumerate(words):
            if _is_name(word) and (i > 0 or re.search(r"['’]s$", word)):
                for term in analyze(re.split(r"['’]", word)[0]):
                    out.setdefault(term, None)
    return tuple(out)


def role_terms(query: str) -> tuple[str, ...]:
    """The analysed speaker terms of the chat role ``query`` points at (``intent.role_pointed_at``):
    the assistant's ("assistant", "ai", "bot") when it asks what the other side said before, the
    user's ("user", "human") when it speaks in the first person, else none. In a log of a user and
    an assistant, what the user said of themselves is what a first-person question is about (94
    of the 104 evidence turns of LongMemEval dev are the user's, the assistant's are long and match
    every topic); a tenant whose speakers are people's names holds no such terms, so nothing moves."""
    role = role_pointed_at(query)
    if role is None:
        return ()
    names = sorted(ASSISTANT_ROLES if role == "assistant" else USER_ROLES)
    return tuple(dict.fromkeys(t for n in names for t in analyze(n)))


def held_in_rows(rows: Iterable[Mapping[str, Any]], terms: Iterable[str]) -> set[Key]:
    """The candidate episodes told by one of ``terms``: ``rows`` of ``id`` and ``speaker_terms``
    (analysed; none for a turn without a speaker). A turn that only says the name is not one of
    them: in a two-person chat it is mostly the other speaker addressing them."""
    wanted = set(terms)
    return {
        ("episode", str(r["id"])) for r in rows if wanted.intersection((r.get("speaker_terms") or "").split())
    }


def boost(fused: Mapping[Key, float], held: Set[Key], weight: float) -> dict[Key, float]:
    """The fused scores with each key in ``held`` raised by ``weight`` in logit space: z-score
    fusion's scores are a logistic of the weighted z-sum (``fusion.zscore``), so this is as if the
    candidate had gained ``weight`` standard deviations in one more channel. Same order otherwise."""
    if weight <= 0 or not held:
        return dict(fused)
    return {key: (_raise(v, weight) if key in held else v) for key, v in fused.items()}


def _raise(p: float, weight: float) -> float:
    p = min(max(p, 1e-15), 1.0 - 1e-15)
    x = math.log(p / (1.0 - p)) + weight
    return 1.0 / (1.0 + math.exp(-max(min(x, 60.0), -60.0)))
