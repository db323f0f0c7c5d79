"""When the open verb-object rule of ``rules_en_parse`` says nothing: clause classes whose
verb and object parse well but state no fact about the subject.

An open predicate (one outside the canonical vocabulary) is refused, by class:

- **the listener's doings** told to them ("So cool you found a great group", "You really put in
  the work", "You did great raising funds", "Make sure you watch other videos first"): praise,
  advice or a restatement of what the listener said, never new about them; a canonical
  predicate ("you moved to Denver") still counts.
- **a clause under an enabler** ("Painting helps me express my feelings", "It lets me combine my
  love for X", "Let me send you the recipe"): what an activity does for someone is no deed.
- **a clause under a wish or an attempt** ("I want to get stronger and improve my endurance",
  "I hope to build a family and put a roof over ...", "We're considering adopting a dog to teach
  the kids ..."), or under a negated head ("Don't feel like I'm making an impact"): nothing
  happened; a clause likened under "feel/seem/look/sound like" ("It feels like I'm stepping into
  the book") is no deed either.
- **a purpose or bare infinitive** ("I use a whiteboard to stay on track, visualize goals and
  tokenize successes", "... to clear my mind"): an aim, not a deed.
- **a future** ("I'll make a list", "I'll bring my binoculars"): what will be is a plan or
  nothing (plans are read apart).
- **a subject that is no person**: a sentence-initial capitalised word that can be a verb and
  that the recogniser does not call an entity ("Took a short trip ...", "Dance gives me an escape"), and a name said to the
  listener before a comma ("Yeah Jon, marketing is key").
- **a dropped recipient** ("I'll give the turtles a bath" → "gives bath"): the object means
  nothing without the person or thing it goes to; and a handing-over to the listener ("Sending
  you the recipe now!") is the talk's own business.
- **an opening of the talk** ("Speaking of special moments, ..."): discourse, not a deed.
- **an object moved to a deed** ("I encouraged students to get involved" → "encourages
  students"): the deed, which is the point, is dropped; and **how someone looks** in a picture
  ("Max looks so peaceful, just chilling in the backyard"): a participle beside look/seem.

``addressed`` tells a name said to the listener from a subject, for every reader: a name after a
greeting word ("Hey Sam, I went ...", "Yeah Sam, marketing is key") or before a comma when its verb
has another subject ("Sam, I joined a club") is a vocative, never the clause's subject.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.models.predicates import VOCABULARY
from graphmem.providers.extractors.en_parse import could_be_verb

if TYPE_CHECKING:
    from spacy.tokens import Token

_ENABLERS = frozenset("help let allow enable make permit teach remind inspire push".split())
_WISHES = frozenset(
    "want hope wish need try aim dream consider like love wanna yearn long strive attempt".split()
)
_TELLING = frozenset("know tell say share announce mention realize realise notice see hear find".split())
_CHAIN = frozenset({"ccomp", "xcomp", "conj", "advcl"})
_ENTITY = frozenset({"PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART"})


def is_open(predicate: str) -> bool:
    return predicate not in VOCABULARY


def _own_subject(tok: Token) -> bool:
    return any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in tok.children)


def _negated(tok: Token) -> bool:
    return any(c.dep_ == "neg" for c in tok.children)


_SEEM = frozenset("feel seem look sound".split())


def _likened(clause: Token, head: Token) -> bool:
    """ "It feels like I'm stepping into the book", "It looks as if we're winning": a likeness."""
    return head.lemma_.lower() in _SEEM and any(
        c.dep_ == "mark" and c.lower_ in ("like", "as", "if") for c in clause.children
    )


def _looks_doing(clause: Token, head: Token) -> bool:
    """ "Max looks so peaceful in that photo, just chilling in the backyard", "She seems happy,
    playing with her toys": a participle beside "look/seem" tells how someone appears (in a
    picture, mostly), no deed."""
    return head.lemma_.lower() in _SEEM and clause.tag_ == "VBG" and not _own_subject(clause)


# verbs that pass their object a deed to do: "encouraged students to get involved", "asked my
# boss to ...", "convinced my sister to ..."
_CONTROL = frozenset(
    "encourage ask tell urge convince persuade invite remind inspire motivate push get want "
    "allow teach challenge beg".split()
)


def _controlled_object(verb: Token) -> bool:
    """The object is whom the verb moves to a deed ("I encouraged students to get involved"):
    "encourages students" drops the deed, which is the point."""
    return (
        verb.lemma_.lower() in _CONTROL
        and any(c.dep_ == "dobj" for c in verb.children)
        and any(
            c.dep_ in ("xcomp", "ccomp") and any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children)
            for c in verb.children
        )
    )


def governed(verb: Token) -> bool:
    """The clause hangs under an enabler, a wish or attempt, or a negated head (module docstring):
    walked up through complements and conjuncts; a conjunct with a subject of its own is its own
    claim ("I failed but I tried again")."""
    tok = verb
    while tok.dep_ in _CHAIN and tok.head.i != tok.i:
        if tok.dep_ == "conj" and _own_subject(tok):
            return False
        head = tok.head
        if tok.dep_ == "ccomp" and head.lemma_.lower() in _TELLING:
            return False  # "(I wanted to) let you know I joined a club": what is told is claimed
        if tok.dep_ == "advcl" and (_likened(tok, head) or _looks_doing(tok, head)):
            return True
        if tok.dep_ != "conj":
            lemma = head.lemma_.lower()
            if lemma in _ENABLERS or (lemma in _WISHES and tok.dep_ == "xcomp"):
                return True
            if lemma in _WISHES and tok.dep_ == "ccomp" and lemma in ("hope", "wish", "want"):
                return True
            if _negated(head):
                return True
        tok = head
    return False


def infinitive(verb: Token) -> bool:
    """A purpose infinitive: "to" before the verb, or a base-form conjunct after such an
    infinitive that the parse hung on the main verb ("I use X to stay on track, visualize goals")."""
    if any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children):
        return True
    if verb.dep_ == "conj" and verb.tag_ in ("VB", "VBP") and not _own_subject(verb):
        head = verb.head
        while head.dep_ == "conj" and head.tag_ in ("VB", "VBP") and head.head.i != head.i:
            head = head.head
        return any(
            c.dep_ in ("xcomp", "advcl") and c.i < verb.i and any(a.lower_ == "to" for a in c.children)
            for c in head.children
        )
    return False


def _future(verb: Token) -> bool:
    tok = verb
    while True:
        if any(c.dep_ == "aux" and c.lower_ in ("will", "'ll", "shall", "wo", "ll") for c in tok.children):
            return True
        if tok.dep_ not in ("conj", "xcomp") or tok.head.i == tok.i or _own_subject(tok):
            return False
        tok = tok.head


def no_person(subject: Token | None) -> bool:
    """A subject no person is (module docstring)."""
    if subject is None or subject.pos_ != "PROPN":
        return False
    first = next((t for t in subject.doc if t.pos_ not in ("PUNCT", "INTJ")), None)
    if first is not None and first.i == subject.i and subject.ent_type_ not in _ENTITY:
        return could_be_verb(subject.text)  # "Took a trip", "Dance gives me": a word, not a name
    after = subject.doc[subject.i + 1] if subject.i + 1 < len(subject.doc) else None
    return after is not None and after.text == ","


_GREETINGS = frozenset(
    "hey hi hello hiya heya yo yeah yes yep yup oh ooh wow aw aww thanks thank congrats "
    "congratulations haha lol ok okay well sure morning evening dear".split()
)


def addressed(tok: Token) -> bool:
    """A name said to the listener, not a subject (module docstring)."""
    if tok.pos_ != "PROPN" or tok.dep_ not in ("nsubj", "nsubjpass"):
        return False
    doc = tok.doc
    before = doc[tok.left_edge.i - 1] if tok.left_edge.i > 0 else None
    greeted = any(c.lower_ in _GREETINGS for c in tok.lefts) or (
        before is not None and before.lower_ in _GREETINGS
    )
    after = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    comma = after is not None and after.text in (",", "!", "-", "\u2014")
    second = any(c.dep_ in ("nsubj", "nsubjpass") and c.i > tok.i for c in tok.head.children)
    return (greeted and comma) or (comma and second)


_THIRD_RECIPIENTS = frozenset("him her them it".split())


def _dropped_recipient(verb: Token) -> bool:
    """ "I'll give the turtles a bath", "We give them lots of activities": the recipient, a noun
    or a third-person pronoun, is what the object is for."""
    return any(
        c.dep_ == "dative" and (c.pos_ in ("NOUN", "PROPN") or c.lower_ in _THIRD_RECIPIENTS)
        for c in verb.children
    )


def _to_listener(verb: Token) -> bool:
    """ "Sending you the recipe now!", "I texted you the address": a handing-over to the
    listener is the conversation's own business, no deed worth a fact."""
    return any(c.dep_ == "dative" and c.lower_ in ("you", "ya", "u") for c in verb.children)


def _discourse(verb: Token) -> bool:
    return verb.lower_ == "speaking" and any(c.dep_ == "prep" and c.lower_ == "of" for c in verb.children)


def refused(verb: Token, subject: Token | None) -> bool:
    """Whether the open claims of this clause say nothing (module docstring), the listener aside."""
    return (
        governed(verb)
        or infinitive(verb)
        or _future(verb)
        or no_person(subject)
        or _dropped_recipient(verb)
        or _to_listener(verb)
        or _discourse(verb)
        or _controlled_object(verb)
    )


def keep_open(verb: Token, subject: Token | None, predicate: str) -> bool:
    """Whether a claim of ``predicate`` from this clause stands: canonical predicates always (their
    own rules judge them), open ones unless the clause is refused or its subject is "you"."""
    if not is_open(predicate):
        return True
    if subject is not None and subject.lower_ == "you":
        return False
    return not refused(verb, subject)
