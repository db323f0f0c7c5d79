"""Shared shapes for the rules extractor's language modules (``rules_en``, ``rules_zh``).

A language module turns one sentence (time phrases already cut out) into a ``ParsedSentence``:
the claims it makes, each with its subject (``None`` means the speaker), plus sentence-level
flags (hedged, explicit correction). ``rules.py`` turns those into ``ExtractedFact`` objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphmem.models.extraction import ClaimKind

SPEAKER: None = None
"""Subject marker for first-person claims: bound to the episode's speaker later."""


@dataclass(slots=True)
class Claim:
    """One predicate claim found in a sentence.

    ``needs_future``: keep only when the sentence has a future time phrase ("I'm going to X next
    week"). ``keeps_time``: the time phrase belongs in the value (plans), not in ``valid_from``.
    ``from_context``: "I meant X, not Y"; predicate and subject come from an earlier claim about Y
    (a non-empty ``predicate`` is the language module's guess, kept when no earlier claim matches).
    ``inferred``: this clause alone is a plan or a hedge (source ``inferred``), unlike
    ``ParsedSentence.hedged``, which covers the whole sentence. ``before``: the old value of a change
    stated in the same clause ("moved from X to Y"), dated just before the clause's time.
    ``framed``: read by a functional-predicate frame of the parse (``rules_en_frames``), which then
    decides over the phrasing rules' claim about the same value. ``past``: a state said in the past
    tense ("I was a teacher"): a fact only when the sentence says when it ended ("until 2020").
    """

    predicate: str
    obj: str
    subject: str | None = SPEAKER
    kind: ClaimKind = "assert"
    qualifier: str = ""
    replaces: str | None = None
    object_kind: str | None = None
    needs_future: bool = False
    keeps_time: bool = False
    from_context: bool = False
    inferred: bool = False
    before: bool = False
    framed: bool = False
    past: bool = False
    guessed: bool = False  # a correction whose predicate is a guess (``ExtractedFact.guessed``)


@dataclass(slots=True)
class ParsedSentence:
    claims: list[Claim] = field(default_factory=list)
    hedged: bool = False
    correction: bool = False
    replaces: str | None = None
