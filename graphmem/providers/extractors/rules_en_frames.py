"""Frames for the functional predicates (lives_in, works_at, job_title) read off the dependency tree.

A frame is a class of verbs (lemma sets, the synonym sets below) plus the role its arguments play:
the destination and the origin of a relocation, the organisation of an employment start or end, the
role taken. Any verb of the class with its arguments in place gives the fact, whatever the wording:

- **relocation** (``RELOCATE``: move, relocate, emigrate, settle, ...): a destination (to, into,
  in, over to, back to; through a dwelling: "into a flat in Leeds") is the new ``lives_in``, an
  origin (from, out of, away from) the old one (asserted just before, ``Claim.before``) or its end
  when no destination is named. A verb of plain motion (go, head, fly, come, ...) relocates only when
  the clause says it is for good ("headed to Phoenix for good", "went back to Lima to live").
- **residence nouns** (home, residence, resident, roots, lease, ...): "call X home", "made X my
  home", "X has been my home", "a resident of X", "took up residence in X", "put down roots in X";
  a present perfect of being in a place ("I've been in Chicago for three years").
- **employment start** (``JOIN``: join, hire, employ, recruit, sign, onboard; ``TAKE_JOB`` + a job
  noun: got/landed/accepted a job at X; "began working for X"; "be with X", "have been at X",
  "part of the team at X") and **end** (``LEAVE``: leave, quit, resign, retire, "step down from",
  "part ways with", "laid off", "let go", "hand in my notice at X"). The organisation may be the
  grammatical subject: "Google hired me", "Initech let me go", "Adobe brought me on as a designer".
- **role**: any verb of ``ROLE_VERBS`` + "as" + a job noun ("serve as CFO", "took over as editor",
  "hired as a data analyst", "retrained as an electrician"); "the role of X"; a copula with a job
  noun in the present or present perfect ("I'm the head of marketing", "I've been a chef for ten
  years", "a nurse by profession"); "was made a partner"; promotions; "went from teacher to
  principal".

Polarity and time: "no longer", "not ... anymore", "stopped" and "quit being" turn the claim into an
end; a plain negation gives nothing; "used to" gives the old value (``before``) that a later value
of the same predicate in the sentence replaces; future and progressive change verbs ("I'm moving to
X", "I'll join Y") are left to the plan rules.

Whether a name after "leave" or "from ... to" is a place or an employer is read from the words around
it (an organisation suffix, job words, a relocation word), and else from the statistical entity
recogniser, run only on those sentences (``en_parse.entity_label``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_objects import JOBS, ROLES

if TYPE_CHECKING:
    from spacy.tokens import Token

RELOCATE = frozenset("move relocate emigrate immigrate migrate resettle settle transplant repatriate".split())
MOTION = frozenset("go head come fly drive travel return get ship run escape arrive".split())
_DESTINATION = frozenset("to into in over_to back_to out_to down_to up_to across_to onto".split())
_ORIGIN = frozenset("from out_of away_from".split())
_FOR_GOOD = frozenset("good permanently permanent".split())
_DWELLING = frozenset(
    "home house apartment flat place condo studio loft room dorm townhouse cottage villa "
    "residence city town country area neighborhood neighbourhood suburb".split()
)
_RESIDENCE_NOUNS = frozenset("residence roots root home base lease".split())
_RESIDENCE_VERBS = frozenset("take set put make find establish sign settle rent lease get close".split())

JOIN = frozenset("join hire employ recruit sign onboard rehire headhunt poach contract".split())
_HIRING_BY_ORG = frozenset("hire employ recruit rehire headhunt poach bring take sign onboard".split())
_FIRING_BY_ORG = frozenset("fire lay let sack dismiss terminate release".split())
TAKE_JOB = frozenset("get land accept take start begin secure score nab snag find have".split())
JOB_NOUNS = frozenset("job role position internship gig post career contract offer spot".split())
LEAVE = frozenset("leave quit resign retire depart exit".split())
_WORK_VERBS = frozenset("work intern volunteer freelance consult teach contract temp moonlight".split())
ROLE_VERBS = frozenset(
    "work start begin serve hire bring take join retrain train qualify act step come return stay "
    "continue employ sign recruit appoint name elect rehire land get remain earn make".split()
)
_ROLE_NOUNS = frozenset("role position job title post".split())
_TEAM_NOUNS = frozenset("team staff payroll crew faculty board".split())
_MEMBER_NOUNS = frozenset("part member employee staffer worker contractor".split())
_CLEFT = {"live": "lives_in", "reside": "lives_in", "work": "works_at", "study": "studies_at"}
_PROMOTE = frozenset("promote bump elevate upgrade advance".split())
_CAREER_NOUNS = frozenset(
    "career careers field fields profession professions track tracks lane lanes".split()
)
_NOTICE_VERBS = frozenset("hand put give submit tender turn".split())
_ORG_SUFFIX = frozenset(
    "inc corp corporation ltd llc co company bank group labs technologies systems industries "
    "enterprises partners solutions studios agency consulting holdings ventures".split()
)
_WORK_CONTEXT = frozenset(
    "job work company employer boss notice position role team office career colleagues coworkers "
    "hire hired offer salary contract firm employ employed recruit payroll resign join".split()
)
_HOME_CONTEXT = frozenset(
    "live home house apartment flat city town country neighborhood neighbourhood rent lease move "
    "relocate settle".split()
)
_ENDING = frozenset({"anymore", "longer"})
_MOVED_CONTEXT = _HOME_CONTEXT | frozenset({"behind", "leave", "left"})
_PAST_TAGS = frozenset({"VBD"})
_FRAME_VERBS = RELOCATE | MOTION | JOIN | LEAVE | _WORK_VERBS | TAKE_JOB | _HIRING_BY_ORG


@dataclass(frozen=True, slots=True)
class Hooks:
    """What a frame needs from the clause reader (``rules_en_parse``): an object's words, the
    clause's resolved subject, and the entity label of a name."""

    words: Callable[[Token], str | None]
    entity: Callable[[Token], str]
    probe: Callable[[str], str] = lambda name: ""

    def phrase(self, tok: Token) -> str | None:
        """A name's own words ("Toronto", not "Toronto my whole life"), else the object phrase."""
        return name_text(tok) if tok.pos_ == "PROPN" else self.words(tok)


# --------------------------------------------------------------------------- tree helpers


def _children(tok: Token, *deps: str) -> list[Token]:
    return [c for c in tok.children if c.dep_ in deps]


def _roles(tok: Token) -> list[tuple[str, Token]]:
    """(preposition, object) pairs under ``tok``: "out of Boston" is ("out_of", Boston), a
    conjoined preposition keeps its own ("out of Boston and into Leeds"), "from living in Rome" is
    ("from", Rome)."""
    out: list[tuple[str, Token]] = []
    for p in tok.children:
        if p.dep_ in ("prep", "dative", "agent") or (p.dep_ == "conj" and p.pos_ == "ADP"):
            out.extend(_prep_objects(p, p.lower_))
        elif p.dep_ == "advmod" and p.lower_ in ("back", "over", "out", "down", "up", "away", "across"):
            out.extend(_prep_objects(p, p.lower_, inner_only=True))
        elif p.dep_ == "prt" and p.lower_ in ("back", "over", "out", "away"):
            continue
        elif (
            p.dep_ in ("advcl", "xcomp")
            and (p.tag_ in ("NN", "NNS") or (p.tag_ == "VB" and p.lower_ in ROLES))
            and _to_as_infinitive(p)
        ):
            out.append(("to", p))  # "switched from data analyst to chef": "to" read as an infinitive's
    return out


def _to_as_infinitive(tok: Token) -> bool:
    """A noun the parser hung as a clause under an infinitive "to" ("... to chef.", "promoted from
    chef to nurse" with "nurse" tagged a verb): a "to" phrase misread."""
    return any(c.dep_ == "aux" and c.tag_ == "TO" for c in tok.children) and not any(
        c.dep_ in ("nsubj", "dobj", "prep") for c in tok.children
    )


def _prep_objects(p: Token, role: str, *, inner_only: bool = False) -> list[tuple[str, Token]]:
    out: list[tuple[str, Token]] = []
    for c in p.children:
        if c.dep_ == "pobj" and not inner_only:
            out.append((role, c))
            if role == "from":  # "from accountant to chef", hung as one phrase
                for t in c.children:
                    if t.dep_ == "prep" and t.lower_ in ("to", "into"):
                        out.extend(_prep_objects(t, t.lower_))
        elif c.dep_ == "prep" and role == "up" and c.lower_ in ("from",):  # "moved up from X to Y"
            out.extend(_prep_objects(c, c.lower_))
        elif c.dep_ == "prep" and role == "from" and c.lower_ in ("to", "into"):  # "from X to Y"
            out.extend(_prep_objects(c, c.lower_))
        elif c.dep_ == "prep":  # "out of", "away from", "back to"
            out.extend(_prep_objects(c, f"{role}_{c.lower_}"))
        elif c.dep_ == "pcomp" and c.pos_ in ("VERB", "AUX"):  # "from living in Rome"
            out.extend((role, o) for _, o in _roles(c))
            out.extend((role, o) for o in c.children if o.dep_ == "attr")  # "from being a cook"
        elif c.dep_ == "conj" and c.pos_ == "ADP":
            out.extend(_prep_objects(c, c.lower_))
    return out


def _proper(tok: Token) -> bool:
    """A name: tagged so, or a capitalised noun inside the sentence that the tagger took for a
    common plural ("We left Leeds." tags Leeds NNS, lemma "leed")."""
    if tok.pos_ == "PROPN":
        return True
    return (
        tok.pos_ == "NOUN"
        and tok.i > tok.sent.start
        and tok.text[:1].isupper()
        and tok.text[1:2].islower()
        and tok.dep_ in ("dobj", "pobj", "nsubj", "attr")
    )


def _name_before(noun: Token) -> str | None:
    """The capitalised words right before a team or member noun that name its firm: "the Massive
    Dynamic payroll", "the Bank of America team", "a Stark Industries employee" (the parser hangs
    such names as compounds, adjectives or a chain with "of")."""
    if noun.lemma_.lower() not in _TEAM_NOUNS | _MEMBER_NOUNS:
        return None
    doc, start = noun.doc, noun.i
    while start - 1 >= noun.sent.start and (
        doc[start - 1].text[:1].isupper() or (doc[start - 1].lower_ in _NAME_LINKS and start - 2 >= 0)
    ):
        start -= 1
    while start < noun.i and doc[start].lower_ in _NAME_LINKS:
        start += 1
    if start == noun.i or (start == noun.sent.start and doc[start].lower_ in ("i", "we")):
        return None
    if not any(doc[k].pos_ == "PROPN" for k in range(start, noun.i)):
        return None
    return doc[start : noun.i].text


def _named_word(tok: Token) -> bool:
    """A name, or a capitalised word inside the sentence that the tagger took for a verb or a
    plural ("Sam calls Leeds home": Leeds a verb, lemma "leed")."""
    return _proper(tok) or (
        tok.i > tok.sent.start and tok.text[:1].isupper() and tok.text[1:2].islower() and tok.pos_ == "VERB"
    )


def _place(tok: Token) -> Token | None:
    """The named place an object stands for: itself, or the name inside a dwelling ("a flat in
    Leeds", "our new place in Austin")."""
    if _proper(tok):
        return _name_head(tok)
    if tok.lemma_.lower() in _DWELLING:
        for p in _children(tok, "prep"):
            if p.lower_ in ("in", "at", "on", "near", "of"):
                for o in _children(p, "pobj"):
                    if o.pos_ == "PROPN":
                        return _name_head(o)
    return None


def _name_head(tok: Token) -> Token:
    """A name stands for itself (its words: ``name_text``)."""
    return tok


def name_text(tok: Token) -> str | None:
    """The words of the name ``tok`` heads: its run of proper nouns (and "of", "de", "&" between
    them), without what the parser hung on it ("Toronto my whole life" is Toronto)."""
    if tok.pos_ != "PROPN":
        return None
    words = {t.i for t in tok.subtree}
    start = end = tok.i
    doc = tok.doc
    while start - 1 in words and (
        doc[start - 1].pos_ == "PROPN"
        or doc[start - 1].lower_ in _NAME_LINKS
        or _capital_compound(doc[start - 1])
    ):
        start -= 1
    while end + 1 in words and (doc[end + 1].pos_ == "PROPN" or doc[end + 1].lower_ in _NAME_LINKS):
        end += 1
    while doc[start].pos_ != "PROPN" and not _capital_compound(doc[start]):
        start += 1
    while doc[end].pos_ != "PROPN":
        end -= 1
    text = doc[start : end + 1].text
    return text[:-1] if text.endswith(".") and text.count(".") == 1 else text  # "Acme Corp." ends a sentence


_NAME_LINKS = frozenset({"of", "de", "&", "-", "del", "la", "van", "von"})


def _capital_compound(tok: Token) -> bool:
    """A capitalised word the tagger did not call a name, inside one ("Pied Piper": Pied/JJ)."""
    return (
        tok.dep_ in ("compound", "amod")
        and (tok.i > 0 or tok.dep_ == "compound")
        and tok.text[:1].isupper()
        and tok.head.pos_ == "PROPN"
    )


def _tense(verb: Token) -> str:
    """past | perfect | present | progressive | future | used_to | base."""
    auxes = _children(verb, "aux", "auxpass")
    if (
        verb.dep_ == "conj"
        and not auxes
        and not (verb.tag_ in ("VBP", "VBZ", "VBD") and _children(verb, "nsubj"))
    ):
        auxes = _children(verb.head, "aux", "auxpass")  # "I was living in A, and now I live in B": its own
    words = {a.lower_ for a in auxes}
    if words & {"will", "'ll", "shall", "wo", "gonna"}:
        return "future"
    if verb.dep_ == "xcomp" and verb.head.lemma_ == "use" and verb.head.tag_ == "VBD":
        return "used_to"
    if verb.dep_ == "xcomp" and verb.head.lemma_ == "go" and verb.head.tag_ == "VBG":
        return "future"
    if _counterfactual(verb):
        return "base"  # "we'd have moved to X (if ...)", "I could have joined X": it did not happen
    if words & {"had", "'d"} and (verb.tag_ == "VBN" or "been" in words):
        return "past"  # a past perfect ("I'd been living in A for years, but ...") is over
    if verb.tag_ == "VBG" and words & {"am", "is", "are", "'m", "'re", "'s"}:
        return "progressive"
    if verb.tag_ == "VBN" and any(a.lemma_ == "have" for a in auxes):
        return "perfect"
    if verb.tag_ == "VBN" and any(a.lower_ in ("was", "were", "got", "get", "been") for a in auxes):
        return "past"
    if verb.tag_ == "VBN" and any(a.lower_ in ("am", "is", "are", "'m", "'re") for a in auxes):
        return "present"
    if verb.tag_ in _PAST_TAGS or any(a.lower_ in ("was", "were", "did") for a in auxes):
        return "past"
    if verb.tag_ == "VB" and any(a.lower_ in ("do", "does") for a in auxes):
        return "present"  # "I don't work at X"
    if verb.tag_ in ("VBZ", "VBP"):
        return "present"
    if verb.tag_ == "VBG":
        return "progressive"
    if verb.tag_ == "VB" and not auxes and any(c.dep_ == "nsubj" and c.i < verb.i for c in verb.children):
        # a finite verb tagged as a base form ("Acme let me go", "I no longer call X home")
        return "past" if verb.lower_ in _SAME_PAST else "present"
    if verb.tag_ == "VBN" and not auxes and verb.dep_ == "conj" and verb.head.tag_ == "VBD":
        return "past"  # "I packed up and headed to X": a past tagged as a participle beside a past
    return "base"


def _counterfactual(verb: Token) -> bool:
    words = {a.lower_ for a in _children(verb, "aux", "auxpass")}
    return bool(words & _MODALS) and "have" in words


_MODALS = frozenset("would 'd could should might may must".split())
_SAME_PAST = frozenset("let quit put set cut hit shut spread split".split())


def _ending(verb: Token) -> bool:
    """ "no longer", "not ... anymore", "not ... any more": the state has ended (said in this
    clause, not in a clause nested in it: "I'm not a teacher anymore; I'm a tutor now")."""
    if _contrast(verb) is not None:
        return False
    own = _own_words(verb)
    words = {c.lower_ for c in own if c.dep_ in ("advmod", "neg", "npadvmod")}
    return bool(words & _ENDING) or ("more" in words and "any" in {c.lower_ for c in own})


def _own_words(verb: Token) -> list[Token]:
    nested = {
        t.i
        for c in verb.children
        if c.dep_ in ("conj", "parataxis", "ccomp", "advcl", "relcl") and c.pos_ in ("VERB", "AUX")
        for t in c.subtree
    }
    return [t for t in verb.subtree if t.i not in nested]


def _contrast(verb: Token) -> Token | None:
    """The "not" of a contrast after the clause's value ("I live in Denver now, not Nairobi
    (anymore)"): it sets another value aside, it does not negate the clause."""
    value_end = max((o.i for _, o in _roles(verb)), default=-1)
    if value_end < 0:
        return None
    doc, subtree = verb.doc, {t.i for t in verb.subtree}
    for c in doc[value_end + 1 :]:
        if c.lower_ == "not" and c.i in subtree and c.i + 1 < len(doc):
            if any(t.lower_ == "," for t in doc[value_end : c.i]) and doc[c.i + 1].pos_ in (
                "PROPN",
                "NOUN",
                "DET",
            ):
                return c
    return None


def _negated(verb: Token) -> bool:
    if _contrast(verb) is not None:
        return False
    return any(c.dep_ == "neg" for c in verb.children) or any(
        c.lower_ in _NOT_DONE for c in verb.children if c.dep_ == "advmod"
    )


_NOT_DONE = frozenset({"never", "longer", "almost", "nearly"})  # "I almost joined X" joined nothing


def _for_good(verb: Token) -> bool:
    """ "for good", "permanently", "to live", "to stay": a motion that is a move; so is one
    after packing up ("packed up and headed to X")."""
    if verb.dep_ == "conj" and verb.head.lemma_.lower() == "pack" and _has_word(verb.head, "up"):
        packed = next((c for c in verb.head.children if c.dep_ in ("dobj", "obj")), None)
        trip = any(c.dep_ == "prep" and c.lower_ == "for" for c in verb.children)
        if not trip and (packed is None or packed.lemma_.lower() in _BELONGINGS):
            return True
    for c in verb.children:
        if c.dep_ == "advmod" and c.lower_ in _FOR_GOOD:
            return True
        if c.dep_ == "prep" and c.lower_ == "for" and any(o.lower_ in _FOR_GOOD for o in c.children):
            return True
        if c.dep_ in ("advcl", "xcomp") and c.lemma_ in ("live", "stay", "settle"):
            return True
    return False


_BELONGINGS = frozenset("life everything house home stuff belongings apartment flat things".split())


def _words(verb: Token) -> set[str]:
    """The lemmas of the sentence around ``verb`` (the verb itself left out)."""
    return {t.lemma_.lower() for t in verb.doc if t.i != verb.i}


def _is_job(tok: Token) -> bool:
    low = tok.lemma_.lower()
    return low in JOBS or low in ROLES or tok.lower_ in JOBS


def _title(tok: Token) -> str | None:
    """A job title from a noun phrase headed by ``tok``: its compounds and adjectives ("senior
    analyst", "data analyst"), plus "of X" after a rank ("head of marketing")."""
    if not _is_job(tok):
        return None
    left = [c for c in tok.lefts if c.dep_ in ("compound", "amod") and c.pos_ in ("NOUN", "ADJ", "PROPN")]
    left = [c for c in left if c.lower_ not in ("new", "first", "current", "former", "old", "full", "dream")]
    words = [*[c.text for c in sorted(left, key=lambda t: t.i)], tok.text]
    if tok.lemma_.lower() in ROLES - JOBS or tok.lower_ in ("head", "director", "manager", "lead", "chief"):
        for p in _children(tok, "prep"):
            if p.lower_ == "of":
                objs = _children(p, "pobj")
                if objs and objs[0].pos_ in ("NOUN", "PROPN") and not _children(objs[0], "prep"):
                    inner = [c.text for c in objs[0].lefts if c.dep_ in ("compound", "amod")]
                    words += ["of", *inner, objs[0].text]
    if tok.lemma_.lower() in ROLES - JOBS and len(words) == 1 and tok.lower_ not in ("partner", "president"):
        return None
    text = " ".join(words)
    return text if text.isupper() else text.lower()


# --------------------------------------------------------------------------- place or employer


def org_or_place(tok: Token, verb: Token, hooks: Hooks, default: str, *, ner: bool = True) -> str:
    """ "organization" or "place" for a name whose verb does not say which ("left Boston",
    "moved over to Pied Piper from Hooli"): an organisation suffix, then job or home words in the
    sentence, then (``ner``) the entity recogniser, else ``default``. Where the frame itself names
    the kind ("moved to X" is a place) ``ner`` is off: the recogniser reads Bristol as a firm."""
    words = {t.lower_.strip(".") for t in tok.subtree}
    context = _words(verb)
    work, home = bool(context & _WORK_CONTEXT), bool(context & _HOME_CONTEXT)
    if words & _SCHOOL_SUFFIX or (_study_context(verb) and not work and not home):
        return "school"  # "I left Yale and enrolled at MIT"
    if words & _ORG_SUFFIX:
        return "organization"
    if work != home:
        return "organization" if work else "place"
    if not ner:
        return default
    label = hooks.entity(tok)
    if label in ("GPE", "LOC"):
        # the recogniser reads most unknown names after "left" as places; where an employer is
        # expected ("I work at X") it still reads a real place as one
        name = name_text(tok)
        return "place" if name is None or hooks.probe(name) in ("GPE", "LOC", "") else "organization"
    if label in ("ORG", "PRODUCT", "NORP", "FAC", "WORK_OF_ART"):
        return "organization"
    return default


_WHEN_PREPS = frozenset("after before since until till during".split())


def _study_context(verb: Token) -> bool:
    """Study words in the sentence, leaving out those that only date it ("right after college I
    moved to X", "since graduating", "before uni"): a time, not the value's kind."""
    for t in verb.doc:
        if t.i == verb.i or t.lemma_.lower() not in _STUDY_CONTEXT:
            continue
        head = t.head if t.dep_ in ("pobj", "pcomp") else t
        if head.lower_ in _WHEN_PREPS or (
            t.dep_ == "advcl"
            and any(c.lower_ in _WHEN_PREPS for c in t.children if c.dep_ in ("mark", "prep"))
        ):
            continue
        return True
    return False


_PREDICATE_OF = {
    "place": ("lives_in", "place"),
    "organization": ("works_at", "organization"),
    "school": ("studies_at", "organization"),
}
_SCHOOL_SUFFIX = frozenset("university college school academy institute polytechnic".split())
_STUDY_CONTEXT = frozenset(
    "enroll enrol study student school college university semester degree major class classes graduate "
    "campus course courses".split()
)


# --------------------------------------------------------------------------- the frames


def frame_claims(
    verb: Token, subject: str | None, resolved: bool, hooks: Hooks, tense: str | None = None
) -> list[Claim] | None:
    """The claims of a clause that a frame reads, subject set; None when no frame applies (the
    other readers go on). ``subject`` is the clause's resolved subject (SPEAKER for "I"); when
    ``resolved`` is false only the frames whose fact is about the object ("Google hired me") read."""
    tense = tense or _tense(verb)
    if _given_up_on(verb):
        return []  # "I gave up on becoming a nurse", "gave up on moving to X": a plan dropped
    if tense == "base" and _counterfactual(verb) and _frame_of(verb):
        return []  # "we'd have moved to X if ...": a frame's verb, and it did not happen
    if tense in ("future", "base"):
        return None
    lemma = _lemma(verb)
    ended = _ending(verb)
    negated = _negated(verb) and not ended
    if negated and (tense not in ("present", "progressive", "perfect") or lemma not in _STATES):
        return [] if _frame_of(verb) else None
    # a present state denied ("I'm not living in Austin these days", "I don't work at X") no
    # longer holds: an end, like "no longer"
    ended = ended or negated
    readers = (
        _by_org,  # first: the only reader of a clause whose subject is not resolved ("They hired me")
        _studying,
        _wedding,
        _cleft,
        _swap,
        _relocation,
        _residence,
        _departure,
        _living,
        _employment,
        _role,
        _copula_role,
        _being_in,
    )
    for reader in readers if resolved else readers[:1]:
        claims = reader(verb, lemma, tense, subject, hooks)
        if claims is None:
            continue
        if ended or lemma == "stop":
            for c in claims:
                c.kind = "end"
                c.before = False
        if tense == "used_to":  # the old value, kept only before a new one (``rules_en_parse``)
            for c in claims:
                c.before, c.kind = True, "assert"
        return _after(verb, _instead(verb, claims) + _purpose(verb, tense, subject, hooks), hooks)
    # an aspectual head passes its tense to the verb it governs: "stopped working at X", "quit
    # being a cashier", "ended up settling in Nashville", "began working for X", "used to be a teacher"
    inner = next(
        (c for c in verb.children if c.dep_ in ("xcomp", "pcomp") and c.pos_ in ("VERB", "AUX")), None
    )
    done = verb.lower_ in _DONE  # "I'm done working for X", "done being a cashier"
    if inner is None and lemma == "go":  # "went to work for X" (the parser hangs "work" as a purpose)
        inner = next(
            (c for c in verb.children if c.dep_ == "advcl" and c.lemma_.lower() in _WORK_VERBS), None
        )
    went = lemma == "go" and inner is not None and inner.lemma_.lower() in _WORK_VERBS
    if inner is None or tense == "progressive" or (lemma not in _ASPECTUAL and not done and not went):
        return None
    if lemma == "use":
        if verb.tag_ != "VBD":
            return None
        tense = "used_to"
    else:  # a state begun, kept or stopped: "began working for X" holds now
        tense = "present"
    claims = frame_claims(inner, subject, resolved, hooks, tense)
    if claims and (lemma in ("stop", "quit") or done or (lemma == "give" and _has_word(verb, "up"))):
        for c in claims:
            c.kind, c.before = "end", False
    return claims


_GIVE_UP_ON = frozenset("give abandon drop".split())


def _given_up_on(verb: Token) -> bool:
    """A change verb as the gerund of "gave up on" ("I gave up on becoming a nurse", "Sam has
    given up on moving to Leeds", "abandoned the plan of joining X"): the change was planned and
    dropped, it did not happen. A state given up ("gave up on being a nurse") is left to the end
    readers."""
    if verb.tag_ != "VBG" or verb.dep_ != "pcomp" or verb.lemma_.lower() in _STATES:
        return False
    prep = verb.head
    if prep.lower_ not in ("on", "of"):
        return False
    head = prep.head
    if head.pos_ == "NOUN" and head.lemma_.lower() in ("plan", "idea", "dream", "hope", "thought"):
        head = head.head  # "gave up the idea of moving to Leeds"
    return head.lemma_.lower() in _GIVE_UP_ON and (head.lemma_.lower() != "give" or _has_word(head, "up"))


def _lemma(verb: Token) -> str:
    """The verb's lemma, mended where the tagger's guess at an unknown verb's "-ed" / "-ing" form
    left a stray letter and the form without it is a frame verb ("onboarded" → "onboarde")."""
    lemma = verb.lemma_.lower()
    if lemma in _FRAME_VERBS:
        return lemma
    word = verb.lower_
    for end in ("ed", "ing", "s"):
        if word.endswith(end) and word[: -len(end)] in _FRAME_VERBS:
            return word[: -len(end)]
    return lemma


_ASPECTUAL = frozenset("stop quit end start begin manage get finally use continue keep give".split())


_STATES = frozenset("live reside work be stay employ base".split())
_DONE = frozenset({"done", "finished", "through"})


def _frame_of(verb: Token) -> bool:
    lemma = verb.lemma_.lower()
    return lemma in RELOCATE | JOIN | LEAVE | _WORK_VERBS | {"live", "reside"}


def _with_subject(claims: list[Claim], subject: str | None) -> list[Claim]:
    for c in claims:
        c.subject = subject
    return claims


def _pair(
    predicate: str, kind: str | None, old: str | None, new: str | None, subject: str | None
) -> list[Claim]:
    claims = []
    if old:
        claims.append(Claim(predicate, old, subject=subject, object_kind=kind, before=bool(new)))
    if new:
        claims.append(Claim(predicate, new, subject=subject, object_kind=kind))
    if old and not new:
        claims[0].kind = "end"
    return claims


def _relocation(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    relocating = lemma in RELOCATE or (lemma in MOTION and _for_good(verb))
    relocating = relocating or (lemma in ("end", "wind") and _has_word(verb, "up"))  # "ended up in Y"
    if lemma == "transfer" and tense != "progressive":  # "transferred to the Bristol office"
        office = next((o for r, o in _roles(verb) if r == "to" and o.lemma_.lower() in _OFFICES), None)
        town = _office_town(office) if office is not None else None
        if town is not None and (value := hooks.phrase(town)):
            return [Claim("lives_in", value, subject=subject, object_kind="place")]
    relocating = relocating or (  # "made the jump to Denver", "took the plunge and moved"
        lemma in ("make", "take")
        and any(d.dep_ == "dobj" and d.lemma_.lower() in ("move", "jump", "leap") for d in verb.children)
    )
    if relocating and tense == "progressive" and verb.dep_ == "conj" and not _children(verb, "aux"):
        return []  # "We're still in Lisbon, but moving to Melbourne": a move under way, not done
    if not relocating or tense == "progressive":
        return None
    jumped = lemma in ("make", "take") and any(
        d.dep_ == "dobj" and d.lemma_.lower() in ("jump", "leap") for d in verb.children
    )
    roles = _roles(verb)
    for d in _children(verb, "dobj"):  # "made the move from X to Y", "moved house to Glasgow"
        if d.lemma_.lower() in ("move", "house", "home", "base", "family", "jump", "leap", "switch"):
            roles += _roles(d)
    if any(r == "into" and t.lemma_.lower() in _ROLE_NOUNS for r, t in roles):
        return None  # "moved into a product manager role" is a title (``_role``)
    dest = next((t for r, t in roles if r in _DESTINATION and _place(t) is not None), None)
    origin = next((t for r, t in roles if r in _ORIGIN and _place(t) is not None), None)
    if dest is None and origin is None:
        dest = _moved_in(verb)
    if dest is None and origin is None:
        return None
    new_place = _place(dest) if dest is not None else None
    old_place = _place(origin) if origin is not None else None
    anchor = new_place or old_place
    if anchor is None:
        return None
    # "moved over to Pied Piper from Hooli" is a job change: only "move" is said of both
    # "moved over to Pied Piper" may be a job change; "moved out of X" only leaves a place
    both_firms = _both_firms(new_place, old_place, hooks)
    kind = (
        (
            "organization"
            if both_firms
            else org_or_place(anchor, verb, hooks, "place", ner=_has_word(verb, "over"))
        )
        if lemma == "move" and new_place is not None
        else org_or_place(anchor, verb, hooks, "place")
        if jumped  # "made the jump to Siemens" (a firm), "made the leap to Denver" (a town)
        else "place"
    )
    predicate, object_kind = _PREDICATE_OF[kind]
    new = hooks.phrase(new_place) if new_place is not None else None
    old = hooks.phrase(old_place) if old_place is not None else None
    if new is None and old is None:
        return []
    return _pair(predicate, object_kind, old, new, subject)


_OFFICES = frozenset("office branch site campus headquarters hq location team studio plant".split())


def _office_town(office: Token) -> Token | None:
    """The town an office names: "the Bristol office", "our office in Bristol"."""
    for c in office.children:
        if c.dep_ == "compound" and _proper(c) and c.text[:1].isupper():
            return c
    for r, o in _roles(office):
        if r == "in" and _proper(o):
            return o
    return None


def _both_firms(new: Token | None, old: Token | None, hooks: Hooks) -> bool:
    """Both names of "moved from A to B" read as organisations (a suffix, or the recogniser on
    both): a job move. One name alone is a place: the move frame says so ("moved to Bristol")."""
    if new is None or old is None:
        return False
    return all(
        bool({w.lower_.strip(".") for w in t.subtree} & _ORG_SUFFIX) or hooks.entity(t) in _ORG_LABELS
        for t in (new, old)
    ) or any(bool({w.lower_.strip(".") for w in t.subtree} & _ORG_SUFFIX) for t in (new, old))


def _moved_in(verb: Token) -> Token | None:
    """ "We bought a house in Leeds and moved in": "moved in" names no place, the dwelling of the
    clause beside it does."""
    if not any(
        c.lower_ in ("in", "there") and not list(c.children)
        for c in verb.children
        if c.dep_ in ("prt", "prep", "advmod")
    ):
        return None
    beside = [verb.head] if verb.dep_ == "conj" else []
    beside += [c for c in verb.children if c.dep_ == "conj"]
    for other in beside:
        for d in other.children:
            if d.dep_ == "dobj" and d.lemma_.lower() in _DWELLING and _place(d) is not None:
                return d
        if any(d.dep_ == "dobj" and d.lemma_.lower() in _DWELLING for d in other.children):
            # "bought a flat in Bristol and moved in": the place hung on the verb, not the flat
            for r, o in _roles(other):
                if r in ("in", "near") and o.pos_ == "PROPN":
                    return o
    return None


def _residence(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """ "call X home", "made X my home", "X has been my home", "a resident of X", "took up
    residence in X", "put down roots in X", "signed a lease in Brooklyn"."""
    place: Token | None = None
    fact_subject = subject
    if lemma == "call":
        # "Sam calls Leeds home" (Leeds tagged a verb), "I've called Denver home" (home an oprd)
        dobj = next((c for c in verb.children if c.dep_ == "dobj" and _named_word(c)), None)
        if dobj is not None and any(c.lower_ == "home" for c in verb.children if c.i > dobj.i):
            place = dobj
        home = next(
            (c for c in verb.children if c.dep_ in ("dobj", "oprd", "npadvmod") and c.lower_ == "home"), None
        )
        if home is not None:  # "call Bristol home" parsed as one noun phrase
            place = next((c for c in home.children if c.dep_ == "compound" and c.pos_ == "PROPN"), place)
    elif lemma == "make":
        home = next((c for c in verb.subtree if c.lower_ == "home" and c.i > verb.i), None)
        named = next((c for c in verb.subtree if c.pos_ == "PROPN" and c.i > verb.i), None)
        while named is not None and named.dep_ == "compound" and named.head.pos_ == "PROPN":
            named = named.head  # "made Buenos Aires my home": the name's head, not its first word
        if home is not None and named is not None and named.i < home.i:
            place = named
    elif lemma == "be":
        attr = next((c for c in verb.children if c.dep_ in ("attr", "acomp")), None)
        attr = attr or next((c for c in verb.children if c.dep_ == "advmod" and c.lower_ == "home"), None)
        nsubj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        if (
            attr is not None
            and attr.lemma_.lower() in ("employer", "company", "workplace")
            and nsubj is not None
            and nsubj.pos_ == "PROPN"
            and any(c.dep_ == "poss" and c.lower_ == "my" for c in attr.children)
        ):  # "Globex is my employer now"; "Hooli was my employer for years" (a past state)
            value = hooks.phrase(nsubj)
            past = tense == "past"
            return (
                [Claim("works_at", value, subject=SPEAKER, object_kind="organization", past=past)]
                if value
                else []
            )
        if attr is not None and attr.lemma_.lower() == "home" and nsubj is not None and nsubj.pos_ == "PROPN":
            owner = next((c for c in attr.children if c.dep_ in ("poss", "det")), None)
            if owner is None or owner.lower_ in ("my", "our"):  # "Madrid has been my home", "Denver is home"
                place, fact_subject = nsubj, SPEAKER
        elif attr is not None and attr.lemma_.lower() in ("resident", "local", "citizen", "inhabitant"):
            for p in _children(attr, "prep"):
                if p.lower_ in ("of", "in"):
                    place = next((o for o in _children(p, "pobj") if o.pos_ == "PROPN"), None)
            compound = next((c for c in attr.lefts if c.pos_ == "PROPN"), None)
            if place is None and compound is not None and attr.lemma_.lower() == "resident":
                place = compound  # "a Miami resident"
        if place is None:
            return None
    elif lemma in _RESIDENCE_VERBS:
        for obj in [*_children(verb, "dobj"), *(o for _, o in _roles(verb))]:
            if obj.lemma_.lower() in _RESIDENCE_NOUNS | {"place", "apartment", "flat", "house"}:
                inner = [o for r, o in _roles(obj) if r in ("in", "on")] + [
                    o for r, o in _roles(verb) if r in ("in",)
                ]
                named = next((o for o in inner if o.pos_ == "PROPN"), None)
                if named is not None and (
                    obj.lemma_.lower() in _RESIDENCE_NOUNS
                    or lemma in ("settle", "find", "rent", "close")
                    or _have_got(verb, obj, lemma, tense)
                ):
                    place = named
                    break
        if place is None and lemma in ("rent", "lease") and not _children(verb, "dobj"):
            place = next(
                (o for r, o in _roles(verb) if r == "in" and o.pos_ == "PROPN"), None
            )  # "renting in X"
    if place is None:
        return None
    value = hooks.phrase(place)
    past = lemma == "be" and tense == "past"  # "Seattle was home for a decade"
    return [Claim("lives_in", value, subject=fact_subject, object_kind="place", past=past)] if value else []


# a dwelling held for someone else or for a while, not the home: "a holiday flat in Nice"
_NOT_HOME = frozenset(
    "holiday vacation second summer weekend rental investment buy-to-let spare guest beach ski "
    "office studio".split()
)


def _have_got(verb: Token, obj: Token, lemma: str, tense: str) -> bool:
    """ "I've got an apartment in Leeds", "Sam has got a flat in X": "have got" is possession in
    the present, a dwelling held now (not "got a flat" in the past, nor "a holiday flat", nor one
    "for my daughter")."""
    return (
        lemma == "get"
        and tense == "perfect"
        and obj.lemma_.lower() in ("apartment", "flat", "place", "house")
        and not any(c.lower_ in _NOT_HOME for c in obj.children if c.dep_ in ("amod", "compound"))
        and not any(p.lower_ == "for" for p in verb.children if p.dep_ == "prep")
        and not any(p.lower_ == "for" for p in obj.children if p.dep_ == "prep")
    )


def _living(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """ "I live in X", "I've been living in X", "I was living in X" (a past state: nothing now)."""
    if (
        lemma == "base"
        and tense in ("present", "perfect")
        and any(c.dep_ == "auxpass" for c in verb.children)
    ):
        lemma = "live"  # "I'm based in X", "I've been based in X since 2019"
    if lemma not in ("live", "reside") or tense not in (
        "present",
        "progressive",
        "perfect",
        "used_to",
        "past",
    ):
        return None
    place = next((_place(o) for r, o in _roles(verb) if r == "in" and _place(o) is not None), None)
    value = hooks.phrase(place) if place is not None else None
    past = tense == "past"  # "I was living in Berlin (until 2022)"
    return [Claim("lives_in", value, subject=subject, object_kind="place", past=past)] if value else None


def _instead(verb: Token, claims: list[Claim]) -> list[Claim]:
    """ "I now work at Globex instead of Initech": the value named after "instead of" is the one
    before (a change said in one breath)."""
    if len(claims) != 1 or claims[0].kind != "assert" or claims[0].before:
        return claims
    doc, c = verb.doc, claims[0]
    subtree = {t.i for t in verb.subtree}
    for t in verb.subtree:  # "instead of" however the parser hangs it
        if t.lower_ != "instead" or t.i + 1 >= len(doc) or doc[t.i + 1].lower_ != "of":
            continue
        after = [doc[i] for i in range(t.i + 2, min(t.i + 7, len(doc))) if i in subtree]
        named = next(
            (o for o in after if o.pos_ == "PROPN" or (c.predicate == "job_title" and _title(o))), None
        )
        if named is None:
            continue
        while named.dep_ == "compound" and named.head.pos_ == "PROPN":  # "Wayne Enterprises"
            named = named.head
        value = name_text(named) if named.pos_ == "PROPN" else _title(named)
        if value and value != c.obj:
            return [Claim(c.predicate, value, subject=c.subject, object_kind=c.object_kind, before=True), c]
    return claims


def _cleft(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """ "Oslo is where I live", "Shopify is where I work": the name is the value of the verb's
    predicate, the speaker its subject."""
    if lemma != "be" or tense not in ("present", "perfect"):
        return None
    name = next((c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "PROPN"), None)
    inner = next((c for c in verb.children if c.dep_ in ("advcl", "ccomp", "attr", "relcl")), None)
    if name is None or inner is None or inner.lemma_.lower() not in _CLEFT:
        return None
    if not any(c.lower_ == "where" for c in inner.children) or not any(
        c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in inner.children
    ):
        return None
    predicate = _CLEFT[inner.lemma_.lower()]
    value = hooks.phrase(name)
    kind = "place" if predicate == "lives_in" else "organization"
    return [Claim(predicate, value, subject=SPEAKER, object_kind=kind)] if value else []


def _being_in(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """ "I've been in Chicago for three years": a present perfect of being in a place is where one
    lives; "have been at X" / "be with X" / "part of the team at X" is where one works."""
    if lemma != "be" or tense not in ("perfect", "present", "past"):
        return None
    if tense == "past" and _counterpart(verb, "present") is None:
        return None
    if any(c.lower_ in ("twice", "once", "before", "ever", "never", "already") for c in verb.children):
        return None
    roles = [(r, o) for r, o in _roles(verb)]
    attr = next((c for c in verb.children if c.dep_ == "attr"), None)
    done = next(
        (c for c in verb.children if c.dep_ == "acomp" and c.lower_ in ("done", "finished", "through")), None
    )
    if done is not None:  # "I'm done at Initech", "I'm finished with Initech"
        named = next((o for r, o in roles + _roles(done) if r in ("at", "with") and o.pos_ == "PROPN"), None)
        value = hooks.phrase(named) if named is not None else None
        if value and named is not None and (hooks.entity(named) != "PERSON" or _employer_name(named, hooks)):
            # "done with X" is an employer unless the sentence speaks of home
            predicate, kind = _PREDICATE_OF["place" if _words(verb) & _HOME_CONTEXT else "organization"]
            return [Claim(predicate, value, subject=subject, kind="end", object_kind=kind)]
        return None
    out_of = next((o for r, o in roles if r == "out_of" and o.pos_ == "PROPN"), None)
    if out_of is not None and (value := hooks.phrase(out_of)):  # "I'm out of Leeds now"
        predicate, kind = _PREDICATE_OF[org_or_place(out_of, verb, hooks, "place")]
        return [Claim(predicate, value, subject=subject, kind="end", object_kind=kind)]
    teams = [o for r, o in roles if r in ("on", "in") and o.lemma_.lower() in _TEAM_NOUNS]
    if teams:  # "I'm on the team at Shopify"
        named = next(
            (
                o
                for r, o in roles + _roles(teams[0])
                if r in ("at", "with", "for", "of") and o.pos_ == "PROPN"
            ),
            None,
        )
        value = (
            hooks.phrase(named) if named is not None else _name_before(teams[0])
        )  # "on the Initech payroll"
        return [Claim("works_at", value, subject=subject, object_kind="organization")] if value else None
    if attr is not None and attr.lemma_.lower() in _MEMBER_NOUNS:  # "an employee of Shopify"
        roles += [(r, o) for r, o in _roles(attr) if r == "of" and o.pos_ == "PROPN"]
        roles = [("at", o) if r == "of" else (r, o) for r, o in roles]
    if attr is not None and attr.lemma_.lower() in _MEMBER_NOUNS:
        roles += [
            (r, o)
            for _, team in _roles(attr)
            for r, o in [("at", x) for rr, x in _roles(team) if rr in ("at", "with")]
        ]
        roles += [(r, o) for r, o in _roles(attr) if r in ("at", "with") and o.pos_ == "PROPN"]
        named = next((o for r, o in roles if r in ("at", "with") and o.pos_ == "PROPN"), None)
        value = hooks.phrase(named) if named is not None else None
        # "a Stark Industries employee", "part of the Massive Dynamic team"
        value = (
            value
            or _name_before(attr)
            or next((_name_before(t) for _, t in _roles(attr) if _name_before(t)), None)
        )
        if value:
            return [Claim("works_at", value, subject=subject, object_kind="organization")]
        return None
    contrast = _counterpart(verb, "present" if tense == "past" else "past")
    for role, obj in roles:
        if obj.pos_ != "PROPN":
            continue
        if role in ("in", "at", "with") and tense in ("past", "present") and contrast is not None:
            # "I was in Leeds until last year, and now I'm in Lisbon": a past and a present state of
            # the same kind in one sentence are the old and the new value
            if (value := hooks.phrase(obj)) and (role == "in") == (contrast == "in"):
                predicate, kind = ("lives_in", "place") if role == "in" else ("works_at", "organization")
                return [Claim(predicate, value, subject=subject, object_kind=kind, past=tense == "past")]
        if role == "in" and tense == "present" and _habitual(verb):  # "These days I'm in Seattle"
            value = hooks.phrase(obj)
            return [Claim("lives_in", value, subject=subject, object_kind="place")] if value else []
        if role == "at" and tense == "present" and _has_now(verb) and _employer_name(obj, hooks):
            value = hooks.phrase(obj)  # "I'm at Hooli now"
            return [Claim("works_at", value, subject=subject, object_kind="organization")] if value else []
        if role == "in" and (tense == "perfect" or (tense == "present" and _ending(verb))):
            value = hooks.phrase(obj)  # "I've been in Chicago for years", "I'm not in Osaka anymore"
            return [Claim("lives_in", value, subject=subject, object_kind="place")] if value else []
        if role == "in" and tense == "present" and _has_now(verb) and _words(verb) & _MOVED_CONTEXT:
            value = hooks.phrase(obj)  # "Lisbon is behind me, I'm in Melbourne now"
            return [Claim("lives_in", value, subject=subject, object_kind="place")] if value else []
        if role == "in" and tense == "present" and _now_for_good(verb):
            value = hooks.phrase(obj)  # "I'm in Denver now" (not "right now", not "for a conference")
            return [Claim("lives_in", value, subject=subject, object_kind="place")] if value else []
        at_now = role == "at" and (
            (_has_now(verb) and bool(_words(verb) & (_WORK_CONTEXT | LEAVE | JOIN)))
            or _ending(verb)
            or (tense == "present" and _now_for_good(verb))
        )
        if role in ("with", "at") and (tense == "perfect" or role == "with" or at_now):
            label = hooks.entity(obj)
            if label in ("PERSON", "GPE", "LOC", "FAC", "NORP") and not _employer_name(obj, hooks):
                # one is "in" a town, not "at" it: "I've been at Netflix since 2019" (the
                # recogniser reads many firm names as towns) is an employer
                # so is "I'm at Hooli now" / "I'm no longer at Hooli": a change said of being
                # "at" a name read as a town (not "right now", not on a trip)
                town_at = role == "at" and label == "GPE" and (tense == "perfect" or at_now)
                if (
                    (role == "at" and not town_at)
                    or label == "PERSON"
                    or hooks.probe(name_text(obj) or "") == "PERSON"
                ):
                    return None  # nobody works "with" a city: "I've been with Hooli" is an employer
            if role == "with" and not (
                label in ("ORG", "PRODUCT")
                or _ending(verb)
                or _has_now(verb)
                or _habitual(verb)
                or tense == "perfect"
            ):
                return None
            value = hooks.phrase(obj)
            return [Claim("works_at", value, subject=subject, object_kind="organization")] if value else []
    return None


_VISIT_WORDS = frozenset(
    "trip visit visiting vacation holiday holidays conference business week weekend today tonight "
    "meeting stay staying layover festival wedding tour break".split()
)


def _now_for_good(verb: Token) -> bool:
    """ "I'm in Denver now": a bare "now" on being in a place is where one lives, unless it is
    "right now" / "just now" or the sentence tells a visit (a purpose, a trip, this week)."""
    now = next((c for c in verb.children if c.dep_ == "advmod" and c.lower_ == "now"), None)
    if now is None or any(c.lower_ in ("right", "just") for c in now.children):
        return False
    if any(c.dep_ == "prep" and c.lower_ in ("for", "on") for c in verb.children):
        return False
    return not ({t.lower_ for t in verb.doc} & _VISIT_WORDS) and not any(
        t.lower_ in ("right", "just") and t.head.i == now.i for t in verb.doc
    )


_DEGREES = frozenset(
    "phd doctorate dphd master masters degree bachelor bachelors ba bsc msc ma mba undergrad "
    "undergraduate postgrad postgraduate postdoc studies thesis dissertation".split()
)
_STUDY_VERBS = frozenset("do pursue start begin study work take".split())


def _studying(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """A degree at a school: "I'm doing my PhD at MIT", "pursuing a degree at Stanford", "I'm at
    MIT for my master's", "I started my MBA at Wharton": where one studies (now)."""
    if tense not in ("present", "progressive", "perfect", "past"):
        return None
    degree = None
    if (lemma in _STUDY_VERBS and tense != "past") or lemma in ("start", "begin"):
        degree = next(
            (
                c
                for c in verb.children
                if c.dep_ in ("dobj", "obj") and c.lemma_.lower().strip("'.") in _DEGREES
            ),
            None,
        )
    elif lemma == "be" and tense == "present":
        at = [o for r, o in _roles(verb) if r == "at"]
        degree = next(
            (
                o
                for r, o in _roles(verb) + [x for a in at for x in _roles(a)]
                if r == "for" and o.lemma_.lower().strip("'.") in _DEGREES
            ),
            None,
        )
    if degree is None:
        return None
    school = next(
        (o for r, o in _roles(verb) + _roles(degree) if r in ("at", "with", "in") and _proper(o)), None
    )
    value = hooks.phrase(school) if school is not None else None
    if not value:
        return None
    return [Claim("studies_at", value, subject=subject, object_kind="organization")]


def _habitual(verb: Token) -> bool:
    """ "these days", "nowadays": a present that is a lasting state, not where one is right now."""
    for c in verb.children:
        if c.lower_ == "nowadays" or (
            c.lemma_.lower() == "day" and any(d.lower_ == "these" for d in c.children)
        ):
            return True
    return False


_STATE_ROLES = {
    "be": ("in", "at", "with"),
    "live": ("in",),
    "reside": ("in",),
    "base": ("in",),
    "work": ("at", "for"),
}


def _counterpart(verb: Token, tense: str) -> str | None:
    """The role ("in": a home, "at": an employer) of another clause of the sentence that states
    a place or an employer in ``tense`` ("past" or "present"), for a contrast of then and now."""
    for t in verb.doc:
        if (
            t.i == verb.i
            or t.pos_ not in ("VERB", "AUX")
            or t.dep_ not in ("ROOT", "conj", "parataxis", "ccomp")
        ):
            continue
        roles = _STATE_ROLES.get(t.lemma_.lower())
        if roles is None:
            continue
        t_tense = _tense(t)
        if (t_tense in ("present", "progressive") and tense == "present") or (t_tense == tense == "past"):
            for r, o in _roles(t):
                if r in roles and o.pos_ == "PROPN":
                    return "in" if t.lemma_.lower() in ("live", "reside", "base") or r == "in" else "at"
    return None


def _has_word(verb: Token, word: str) -> bool:
    return any(c.lower_ == word for c in verb.children if c.dep_ in ("prt", "advmod"))


def _has_now(verb: Token) -> bool:
    return any(c.lower_ in ("now", "currently") for c in verb.children if c.dep_ == "advmod")


def _org_value(tok: Token | None, hooks: Hooks) -> str | None:
    if tok is None or tok.pos_ != "PROPN":
        return None
    return hooks.phrase(tok)


def _employment(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    dobj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    roles = _roles(verb)
    if verb.lower_ in ("done", "finished", "through") and tense == "present":  # "I'm done at Initech"
        named = next((o for r, o in roles if r in ("at", "with") and o.pos_ == "PROPN"), None)
        if (
            named is not None
            and (hooks.entity(named) != "PERSON" or _employer_name(named, hooks))
            and (value := hooks.phrase(named))
        ):
            # "done with X" is an employer unless the sentence speaks of home
            predicate, kind = _PREDICATE_OF["place" if _words(verb) & _HOME_CONTEXT else "organization"]
            return [Claim(predicate, value, subject=subject, kind="end", object_kind=kind)]
        return None
    by = {r: o for r, o in reversed(roles)}
    title = _as_title(roles)
    # a change naming both employers: "switched from Initech to Globex", "moved over to X from Y"
    if "from" in by and "to" in by and lemma in ("switch", "jump", "transfer", "change", "go", "move"):
        old, new = by["from"], by["to"]
        if old.pos_ == "PROPN" and new.pos_ == "PROPN":
            default = "place" if lemma in ("move", "go") else "organization"
            kind = org_or_place(new, verb, hooks, default)
            if kind == "organization":
                return _pair("works_at", kind, _org_value(old, hooks), _org_value(new, hooks), subject)
            if _words(verb) & _HOME_CONTEXT:  # "went from living in Rome to living in Milan"
                return _pair("lives_in", "place", hooks.phrase(old), hooks.phrase(new), subject)
        return None
    if lemma in _SWITCH_TO and "to" in by and "from" not in by and by["to"].pos_ == "PROPN":
        # "transitioned to Hooli", "defected to Initech": a firm unless the sentence speaks of home
        if tense in ("past", "perfect") and (value := _org_value(by["to"], hooks)):
            predicate, kind = _PREDICATE_OF[org_or_place(by["to"], verb, hooks, "organization", ner=False)]
            return [Claim(predicate, value, subject=subject, object_kind=kind)]
    redundant = next(
        (c for c in verb.children if c.lower_ == "redundant" and c.dep_ in ("oprd", "acomp", "ccomp")), None
    )
    if lemma == "make" and redundant is not None and any(c.dep_ == "auxpass" for c in verb.children):
        at = {r: o for r, o in _roles(redundant) + roles}  # "I was made redundant at Globex"
        org = at.get("at") or at.get("by") or at.get("from")
        if (value := _org_value(org, hooks)) is not None:
            return [Claim("works_at", value, subject=subject, kind="end", object_kind="organization")]
    if (
        lemma in LEAVE
        or (lemma == "step" and ("down_from" in by or _has_word(verb, "down")))
        or (lemma in ("walk", "move", "break") and "away_from" in by)
        or (  # "I finished at Globex", not "finished my first week at Globex"
            lemma in ("finish", "wrap")
            and ("at" in by or "with" in by)
            and not any(c.dep_ in ("dobj", "obj", "npadvmod") for c in verb.children)
        )
        or (lemma == "part" and dobj is not None and dobj.lower_ == "ways")
    ):
        if tense == "progressive":
            return None
        target = (
            dobj
            if lemma in ("leave", "quit", "exit")
            else by.get("from")
            or by.get("down_from")
            or by.get("away_from")
            or by.get("with")
            or by.get("at")
        )
        if target is None and dobj is not None:  # "parted ways with X"
            target = next((o for r, o in _roles(dobj) if r == "with"), None)
        if target is None and lemma == "part":  # "Initech and I parted ways"
            nsubj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
            target = nsubj if nsubj is not None and nsubj.pos_ == "PROPN" else None
        if target is None and title:  # "I retired as a teacher", "stepped down as CFO"
            return [Claim("job_title", title, subject=subject, kind="end")]
        if target is None and lemma == "quit" and dobj is None:
            return None
        if target is not None and target.lemma_.lower() in JOB_NOUNS | {"company", "firm"}:
            job = target  # "quit my job at X" (the place of the job hung on the job or on the verb)
            target = next(
                (o for r, o in _roles(job) + roles if r in ("at", "with", "in") and o.pos_ == "PROPN"), None
            )
            if target is None:  # "I left my job as a nurse"
                held = _title_of(job) or title or _compound_title(job)
                return [Claim("job_title", held, subject=subject, kind="end")] if held else None
            kind = "organization"
        elif target is not None and _proper(target):
            ambiguous = lemma in ("leave", "exit", "depart")
            kind = org_or_place(target, verb, hooks, "organization") if ambiguous else "organization"
        else:
            return None
        predicate, object_kind = _PREDICATE_OF[kind]
        successor = by.get("for") if lemma == "leave" else None
        if successor is not None and successor.pos_ == "PROPN":
            return _pair(predicate, object_kind, hooks.phrase(target), hooks.phrase(successor), subject)
        value = hooks.phrase(target)
        return (
            [Claim(predicate, value, subject=subject, kind="end", object_kind=object_kind)] if value else []
        )
    if dobj is None and by.get("in") is not None and by["in"].lemma_.lower() in ("notice", "resignation"):
        dobj = by["in"]  # "Sam handed in his notice at X": "in" parsed as a preposition
    if (
        lemma in _NOTICE_VERBS
        and dobj is not None
        and dobj.lemma_.lower() in ("notice", "resignation", "week")
    ):
        org = by.get("at") or by.get("to") or next((o for r, o in _roles(dobj) if r in ("at", "to")), None)
        value = _org_value(org, hooks)
        return (
            [Claim("works_at", value, subject=subject, kind="end", object_kind="organization")]
            if value
            else None
        )
    passive = any(c.dep_ == "auxpass" for c in verb.children) or (
        verb.tag_ == "VBN"
        and any(
            a.lower_ in ("got", "get", "gotten", "was", "were") for a in _children(verb, "aux", "auxpass")
        )
    )
    if lemma in JOIN and tense != "progressive":
        org = None
        if passive or lemma == "sign":
            org = next(
                (o for r, o in roles if r in ("by", "at", "with", "on_with", "to") and o.pos_ == "PROPN"),
                None,
            )
        elif dobj is not None and dobj.pos_ == "PROPN":
            org = dobj
        elif dobj is None and lemma in ("onboard", "sign", "contract"):  # "I onboarded at X"
            org = next((o for r, o in roles if r in ("at", "with", "for") and o.pos_ == "PROPN"), None)
        elif dobj is not None and dobj.lemma_.lower() in (
            "team",
            "staff",
            "company",
            "firm",
            "crew",
            "faculty",
        ):
            org = next(
                (o for r, o in _roles(dobj) + roles if r in ("at", "of", "with") and o.pos_ == "PROPN"), None
            )
        value = _org_value(org, hooks)
        if value is None:
            return [Claim("job_title", title, subject=subject)] if title else None
        claims = [Claim("works_at", value, subject=subject, object_kind="organization")]
        return claims + ([Claim("job_title", title, subject=subject)] if title else [])
    if lemma == "say" and any(c.lower_ == "yes" for c in verb.children) and "to" in by:
        if by["to"].lemma_.lower() in ("offer", "job", "role", "position"):  # "said yes to X's offer"
            lemma, dobj = "accept", by["to"]
    offered = dobj is not None and dobj.lemma_.lower() == "offer" and lemma not in ("accept", "take")
    if (
        lemma in TAKE_JOB
        and dobj is not None
        and dobj.lemma_.lower() in JOB_NOUNS
        and tense != "progressive"
        and not offered  # "I got an offer from X" is no job yet
    ):
        if lemma == "have" and tense != "present":
            return None
        owner = [  # "accepted Globex's offer", not "Sam's offer to help", not "took Sam's job"
            ("poss", c)
            for c in dobj.children
            if c.dep_ == "poss"
            and not any(a.dep_ in ("acl", "relcl") for a in dobj.children)
            and (
                not (hooks.entity(c) == "PERSON" and hooks.probe(name_text(c) or "") == "PERSON")
                or _employer_name(c, hooks)
            )
        ]
        org = next(
            (
                o
                for r, o in _roles(dobj) + roles + owner
                if r in ("at", "with", "for", "from", "in", "poss") and o.pos_ == "PROPN"
            ),
            None,
        )
        role = _title_of(dobj) or title
        claims = []
        if (value := _org_value(org, hooks)) is not None:
            claims.append(Claim("works_at", value, subject=subject, object_kind="organization"))
        if role:
            claims.append(Claim("job_title", role, subject=subject))
        return claims or None
    if lemma in _START_VERBS and tense in ("past", "perfect") and dobj is None:
        org = next((o for r, o in roles if r in ("at", "with", "for") and o.pos_ == "PROPN"), None)
        value = _org_value(org, hooks)  # "I started at Hooli", "began with Globex as an analyst"
        if (
            value is not None
            and org is not None
            and (hooks.entity(org) != "PERSON" or _employer_name(org, hooks))
        ):
            claims = [Claim("works_at", value, subject=subject, object_kind="organization")]
            return claims + ([Claim("job_title", title, subject=subject)] if title else [])
    if _on_board(verb, lemma, roles) and tense in ("past", "perfect", "present"):
        org = next((o for r, o in roles if r in ("at", "with", "to") and o.pos_ == "PROPN"), None)
        if (value := _org_value(org, hooks)) is not None:  # "came on board at X", "got on board with X"
            return [Claim("works_at", value, subject=subject, object_kind="organization")]
    if lemma in _WORK_VERBS and tense in ("past", "perfect", "present", "progressive", "used_to"):
        org = next((o for r, o in roles if r in ("at", "for", "with") and o.pos_ == "PROPN"), None)
        value = _org_value(org, hooks)
        if value is None and not title:
            return None
        # "I worked at X (back then)" says nothing about now: a past state (``Claim.past``)
        past = tense == "past" and not _ending(verb)
        claims = (
            [Claim("works_at", value, subject=subject, object_kind="organization", past=past)]
            if value
            else []
        )
        return claims + ([Claim("job_title", title, subject=subject, past=past)] if title else [])
    return None


_SWITCH_TO = frozenset("transition defect".split())
_START_VERBS = frozenset("start begin commence".split())
_ORG_LABELS = frozenset({"ORG", "PRODUCT", "NORP", "FAC", "WORK_OF_ART"})


def _employer_name(tok: Token, hooks: Hooks) -> bool:
    """Whether a name the recogniser read as a person or a place in this sentence reads as an
    organisation where an employer is expected ("I work at X."), or carries an organisation suffix."""
    name = name_text(tok)
    if name is None:
        return False
    if {w.lower().strip(".") for w in name.split()} & _ORG_SUFFIX:
        return True
    return hooks.probe(name) in _ORG_LABELS


_BOARD = frozenset({"board", "aboard"})


def _on_board(verb: Token, lemma: str, roles: list[tuple[str, Token]]) -> bool:
    """ "came on board at X", "came aboard at X", "got on board with X", "hopped aboard"."""
    if lemma not in ("come", "get", "climb", "hop", "jump", "bring"):
        return False
    words = {c.lower_ for c in verb.children if c.dep_ in ("advmod", "prt")}
    words |= {o.lower_ for r, o in roles if r in ("on", "onto")}
    return bool(words & _BOARD)


def _compound_title(noun: Token) -> str | None:
    """ "my accountant job", "my nursing position": the title a job noun's compound names."""
    compound = next((c for c in noun.children if c.dep_ == "compound" and c.pos_ == "NOUN"), None)
    return _title(compound) if compound is not None else None


def _as_title(roles: list[tuple[str, Token]]) -> str | None:
    obj = next((o for r, o in roles if r == "as"), None)
    return _title(obj) if obj is not None else None


def _title_of(noun: Token) -> str | None:
    """ "a job as a chef", "the role of director", "my new position as CFO"."""
    for r, o in _roles(noun):
        if r in ("as", "of") and (t := _title(o)):
            return t
    return None


def _by_org(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """The employer as the grammatical subject: "Google hired me", "Adobe brought me on as a
    designer", "Initech let me go", "they laid me off", "they made me a partner"."""
    below = [verb, *(c for c in verb.children if c.dep_ in ("ccomp", "xcomp"))]  # "let me go"
    me = next(
        (
            c
            for v in below
            for c in v.children
            if c.dep_ in ("dobj", "nsubj")
            and c.i > verb.i
            and (c.lower_ in ("me", "us") or c.pos_ == "PROPN")
        ),
        None,
    )
    if me is None:
        return None
    # "Google hired me" is the speaker's, "Google hired Priya" Priya's
    who = SPEAKER if me.lower_ in ("me", "us") else name_text(me)
    if me.pos_ == "PROPN" and (who is None or hooks.entity(me) in _ORG_LABELS | {"GPE", "LOC"}):
        return None
    org_tok = next((c for c in verb.children if c.dep_ == "nsubj" and c.i < verb.i), None)
    org = (
        _org_value(org_tok, hooks)
        if org_tok is not None
        and (
            hooks.entity(org_tok) != "PERSON"
            or _employer_name(org_tok, hooks)
            or hooks.probe(name_text(org_tok) or "") not in ("PERSON", "")
        )
        else None
    )
    roles = _roles(verb)
    title = _as_title(roles)
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    hiring = lemma in _HIRING_BY_ORG and (lemma not in ("bring", "take") or particle in ("on", "in"))
    firing = lemma in _FIRING_BY_ORG and (
        lemma not in ("lay", "let")
        or particle == "off"
        or any(c.lemma_ == "go" for c in verb.children if c.dep_ in ("ccomp", "xcomp"))
    )
    if lemma == "make":  # "they made me a partner": a role, not an employer
        role = next(
            (
                c
                for c in verb.subtree
                if c.dep_ in ("oprd", "attr", "dobj", "ccomp") and c.i > me.i and _title(c)
            ),
            None,
        )
        return [Claim("job_title", t, subject=who)] if role is not None and (t := _title(role)) else None
    if lemma in _PROMOTE:
        new = next((o for r, o in roles if r == "to"), None)
        t = _title(new) if new is not None else None
        return [Claim("job_title", t, subject=who)] if t else None
    if not (hiring or firing) or tense in ("progressive",):
        return None
    claims: list[Claim] = []
    if org:
        claims.append(
            Claim(
                "works_at",
                org,
                subject=who,
                kind="end" if firing else "assert",
                object_kind="organization",
            )
        )
    if title and hiring:
        claims.append(Claim("job_title", title, subject=who))
    old = next((o for r, o in roles if r in ("away_from", "from") and o.pos_ == "PROPN"), None)
    if hiring and org and old is not None and (value := hooks.phrase(old)):  # "X hired me away from Y"
        claims.insert(0, Claim("works_at", value, subject=who, object_kind="organization", before=True))
    return claims


def _role(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """ "serve as CFO", "took over as editor", "retrained as an electrician", "stepped into the role
    of director", "got a promotion to team lead", "promoted from analyst to senior analyst",
    "went from teacher to principal", "was made a partner"."""
    roles = _roles(verb)
    for d in _children(verb, "dobj"):  # "switched careers from nurse to teacher"
        if d.lemma_.lower() in _CAREER_NOUNS:
            roles += _roles(d)
    by = {r: o for r, o in reversed(roles)}
    if tense == "progressive" and lemma not in _WORK_VERBS:
        return None
    if lemma in _PROMOTE or (
        lemma in ("go", "switch", "move", "change", "transition", "retrain", "pivot", "shift", "progress")
        and "from" in by
        and "to" in by
    ):
        old = _title(by["from"]) if "from" in by else None
        new = _title(by["to"]) if "to" in by else None
        if new:
            return _pair("job_title", None, old, new, subject)
        return None
    if lemma == "make" and any(c.dep_ == "auxpass" for c in verb.children):
        role = next((c for c in verb.children if c.dep_ in ("oprd", "attr", "dobj")), None)
        t = _title(role) if role is not None else None
        return [Claim("job_title", t, subject=subject)] if t else None
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is not None and dobj.lemma_.lower() == "promotion":
        rank = next((o for r, o in _roles(dobj) + roles if r == "to"), None)
        t = _title(rank) if rank is not None else None
        return [Claim("job_title", t, subject=subject)] if t else None
    if lemma in ROLE_VERBS or lemma in _INTO_ROLE:
        title = _as_title(roles) if lemma not in _INTO_ROLE or lemma in ("step", "take") else None
        if title is None:
            for r, o in roles + [("dobj", d) for d in _children(verb, "dobj")]:
                if o.lemma_.lower() in _ROLE_NOUNS and r in ("into", "dobj", "in"):
                    # "the role of director", "a product manager role" (not "a new role")
                    title = _title_of(o) or (_compound_title(o) if r == "into" or lemma in TAKE_JOB else None)
                    if title:
                        break
        if title is None:
            return None
        past = tense == "past" and lemma in ("work",) and not _ending(verb)
        return [Claim("job_title", title, subject=subject, past=past)]
    return None


_INTO_ROLE = frozenset("step take move transition shift slide grow".split())  # "moved into a lead role"


def _copula_role(
    verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks
) -> list[Claim] | None:
    """ "I'm the head of marketing", "I've been a chef for ten years", "I'm a nurse by profession",
    "I used to be a teacher", "quit being a cashier" (via ``frame_claims``)."""
    becoming = lemma in ("become", "turn") and tense in ("past", "perfect")  # "... and became a pilot"
    if not becoming and (
        lemma != "be" or tense not in ("present", "perfect", "used_to", "progressive", "base", "past")
    ):
        return None
    past = tense == "past" and not becoming  # "I was a teacher (until last year)"
    attr = next((c for c in verb.children if c.dep_ == "attr"), None)
    if attr is None:
        return None
    title = _title(attr)
    if title is None:
        return None
    dets = {c.lower_ for c in attr.children if c.dep_ in ("det", "poss")}
    if dets & {"his", "her", "their", "your", "this", "that"}:
        return None
    claims = [Claim("job_title", title, subject=subject, past=past)]
    org = next(
        (o for r, o in _roles(attr) + _roles(verb) if r in ("at", "with", "for") and o.pos_ == "PROPN"), None
    )
    if org is not None and (value := hooks.phrase(org)):
        school = title.endswith("student")  # "I'm now a student at MIT"
        predicate, kind = ("studies_at", "organization") if school else ("works_at", "organization")
        claims.append(Claim(predicate, value, subject=subject, object_kind=kind, past=past))
    return claims


# --------------------------------------------------------------------------- leaving and before

_SWAP = frozenset("swap trade exchange ditch leave quit".split())
_FAREWELL = frozenset("goodbye farewell bye adieu".split())
_FAREWELL_VERBS = frozenset("say bid wave kiss".split())
# verb → the particle it needs to mean leaving a place or a job ("gave up our flat in Osaka")
_ABANDON: dict[str, str | None] = {
    "give": "up",
    "pack": "up",
    "sell": None,
    "ditch": None,
    "abandon": None,
    "leave": "behind",
}
_BEHIND = frozenset({"me", "us"})
_SPAN_NOUNS = frozenset("year month decade week time while stint spell life career".split())


def _swap(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """ "swapped Leeds for Bristol", "traded Hooli for Globex", "left Boston for Denver": the object
    is the old value, the one after "for" (on the verb or the object) the new one."""
    if lemma not in _SWAP or tense in ("progressive", "future"):
        return None
    dobj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    named = _named(dobj) if dobj is not None else None
    if named is None and dobj is not None and dobj.lemma_.lower() in ("life", "home", "days"):
        named = next((o for r, o in _roles(verb) if r in ("in", "at") and o.pos_ == "PROPN"), None)
    dobj = named  # "traded life in Leeds for a quieter one in Bristol"
    if dobj is None:
        return None
    new = next(
        (n for r, o in _roles(verb) + _roles(dobj) if r == "for" and (n := _named(o)) is not None), None
    )
    if new is None:
        return None
    default = "organization" if lemma == "quit" else "place"
    kind = org_or_place(new, verb, hooks, default)
    if kind == "organization" and "GPE" in (hooks.entity(dobj), hooks.entity(new)):
        kind = "place"
    if kind == "place" and _neither_place(dobj, new, hooks):  # "left Initech for Pied Piper"
        kind = "organization"
    predicate, object_kind = _PREDICATE_OF[kind]
    return _pair(predicate, object_kind, hooks.phrase(dobj), hooks.phrase(new), subject)


def _neither_place(old: Token, new: Token, hooks: Hooks) -> bool:
    """Neither name reads as a place where an employer is expected ("I work at X."), and the
    sentence has no home word: two employers."""
    names = [name_text(t) for t in (old, new)]
    if any(n is None for n in names) or _words(old.head) & _HOME_CONTEXT:
        return False
    return all(hooks.probe(n) not in ("GPE", "LOC", "") for n in names if n is not None)


def _named(tok: Token) -> Token | None:
    """A name, or the name a common noun is placed by: "life in Osaka", "a quieter one in Leeds"."""
    if tok.pos_ == "PROPN":
        return tok
    if tok.lemma_.lower() in _DWELLING | {"life", "one", "job", "days"}:
        return next((o for r, o in _roles(tok) if r in ("in", "at", "with") and o.pos_ == "PROPN"), None)
    return None


def _left_value(target: Token, verb: Token, hooks: Hooks, default: str) -> tuple[str, str | None, str] | None:
    """(predicate, object kind, value) of what one leaves: a name (a place or an employer, read off
    the sentence), a dwelling or one's life in a place ("our flat in Osaka", "my life in Leeds"),
    or a job at an employer or as a title ("my job at Hooli", "my job as a nurse")."""
    low = target.lemma_.lower()
    if target.pos_ == "PROPN":
        kind = org_or_place(target, verb, hooks, default)
        predicate, object_kind = _PREDICATE_OF[kind]
        value = hooks.phrase(target)
        return (predicate, object_kind, value) if value else None
    if low in _DWELLING | {"life", "home"}:  # "our flat in Osaka", however the parser hangs "in Osaka"
        place = next(
            (o for r, o in _roles(target) + _roles(verb) if r in ("in", "at", "on") and o.pos_ == "PROPN"),
            None,
        )
        value = hooks.phrase(place) if place is not None else None
        return ("lives_in", "place", value) if value else None
    if low in JOB_NOUNS | {"company", "firm"}:
        org = next(
            (o for r, o in _roles(target) if r in ("at", "with", "for", "in") and o.pos_ == "PROPN"), None
        )
        value = hooks.phrase(org) if org is not None else None
        if value:
            return ("works_at", "organization", value)
        title = _title_of(target) or _as_title(_roles(verb)) or _compound_title(target)
        return ("job_title", None, title) if title else None
    return None


def _departure(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """Leaving said without a leaving verb: "said goodbye to Lisbon", "gave up our flat in Osaka",
    "packed up my life in Leeds", "sold our house in Leeds", "left Leeds behind", "Lisbon is behind
    me" (an end of the value; a new value in the same message follows it in the history)."""
    if tense in ("progressive", "future", "base"):
        return None
    dobj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    target: Token | None = None
    fact_subject = subject
    if lemma in _FAREWELL_VERBS and dobj is not None and dobj.lemma_.lower() in _FAREWELL:
        target = next((o for r, o in _roles(verb) + _roles(dobj) if r == "to"), None)
    elif lemma in ("get", "break", "escape") and any(r == "out_of" for r, _ in _roles(verb)):
        target = next(
            (o for r, o in _roles(verb) if r == "out_of" and o.pos_ == "PROPN"), None
        )  # "got out of X"
    elif lemma in _ABANDON and dobj is not None:
        needed = _ABANDON[lemma]
        behind = any(c.lower_ == "behind" for c in verb.children if c.dep_ in ("advmod", "prt", "prep"))
        if needed is None or particle == needed or (needed == "behind" and behind):
            target = dobj
    elif lemma == "be" and tense in ("present", "perfect"):
        nsubj = next((c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "PROPN"), None)
        behind = any(r == "behind" and o.lower_ in _BEHIND for r, o in _roles(verb))
        if nsubj is not None and behind:  # "Lisbon is behind me"
            target, fact_subject = nsubj, SPEAKER
    if target is None:
        return None
    if target.pos_ == "PROPN" and lemma in ("sell", "pack"):
        return None  # "sold Globex" is a sale, not a departure
    left = _left_value(target, verb, hooks, "place")
    if left is None:
        return None
    predicate, object_kind, value = left
    return [Claim(predicate, value, subject=fact_subject, kind="end", object_kind=object_kind)]


def _purpose(verb: Token, tense: str, subject: str | None, hooks: Hooks) -> list[Claim]:
    """ "I left Hooli to join Globex", "quit my job to move to Lisbon": the purpose clause of a
    leaving or moving verb happened with it."""
    if verb.lemma_.lower() not in LEAVE | RELOCATE | {"pack", "sell", "give"} or tense not in (
        "past",
        "perfect",
    ):
        return []
    inner = next(
        (
            c
            for c in verb.children
            if c.dep_ in ("xcomp", "advcl")
            and c.pos_ == "VERB"
            and any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children)
        ),
        None,
    )
    if inner is None:
        return []
    # "quit Hooli to work for Globex": the state the move was for holds now
    return frame_claims(inner, subject, True, hooks, "present" if inner.lemma_ in _STATES else "past") or []


def _prior(predicate: str, role: str, tok: Token, hooks: Hooks) -> str | None:
    """The value a span noun's phrase names for ``predicate``: "years in Toronto" (lives_in),
    "five years at Hooli" (works_at), "years as a nurse" (job_title)."""
    if predicate == "lives_in" and role in ("in", "at") and tok.pos_ == "PROPN":
        return hooks.phrase(tok)
    if predicate == "works_at" and role in ("at", "with", "for") and tok.pos_ == "PROPN":
        return hooks.phrase(tok)
    if predicate == "job_title" and role == "as":
        return _title(tok)
    return None


def _from_old(verb: Token, new: Claim, hooks: Hooks) -> Claim | None:
    """ "joined Umbrella from Hooli", "came to Globex from Initech": the employer before."""
    if new.predicate != "works_at" or verb.lemma_.lower() not in JOIN | {"come", "start"}:
        return None
    old = next((o for r, o in _roles(verb) if r in ("from", "away_from") and o.pos_ == "PROPN"), None)
    value = hooks.phrase(old) if old is not None else None
    if not value or value.casefold() == new.obj.casefold():
        return None
    return Claim("works_at", value, subject=new.subject, object_kind="organization", before=True)


def _after(verb: Token, claims: list[Claim], hooks: Hooks) -> list[Claim]:
    """ "After six years in Toronto, I moved to Nairobi", "after a stint at Hooli I joined Globex",
    "after years as a nurse, I became a teacher", "Having spent years in Lisbon, I moved to X",
    "I'm at Globex now after leaving Umbrella": the value held before the clause's new one
    (``before``). A conjunct shares its head's adjuncts ("After a decade in Leeds we packed up and
    moved to X")."""
    new = next(
        (c for c in claims if c.kind == "assert" and not c.before and c.predicate in _PRIOR_PREDICATES), None
    )
    if new is None:
        return claims
    owners = [verb, verb.head] if verb.dep_ == "conj" else [verb]
    spans: list[Token] = []
    leaving: list[Token] = []
    for child in (c for owner in owners for c in owner.children):
        if child.dep_ == "advcl" and child.lemma_.lower() in _SPAN_VERBS and child.tag_ in ("VBG", "VBN"):
            spans += [o for o in child.children if o.dep_ == "dobj" and o.lemma_.lower() in _SPAN_NOUNS] or [
                child
            ]
        elif child.dep_ == "prep" and child.lower_ in ("after", "following"):
            spans += [o for o in child.children if o.dep_ == "pobj" and o.lemma_.lower() in _SPAN_NOUNS]
            if any(o.dep_ == "pobj" and o.lemma_.lower() in _SPAN_NOUNS for o in child.children):
                spans += [p for p in child.children if p.dep_ == "prep"]  # "after a decade | at Globex"
            leaving += [o for o in child.children if o.dep_ == "pcomp" and o.pos_ == "VERB"]
    priors: list[Claim] = []
    if (came_from := _from_old(verb, new, hooks)) is not None and not any(c.before for c in claims):
        priors.append(came_from)
    for span in spans:
        roles = _roles(span) + (_roles(span.head) if span.dep_ == "dobj" else [])
        if span.dep_ == "prep":
            roles = _prep_objects(span, span.lower_)
        value = next((v for r, x in roles if (v := _prior(new.predicate, r, x, hooks))), None)
        if value and value.casefold() != new.obj.casefold():
            priors.append(
                Claim(new.predicate, value, subject=new.subject, object_kind=new.object_kind, before=True)
            )
    for left in leaving:  # "after leaving Umbrella"
        for prior in frame_claims(left, new.subject, True, hooks, "past") or []:
            if {prior.predicate, new.predicate} <= {"lives_in", "works_at"}:
                prior.predicate, prior.object_kind = new.predicate, new.object_kind  # the same kind of change
            if prior.predicate == new.predicate and prior.obj.casefold() != new.obj.casefold():
                prior.kind, prior.before = "assert", True
                priors.append(prior)
    return priors + claims


_SPAN_VERBS = frozenset({"spend", "live", "work"})


_PRIOR_PREDICATES = frozenset({"lives_in", "works_at", "job_title"})


# --------------------------------------------------------------------------- relationship idioms

# (verb lemma, object lemma or particle) → (status, claim kind): "we tied the knot", "got hitched",
# "broke off the engagement", "called off the wedding"
_WEDDING: dict[tuple[str, str], tuple[str, str]] = {
    ("tie", "knot"): ("married", "assert"),
    ("get", "hitched"): ("married", "assert"),
    ("walk", "aisle"): ("married", "assert"),
    ("break", "engagement"): ("engaged", "end"),
    ("call", "engagement"): ("engaged", "end"),
    ("call", "wedding"): ("engaged", "end"),
}


def _wedding(verb: Token, lemma: str, tense: str, subject: str | None, hooks: Hooks) -> list[Claim] | None:
    """Marriage said with an idiom ("We tied the knot", "I got hitched", "walked down the aisle") and
    an engagement ended ("broke off the engagement", "called off the wedding")."""
    if tense not in ("past", "perfect"):
        return None
    words = {c.lemma_.lower() for c in verb.children if c.dep_ in ("dobj", "acomp", "oprd", "prt", "attr")}
    words |= {o.lemma_.lower() for _, o in _roles(verb)}
    for (verb_lemma, word), (status, kind) in _WEDDING.items():
        if lemma == verb_lemma and word in words:
            return [Claim("relationship_status", status, subject=subject, kind=kind)]  # type: ignore[arg-type]
    return None


# --------------------------------------------------------------------------- participles and nominals

_PARTICIPLE_MARKS = frozenset("since after before upon on following".split())


def participle_host(verb: Token) -> Token | None:
    """The clause a subjectless participle phrase hangs on, whose subject it shares: "Since
    moving to X, I ...", "I spent years in A before joining B", "Having left A, I now work at B"
    (the small model reads a sentence-initial "Having" as a name). None for anything else."""
    if verb.pos_ not in ("VERB", "AUX") or verb.tag_ not in ("VBG", "VBN", "VBD"):
        return None
    having = any(c.lower_ == "having" for c in verb.children if c.dep_ in ("aux", "nsubj", "nsubjpass"))
    if any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ != "having" for c in verb.children):
        return None
    head = verb.head
    if verb.dep_ == "pcomp" and head.lower_ in _PARTICIPLE_MARKS and verb.tag_ == "VBG":
        host = head.head
    elif verb.dep_ in ("advcl", "ccomp") and having:
        host = head
    elif (
        verb.dep_ == "advcl"
        and verb.tag_ == "VBG"
        and any(c.dep_ in ("mark", "prep") and c.lower_ in _PARTICIPLE_MARKS for c in verb.children)
    ):
        host = head
    else:
        return None
    return host if host.pos_ in ("VERB", "AUX") and host.i != verb.i else None


def participle_claims(verb: Token, host: Token, subject: str | None, hooks: Hooks) -> list[Claim]:
    """A participle phrase's frame, read as done before its host clause ("since relocating to X" is
    a move that happened); nothing when the host clause is in the future ("after moving to X I'll
    get a dog")."""
    if _tense(host) == "future" or any(c.lower_ in ("will", "'ll") for c in host.children if c.dep_ == "aux"):
        return []
    claims = [
        c for c in frame_claims(verb, subject, True, hooks, "past") or [] if c.predicate in _PRIOR_PREDICATES
    ]
    new = next((c for c in claims if c.kind == "assert" and not c.before), None)
    if new is not None and verb.head.lower_ == "before" and host.lemma_.lower() in _SPAN_VERBS:
        # "I spent four years at Umbrella before joining Globex": the host's span held before
        roles = _roles(host) + [r for d in _children(host, "dobj") for r in _roles(d)]
        value = next((v for r, x in roles if (v := _prior(new.predicate, r, x, hooks))), None)
        if value and value.casefold() != new.obj.casefold():
            claims.insert(
                0, Claim(new.predicate, value, subject=subject, object_kind=new.object_kind, before=True)
            )
    return claims


_MOVE_NOUNS = frozenset("move relocation emigration resettlement".split())
_EXIT_NOUNS = frozenset("exit departure resignation layoff dismissal".split())
_TENURE_NOUNS = frozenset("time stint days tenure run".split())
_OVER = frozenset("end finish over conclude wrap close".split())
_ENDED_JOB_NOUNS = frozenset("contract job employment position role stint".split())
_CHANGE_VERBS = frozenset("change switch shift move".split())
_CHANGE_NOUNS = frozenset("switch change transition jump shift transfer leap pivot".split())
_NEW = frozenset("new current present".split())
_OLD = frozenset("old former previous last ex".split())
_NOMINAL_NOT_DONE = frozenset(
    "planned upcoming possible potential proposed future next big dream hypothetical".split()
)
_OPEN_HEADS = frozenset(
    "plan consider think discuss schedule postpone delay cancel want hope dream fall talk".split()
    + "start begin".split()
)


def nominal_owner(noun: Token) -> Token | None:
    """Who a nominal frame is about: its possessive ("my move", "Priya's new job"), or "the" in
    a sentence the speaker tells about themselves ("The move to X was exhausting, but I love it")."""
    poss = next((c for c in noun.children if c.dep_ == "poss"), None)
    if poss is not None:
        return poss
    det = next((c for c in noun.children if c.dep_ == "det" and c.lower_ in ("the", "this")), None)
    if det is None or noun.lemma_.lower() not in _MOVE_NOUNS | _CHANGE_NOUNS:
        return None
    return next((t for t in noun.doc if t.lower_ in ("i", "we") and t.dep_ == "nsubj"), None)


def _settled(noun: Token) -> bool:
    """The nominal is something that happened or holds: not a plan, a wish or a denial ("my
    planned move", "the move fell through", "we discussed a move to X")."""
    if any(c.lower_ in _NOMINAL_NOT_DONE for c in noun.children if c.dep_ in ("amod", "compound")):
        return False
    head = noun.head
    while head.dep_ in ("prep", "pobj", "dobj", "attr") and head.head.i != head.i:
        head = head.head
    if head.pos_ not in ("VERB", "AUX"):
        return noun.dep_ == "ROOT"
    if _tense(head) in ("future",) or _negated(head) or head.lemma_.lower() in _OPEN_HEADS:
        return False
    return not any(
        c.lower_ in ("will", "'ll", "would", "could", "might", "should")
        for c in head.children
        if c.dep_ == "aux"
    )


def nominal_claims(noun: Token, subject: str | None, hooks: Hooks) -> list[Claim]:
    """The functional facts a noun phrase states: "my move from A to B" and "our relocation to
    B" (lives_in), "my switch from A to B" (an employer or a title, whichever the values are),
    "my new job at B" / "my new role as a B" (works_at / job_title), "my new place in B"; "old",
    "former" values are the ones before."""
    lemma = noun.lemma_.lower()
    if not _settled(noun):
        return []
    roles = _roles(noun)
    for c in noun.children:  # "my move out of A", "the move back to B"
        if c.dep_ == "advmod" and c.lower_ in ("back", "over", "out", "away"):
            roles += _prep_objects(c, c.lower_, inner_only=True)
    old_tok = next((o for r, o in roles if r in _ORIGIN), None)
    new_tok = next((o for r, o in roles if r in _DESTINATION and r != "in"), None)
    adjs = {c.lower_ for c in noun.children if c.dep_ in ("amod", "compound")}
    if lemma in _MOVE_NOUNS | _CHANGE_NOUNS and (old_tok is not None or new_tok is not None):
        if "career" in adjs or lemma in _CHANGE_NOUNS:
            old_t = _title(old_tok) if old_tok is not None else None
            new_t = _title(new_tok) if new_tok is not None else None
            if new_t:
                return _pair("job_title", None, old_t, new_t, subject)
        named = [t for t in (old_tok, new_tok) if t is not None and t.pos_ == "PROPN"]
        if not named:
            return []
        default = "place" if lemma in _MOVE_NOUNS else "organization"
        kind = org_or_place(named[-1], noun, hooks, default)
        if kind == "school":
            return []
        predicate, object_kind = _PREDICATE_OF[kind]
        old = hooks.phrase(old_tok) if old_tok is not None and old_tok.pos_ == "PROPN" else None
        new = hooks.phrase(new_tok) if new_tok is not None and new_tok.pos_ == "PROPN" else None
        if new is None and lemma in _CHANGE_NOUNS:
            return []
        return _pair(predicate, object_kind, old, new, subject)
    head = noun.head
    changed = {r: o for r, o in reversed(_roles(head))} if head.lemma_.lower() in _CHANGE_VERBS else {}
    if lemma in _ROLE_NOUNS and noun.dep_ == "nsubj" and "to" in changed:
        # "my title changed to team lead", "my role switched from analyst to manager"
        new_t = _title(changed["to"])
        old_t = _title(changed["from"]) if "from" in changed else None
        done = _tense(head) in ("past", "perfect") or (head.tag_ == "VBN" and not _children(head, "aux"))
        if new_t and done and not _negated(head):  # "changed" tagged a participle with no aux
            return _pair("job_title", None, old_t, new_t, subject)
    ended_job = lemma in _TENURE_NOUNS or lemma in _ENDED_JOB_NOUNS
    if lemma in _EXIT_NOUNS or (ended_job and head.lemma_.lower() in _OVER and not _negated(head)):
        # "my exit from Globex", "my resignation from X", "my time at Hooli ended", "my days in
        # Leeds are over", "my contract with Initech ended"
        ended = next(
            ((r, o) for r, o in roles if r in ("from", "at", "with", "in") and o.pos_ == "PROPN"), None
        )
        value = hooks.phrase(ended[1]) if ended is not None else None
        if ended is None or value is None:
            return []
        predicate, object_kind = _PREDICATE_OF["place" if ended[0] == "in" else "organization"]
        return [Claim(predicate, value, subject=subject, object_kind=object_kind, kind="end")]
    if not adjs & (_NEW | _OLD) and (
        noun.dep_ not in ("nsubj", "nsubjpass") or _tense(noun.head) != "present"
    ):
        return []  # "my job at X is a grind" holds now; "my job at X was a grind" says nothing of now
    before = bool(adjs & _OLD)
    claims: list[Claim] = []
    if lemma in JOB_NOUNS:
        org = next((o for r, o in roles if r in ("at", "with", "for") and o.pos_ == "PROPN"), None)
        if org is not None and (value := hooks.phrase(org)):
            claims.append(
                Claim("works_at", value, subject=subject, object_kind="organization", before=before)
            )
        title = _as_title(roles)
        if title:
            claims.append(Claim("job_title", title, subject=subject, before=before))
    elif lemma in _DWELLING and lemma not in ("city", "town", "country", "area"):
        place = next((o for r, o in roles if r == "in" and o.pos_ == "PROPN"), None)
        if place is not None and (value := hooks.phrase(place)) and adjs & (_NEW | _OLD):
            claims.append(Claim("lives_in", value, subject=subject, object_kind="place", before=before))
    return claims
