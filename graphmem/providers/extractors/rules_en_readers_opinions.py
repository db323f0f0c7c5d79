"""Readers of the speaker's opinions about things: what matters and what was hard.

- **values** (canonical family: preference): "Unconditional love is so important", "Education is
  essential for a healthy town", "Staying curious is key": a thing (a noun phrase or a whole
  gerund, as ``rules_en_readers_feelings.thing_phrase`` reads it) said to matter, in the present.
- **finds_challenging**: "Losing my job was hard", "Starting my own shop has been tough",
  "Sourcing fabric for my store was a big hurdle": something the speaker did (a gerund) or
  something of theirs ("my commute") said to be hard, a challenge or a struggle; in the past too
  (an experience told).

Refused as every reader refuses (``rules_en_readers.asserted``): a question, a negation ("wasn't
easy" says nothing here), a hypothesis or a modal ("can be tricky"), a wish, hearsay; and a thing
of the talk (a pronoun, "this", the listener's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_parse import Speakers, clause_text
from graphmem.providers.extractors.rules_en_readers import asserted
from graphmem.providers.extractors.rules_en_readers_feelings import thing_phrase

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_MATTERS = frozenset("important key crucial essential vital invaluable".split())
_HARD = frozenset("hard tough difficult tricky challenging rough stressful exhausting draining".split())
_HARD_NOUNS = frozenset("challenge hurdle struggle obstacle battle nightmare".split())


def _subject(verb: Token) -> Token | None:
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "csubj")]
    return subjects[0] if len(subjects) == 1 else None  # two subjects: a broken parse


def _modal(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.tag_ == "MD" for c in verb.children)


def _own(subj: Token) -> bool:
    """Something the speaker did or has: a gerund, or a noun with "my" / "our"."""
    if subj.tag_ == "VBG":
        return True
    return any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in subj.children)


def opinion_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The opinions of the module docstring, each with its clause text."""
    if doc.text.rstrip().endswith("?"):
        return []
    out: list[tuple[Claim, str]] = []
    for verb in doc:
        if verb.lemma_ != "be" or _modal(verb) or not asserted(verb):
            continue
        subj = _subject(verb)
        if subj is None or any(
            t.tag_ == "VBG" and t.i < subj.left_edge.i for t in [*verb.subtree, verb.head]
        ):
            continue  # "Taking time off for our fam is important": the parse took "fam" for the subject
        said = [c for c in verb.children if c.dep_ in ("acomp", "attr")]
        predicate = None
        if verb.tag_ != "VBD" and any(c.lower_ in _MATTERS for c in said):
            predicate = "values"
        elif _own(subj) and any(
            c.lower_ in _HARD or (c.dep_ == "attr" and c.lemma_.lower() in _HARD_NOUNS) for c in said
        ):
            predicate = "finds_challenging"
        if predicate is None:
            continue
        if any(
            c.dep_ == "prep" and any(o.lower_ in ("you", "him", "her", "them") for o in c.children)
            for c in said
        ):
            continue  # "is important for you": said of someone else
        value = thing_phrase(subj, speakers)
        if value:
            out.append((Claim(predicate, value, subject=SPEAKER), clause_text(verb)))
    return out
