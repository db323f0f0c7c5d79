"""Readers of feelings and experiences: what a thing does for the speaker.

"Art gives me a sense of freedom", "The support group made me feel accepted", "Painting helps me
relax", "Creativity and family keep me at peace", "Painting's a fun way to express my feelings",
"I find pottery really therapeutic": a thing (a noun phrase or a whole gerund, never a pronoun,
a demonstrative, the listener's thing or a bare "the X" of the conversation) and the good it does
the speaker ("me" / "us"). The good falls in one of six kinds, each one open predicate whose
object is the thing:

- ``finds_peace_in``: relax, unwind, calm, de-stress, peace, comfort, balance, relaxing,
  therapeutic, "keeps me sane";
- ``finds_joy_in``: joy, happiness, fulfillment, happy, alive, rewarding, fulfilling;
- ``draws_strength_from``: strength, courage, hope, confidence, motivation, "keeps me going";
- ``feels_supported_by``: accepted, supported, seen, loved, understood, included, connected;
- ``finds_freedom_in``: freedom, free, freeing, liberating;
- ``expresses_self_through``: "helps me express myself / my feelings", "a way to express
  myself", "gets my emotions out", an outlet.

Refused like every reader (``rules_en_readers.asserted``): a question, a negation, a hypothesis,
a wish, hearsay. "You" as the one helped is generic ("it gives you peace"): no fact.

Three ways the thing is found outside the clause's own subject:

- **"it" of the sentence before** (same message only): "I love gardening. It's so relaxing",
  "I've been swimming a lot. It's a great way to clear my head": the one thing the speaker said
  they do or like just before, or the one thing that sentence was about ("Pottery has changed my
  life"); a conjunction gives each ("knitting and sewing"); none, several, a person or a clause
  after "it" ("It's so calming when ...") give nothing.
- **an extraposed infinitive**: "It's so rewarding to coach kids at my gym" → finds joy in
  coaching kids at Dana's gym; a clause, a pronoun or a pointer inside gives nothing.
- **a good brought to nobody else**: "Gardening brings so much joy", "My cats bring joy to my
  life" are the speaker's; "to others", "brings the kids joy", "your life" are not.

``may_point_back`` lets the "It's ..." sentences with a word of such a good pass the
extractor's first filter, which drops "It's ..." openers unparsed otherwise.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import _known_words
from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_chat import _gerund, courtesy, noun_phrase
from graphmem.providers.extractors.rules_en_lemma import verb_lemma
from graphmem.providers.extractors.rules_en_parse import SKIP_VERBS, Speakers, clause_text
from graphmem.providers.extractors.rules_en_readers import KIN, asserted_verbs

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

PEACE, JOY, STRENGTH, SUPPORT, FREEDOM, EXPRESSION = (
    "finds_peace_in",
    "finds_joy_in",
    "draws_strength_from",
    "feels_supported_by",
    "finds_freedom_in",
    "expresses_self_through",
)

# what the good is called: a noun given or brought, an adjective felt or found, a verb helped to
_KIND_OF_WORD: dict[str, str] = {}
for _kind, _words in (
    (
        PEACE,
        "peace calm calmness serenity comfort balance relief solace tranquility peaceful calmer relaxed "
        "grounded centered centred sane zen relaxing calming soothing therapeutic meditative relax "
        "unwind destress de-stress decompress recharge chill cope",
    ),
    (
        JOY,
        "joy happiness fulfillment fulfilment delight pleasure satisfaction happy joyful alive fulfilled "
        "content rewarding fulfilling satisfying",
    ),
    (
        STRENGTH,
        "strength courage hope confidence motivation energy determination purpose strong confident "
        "hopeful motivated energized energised empowered empowering going positive",
    ),
    (SUPPORT, "accepted supported seen loved understood included connected welcome welcomed valued"),
    (FREEDOM, "freedom free freeing liberating liberated"),
    (EXPRESSION, "outlet self-expression"),
):
    for _w in _words.split():
        _KIND_OF_WORD[_w] = _kind

# adjectives that say what a thing does for whoever does it ("Yoga is so relaxing"), not how the
# thing itself feels ("my dogs are happy")
_DOING_GOOD = frozenset(
    "relaxing calming soothing therapeutic meditative rewarding fulfilling satisfying freeing "
    "liberating empowering".split()
)
_GIVE = frozenset("give bring".split())
_MAKE = frozenset("make keep leave".split())
_SOOTHE = {"calm": PEACE, "relax": PEACE, "soothe": PEACE, "ground": PEACE, "center": PEACE}
_EXPRESS = frozenset("express".split())
_INNER = frozenset("emotions feelings feeling emotion frustration stress creativity".split())
_DEMONSTRATIVES = frozenset("this that these those".split())
_NO_THING = frozenset("people everyone everything thing things stuff one lot it".split())
_WAY = frozenset("way means outlet escape".split())


def _me(tok: Token) -> bool:
    return tok.lower_ in ("me", "us")


def _kind_of(tok: Token) -> str | None:
    """The kind of good ``tok`` names: "peace", "a sense of freedom", "feel accepted", "relax",
    "express myself", "get my emotions out", "clear my mind"."""
    lemma, low = tok.lemma_.lower(), tok.lower_
    if low == "sense" or lemma == "sense":
        inner = next(
            (o for p in tok.children if p.dep_ == "prep" and p.lower_ == "of" for o in p.children), None
        )
        return _kind_of(inner) if inner is not None else None
    if lemma == "feel":
        adj = next((c for c in tok.children if c.dep_ in ("acomp", "oprd", "xcomp", "ccomp")), None)
        return _KIND_OF_WORD.get(adj.lower_) if adj is not None and adj.pos_ in ("ADJ", "VERB") else None
    if lemma in _EXPRESS:
        return EXPRESSION
    if lemma == "get" and any(c.dep_ == "prt" and c.lower_ == "out" for c in tok.children):
        return EXPRESSION if any(c.lower_ in _INNER for c in tok.children) else None
    if lemma == "clear" and any(c.dep_ == "dobj" and c.lower_ in ("mind", "head") for c in tok.children):
        return PEACE
    if lemma in ("find", "keep", "stay"):  # "helps me find peace", "keeps me motivated"
        for c in tok.children:
            if c.dep_ in ("dobj", "acomp", "attr") and (kind := _KIND_OF_WORD.get(c.lemma_.lower())):
                return kind
        return None
    return _KIND_OF_WORD.get(low) or _KIND_OF_WORD.get(lemma)


def thing_phrase(subj: Token, speakers: Speakers) -> str | None:
    """The thing doing the good: a noun phrase or a whole gerund, no pronoun or pointer inside."""
    if subj.pos_ not in ("NOUN", "PROPN") and subj.tag_ != "VBG":
        return None
    if subj.lemma_.lower() in _NO_THING:
        return None
    words = list(subj.subtree)
    after = subj.doc[words[-1].i + 1] if words[-1].i + 1 < len(subj.doc) else None
    if after is not None and after.pos_ == "PRON" and after.lower_ not in ("me", "us"):
        return None  # "Playing it helps me": the parse left the pronoun out of the gerund
    if subj.tag_ == "VBG" and any(t.pos_ in ("VERB", "AUX") and t.i != subj.i for t in words):
        return None  # "Being able to make a difference": a clause inside
    for t in words:
        if t.lower_ in _DEMONSTRATIVES or (t.pos_ == "PRON" and t.lower_ not in ("my", "our")):
            return None  # "this pic", "playing it", "your support": a thing of the talk
        if t.tag_ == "PRP$" and t.lower_ not in ("my", "our"):
            return None
    if courtesy(subj, speakers):
        return None
    children = list(subj.children)
    if (
        subj.pos_ == "NOUN"
        and any(c.dep_ == "det" and c.lower_ == "the" for c in children)
        and all(c.dep_ in ("det", "punct") for c in children)
    ):
        return None  # "the colors": something shown, not a lasting thing
    if subj.tag_ == "VBG" and any(c.dep_ in ("ccomp", "xcomp", "advcl", "nsubj") for c in subj.children):
        return None  # "Seeing my students get better": a clause inside
    value = noun_phrase(subj, speakers)
    first = words[0]
    # "Volunteering", "Photography" read NNP at the start are common words; "Tilly" is a name
    common = first.pos_ != "PROPN" or first.lower_.endswith("ing") or first.lower_ in _known_words()
    if value and first.i == 0 and common and first.tag_ != "PRP$" and value.startswith(first.text):
        value = value[:1].lower() + value[1:]  # "Being in nature" at the sentence start
    return value


def _conjuncts(subj: Token) -> list[Token]:
    """ "Creativity and family": each conjoined thing apart."""
    if any(c.dep_ == "det" and c.lower_ in _DEMONSTRATIVES for c in subj.children):
        return []  # "That love and enthusiasm": things of the talk
    out = [subj]
    for c in subj.children:
        if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN"):
            out.extend(_conjuncts(c))
    return out


def _subject(verb: Token) -> Token | None:
    """The verb's subject, or its head's for a conjoined verb ("has made me ... and given me ...")."""
    tok = verb
    while True:
        subj = next((c for c in tok.children if c.dep_ in ("nsubj", "csubj")), None)
        if subj is not None or tok.dep_ != "conj" or tok.head.i == tok.i:
            return subj
        tok = tok.head


def _good_done(verb: Token) -> str | None:
    """The kind of good ``verb`` does the speaker ("gives me peace", "helps me relax", "makes me
    happy", "keeps me at peace", "calms me"), or None."""
    lemma = verb.lemma_.lower()
    kids = list(verb.children)
    me = next((c for c in kids if _me(c) and c.dep_ in ("dobj", "dative", "nsubj")), None)
    comps = [c for c in kids if c.dep_ in ("ccomp", "xcomp", "oprd", "acomp")]
    nested_me = next((c for comp in comps for c in comp.children if _me(c) and c.dep_ == "nsubj"), None)
    if lemma in _GIVE:
        if me is None and not _to_the_speaker(verb):
            return None
        given = next((c for c in kids if c.dep_ == "dobj" and not _me(c)), None)
        return _kind_of(given) if given is not None else None
    if lemma == "help":
        target = next((c for c in comps if c.pos_ in ("VERB", "AUX", "ADJ")), None)  # "clear" read JJ
        if target is None or (
            me is None and nested_me is None and any(c.dep_ == "nsubj" for c in target.children)
        ):
            return None
        return _kind_of(target)
    if lemma in _MAKE:
        if me is None and nested_me is None:
            return None
        for comp in comps:
            kind = _kind_of(comp)
            if kind is not None:
                return kind
        at = next(
            (o for p in kids if p.dep_ == "prep" and p.lower_ in ("at", "in") for o in p.children), None
        )  # "keeps me at peace"
        return _KIND_OF_WORD.get(at.lower_) if at is not None and lemma == "keep" else None
    if lemma in _SOOTHE and me is not None and me.dep_ == "dobj":
        return _SOOTHE[lemma]
    return None


def _to_the_speaker(verb: Token) -> bool:
    """ "Pets bring so much joy", "My turtles bring joy to my life": a good brought to nobody
    else is the speaker's (a generic said by them about their own things); "to others", "to the
    kids", a dative ("brings them joy") is someone else's."""
    if verb.lemma_.lower() != "bring" or any(c.dep_ == "dative" for c in verb.children):
        return False
    if any(t.lower_ in ("your", "you", "them", "him", "her") for t in verb.subtree if t.i > verb.i):
        return False  # "brings your pets joy", "brings joy in your life": someone else's good
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    if len(objects) != 1 or any(t.pos_ in ("NOUN", "PROPN") for t in verb.doc[verb.i + 1 : objects[0].i]):
        return False  # "brings the kids joy" read as one object
    for prep in (c for c in verb.children if c.dep_ == "prep"):
        inner = next((o for o in prep.children if o.dep_ == "pobj"), None)
        if prep.lower_ != "to" or inner is None:
            continue
        own = any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in inner.children)
        if not (inner.lower_ in ("me", "us") or (inner.lemma_.lower() in ("life", "day") and own)):
            return False
    return True


def _way_kind(verb: Token) -> str | None:
    """ "X is a great way to relax", "X is my outlet", "X is so relaxing", "X is freeing"."""
    for c in verb.children:
        if c.dep_ == "acomp" and c.lower_ in _DOING_GOOD:
            return _KIND_OF_WORD[c.lower_]  # "my dogs are happy" is their joy, not the speaker's
        if c.dep_ == "attr" and c.lemma_.lower() in _WAY:
            if c.lemma_.lower() in ("outlet", "escape"):
                owner = next((p for p in c.children if p.dep_ == "poss"), None)
                if owner is not None and owner.lower_ in ("my", "our"):
                    return EXPRESSION if c.lemma_.lower() == "outlet" else PEACE
                return None
            target = next(
                (
                    v
                    for v in c.children
                    if v.dep_ in ("acl", "relcl", "advcl")
                    and v.tag_ == "VB"
                    and any(a.lower_ == "to" for a in v.children)
                ),
                None,
            )
            return _kind_of(target) if target is not None else None
    return None


def _found(verb: Token, speakers: Speakers) -> list[tuple[str, Token | str]]:
    """ "I find pottery really therapeutic" → (kind, pottery)."""
    if verb.lemma_.lower() != "find":
        return []
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subj is None or subj.lower_ not in ("i", "we"):
        return []
    comp = next((c for c in verb.children if c.dep_ in ("ccomp", "xcomp", "oprd")), None)
    if comp is not None:  # the small model reads "find [pottery therapeutic]" as a clause
        thing = next((c for c in comp.children if c.dep_ == "nsubj"), None)
        adj = comp if comp.pos_ == "ADJ" else next((c for c in comp.children if c.dep_ == "acomp"), None)
        if thing is None and comp.tag_ == "VBG" and adj is not None and len(list(comp.children)) == 1:
            kind = _KIND_OF_WORD.get(adj.lower_)  # "find [baking [really therapeutic]]": the bare gerund
            return [(kind, comp.lower_)] if kind and adj.lower_ in _DOING_GOOD else []
    else:
        thing = next((c for c in verb.children if c.dep_ == "dobj"), None)
        adj = next((c for c in verb.children if c.dep_ in ("acomp", "oprd")), None)
        if adj is None and thing is not None:
            adj = next((c for c in thing.children if c.dep_ in ("amod",) and c.i > thing.i), None)
    if thing is None or adj is None:
        return []
    kind = _KIND_OF_WORD.get(adj.lower_)
    return [(kind, thing)] if kind and adj.lower_ in _DOING_GOOD else []


_POINT_WORDS = frozenset(_DOING_GOOD | _WAY | {"outlet"})
_DOING = frozenset("love enjoy like adore do play practice start begin try".split())
_NOT_ACTIVITIES = frozenset("feel think wonder hope wait plan try look go come get".split())
_ONE_THING_TAGS = frozenset("NN NNP VBG".split())  # what "it" can point back to: one thing


def _one_thing(tok: Token) -> bool:
    if tok.tag_ not in _ONE_THING_TAGS or tok.lemma_.lower() in KIN:
        return False
    return not (tok.tag_ == "NNP" and tok.ent_type_ in ("PERSON", "NORP", "GPE", "LOC", "FAC", "ORG"))


def antecedent(previous: Doc, speakers: Speakers) -> list[str]:
    """What "it" of the next sentence of the same message points back to: the one thing the
    speaker said they do or like ("I've been doing yoga a lot", "I love knitting and sewing",
    "I've been running every morning"), or the one thing the sentence is about ("Pottery has
    changed my life"); nothing when there are none or several (no guess)."""
    found: list[Token] = []
    for verb in asserted_verbs(previous):
        subj = _subject(verb)
        if subj is None:
            continue
        if subj.lower_ in ("i", "we"):
            objects = [c for c in verb.children if c.dep_ in ("dobj", "xcomp") and _one_thing(c)]
            if verb.lemma_.lower() in _DOING:
                found += objects
            elif not objects and _ongoing_activity(verb):
                found.append(verb)  # "I've been running every morning"
        elif verb.dep_ == "ROOT" and _one_thing(subj):
            found.append(subj)
    if len(found) != 1:
        return []
    head = found[0]
    if head.pos_ in ("VERB", "AUX") and head.dep_ not in ("dobj", "xcomp"):
        return [head.lower_]
    values = [thing_phrase(t, speakers) for t in (_conjuncts(head) if head.pos_ != "VERB" else [head])]
    return [v for v in values if v]


def _ongoing_activity(verb: Token) -> bool:
    """ "I've been running", "I'm knitting a lot lately": a progressive of a doing verb, no object."""
    if verb.tag_ != "VBG" or verb_lemma(verb) in SKIP_VERBS or verb.lemma_.lower() in _NOT_ACTIVITIES:
        return False
    if any(c.dep_ in ("dobj", "prep", "xcomp", "ccomp", "prt") for c in verb.children):
        return False
    return any(c.dep_ == "aux" and c.lemma_ == "be" for c in verb.children)


def _infinitive(verb: Token) -> Token | None:
    """The infinitive an extraposed "it" stands for: "It's so rewarding [to coach kids]"."""
    heads = [verb, *(c for c in verb.children if c.dep_ in ("acomp", "attr"))]
    for head in heads:
        for c in head.children:
            if c.dep_ in ("xcomp", "ccomp", "advcl") and c.tag_ in ("VB", "NN"):  # "to coach" read NN
                if any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children):
                    return c
    return None


def _infinitive_thing(inf: Token, speakers: Speakers) -> str | None:
    """ "to coach kids at my gym" → "coaching kids at Dana's gym"; nothing with a clause, a
    pronoun, a pointer or the listener inside."""
    words = [t for t in inf.subtree if t.i > inf.i and t.dep_ != "punct"]
    if not 1 <= len(words) <= 6 or any(t.pos_ in ("VERB", "AUX") or t.dep_ == "cc" for t in words):
        return None
    out = [_gerund(verb_lemma(inf))]
    for t in words:
        if t.lower_ in ("my", "our"):
            out.append(f"{speakers.speaker}'s")
        elif t.pos_ == "PRON" or t.lower_ in _DEMONSTRATIVES or t.tag_ == "PRP$":
            return None
        else:
            out.append(t.text)
    return " ".join(out)


_POINTING = re.compile(r"^(?:it|that)(?:'s| is| was| has been|'s been)\b", re.IGNORECASE)


def may_point_back(text: str) -> bool:
    """A cheap test, before any parse, for a sentence whose "it" may stand for a thing of the one
    before with a good it does ("It's so relaxing", "It's a great way to unwind"): the first
    filter of the extractor lets "It's ..." openers pass unparsed otherwise."""
    if not _POINTING.match(text.lstrip()):
        return False
    words = {w.strip(".,!?;:").lower() for w in text.split()}
    return bool(words & _POINT_WORDS)


def _pointed_back(verb: Token, speakers: Speakers, previous: Doc | None) -> list[str]:
    """The things an "it" stands for: the extraposed infinitive, else the one thing (or the
    things of one conjunction) of the previous sentence of the same message."""
    if verb.lemma_.lower() == "find":  # "I find it so relaxing"
        return antecedent(previous, speakers) if previous is not None else []
    inf = _infinitive(verb)
    if inf is not None:
        value = _infinitive_thing(inf, speakers)
        return [value] if value else []
    if previous is None or any(c.dep_ in ("ccomp", "csubj", "advcl") for c in verb.children):
        return []  # "It's so calming when ...": a clause said what "it" is
    return antecedent(previous, speakers)


def feeling_claims(doc: Doc, speakers: Speakers, previous: Doc | None = None) -> list[tuple[Claim, str]]:
    """The feelings of the module docstring, each with its clause text; ``previous`` is the
    sentence before in the same message, where an "it" subject may point."""
    out: list[tuple[Claim, str]] = []
    for verb in asserted_verbs(doc):
        found: list[tuple[str, Token | str]] = _found(verb, speakers)
        if not found:
            kind = _good_done(verb)
            if kind is None and verb.lemma_ == "be" and verb.tag_ != "VBD":
                kind = _way_kind(verb)
            subj = _subject(verb) if kind else None
            if kind and subj is not None:
                found = [(kind, s) for s in _conjuncts(subj)]
        for kind, thing in found:
            values: list[str | None]
            if not isinstance(thing, str) and thing.lower_ == "it" and thing.dep_ in ("nsubj", "dobj"):
                values = list(_pointed_back(verb, speakers, previous))
            else:
                values = [thing if isinstance(thing, str) else thing_phrase(thing, speakers)]
            for value in values:
                if not value or any(c.obj == value and c.predicate == kind for c, _ in out):
                    continue
                out.append((Claim(kind, value, subject=SPEAKER), clause_text(verb)))
    return out
