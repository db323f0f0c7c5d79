"""Readers of chat statement classes that neither the verb-object rule nor ``rules_en_chat`` reads.

Every reader works on the dependency parse of one sentence (time phrases already cut out) and
refuses a clause that is a question, negated (a negation ends, it never asserts), hypothetical
("if", "would", "could"...), under a wish or an enabler (``rules_en_open.governed``), reported
from someone else ("She said ...") or whose subject does not resolve ("I"/"we"/a dropped "I" →
the speaker; "you" → the other speaker of a two-party session; a name). The quality gates
(``rules_en_gates``) then judge the claims like every other.

- **family** (``has``): a relative possessed by the speaker anywhere in a statement ("my
  daughter started school", "My husband and I went hiking", "our kids") or by the listener
  ("your son" → the other speaker has a son); a name beside the relative is kept ("sister named
  Emma"). Not for a relative lost, missed or mourned, nor a future, late or ex one.
- **goals** (``plans``, inferred): "My dream / goal / aim is to X", "It's (been) a dream (of
  mine) to X", "I've always dreamed of Xing", and training toward a role: "I'm studying to be a
  counselor", "I'm training to become a nurse" (``plans`` become counselor). Said in the past
  ("My aim was to show ...") it is no current goal.
- **a deed under a factual head** (the embedded verb's claim): "I had the chance / opportunity
  to volunteer at X", "I got to meet X", "I managed to finish X", "I had to take a break from
  pottery", "I felt so proud giving my talk": the head in the past, the embedded verb read as
  the deed (``volunteers_at``, ``met``, ``finishes``, ``gives``).
- **achievements** (``got`` / ``won``): "I got a promotion", "I won first place", "Got the
  tattoo a few years ago": a past get or win of a thing one earns or is given (the verb-object
  rule reads "earned", "received", "landed"); "I got promoted" is ``got`` promotion.
- **a passive with its agent** (``was_<participle>_by``): "I got mentored by a business coach",
  "I was interviewed by a local paper".
- **inspiration** (``is_inspired_by``, ``is_motivated_by``...): "That concert really inspired
  me", "Her story motivates me": the subject noun phrase is what moves the speaker; "you" and
  "your X" are thanks to the listener, no fact.
- **outings and tries**: "We had a great time at the aquarium" → visited aquarium ("at the
  fair" attended, "on a hike" goes_on); "I spent
  the afternoon at the shelter volunteering at the front desk" → volunteers_at front desk and
  visited shelter; "I took this photo at Whispering Falls" → visited (a name only); "I tried my
  newest vegan recipe", "tried my hand at surfing" → tried.
- **traits** (``is``; ``relationship_status`` for married, single, engaged, divorced,
  widowed): "I'm lactose intolerant", "I'm vegan", "I've been married for five years"; not said
  in the past ("I was vegan").
- **moved by, and troubles**: "I'm so inspired by street art", "I've always been motivated by X"
  (the passive of inspiration, present or perfect) → is_inspired_by / is_motivated_by; "I'm having
  trouble with my business project", "I have problems with my knee" → struggles_with.
- **a creation shown** (the verb's open predicate): "I made this bowl in class", "I painted
  these last week" gives nothing (a pronoun), "I made this painting to show ..." → makes
  painting: a creation verb in the past with a demonstrative object that names a thing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import known_verb
from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_chat import subject_of
from graphmem.providers.extractors.rules_en_lemma import verb_lemma
from graphmem.providers.extractors.rules_en_open import governed
from graphmem.providers.extractors.rules_en_parse import (
    EVENT_NOUNS,
    SKIP_VERBS,
    TIME_UNITS,
    Speakers,
    clause_text,
    is_hypothetical,
    is_negated,
    object_phrase,
    question_clause,
    third_person,
    tidy,
    trim,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

KIN = frozenset(
    "husband wife partner spouse kids kid children child son sons daughter daughters sister sisters "
    "brother brothers siblings mom mum mother dad father parents grandma grandmother grandpa "
    "grandfather grandparents grandkids grandchildren aunt uncle cousin cousins niece nephew "
    "fiance fiancee boyfriend girlfriend stepson stepdaughter twins gf bf hubby".split()
)
_KIN_MODIFIERS = frozenset(
    "older younger oldest youngest little big baby twin eldest elder middle step".split()
)
_NOT_KIN_MODIFIERS = frozenset("future late ex former dream imaginary potential would-be dead unborn".split())
_EXPECTING = frozenset("pregnant expect expecting".split())
_LOSS_VERBS = frozenset("lose miss bury mourn grieve".split())
_DEATH_VERBS = frozenset("pass die".split())
_REPORTING = frozenset("say tell write text post claim reply announce insist explain hear".split())


_PAST_FORMS = {"got": "get", "had": "have", "began": "begin", "learnt": "learn"}


def _head_lemma(verb: Token) -> str:
    """The lemma of a head verb; the small model leaves "got" whole at times."""
    return _PAST_FORMS.get(verb.lower_, verb.lemma_.lower())


def _past(verb: Token) -> bool:
    """Simple past, or a perfect ("I've had the chance")."""
    if verb.tag_ == "VBD" or verb.lower_ in _PAST_FORMS:  # the small model tags "got to" VBP at times
        return True
    return verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)


def _reported(verb: Token) -> bool:
    """A clause under a reporting verb whose subject is not the speaker: hearsay."""
    for tok in [verb, *verb.ancestors]:
        if tok.lemma_.lower() in _REPORTING and tok.i != verb.i:
            said_by = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
            if said_by is not None and said_by.lower_ not in ("i", "we"):
                return True
    return False


def asserted_verbs(doc: Doc) -> Iterator[Token]:
    """The verbs and auxiliaries of a statement that assert their clause (``asserted``); nothing of
    a question."""
    if doc.text.rstrip().endswith("?"):
        return
    for verb in doc:
        if verb.pos_ in ("VERB", "AUX") and asserted(verb):
            yield verb


def asserted(verb: Token) -> bool:
    """A clause that states something (module docstring): no question, negation, hypothesis,
    wish, enabler or hearsay on it or on the heads it hangs under."""
    if verb.doc.text.rstrip().endswith("?") or question_clause(verb):
        return False
    if is_hypothetical(verb) or governed(verb) or _reported(verb):
        return False
    return not any(is_negated(t) for t in [verb, *verb.ancestors])


# --------------------------------------------------------------------------- family


def _clause_head(tok: Token) -> Token:
    head = tok
    while head.pos_ not in ("VERB", "AUX") and head.head.i != head.i:
        head = head.head
    return head


def _kin_value(noun: Token, speakers: Speakers) -> str | None:
    mods = [c for c in noun.lefts if c.dep_ in ("amod", "compound", "nummod")]
    if any(m.lower_ in _NOT_KIN_MODIFIERS for m in mods):
        return None
    if any(m.dep_ == "compound" and m.lower_ not in _KIN_MODIFIERS for m in mods):
        return None  # "my fur kids", "my dog mom": no relative
    words = [m.lower_ for m in mods if m.lower_ in _KIN_MODIFIERS] + [noun.lower_]
    name = next(
        (
            c
            for c in noun.children
            if c.dep_ in ("appos", "npadvmod") and c.pos_ == "PROPN" and c.i == noun.i + 1
        ),
        None,
    )  # "my sister Emma"; after a comma it may be another person or the listener ("your kids, John")
    if name is None and noun.dep_ == "compound" and noun.head.pos_ == "PROPN":
        name = noun.head  # "my sister Emma" read as a compound of the name
    value = " ".join(words)
    if name is not None:
        named = object_phrase(name, speakers)
        if named and named[:1].isupper() and named not in (speakers.speaker, speakers.other):
            value = f"{value} named {named}"
    return value


def kin_claims(doc: Doc, speakers: Speakers) -> list[Claim]:
    """``has`` <relative> for "my"/"our" (the speaker) or "your" (the listener) + a relative."""
    if doc.text.rstrip().endswith("?"):
        return []
    out: list[Claim] = []
    for tok in doc:
        if tok.pos_ not in ("NOUN", "PROPN") or tok.lower_ not in KIN:
            continue
        owner = next((c for c in tok.children if c.dep_ == "poss"), None)
        if owner is None:
            continue
        if owner.lower_ in ("my", "our"):
            subject: str | None = SPEAKER
        elif owner.lower_ == "your" and speakers.other:
            subject = speakers.other
        else:
            continue
        head = _clause_head(tok)
        if head.pos_ in ("VERB", "AUX") and (
            is_hypothetical(head)
            or is_negated(head)
            or head.lemma_.lower() in _LOSS_VERBS
            or (head.lemma_.lower() in _DEATH_VERBS and tok.dep_ == "nsubj")
            or _reported(head)
        ):
            continue
        if any(a.lemma_.lower() in _EXPECTING for a in tok.ancestors):
            continue  # "pregnant with our second child": not born yet
        value = _kin_value(tok, speakers)
        if value and not any(c.obj == value and c.subject == subject for c in out):
            out.append(Claim("has", value, subject=subject))
    return out


# --------------------------------------------------------------------------- goals


def _first_person(verb: Token) -> bool:
    subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return subj is not None and subj.lower_ in ("i", "we")


_GOAL_NOUNS = frozenset("dream goal aim ambition aspiration mission hope plan wish".split())
_TRAIN_VERBS = frozenset("study train prepare work".split())
_ROLE_VERBS = frozenset("be become".split())


def _infinitive(head: Token) -> Token | None:
    """The to-infinitive that ``head`` governs (as xcomp, acl, ccomp or advcl)."""
    for c in head.children:
        if (
            c.dep_ in ("xcomp", "acl", "ccomp", "advcl", "relcl")
            and c.pos_ in ("VERB", "AUX")
            and c.tag_ == "VB"
            and any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children)
        ):
            return c
    return None


_NESTED = frozenset("advcl relcl ccomp conj cc parataxis mark punct appos npadvmod".split())


def verb_phrase(target: Token, speakers: Speakers) -> str | None:
    """ "open a bakery in Lyon": ``target``'s lemma and its complements, nested clauses cut, "my"
    → the speaker's; None for a pronoun inside, a bare verb or too long a phrase."""
    cut = {
        u.i
        for t in target.subtree
        if t.i != target.i
        and t.dep_ in _NESTED
        and not (t.dep_ in ("conj", "cc") and t.head.i == target.i and t.pos_ in ("VERB", "CCONJ"))
        for u in t.subtree
    }
    words: list[Token] = []
    for t in target.subtree:
        if t.i < target.i:
            continue
        if t.i in cut:
            if len(words) > 1:
                break
            continue
        words.append(t)
    words = trim([t for t in words if t.dep_ != "punct"])
    if len(words) < 2 or len(words) > 9:
        return None
    out = [target.lemma_.lower()]
    for t in words[1:]:
        low = t.lower_
        if t.dep_ == "det" and low in ("a", "an", "the"):
            continue
        if low in ("my", "our"):
            if speakers.speaker in ("", "user"):
                return None
            out.append(f"{speakers.speaker}'s")
        elif t.pos_ == "PRON" or low in ("your", "his", "her", "their", "its", "this", "that"):
            return None
        else:
            out.append(t.text)
    if not any(t.pos_ in ("NOUN", "PROPN", "NUM") for t in words[1:]):
        return None
    return tidy(" ".join(out))


def goal_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "My dream is to X", "It's been a dream of mine to X", "I've always dreamed of Xing",
    "I'm studying to be a counselor" → plans (inferred)."""
    lemma = verb_lemma(verb)
    target: Token | None = None
    if verb.lemma_ == "be" and verb.tag_ != "VBD" and not any(c.lower_ == "was" for c in verb.children):
        subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
        attr = next((c for c in verb.children if c.dep_ in ("attr", "acomp")), None)
        if subj is not None and subj.lemma_.lower() in _GOAL_NOUNS:
            owner = next((c for c in subj.children if c.dep_ == "poss"), None)
            if owner is None or owner.lower_ not in ("my", "our"):
                return []
            target = _infinitive(verb) or (_infinitive(attr) if attr is not None else None)
            if target is None and attr is not None and attr.tag_ == "VB":
                target = attr
        elif subj is not None and subj.lower_ == "it" and attr is not None and attr.lemma_ in _GOAL_NOUNS:
            target = _infinitive(attr) or _infinitive(verb)
    elif lemma == "dream" and verb.tag_ != "VBD" and _first_person(verb):
        target = next(
            (
                g
                for p in verb.children
                if p.dep_ == "prep" and p.lower_ in ("of", "about")
                for g in p.children
                if g.dep_ == "pcomp" and g.tag_ == "VBG"
            ),
            None,
        )
    elif lemma in _TRAIN_VERBS and verb.tag_ == "VBG" and _first_person(verb):
        role = _infinitive(verb)
        if role is not None and role.lemma_ in _ROLE_VERBS:
            attr = next((c for c in role.children if c.dep_ in ("attr", "oprd", "acomp")), None)
            value = object_phrase(attr, speakers) if attr is not None else None
            return [Claim("plans", f"become {value}", inferred=True, keeps_time=True)] if value else []
    if target is None:
        return []
    value = verb_phrase(target, speakers)
    return [Claim("plans", value, inferred=True, keeps_time=True)] if value else []


# --------------------------------------------------------------------------- deeds under a head

_CHANCE_NOUNS = frozenset("chance opportunity privilege pleasure honor honour".split())
_FACTUAL_HEADS = frozenset("get manage have start begin learn".split())
_EVENTS = {"meet": "met", "visit": "visited", "attend": "attended"}


def _deed(target: Token, speakers: Speakers) -> list[Claim]:
    """The embedded verb's own claim: its object or its first prepositional object."""
    lemma = verb_lemma(target)
    if target.pos_ != "VERB" or not lemma.isalpha() or not known_verb(lemma):
        return []  # "a vacation we had to California-": no verb
    if lemma in SKIP_VERBS or lemma in ("see", "make", "take", "help", "let", "do"):
        return []
    particle = next((c.lower_ for c in target.children if c.dep_ == "prt"), None)
    dobj = next((c for c in target.children if c.dep_ == "dobj"), None)
    if dobj is not None:
        value = object_phrase(dobj, speakers)
        if not value or dobj.lemma_.lower() in TIME_UNITS:
            return []
        predicate = _EVENTS.get(lemma) or "_".join(w for w in (third_person(lemma), particle) if w)
        kind = "person" if predicate == "met" and dobj.pos_ == "PROPN" else None
        return [Claim(predicate, value, object_kind=kind)]
    for prep in (c for c in target.children if c.dep_ == "prep"):
        obj = next((o for o in prep.children if o.dep_ == "pobj"), None)
        if obj is None or obj.lemma_.lower() in TIME_UNITS:
            continue
        value = object_phrase(obj, speakers)
        if not value:
            continue
        if lemma == "go" and prep.lower_ == "to":
            return [Claim("attended" if obj.lemma_.lower() in EVENT_NOUNS else "visited", value)]
        return [Claim("_".join(w for w in (third_person(lemma), particle, prep.lower_) if w), value)]
    return []


def deed_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I had the chance to volunteer at X", "I got to meet X", "I had to take a break from X"."""
    if not _past(verb):
        return []
    lemma = _head_lemma(verb)
    target: Token | None = None
    if lemma in ("have", "get"):
        chance = next(
            (c for c in verb.children if c.dep_ == "dobj" and c.lemma_.lower() in _CHANCE_NOUNS), None
        )
        if chance is not None:
            target = _infinitive(chance)
    if target is None and lemma in _FACTUAL_HEADS:
        target = next(
            (
                c
                for c in verb.children
                if c.dep_ == "xcomp"
                and c.tag_ == "VB"
                and any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children)
            ),
            None,
        )
    if target is None and lemma in ("feel", "be"):  # "I felt so proud giving my talk"
        target = next(
            (
                c
                for h in [verb, *(a for a in verb.children if a.dep_ == "acomp")]
                for c in h.children
                if c.dep_ in ("advcl", "xcomp", "ccomp")
                and c.tag_ == "VBG"
                and not any(a.dep_ in ("nsubj", "mark", "aux") for a in c.children)
            ),
            None,
        )
    if target is None or is_negated(target):
        return []
    return _deed(target, speakers)


# --------------------------------------------------------------------------- achievements

_EARNED = frozenset(
    "promotion award prize scholarship degree diploma certificate certification medal trophy raise "
    "grant license licence tattoo piercing title championship place ribbon badge belt recognition "
    "bonus fellowship internship acceptance nomination".split()
)
_GET_VERBS = frozenset("get score".split())
_ACHIEVE = {"win": "won"}
_PROMOTED = {"promote": "promotion", "certify": "certification", "nominate": "nomination"}


def achievement_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I got a promotion", "I won first place", "I got promoted" → got / won."""
    lemma = _head_lemma(verb)
    passive = any(c.dep_ == "auxpass" and c.lemma_ == "get" for c in verb.children)
    if passive and verb.tag_ == "VBN" and lemma in _PROMOTED:
        auxes = [c for c in verb.children if c.dep_ == "auxpass"]
        if any(a.tag_ == "VBD" or a.tag_ == "VBN" for a in auxes):
            return [Claim("got", _PROMOTED[lemma])]
        return []
    if not _past(verb) or lemma not in _GET_VERBS | {"win"}:
        return []
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is None or dobj.lemma_.lower() not in _EARNED:
        return []
    if dobj.lemma_.lower() == "place" and not any(c.dep_ in ("amod", "nummod") for c in dobj.children):
        return []  # "got a place" is no prize; "won first place" is
    value = object_phrase(dobj, speakers)
    if not value:
        return []
    return [Claim(_ACHIEVE.get(lemma, "got"), value)]


def agent_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I got mentored by a business coach" → was_mentored_by business coach."""
    if verb.tag_ != "VBN":
        return []
    auxes = [c for c in verb.children if c.dep_ == "auxpass"]
    if not auxes or not any(a.tag_ == "VBD" for a in auxes):
        return []
    agent = next((c for c in verb.children if c.dep_ == "agent"), None)
    obj = next((o for o in agent.children if o.dep_ == "pobj"), None) if agent is not None else None
    if obj is None:
        return []
    value = object_phrase(obj, speakers)
    return [Claim(f"was_{verb.lower_}_by", value)] if value else []


# --------------------------------------------------------------------------- inspiration

_MOVING_VERBS = {
    "inspire": "is_inspired_by",
    "motivate": "is_motivated_by",
    "encourage": "is_encouraged_by",
    "empower": "is_empowered_by",
}


def inspiration_claims(verb: Token, speakers: Speakers) -> list[tuple[Claim, str]]:
    """ "That concert really inspired me" → (speaker, is_inspired_by, concert)."""
    predicate = _MOVING_VERBS.get(verb.lemma_.lower())
    if predicate is None or verb.tag_ == "VBG":
        return []
    me = next((c for c in verb.children if c.dep_ == "dobj" and c.lower_ in ("me", "us")), None)
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if me is None or subj is None or subj.pos_ not in ("NOUN", "PROPN"):
        return []
    if any(c.dep_ == "poss" and c.pos_ == "PRON" and c.lower_ not in ("my", "our") for c in subj.children):
        return []  # "Your story inspired me": thanks to the listener
    if subj.lemma_.lower() in ("people", "everyone", "thing", "things", "stuff", "one", "lot"):
        return []
    value = object_phrase(subj, speakers)
    if not value:
        return []
    first = next(iter(subj.subtree))
    if first.i == 0 and value.startswith(first.text) and first.pos_ != "PROPN":
        value = value[:1].lower() + value[1:]
    return [(Claim(predicate, value, subject=SPEAKER), clause_text(verb))]


def _by_what(verb: Token, speakers: Speakers) -> str | None:
    """The "by" phrase of a passive: a thing ("by street art") or a deed ("by chatting to people")."""
    by = next((c for c in verb.children if c.dep_ in ("agent", "prep") and c.lower_ == "by"), None)
    if by is None:
        return None
    obj = next((o for o in by.children if o.dep_ in ("pobj", "pcomp")), None)
    if obj is None:
        return None
    if obj.tag_ == "VBG":
        phrase = verb_phrase(obj, speakers)
        return f"{obj.lower_}{phrase[len(obj.lemma_) :]}" if phrase else None
    if obj.pos_ not in ("NOUN", "PROPN") or obj.lemma_.lower() in _VAGUE_MOVERS:
        return None
    if any(c.dep_ == "poss" and c.lower_ in ("your", "his", "her", "their") for c in obj.children):
        return None  # "inspired by your story": thanks to the listener
    return object_phrase(obj, speakers)


_VAGUE_MOVERS = frozenset("people everyone thing things stuff one lot you it this that".split())


def moved_by_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm so inspired by street art", "I've always been motivated by my gran's courage" → the
    speaker is_inspired_by / is_motivated_by X: the passive of ``inspiration_claims``, in the
    present or the perfect (a past "I was inspired by X" is a moment, not a source)."""
    predicate = _MOVING_VERBS.get(verb.lemma_.lower())
    if predicate is None or verb.tag_ != "VBN":
        return []
    auxes = [c for c in verb.children if c.dep_ == "auxpass"]
    if not auxes or any(a.tag_ == "VBD" for a in auxes):
        return []
    subj = next((c for c in verb.children if c.dep_ == "nsubjpass"), None)
    if subj is None or subj.lower_ not in ("i", "we"):
        return []
    value = _by_what(verb, speakers)
    return [Claim(predicate, value)] if value else []


_TROUBLE_NOUNS = frozenset("trouble difficulty difficulties problems issues".split())


def trouble_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm having trouble with my business project", "I have problems with my knee" →
    struggles_with (present only: "had trouble with" was a moment)."""
    if verb.lemma_.lower() != "have" or verb.tag_ not in ("VBG", "VBP"):
        return []
    if verb.tag_ == "VBG" and not any(c.dep_ == "aux" and c.lemma_ == "be" for c in verb.children):
        return []
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is None or dobj.lower_ not in _TROUBLE_NOUNS:
        return []
    with_ = next(
        (c for c in [*dobj.children, *verb.children] if c.dep_ == "prep" and c.lower_ == "with"), None
    )
    obj = next((o for o in with_.children if o.dep_ == "pobj"), None) if with_ is not None else None
    if obj is None or obj.pos_ not in ("NOUN", "PROPN"):
        return []
    value = object_phrase(obj, speakers)
    return [Claim("struggles_with", value)] if value else []


# --------------------------------------------------------------------------- creations shown

_CREATE_VERBS = frozenset(
    "make paint draw sketch write build create design knit sew bake craft sculpt compose carve "
    "finish complete crochet cook".split()
)
_DEMONSTRATIVES = frozenset("this that these those".split())


def creation_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I made this bowl in class", "I made this painting to show ..." → makes bowl / painting."""
    lemma = verb.lemma_.lower()
    if lemma not in _CREATE_VERBS or not _past(verb):
        return []
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None:  # the small model reads "made this painting to show" as a clause
        clause = next((c for c in verb.children if c.dep_ in ("ccomp", "xcomp") and c.tag_ == "VB"), None)
        obj = next((c for c in clause.children if c.dep_ == "nsubj"), None) if clause is not None else None
    if obj is None or obj.pos_ != "NOUN" or obj.lemma_.lower() in TIME_UNITS:
        return []
    if not any(c.dep_ == "det" and c.lower_ in _DEMONSTRATIVES for c in obj.children):
        return []  # the verb-object rule reads the rest
    value = object_phrase(obj, speakers)
    return [Claim(third_person(lemma), value)] if value else []


# --------------------------------------------------------------------------- outings and tries

_OUTING_NOUNS = frozenset(
    "time blast experience day weekend ball fun afternoon evening morning night".split()
)
_SPENT_NOUNS = frozenset("time day days weekend afternoon evening morning hours week summer".split())
_PHOTO_NOUNS = frozenset("photo pic picture shot snap photograph selfie".split())
_PLACE_PREPS = frozenset("at in on".split())
_NO_PLACES = frozenset("work home house place school job office bed end moment point".split())
_TRIPS = frozenset("hike trip walk ride cruise tour vacation holiday getaway roadtrip excursion".split())


def _place_of(verb: Token, speakers: Speakers, *, named: bool) -> Claim | None:
    """Where the outing was: the object of the first "at"/"in"/"on" phrase of the verb or of its
    object (a name only when ``named``), as ``visited`` the place, ``attended`` an event or
    ``goes_on`` a trip ("on a hike"); no time, no pronoun, no gerund read as a noun, no phrase
    the parse split in two ("at the Pride fest" read as two objects)."""
    holders = [verb, *(c for c in verb.children if c.dep_ == "dobj")]
    for prep in (c for h in holders for c in h.children if c.dep_ == "prep" and c.lower_ in _PLACE_PREPS):
        objs = [o for o in prep.children if o.dep_ == "pobj"]
        obj = objs[0] if len(objs) == 1 else None
        if obj is None or obj.lemma_.lower() in TIME_UNITS or obj.pos_ not in ("NOUN", "PROPN"):
            continue
        after = obj.doc[obj.i + 1] if obj.i + 1 < len(obj.doc) else None
        if after is not None and after.pos_ in ("NOUN", "ADJ", "PROPN") and after not in list(obj.subtree):
            continue  # the phrase goes on past what the parse took as its object
        lemma = obj.lemma_.lower()
        if lemma in _NO_PLACES:
            continue
        predicate = "attended" if lemma in EVENT_NOUNS else "goes_on" if lemma in _TRIPS else "visited"
        if prep.lower_ == "on" and predicate == "visited":
            continue
        if obj.lower_.endswith("ing") and obj.pos_ == "NOUN":
            continue  # "at the shelter volunteering" read as one noun
        if named and not any(t.pos_ == "PROPN" for t in obj.subtree):
            continue
        called = next((c for c in obj.children if c.dep_ == "acl" and c.lemma_ in ("call", "name")), None)
        if called is not None:  # "a location called Whispering Falls"
            obj = next((o for o in called.children if o.pos_ == "PROPN"), obj)
        value = _cut_before_gerund(obj, object_phrase(obj, speakers))
        return Claim(predicate, value) if value else None
    return None


def _cut_before_gerund(obj: Token, value: str | None) -> str | None:
    """ "shelter volunteering at the front desk" read as one phrase is the shelter."""
    gerund = next((c for c in obj.rights if c.tag_ == "VBG"), None)
    if value is None or gerund is None:
        return value
    words = [t for t in obj.subtree if t.i < gerund.i and t.dep_ not in ("det", "punct")]
    if any(t.pos_ == "PRON" or t.tag_ == "PRP$" for t in words):
        return None
    return tidy(" ".join(t.text for t in words)) or None


def _no_occasion(value: str | None) -> str | None:
    """ "surfing for the first time" is surfing."""
    if value is None:
        return None
    for tail in (" for the first time", " for first time", " for the last time"):
        if value.endswith(tail):
            return value[: -len(tail)]
    return value


def outing_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "We had a great time at the aquarium" → visited aquarium; "I spent the afternoon at the
    shelter volunteering at the front desk" → the gerund's deed (or ``does`` it) and the place;
    "I took this photo at Whispering Falls" → visited (a name only); "I tried my newest vegan
    recipe" → tried; "tried my hand at surfing" → tried surfing."""
    if not _past(verb):
        return []
    lemma = _head_lemma(verb)
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is None:
        return []
    noun = dobj.lemma_.lower()
    if lemma == "have" and noun in _OUTING_NOUNS:
        where = _place_of(verb, speakers, named=False)
        return [where] if where else []
    if lemma == "take" and noun in _PHOTO_NOUNS:
        where = _place_of(verb, speakers, named=True)
        return [where] if where else []
    if lemma == "spend" and noun in _SPENT_NOUNS:
        out: list[Claim] = []
        gerund = next((c for c in verb.children if c.dep_ in ("advcl", "xcomp") and c.tag_ == "VBG"), None)
        if gerund is not None and not any(c.dep_ in ("nsubj", "mark") for c in gerund.children):
            deed = _deed(gerund, speakers)
            if deed:
                out.extend(deed)
            elif not [c for c in gerund.children if c.dep_ in ("dobj", "prep")]:
                out.append(Claim("does", gerund.lower_))
        where = _place_of(verb, speakers, named=False)
        if where and not any(where.obj in c.obj for c in out):
            out.append(where)
        return out
    if lemma == "try":
        if noun == "hand":  # "tried my hand at surfing"
            target = next(
                (o for p in verb.children if p.dep_ == "prep" and p.lower_ == "at" for o in p.children), None
            )
            value = _no_occasion(object_phrase(target, speakers)) if target is not None else None
            return [Claim("tried", value)] if value else []
        if dobj.pos_ == "NOUN" and noun not in ("best", "luck", "hand", "thing", "something"):
            value = _no_occasion(object_phrase(dobj, speakers))
            return [Claim("tried", value)] if value else []
    return []


# --------------------------------------------------------------------------- traits

_TRAITS = frozenset(
    "vegan vegetarian pescatarian intolerant diabetic pregnant retired introverted extroverted "
    "bilingual trilingual sober celiac coeliac autistic colorblind left-handed right-handed "
    "married single engaged divorced widowed asthmatic epileptic dyslexic".split()
)
_STATUS = frozenset("married single engaged divorced widowed".split())


def trait_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm lactose intolerant", "I'm vegan", "I've been married for five years" → is (a
    relationship status for married / single / engaged / divorced / widowed); said in the past
    ("I was vegan") it is no current trait."""
    if verb.lower_ in ("married", "engaged", "divorced") and verb.tag_ == "VBN":
        auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
        if any(a.lower_ in ("been", "'m", "am", "are", "'re") for a in auxes) and not any(
            a.lower_ in ("was", "were", "had", "'d") for a in auxes
        ):
            if not any(c.dep_ in ("prep", "dobj", "agent") for c in verb.children):
                return [Claim("relationship_status", verb.lower_)]
        return []
    if verb.lemma_ != "be" or verb.tag_ == "VBD":
        return []
    adj = next((c for c in verb.children if c.dep_ in ("acomp", "attr") and c.lower_ in _TRAITS), None)
    if adj is None or any(c.dep_ == "prep" for c in adj.children):
        return []  # "allergic to X", "married to X": the verb-object rules read those
    if any(a.lower_ == "was" or a.lower_ == "were" for a in verb.children if a.dep_ == "aux"):
        return []
    mods = [c for c in adj.lefts if c.dep_ in ("npadvmod", "compound", "amod") and c.pos_ in ("NOUN", "ADJ")]
    value = " ".join([*(m.lower_ for m in mods), adj.lower_])
    if adj.lower_ in _STATUS and not mods:
        return [Claim("relationship_status", adj.lower_)]
    return [Claim("is", value)]


# --------------------------------------------------------------------------- all


def reader_claims(doc: Doc, speakers: Speakers, *, nested: bool = False) -> list[tuple[Claim, str]]:
    """The clause readers' claims for ``doc``, each with its clause text (module docstring); the
    family reader (``kin_claims``) runs apart: a relative inside another claim's object ("baked a
    cake with my grandma") is still a fact of its own. A deed told in a relative clause ("the
    figurines I bought") is read as a sentence of its own (``rules_en_readers_relative``), unless
    ``doc`` is already such a sentence (``nested``); so is a sentence that dropped its "I" before a past
    verb (``rules_en_readers_dropped``: "Been working on X", "Got some new gear"), and so is a
    statement before a tag question after a dash (``rules_en_readers_tagged``: "I finished a
    vase - want to see?"). A deed told as the time of a clause ("After finishing my screenplay
    I ...") is read by ``rules_en_readers_since``."""
    out: list[tuple[Claim, str]] = []
    if not nested:  # the restating readers import this module: imported here, not at the top
        from graphmem.providers.extractors.rules_en_readers_dropped import dropped_claims
        from graphmem.providers.extractors.rules_en_readers_relative import relative_claims
        from graphmem.providers.extractors.rules_en_readers_tagged import tagged_claims

        out.extend(
            relative_claims(doc, speakers) + dropped_claims(doc, speakers) + tagged_claims(doc, speakers)
        )
    from graphmem.providers.extractors.rules_en_readers_since import since_claims

    out.extend(since_claims(doc, speakers))
    for verb in asserted_verbs(doc):
        out.extend(inspiration_claims(verb, speakers))
        text = clause_text(verb)
        out.extend((c, text) for c in goal_claims(verb, speakers))
        resolved = subject_of(verb, speakers)
        if resolved is None:
            continue
        subject = SPEAKER if resolved[1] else resolved[0]
        found = (
            deed_claims(verb, speakers)
            + achievement_claims(verb, speakers)
            + agent_claims(verb, speakers)
            + moved_by_claims(verb, speakers)
            + trouble_claims(verb, speakers)
            + creation_claims(verb, speakers)
            + outing_claims(verb, speakers)
            + (trait_claims(verb, speakers) if resolved[1] else [])
        )
        for claim in found:
            claim.subject = subject
            out.append((claim, text))
    return out
