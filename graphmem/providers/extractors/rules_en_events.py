"""Facts that chat states without a dedicated verb, read off the dependency tree.

- **events in a place phrase**: a past clause with an event noun after "at", "to", "in", "during"
  or "after" is the speaker attending it, whatever the verb: "We had a blast at the Pride fest",
  "I made it in pottery class", "I danced all night at my cousin's wedding" → attended.
- **pets named by possession**: "my" + a pet noun anywhere in a sentence ("Here's a pic of my
  dog", "Oscar, my guinea pig", "our cat named Bailey"), or a pet got, adopted or rescued
  ("we got another cat named Bailey") → has_pet, the name kept ("guinea pig named Oscar").
- **preferences said with a copula**: "X is my thing / passion / jam / favorite / hobby", "X is a
  huge part of my life" → likes X.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_objects import PETS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

Phrase = Callable[["Token"], "str | None"]

_EVENT_PREPS = frozenset("at to in during after from".split())
_PET_VERBS = frozenset("get adopt rescue have bring foster welcome".split())
_PASSION_NOUNS = frozenset(
    "thing passion jam favorite favourite hobby obsession love go-to escape outlet relief sanctuary "
    "therapy haven refuge".split()
)
_NO_EVENT_HEADS = frozenset("miss skip cancel postpone plan organize organise host hold throw".split())


def _past(verb: Token) -> bool:
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if verb.dep_ == "conj" and not auxes:
        return _past(verb.head)
    return verb.tag_ == "VBD" or (verb.tag_ == "VBN" and any(a.lemma_ == "have" for a in auxes))


def event_claims(verb: Token, phrase: Phrase, event_nouns: frozenset[str]) -> list[Claim]:
    """ "attended <event>" for an event noun in a place phrase of a past clause (see above)."""
    if not _past(verb) or verb.lemma_.lower() in _NO_EVENT_HEADS:
        return []
    out: list[Claim] = []
    for p in verb.children:
        if p.dep_ != "prep" or p.lower_ not in _EVENT_PREPS:
            continue
        for obj in p.children:
            if obj.dep_ == "pobj" and obj.lemma_.lower() in event_nouns and obj.pos_ == "NOUN":
                value = phrase(obj)
                if value:
                    out.append(Claim("attended", value))
    return out


def _pet_value(noun: Token, phrase: Phrase) -> str | None:
    """ "guinea pig named Oscar" for the pet noun ``noun`` with a name beside it."""
    words = [c for c in noun.lefts if c.dep_ in ("compound", "amod") and c.pos_ in ("NOUN", "ADJ", "PROPN")]
    words = [
        c for c in words if c.lower_ not in ("new", "little", "sweet", "cute", "other", "another", "old")
    ]
    base = " ".join([*(w.text for w in words), noun.text])
    name: str | None = None
    for c in noun.children:
        if c.dep_ in ("appos",) and c.pos_ == "PROPN":
            name = phrase(c)
        if c.dep_ == "acl" and c.lemma_ in ("name", "call"):
            named = next(
                (
                    o
                    for o in c.children
                    if o.dep_ in ("oprd", "attr", "dobj", "npadvmod") and o.pos_ == "PROPN"
                ),
                None,
            )
            name = phrase(named) if named is not None else None
    if noun.dep_ == "appos" and noun.head.pos_ == "PROPN":  # "Oscar, my guinea pig"
        name = phrase(noun.head)
    return f"{base} named {name}" if name else base


def pet_claims(doc: Doc, phrase: Phrase) -> list[Claim]:
    """has_pet for "my"/"our" + a pet noun, or a pet got or adopted by the speaker."""
    out: list[Claim] = []
    for tok in doc:
        if tok.pos_ != "NOUN" or tok.lemma_.lower() not in PETS:
            continue
        owner = next((c for c in tok.children if c.dep_ == "poss"), None)
        mine = owner is not None and owner.lower_ in ("my", "our")
        head = tok.head
        got = (
            tok.dep_ == "dobj"
            and head.lemma_.lower() in _PET_VERBS
            and _past(head)
            and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in head.children)
        )
        if not (mine or got) or any(c.dep_ == "neg" for c in head.children):
            continue
        if head.lemma_.lower() in ("lose", "miss", "bury") or (tok.lower_ != tok.lemma_.lower() and not got):
            continue  # "I miss my dog", plural "my dogs" said in passing
        value = _pet_value(tok, phrase)
        if value and not any(c.obj == value for c in out):
            out.append(Claim("has_pet", value, subject=SPEAKER))
    return out


def passion_claims(verb: Token, phrase: Phrase) -> list[Claim]:
    """ "Guitar's mostly my thing", "Pottery is a huge part of my life" → likes."""
    if verb.lemma_ != "be" or any(c.dep_ == "neg" for c in verb.children):
        return []
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    attr = next((c for c in verb.children if c.dep_ in ("attr", "acomp")), None)
    if subj is None or attr is None or subj.pos_ not in ("NOUN", "PROPN", "VERB"):
        return []
    owner = next((c for c in attr.children if c.dep_ == "poss"), None)
    mine = owner is not None and owner.lower_ == "my"
    if attr.lemma_.lower() in _PASSION_NOUNS and mine:
        pass
    elif attr.lemma_.lower() == "part" and any(
        o.lower_ == "life" and any(c.lower_ == "my" for c in o.children)
        for p in attr.children
        if p.dep_ == "prep" and p.lower_ == "of"
        for o in p.children
    ):
        pass
    else:
        return []
    value = phrase(subj)
    if value and subj.left_edge.i == 0 and subj.left_edge.pos_ != "PROPN":
        value = value[:1].lower() + value[1:]  # "Painting landscapes is my favorite"
    return [Claim("likes", value, subject=SPEAKER)] if value else []
