"""Readers of experiences told in the past and of how the speaker feels now.

- **had** (``had``): "I had a setback last month", "We had our first dance at a cozy
  restaurant", "I had a mentor when I was learning", "I've had some tough times with my
  business": a past (or perfect) "have" with a noun phrase that names what happened. Not a
  chance or opportunity (the deed reader reads what was done with it), a time, a fun or a blast
  (the outing reader reads where), an idea, a feeling or a look; not "had to".
- **got** (``got``): "I got a new place with a bigger backyard", "We got some essentials for the
  puppy", "I got another tattoo": a past "get" of a thing; not help, news, an idea, a chance, a
  point, a message, nor "got to" / "got back" / "got ready".
- **feelings now** (``feels``): "I've been feeling kinda low on confidence", "I'm feeling
  hopeful about the interview": a present or perfect "feel" with an adjective that says how the
  speaker is about something (its prepositional phrase); not a bare mood of the moment ("I'm
  feeling motivated", "I feel blessed": hand labels v6 and v7 judged every such fact vague),
  "feel like", "feel you", "feel free", nor a feeling about the listener.

Each is refused as the other readers refuse (``rules_en_readers.asserted``): a question, a
negation, a hypothesis, a wish, hearsay; and the subject must resolve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_chat import subject_of
from graphmem.providers.extractors.rules_en_parse import (
    EVENT_NOUNS,
    TIME_UNITS,
    Speakers,
    clause_text,
    object_phrase,
)
from graphmem.providers.extractors.rules_en_readers import KIN, asserted_verbs

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_NOT_HAD = frozenset(
    "time times blast fun ball chance opportunity opportunities privilege pleasure honor idea ideas "
    "feeling feelings thought thoughts look go try word words lot bit day days night nights week "
    "weekend morning evening afternoon moment moments experience experiences doubt doubts clue "
    "choice option options break rest seat drink bite laugh laughs dream dreams it one something "
    "nothing anything everything pet pets dog dogs cat cats way ways".split()
)
_GOOD_TIMES = frozenset("blast fun ball time".split())
_NOT_GOT = frozenset(
    "help news idea ideas chance opportunity point message call text it one something nothing "
    "anything everything way time lot bit feeling hang handle grip sense taste word back touch "
    "clue question answer reply response email letter result results place spot".split()
)
_FEEL_WORDS = frozenset(
    "motivated inspired blessed lucky grateful thankful proud fulfilled accepted supported loved "
    "hopeful optimistic confident determined energized energised refreshed rejuvenated relaxed calm "
    "peaceful content stressed anxious nervous overwhelmed exhausted drained tired burnt burned low "
    "down lonely isolated stuck lost conflicted torn homesick nostalgic excited pumped stoked "
    "thrilled ready empowered connected alive free better stronger".split()
)


def _past_have(verb: Token) -> bool:
    """ "I had X", "I've had X": the past or the perfect of "have" as a main verb."""
    if verb.lemma_.lower() != "have" or verb.pos_ != "VERB":
        return False
    if verb.tag_ == "VBD":
        return not any(c.dep_ == "aux" for c in verb.children)
    return verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)


def _thing_of(verb: Token, speakers: Speakers, refused: frozenset[str]) -> str | None:
    if any(c.dep_ == "dative" for c in verb.children):
        return None  # "I got them a new friend": got for someone else
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is None or dobj.pos_ not in ("NOUN", "PROPN"):
        return None
    if any(t.lemma_.lower() in _GOOD_TIMES for t in dobj.subtree):
        return None  # "had a blast camping": what was done is the outing readers'
    lemma = dobj.lemma_.lower()
    if lemma in refused or dobj.lower_ in refused or lemma in TIME_UNITS or lemma in KIN:
        return None
    if any(c.dep_ in ("relcl", "acl") for c in dobj.children):
        return None  # "a tough exam that had me doubting myself": a clause inside
    value = object_phrase(dobj, speakers)
    if value is None:  # too long a phrase: the head with the words before it ("a new place ...")
        mods = [c for c in dobj.lefts if c.dep_ in ("amod", "compound", "nummod") and c.pos_ != "PRON"]
        if any(c.tag_ == "PRP$" and c.lower_ not in ("my", "our") for c in dobj.lefts):
            return None
        value = " ".join(t.text for t in [*mods, dobj]) if mods else None
    return value


def _with_whom(verb: Token, value: str, speakers: Speakers) -> str:
    """ "had a nice chat with a fan": the verb's "with" phrase belongs to the value."""
    prep = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ == "with"), None)
    inner = next((o for o in prep.children if o.dep_ == "pobj"), None) if prep is not None else None
    phrase = object_phrase(inner, speakers) if inner is not None else None
    if phrase and phrase.split()[0].lower() in ("someone", "somebody", "anyone", "everyone", "people"):
        return value  # "with someone named David": who is told apart
    return f"{value} with {phrase}" if phrase and len(f"{value} {phrase}".split()) <= 9 else value


def had_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I had a setback", "We had our first dance at a cozy restaurant" → had."""
    if not _past_have(verb) or any(c.dep_ == "xcomp" for c in verb.children):
        return []
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is not None and dobj.lemma_.lower() in EVENT_NOUNS:
        return []  # "had a game", "had a party": the event readers' attended
    value = _thing_of(verb, speakers, _NOT_HAD)
    return [Claim("had", _with_whom(verb, value, speakers))] if value else []


def got_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I got a new place with a bigger backyard" → got."""
    if verb.lemma_.lower() != "get" and verb.lower_ != "got":
        return []
    if verb.tag_ != "VBD" or any(c.dep_ in ("aux", "xcomp", "prt", "acomp", "ccomp") for c in verb.children):
        return []  # "I've got" is possession; "got to", "got back", "got ready"
    value = _thing_of(verb, speakers, _NOT_GOT)
    return [Claim("got", value)] if value else []


def feel_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm feeling motivated", "I've been feeling low on confidence" → feels."""
    if verb.lemma_.lower() != "feel" or verb.tag_ == "VBD":
        return []
    auxes = [c for c in verb.children if c.dep_ == "aux"]
    if any(a.lower_ in ("was", "were", "had", "'d") or a.tag_ == "MD" for a in auxes):
        return []
    if verb.tag_ == "VBN" and not auxes:
        return []
    adj = next((c for c in verb.children if c.dep_ in ("acomp", "oprd") and c.lower_ in _FEEL_WORDS), None)
    if adj is None or any(c.dep_ in ("xcomp", "ccomp", "advcl") for c in adj.children):
        return []  # "ready to keep pushing": a plan, read elsewhere
    mods = [c for c in adj.children if c.dep_ == "prep"] or [
        c for c in verb.children if c.dep_ == "prep" and c.i == adj.i + 1
    ]  # "feeling low on confidence": the parse hangs "on" on the verb
    if not mods:
        return []  # "I'm feeling motivated": a bare mood of the moment says nothing to keep
    words = [adj.lower_]
    for prep in mods:
        inner = next((o for o in prep.children if o.dep_ == "pobj"), None)
        phrase = object_phrase(inner, speakers) if inner is not None else None
        if phrase is None:
            return []
        words += [prep.lower_, phrase]
    return [Claim("feels", " ".join(words))]


def experience_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The readers of the module docstring over ``doc``, each claim with its clause text."""
    out: list[tuple[Claim, str]] = []
    for verb in asserted_verbs(doc):
        found = had_claims(verb, speakers) + got_claims(verb, speakers)
        resolved = subject_of(verb, speakers)
        if resolved is None:
            continue
        if resolved[1]:
            found += feel_claims(verb, speakers)
        text = clause_text(verb)
        for claim in found:
            claim.subject = SPEAKER if resolved[1] else resolved[0]
            out.append((claim, text))
    return out
