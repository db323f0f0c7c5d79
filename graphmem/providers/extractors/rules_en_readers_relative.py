"""A deed told inside a relative clause: "These figurines I bought yesterday remind me of family
love", "a road trip we took last year", "Here's a pic of a cake I made recently", "the projects
I've been working on".

The clause's verb has the speaker ("I"/"we") as subject and the noun it modifies as its object
(or as the object of a stranded preposition: "working on"), but no reader looks inside a relative
clause, so the deed was lost. The clause is written out as a sentence of its own ("I bought
figurines yesterday", "I've been working on projects") and parsed once more; the same readers
then judge it like any statement (negation, modals, the gates), so its facts are the ones the
plain sentence would give. A demonstrative or "the" before the noun becomes "a" (a singular) or
goes (a plural): the clause itself says which thing, and "this"/"the" alone would read as a
pointer.

Only a told deed (not a perception, a thought, a liking or a "get"/"have": "the sunset I saw", "the
help I got", "the good times we had"): the clause in the past or the perfect (a present "the trip we're taking" may be
a plan whose time phrase was cut before the parse), first person, no object of its own ("the day
I met my wife": the noun is a time), no clausal complement ("the obstacles I had to overcome":
the noun belongs to the inner verb), and not after a time, a manner or a reason ("the way I did
it", "the time we went").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_en_parse import Speakers

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_FIRST = frozenset("i we".split())
_POINTERS = frozenset("this that these those the".split())
_RELATIVIZERS = frozenset("that which".split())
_OWN_OBJECT = frozenset("dobj attr acomp dative xcomp ccomp oprd nsubjpass".split())
_NOT_OBJECTS = frozenset(
    "day days time times year years week weeks month months moment moments night morning evening "
    "way reason place point thing things stuff one ones lot bit".split()
)
_NOT_DEEDS = frozenset(  # a perception or a thought is no deed told ("the sunset I saw", "stuff I learned")
    "see hear notice watch feel think know say tell want need hope remember forget imagine learn mean use "
    "get have love like find".split()
)
_BARE_VAGUE = frozenset("piece trip space thing stuff item one project".split())  # "this piece I made"
_PERFECT = frozenset("have has had 've 'd".split())
_NOUN_LEFT = frozenset("det amod compound nummod poss nmod quantmod advmod".split())


def _told(verb: Token) -> bool:
    """Past ("I bought"), or perfect ("I've read", "I've been working on")."""
    if verb.tag_ == "VBD":
        return not any(c.dep_ == "aux" for c in verb.children)
    return verb.tag_ in ("VBN", "VBG") and any(
        c.dep_ == "aux" and c.lower_ in _PERFECT for c in verb.children
    )


def _noun_words(noun: Token) -> list[str]:
    """The noun with what stands before it ("a road trip", "my first painting"), a pointer
    rewritten."""
    left = [t for c in noun.lefts if c.dep_ in _NOUN_LEFT for t in c.subtree]
    of = [t for c in noun.rights if c.dep_ == "prep" and c.lower_ == "of" for t in c.subtree]
    words = [t.lower_ if t.dep_ == "det" else t.text for t in sorted(left, key=lambda t: t.i)]
    if words and words[0].lower() in _POINTERS and left[0].dep_ == "det":
        words = words[1:] if noun.tag_ in ("NNS", "NNPS") else ["a", *words[1:]]
        if len(words) > 1 and words[0] == "a" and words[1][:1].lower() in "aeiou":
            words[0] = "an"
    return [*words, noun.text, *(t.text for t in of)]


def relative_sentence(verb: Token) -> str | None:
    """``verb``'s relative clause written as a sentence of the speaker's, or None (module
    docstring)."""
    noun = verb.head
    if verb.dep_ != "relcl" or noun.pos_ != "NOUN" or noun.lower_ in _NOT_OBJECTS or not _told(verb):
        return None
    if verb.lemma_.lower() in _NOT_DEEDS:
        return None
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    if len(subjects) != 1 or subjects[0].lower_ not in _FIRST or subjects[0].i > verb.i:
        return None
    kids = list(verb.children)
    if any(c.dep_ in _OWN_OBJECT and c.lower_ not in _RELATIVIZERS for c in kids):
        return None
    if any(c.tag_ in ("WRB", "WP") for c in kids):  # "the place where I ...", "what I did"
        return None
    if any("/" in t.text for t in noun.subtree if t.i < verb.i):  # "advice/assistance group": torn
        return None
    if noun.lower_ in _BARE_VAGUE and not any(c.dep_ in ("amod", "compound", "poss") for c in noun.lefts):
        return None
    noun_words = _noun_words(noun)
    stranded = next((c for c in kids if c.dep_ == "prep" and not list(c.children)), None)
    after = (
        stranded
        if stranded is not None
        else max((c for c in kids if c.dep_ == "prt"), key=lambda c: c.i, default=verb)
    )
    cut = {t.i for c in kids if c.dep_ in ("conj", "cc", "punct") for t in c.subtree}
    words: list[str] = []
    for t in verb.subtree:
        if t.i in cut or (t.dep_ in _OWN_OBJECT and t.lower_ in _RELATIVIZERS and t.head.i == verb.i):
            continue
        words.append(t.text)
        if t.i == after.i:
            words.extend(noun_words)
    text = " ".join(words).replace(" 've", "'ve").replace(" 'd", "'d")
    return text[:1].upper() + text[1:] + "."


def relative_docs(doc: Doc) -> list[Doc]:
    """The relative clauses of ``doc`` that tell the speaker's deed, each parsed as a sentence."""
    texts = [text for verb in doc if verb.dep_ == "relcl" and (text := relative_sentence(verb))]
    return [parse(text) for text in texts]


def restated_claims(restated: list[Doc], speakers: Speakers) -> list[tuple[Claim, str]]:
    """The claims every statement reader finds in sentences written out of another one (a
    relative clause here, a dropped "I" in ``rules_en_readers_dropped``), each with the written
    sentence as its clause text."""
    # the readers import this module's neighbours: imported here, not at the top
    from graphmem.providers.extractors.rules_en_chat import chat_claims
    from graphmem.providers.extractors.rules_en_parse import parse_claims
    from graphmem.providers.extractors.rules_en_readers import reader_claims
    from graphmem.providers.extractors.rules_en_readers_experiences import experience_claims

    out: list[tuple[Claim, str]] = []
    for clause in restated:
        found = (
            chat_claims(clause, speakers, False)
            + parse_claims(clause, speakers)
            + reader_claims(clause, speakers, nested=True)
            + experience_claims(clause, speakers)
        )
        out.extend((c, clause.text) for c, _ in found)
    return out


def relative_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The claims of ``doc``'s relative clauses that tell the speaker's deed, read as sentences."""
    return restated_claims(relative_docs(doc), speakers)
