"""Readers of what a reaction to the listener takes for granted about them.

In a two-party session, gladness, praise and congratulations take the listener's deed as given:
"So glad you adopted a kitten" says the other speaker has a kitten, "Congrats on finishing
your degree" that they finished it. The deed is read by the readers of a stated clause (the open
verb-object rule, ``has`` of the chat rules) with the other speaker as its subject; "got" and
"had" told back ("So glad you got the support") say too little and are not read. Four frames:

- **gladness over a clause** (``ccomp`` of a glad word, or under "to hear / see / know" after
  one): "So glad you adopted a kitten", "That's awesome that you adopted a puppy", "Great to
  hear you joined a new choir", "Happy to hear you've started painting again", "So glad you joined the
  band" ("Glad" hung on the verb by the small model counts too);
- **congratulations on a deed**: "Congrats on finishing your degree", "Congratulations on
  opening the studio", "Kudos for running the marathon";
- **pride in the listener for a deed**: "I'm so proud of you for running the marathon";
- **a question after the listener's relative or pet** (``asked_after``): "How's your new
  puppy?", "How is your daughter doing?" → the other speaker has a puppy / a daughter.

Refused: a one-speaker or group session (no other speaker to name), a question, a negated,
hypothetical or modal clause ("Glad you didn't get hurt", "Glad you could come"), a future,
a subject other than "you", a gladness word that is negated or asked ("Aren't you glad you
went?"), a clause under a wish ("I hope you got ..."), and the canonical functional predicates
(where someone lives or works is told in their own words, ``rules_en_frames``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.models.predicates import lookup
from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_en_chat import have_claims
from graphmem.providers.extractors.rules_en_lemma import verb_lemma
from graphmem.providers.extractors.rules_en_objects import PETS
from graphmem.providers.extractors.rules_en_parse import (
    SKIP_VERBS,
    Speakers,
    _open_name,
    _verb_claims,
    clause_text,
    is_hypothetical,
    is_negated,
)
from graphmem.providers.extractors.rules_en_readers import KIN

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_GLAD = frozenset(
    "glad happy great awesome cool amazing nice good wonderful fantastic fab proud thrilled "
    "stoked excited impressive incredible brilliant lovely sweet neat relieved".split()
)
_PERCEIVE = frozenset("hear see know learn read".split())
_CONGRATS = frozenset("congrats congratulations kudos props".split())
_YOU = frozenset("you ya u".split())
# the talk's own things in a deed told back: a pointer, or the speaker's ("our love of nature")
_POINTERS = frozenset("this that these those my our me us it".split())
# verbs whose open predicate in the present misstates a deed told back ("finds")
_NO_DEEDS = frozenset("find pick".split())


def _glad_word(tok: Token) -> bool:
    return tok.lower_ in _GLAD and tok.pos_ in ("ADJ", "ADV", "INTJ") and not is_negated(tok.head)


def _under_gladness(verb: Token) -> bool:
    """``verb``'s clause is what a glad word is glad about (module docstring)."""
    if any(c.dep_ in ("advmod", "dep", "amod") and _glad_word(c) and c.i < verb.i for c in verb.children):
        return True  # "Glad you have a good support system": "Glad" hung on the verb
    if verb.dep_ != "ccomp":
        return False
    head = verb.head
    if head.lemma_.lower() in _PERCEIVE and head.dep_ in ("advcl", "xcomp", "ccomp"):
        head = head.head  # "Great to hear you found ...", "I'm so happy to see you've ..."
    if _glad_word(head):
        return True
    if head.lemma_ == "be" and not is_negated(head):  # "That's awesome that you got the job"
        return any(c.dep_ in ("acomp", "attr") and c.lower_ in _GLAD for c in head.children)
    return False


def _deed_gerund(tok: Token) -> Token | None:
    """The gerund a congratulation or a pride is for: "Congrats on finishing ...", "proud of you
    for running ..."."""
    if tok.tag_ != "VBG" or tok.dep_ != "pcomp":
        return None
    prep = tok.head
    if prep.lower_ not in ("on", "for") or prep.dep_ != "prep":
        return None
    owner = prep.head
    if owner.lower_ in _CONGRATS:
        return tok
    if owner.lower_ == "proud" and any(
        p.dep_ == "prep" and p.lower_ == "of" and any(o.lower_ in _YOU for o in p.children)
        for p in owner.children
    ):
        return tok
    return None


def _stated(verb: Token) -> bool:
    """A clause that states a deed or a state that holds: not negated, hypothetical, modal or
    ahead."""
    if is_negated(verb) or is_hypothetical(verb):
        return False
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if any(a.tag_ == "MD" or a.lower_ in ("gon", "gonna", "going") for a in auxes):
        return False
    if verb.tag_ == "VBG" and verb.dep_ != "pcomp":
        return False  # "glad you're looking into other avenues": what is under way, told back
    if any(c.lower_ in ("how", "what", "why") for c in verb.children):
        return False  # "see how you're affecting so many": a manner, no deed
    return verb.tag_ in ("VBD", "VBN", "VBZ", "VBP", "VBG")


def _your_thing(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "finishing your degree": the listener's own thing, which ``object_phrase`` refuses (it is
    the listener's, not the speaker's, in every other reader) → "Bo's degree"."""
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    lemma = verb_lemma(verb)
    if dobj is None or dobj.pos_ != "NOUN" or lemma in SKIP_VERBS:
        return []
    words = list(dobj.subtree)
    if words[0].lower_ != "your" or len(words) > 5 or any(c.dep_ == "dative" for c in verb.children):
        return []
    if any(t.pos_ in ("VERB", "AUX", "PRON", "PUNCT", "ADP") for t in words[1:]):
        return []
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    value = " ".join([f"{speakers.other}'s", *(t.text for t in words[1:])])
    return [Claim(_open_name(lemma, particle, None), value)]


def _deed_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    if verb_lemma(verb) in _NO_DEEDS:
        return []  # "So nice you found such a welcoming choir": "Sam finds welcoming choir" misstates it
    found = _verb_claims(verb, speakers) or _your_thing(verb, speakers)
    if not found and verb.tag_ != "VBG":
        found = have_claims(verb, speakers)
    words = {t.lower_ for t in verb.subtree if t.i > verb.i}
    if words & _POINTERS:
        return []  # "got that adorable pic", "bonded over our love of nature": the talk's things
    return [
        c
        for c in found
        if not lookup(c.predicate).functional and c.kind == "assert" and c.predicate not in ("has", "owns")
    ]


_ASKS_AFTER = re.compile(r"^\s*how(?:'s| is| are)\s+your\b", re.IGNORECASE)


def asks_after(text: str) -> bool:
    """The cheap test, before any parse, for a question ``asked_after`` may read (the extractor
    parses no other question)."""
    return bool(_ASKS_AFTER.match(text)) and text.rstrip().endswith("?")


def asked_after(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """ "How's your new puppy?", "How is your daughter doing?", "How are your turtles?": a question
    after the listener's relative or pet takes it as given (``has`` / ``has_pet``); "How's your
    week?", "How's your job?" are not read (a time, or what may have changed)."""
    if speakers.other is None or len(doc) < 3 or doc[0].lower_ != "how" or "your" not in doc.text.lower():
        return []
    verb = doc[0].head
    if verb.lemma_ in ("do", "go") and any(c.dep_ == "aux" and c.lemma_ == "be" for c in verb.children):
        pass  # "How is your daughter doing?"
    elif verb.lemma_ != "be" or (verb.tag_ != "VBZ" and verb.lower_ != "are"):
        return []  # "How was your trip?": what happened, not what holds
    if doc[0].dep_ != "advmod":
        return []
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subj is None or not any(c.dep_ == "poss" and c.lower_ == "your" for c in subj.children):
        return []
    lemma = subj.lemma_.lower()
    if subj.lower_ in PETS or lemma in PETS:
        predicate = "has_pet"
    elif subj.lower_ in KIN or lemma in KIN:
        predicate = "has"
    else:
        return []
    mods = [c.text for c in subj.children if c.dep_ in ("amod", "compound") and c.lower_ != "new"]
    value = " ".join([*mods, subj.lower_ if predicate == "has" else subj.text])
    return [(Claim(predicate, value, subject=speakers.other), doc.text)]


def listener_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The claims of the module docstring about the other speaker, each with its clause text."""
    if speakers.other is None:
        return []
    if doc.text.rstrip().endswith("?"):
        return asked_after(doc, speakers)
    words = {t.lower_ for t in doc}
    if not (words & _CONGRATS or (words & _GLAD and words & _YOU)):
        return []  # the cheap gate: no tree is walked without a glad word and "you", or a congrats
    out: list[tuple[Claim, str]] = []
    for tok in doc:
        gerund = _deed_gerund(tok)
        if gerund is not None:
            verb = gerund
        elif tok.pos_ in ("VERB", "AUX") and _under_gladness(tok):
            subj = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
            if subj is None or subj.lower_ not in _YOU:
                continue
            verb = tok
        else:
            continue
        if not _stated(verb) or any(is_negated(a) or is_hypothetical(a) for a in verb.ancestors):
            continue
        for claim in _deed_claims(verb, speakers):
            claim.subject = speakers.other
            claim.inferred = False
            out.append((claim, clause_text(verb)))
    return out
