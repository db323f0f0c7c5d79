"""A deed told as the time of another clause: "After finishing my screenplay I got a rejection
letter", "Since starting yoga I've slept better", "After losing my job, I wanted a change".

The gerund under "after" / "since" is a deed the speaker already did: it is read as its verb's
open claim (``rules_en_readers._deed``: "finishes screenplay", "starts yoga", "loses job"), with
the subject of the clause it dates. The clause must be the speaker's (or a name's) and state
something (``rules_en_readers.asserted``: no question, negation, hypothesis, wish or hearsay);
a clause ahead ("After finishing X I'll take a break", "... I'm going to ...") dates a deed that
has not happened, and gives nothing. Not for "before" (what comes before may never happen), a
gerund with its own subject, a negated gerund ("after not sleeping"), or an object that is a
pronoun or a pointer ("after reading it", ``object_phrase`` refuses those).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_chat import subject_of
from graphmem.providers.extractors.rules_en_parse import Speakers, clause_text, is_negated

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_AFTER = frozenset("after since".split())
_AHEAD = frozenset("will 'll shall gon gonna going wanna".split())


def _dated_clause(gerund: Token) -> Token | None:
    """The verb of the clause that ``gerund`` (the object of "after"/"since") dates."""
    if gerund.tag_ != "VBG" or gerund.dep_ not in ("pcomp", "pobj"):
        return None
    prep = gerund.head
    if prep.lower_ not in _AFTER or prep.dep_ not in ("prep", "mark", "advmod"):
        return None
    verb = prep.head
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        verb = verb.head  # "I was so happy after finishing": the adjective's verb
    return verb if verb.pos_ in ("VERB", "AUX") else None


def _ahead(verb: Token) -> bool:
    """The clause tells what is still to come: a modal or "going to" before it."""
    if verb.lemma_ == "go" and verb.tag_ == "VBG" and any(c.dep_ == "xcomp" for c in verb.children):
        return True  # "After X I'm going to take a break"
    for tok in [verb, *verb.ancestors]:
        if any(c.dep_ in ("aux", "auxpass") and (c.tag_ == "MD" or c.lower_ in _AHEAD) for c in tok.children):
            return True
        if tok.tag_ == "VB" and tok.dep_ in ("xcomp", "ccomp") and tok.head.lemma_ == "go":
            return True
    return verb.tag_ == "VB" and verb.dep_ == "ROOT"  # an imperative: "After eating, rest"


def since_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The deeds of "after / since + gerund" (module docstring), each with its clause text."""
    from graphmem.providers.extractors.rules_en_readers import _deed, asserted

    if doc.text.rstrip().endswith("?"):
        return []
    out: list[tuple[Claim, str]] = []
    for gerund in doc:
        verb = _dated_clause(gerund)
        if verb is None or not asserted(verb) or _ahead(verb):
            continue
        if is_negated(gerund) or any(c.dep_ in ("nsubj", "nsubjpass", "mark") for c in gerund.children):
            continue
        resolved = subject_of(verb, speakers)
        if resolved is None:
            continue
        subject = SPEAKER if resolved[1] else resolved[0]
        for claim in _deed(gerund, speakers):
            claim.subject = subject
            out.append((claim, clause_text(verb)))
    return out
