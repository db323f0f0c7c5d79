"""What a query asks for, read from its words (pure): the current state, or a time.

"Where do I live now?", "What is my current job?", "my most recent trip", "我现在住在哪里": the
newest evidence should win over older evidence of the same kind. ``adapt`` turns that into the
recipe's ``current_recency_weight``; every other query keeps the recipe as it is.
"What did I buy two weeks ago?", "去年五月": ``time_focus`` resolves the query's first time phrase
against the query's reference time (its ``as_of``, else now), which the rerank boosts evidence near
(``SearchConfig.time_weight``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from graphmem.providers.extractors.timeparse import find_times
from graphmem.retrieval.config import SearchConfig

_CURRENT_EN = re.compile(
    r"\b(now|nowadays|currently|current|latest|these days|at the moment|most recent(ly)?|so far|"
    r"still|anymore|any more|today)\b",
    re.IGNORECASE,
)
_CURRENT_ZH = re.compile("现在|目前|当前|如今|最近|最新|还在|至今")


# a question about what the other side of the chat said: "you told me", "what did you recommend",
# "our previous conversation", "remind me of the company"; a request for something new ("Can you
# recommend a hotel?", "could you suggest") asks nothing of the past, and is the user's own need
_SAID = (
    r"told|said|mentioned|recommended|suggested|gave|wrote|created|made|listed|provided|shared|"
    r"explained|described|proposed|offered|advised|showed|named|called"
)
_SAY = (
    r"tell|say|mention|recommend|suggest|give|write|create|make|list|provide|share|explain|"
    r"describe|propose|offer|advise|show|name|call"
)
_YOU_SAID = re.compile(
    rf"\byou\s+(?:\w+\s+)?({_SAID})\b|\bdid\s+you\s+(?:\w+\s+)?({_SAY})\b|\byour\s+"
    r"(answer|reply|response|suggestion|recommendation|advice|list|explanation)\b|"
    r"\bour\s+(?:\w+\s+)?(conversation|chat|discussion|exchange|talk)\b|"
    r"\bremind\s+me\s+(of|what|which|who|where|when|how|about)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|my|me|mine|myself)\b", re.IGNORECASE)
_WORDS = re.compile(r"\w+", re.UNICODE)
USER_ROLES = frozenset({"user", "human"})
ASSISTANT_ROLES = frozenset({"assistant", "ai", "bot"})


def named_speakers(query: str, speakers: frozenset[str]) -> frozenset[str]:
    """Which of a tenant's ``speakers`` (casefolded) the query points at: every one whose name (or
    first name) it says; for chat roles, the assistant when it asks what "you" said, else the user
    when it speaks in the first person. Empty when it points at none, or at all of them."""
    words = {w.casefold() for w in _WORDS.findall(query)}
    named = frozenset(s for s in speakers if s not in USER_ROLES | ASSISTANT_ROLES and _said(s, words))
    if not named:
        if asks_what_you_said(query):
            named = speakers & ASSISTANT_ROLES
        elif _FIRST_PERSON.search(query):
            named = speakers & USER_ROLES
    return named if named != speakers else frozenset()


def asks_what_you_said(query: str) -> bool:
    """True when the query asks what the other side of a chat said before ("what did you
    recommend", "you mentioned", "our previous conversation", "remind me of"), not when it asks
    for something now ("Can you recommend a hotel?")."""
    return bool(_YOU_SAID.search(query))


def role_pointed_at(query: str) -> str | None:
    """The chat role a query points at: "assistant" when it asks what the other side said,
    "user" when it speaks in the first person, else None (``focus.role_terms``)."""
    if asks_what_you_said(query):
        return "assistant"
    if _FIRST_PERSON.search(query):
        return "user"
    return None


def _said(speaker: str, words: set[str]) -> bool:
    parts = _WORDS.findall(speaker)
    return bool(parts) and (all(p in words for p in parts) or parts[0] in words)


def asks_current(query: str) -> bool:
    """True when the query asks for the current (latest) state of something."""
    return bool(_CURRENT_EN.search(query) or _CURRENT_ZH.search(query))


def adapt(cfg: SearchConfig, query: str) -> SearchConfig:
    """``cfg`` with its recency weight raised to ``current_recency_weight`` for a current-state
    query; ``cfg`` itself otherwise."""
    if cfg.current_recency_weight is None or not asks_current(query):
        return cfg
    return cfg.model_copy(update={"recency_weight": cfg.current_recency_weight})


def time_focus(query: str, reference: datetime) -> float | None:
    """Epoch seconds of the first time phrase of ``query`` that resolves against ``reference`` to
    a day before it. A phrase that points ahead ("next week") or at the asking day itself
    ("tonight", "this weekend") names no past evidence to look near: it is the query's own moment,
    which the current-state recency covers."""
    today = reference.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    for match in find_times(query, reference):
        if match.when is not None and not match.future and match.when < today:
            return match.when.timestamp()
    return None
