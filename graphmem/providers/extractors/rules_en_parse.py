"""English claims from a dependency parse, clause by clause (spaCy, ``en_parse``).

For each clause head (a verb that is the root, a conjunct, or a complement with a subject of its
own) ``parse_claims`` finds:

- **subject**: "I" → the speaker; "we" → the speaker (their household or group); "you" → the other
  speaker of a two-party session (skipped when there is none, and in "you know", "you should");
  a proper-noun name (its compound words, minus filler such as "Bet" in "Bet Max likes ..."); a
  possessed noun with a name in apposition ("my sister Emma"); none at all in a chat sentence
  that drops its "I" ("Went to a concert!"). Anything else (he, she, it, this, "my kids",
  interjections such as "Sounds like ...", "Wow") leaves the clause without facts; a conjunct
  without a subject inherits its head's ("I live in Paris and work at Acme").
- **predicate**: the verb lemma with its particle and the preposition that carries the object,
  mapped to the canonical vocabulary (``_CANONICAL``: live in → lives_in, went to + event →
  attended, work at/for → works_at, ...); events (attended, visited, met) only in the past tense;
  anything else becomes an open predicate named by the verb's third-person form plus particle and
  preposition ("signs_up_for", "paints"; a passive "is_blessed_with"; "I'm grateful for X"
  "is_grateful_for"). "Walter's apartment is in X", "Rachel's employer is Y" are lives_in/works_at.
- **object**: the direct object, or the object of the preposition, or the gerund complement
  ("went camping"), as the dependency subtree of its head with nested clauses, discourse and
  duration phrases left out, capped in length; "my" inside it becomes the speaker's name
  ("Melanie's kids"); generic and light-verb objects ("others", "make a difference") give nothing.
- **polarity and modality**: a negated clause gives nothing (ends are the phrasings' job); a clause
  under "if", "would", "could", "can", "should", a non-factive head ("It's important we ...") gives
  nothing; "might", "may", "maybe", "probably", "I think" make it ``inferred``; "going to"/"will"/
  "plan to" + a verb with a complement is a plan (``plans``, inferred); a present progressive of
  motion ("I'm heading to ...") is neither an event nor a fact.
- **changes naming both values** ("moved from Boston to Denver", "left Boston for Denver", "jumped
  ship from X to Y", "switched from architect to pharmacist"): the old value asserted one second
  before the new (``Claim.before``); employment said with other verbs ("began a role at X", "took a
  job with X", "signed on with X", "transferred to X").

The quality gates that every claim passes (resolved subject, well-formed object, no first- or
second-person word left) live in ``rules_en_gates``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphmem.models.predicates import VOCABULARY, is_functional
from graphmem.providers.extractors.en_parse import entity_label, parse
from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_events import event_claims, passion_claims, pet_claims
from graphmem.providers.extractors.rules_en_frames import (
    TAKE_JOB,
    Hooks,
    frame_claims,
    nominal_claims,
    nominal_owner,
    participle_claims,
    participle_host,
)
from graphmem.providers.extractors.rules_en_lemma import verb_lemma
from graphmem.providers.extractors.rules_en_objects import JOBS, PETS
from graphmem.providers.extractors.rules_en_open import addressed, keep_open

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_SUBJ = frozenset({"nsubj", "nsubjpass"})
_CLAUSE_DEPS = frozenset({"ROOT", "conj", "ccomp", "advcl", "parataxis"})
_FIRST = frozenset({"i"})
_WE = frozenset({"we"})
_YOU = frozenset({"you"})
_HYPOTHETICAL_AUX = frozenset(
    {"would", "'d", "could", "should", "can", "must", "ca", "might've", "would've", "could've", "must've"}
)
# a complement clause is a claim ("Glad you found X", "I think X") except under a head that does not
# assert it: "It's important we support X", "Fingers crossed we find X", "I hope we win"
_NON_FACTIVE_HEADS = frozenset(
    "important crucial essential necessary vital key possible impossible likely unlikely hard easy "
    "wish hope want cross imagine suppose pretend pray need ask wonder doubt".split()
)
_HEDGE_AUX = frozenset({"might", "may"})
_HEDGE_ADV = frozenset({"maybe", "probably", "perhaps", "possibly", "apparently", "supposedly"})
_CONDITIONAL_MARK = frozenset({"if", "unless", "whether", "once", "until", "when", "whenever"})
_HEDGE_VERBS = frozenset({"think", "guess", "believe", "suppose", "reckon", "assume", "hope"})
_PLAN_VERBS = frozenset({"plan", "intend", "decide"})
# verbs that carry no claim of their own in chat ("I see", "I think", "Sounds great", "you know")
SKIP_VERBS = frozenset(
    "be have say tell think know mean guess bet sound look seem feel hope wish need let thank "
    "wait remember forget talk chat try keep happen glad get do can will would agree understand "
    "imagine believe suppose wonder ask share mind care promise bet hate_to check go_on catch "
    "reckon appreciate rock kid admit realize realise notice".split()
)
# words that open a sentence without being a name ("Bet Max likes ...", "Wow Tom is ...")
NOT_SUBJECT_WORDS = frozenset(
    "bet sounds sound looks seems wow glad hope guess yay aww omg congrats congratulations thanks "
    "thank haha lol yeah yes no oh hey hi hello well ok okay sure great nice cool awesome amazing "
    "totally love yep nope dear good happy".split()
)
_EMPTY_OBJECTS = frozenset(
    "it that this them him her you me us there here one something anything everything nothing "
    "what which those these lot lots stuff things thing all some time try look shot blast break "
    "chance moment second minute way care sure others other people world everyone everybody best more "
    "few while bit".split()
)
# light-verb idioms carry no fact of their own: "make a difference", "take the plunge", "live my dream"
_LIGHT_OBJECTS = frozenset(
    "difference impact progress memories memory moves move path effort point plunge pic picture joy "
    "support dream dreams self life day mistake sense deal fun blast time question idea".split()
)
_PRONOUN_WORDS = frozenset(
    "i me my mine myself we us our ours ourselves you your yours yourself yourselves".split()
)
EVENT_NOUNS = frozenset(
    "group meeting class classes concert festival party wedding conference parade event workshop "
    "session show game camp retreat church seminar lecture rally ceremony funeral reunion gala fair "
    "exhibition exhibit match service meetup march protest fundraiser auction convention expo "
    "course lesson lessons recital performance play musical opera ballet tournament race marathon "
    "competition contest hackathon talk screening premiere potluck picnic barbecue bbq dinner "
    "lunch brunch shower drive clinic therapy appointment interview audition tryout tryouts "
    "orientation graduation prom gig jam open mic mass fest carnival gathering get-together "
    "cookout bonfire vigil pageant ceremony screening tasting tour expo summit camporee "
    "webinar bootcamp residency playdate sleepover".split()
)
_MAX_OBJECT_TOKENS = 8


@dataclass(frozen=True, slots=True)
class Speakers:
    """Who "I" and "you" are in this turn: ``other`` only in a two-party session."""

    speaker: str
    other: str | None = None


# (lemma, particle, preposition) → canonical predicate. None in a slot matches "no such word".
_CANONICAL: dict[tuple[str, str | None, str | None], str] = {
    ("live", None, "in"): "lives_in",
    ("reside", None, "in"): "lives_in",
    ("move", None, "to"): "lives_in",
    ("relocate", None, "to"): "lives_in",
    ("settle", None, "in"): "lives_in",
    ("settle", "down", "in"): "lives_in",
    ("work", None, "at"): "works_at",
    ("work", None, "for"): "works_at",
    ("work", None, "with"): "works_at",
    ("intern", None, "at"): "works_at",
    ("work", None, "as"): "job_title",
    ("study", None, "at"): "studies_at",
    ("enroll", None, "at"): "studies_at",
    ("enroll", None, "in"): "studies_at",
    ("enrol", None, "at"): "studies_at",
    ("enrol", None, "in"): "studies_at",
    ("attend", None, None): "attended",
    ("go", None, "to"): "attended",
    ("visit", None, None): "visited",
    ("travel", None, "to"): "visited",
    ("fly", None, "to"): "visited",
    ("meet", None, None): "met",
    ("like", None, None): "likes",
    ("love", None, None): "likes",
    ("enjoy", None, None): "likes",
    ("adore", None, None): "likes",
    ("cherish", None, None): "likes",
    ("treasure", None, None): "likes",
    ("relish", None, None): "likes",
    ("dislike", None, None): "dislikes",
    ("hate", None, None): "dislikes",
    ("detest", None, None): "dislikes",
    ("prefer", None, None): "prefers",
    ("own", None, None): "owns",
    ("buy", None, None): "owns",
    ("purchase", None, None): "owns",
    ("adopt", None, None): "has_pet",
    ("marry", None, None): "married_to",
}
_PLACE_PREDICATES = frozenset({"lives_in", "visited", "works_at", "studies_at"})


def parse_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """Claims of one parsed sentence (time phrases already cut out), each with its clause's text."""
    if doc.text.rstrip().endswith("?"):
        return []
    claims: list[tuple[Claim, str]] = []
    phrase = _phraser(speakers)
    for verb in _clause_heads(doc):
        text = clause_text(verb)
        own = _clause(verb, speakers)
        if _speaker_clause(verb, speakers):  # events first: "danced at the wedding" is attended
            extra = event_claims(verb, phrase, EVENT_NOUNS) + passion_claims(verb, phrase)
            claims.extend(
                (c, text) for c in extra if not any((o.predicate, o.obj) == (c.predicate, c.obj) for o in own)
            )
        claims.extend((claim, text) for claim in own)
    claims.extend(
        (c, doc.text) for c in pet_claims(doc, phrase) if not any(o.obj == c.obj for o, _ in claims)
    )
    claims.extend(
        (c, text)
        for c, text in nonfinite_frames(doc, speakers)
        if not any((o.subject, o.predicate, o.obj) == (c.subject, c.predicate, c.obj) for o, _ in claims)
    )
    # a past state beside a present one of the same predicate is the value before it: "I was a
    # nurse, but now I'm an architect"
    for c, _ in claims:
        if c.past and any(
            o.predicate == c.predicate
            and o.subject == c.subject
            and not o.past
            and not o.before
            and o.kind == "assert"
            and o.obj.casefold() != c.obj.casefold()
            for o, _ in claims
        ):
            c.past, c.before = False, True
    # an end beside a new value of the same slot is the value before it: "I'm based in Denver now,
    # I left Nairobi", "I quit Initech and Hooli hired me"
    for c, _ in claims:
        if (
            c.kind == "end"
            and is_functional(c.predicate)
            and any(
                o.predicate == c.predicate
                and o.subject == c.subject
                and o.kind == "assert"
                and not o.before
                and not o.past
                and o.obj.casefold() != c.obj.casefold()
                for o, _ in claims
            )
        ):
            c.kind, c.before = "assert", True
    # values before come first, so each finds its dated successor after it (``rules``)
    claims.sort(key=lambda ct: not ct[0].before)
    # an old value ("I used to be a teacher") is history only before a new one in the sentence
    return [
        (c, t)
        for c, t in claims
        if not c.before
        or any(o.predicate == c.predicate and o.subject == c.subject and not o.before for o, _ in claims)
    ]


def nonfinite_frames(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The functional frames of phrases without a finite verb of their own (``rules_en_frames``):
    participle phrases ("Since relocating to X, I ...", "before joining Y") read with their host
    clause's subject, and nominals ("my move from A to B", "my new job at X")."""
    out: list[tuple[Claim, str]] = []
    hooks = Hooks(words=lambda t: object_phrase(t, speakers), entity=entity_label, probe=probe_label)
    for tok in doc:
        if tok.pos_ in ("VERB", "AUX"):
            host = participle_host(tok)
            if host is None or is_hypothetical(host) or question_clause(host) or _plan(host) is not None:
                continue
            subject_token = _subject_token(host)
            resolved = resolve_subject(subject_token, host, speakers) if subject_token is not None else None
            if resolved is None and subject_token is None and dropped_i(host):
                resolved = (SPEAKER, True)
            if resolved is None:
                continue
            found = participle_claims(tok, host, resolved[0], hooks)
        elif tok.pos_ == "NOUN" and (owner := nominal_owner(tok)) is not None:
            if owner.lower_ in ("my", "our", "i", "we"):
                resolved = (SPEAKER, True)
            elif owner.pos_ == "PROPN":  # "Priya's move to Leeds"
                resolved = resolve_subject(owner, owner.head, speakers)
            else:
                resolved = None
            if resolved is None:
                continue
            found = nominal_claims(tok, resolved[0], hooks)
        else:
            continue
        for claim in found:
            claim.framed = True
            out.append((claim, clause_text(tok) if tok.pos_ != "NOUN" else doc.text))
    return out


def _phraser(speakers: Speakers) -> Callable[[Token], str | None]:
    return lambda t: object_phrase(t, speakers)


def _speaker_clause(verb: Token, speakers: Speakers) -> bool:
    """A clause about the speaker ("I", "we", "My husband and I", or no subject in chat), asserted."""
    if is_negated(verb) or is_hypothetical(verb) or question_clause(verb):
        return False
    subject = _subject_token(verb)
    if subject is None:
        return dropped_i(verb) or verb.lemma_ == "be"
    resolved = resolve_subject(subject, verb, speakers)
    return (resolved is not None and resolved[1]) or verb.lemma_ == "be"


def clause_text(verb: Token) -> str:
    """The words of ``verb``'s own clause: its subtree less the clauses nested in it."""
    nested = {
        t.i for c in verb.children if c.dep_ in _CLAUSE_DEPS and c.pos_ in ("VERB", "AUX") for t in c.subtree
    }
    return " ".join(t.text for t in verb.subtree if t.i not in nested)


def _clause_heads(doc: Doc) -> Iterable[Token]:
    for tok in doc:
        if tok.pos_ in ("VERB", "AUX") and tok.dep_ in _CLAUSE_DEPS:
            yield tok


def _clause(verb: Token, speakers: Speakers) -> list[Claim]:
    if is_hypothetical(verb) or question_clause(verb):
        return []
    if verb.dep_ == "ccomp" and _non_factive(verb.head):
        return []
    if _reported(verb):
        return []
    subject_token = _subject_token(verb)
    framed = _framed(verb, subject_token, speakers)
    if framed is not None:
        return framed
    return [
        c for c in _open_clause(verb, subject_token, speakers) if keep_open(verb, subject_token, c.predicate)
    ]


def _open_clause(verb: Token, subject_token: Token | None, speakers: Speakers) -> list[Claim]:
    """The clause's claims outside the functional frames (``rules_en_open`` judges the open ones)."""
    if is_negated(verb):
        return []
    if subject_token is None and dropped_i(verb):  # "Went to a concert last night!"
        return [
            _with(c, SPEAKER, _hedged(verb)) for c in _verb_claims(verb, speakers) if c.predicate != "name"
        ]
    if subject_token is None:
        return []
    if verb.lemma_ == "be" and subject_token.pos_ == "NOUN":
        return _possessed(verb, subject_token, speakers)
    subject = resolve_subject(subject_token, verb, speakers)
    if subject is None:
        return []
    name, first_person = subject
    inferred = _hedged(verb)
    plan = _plan(verb)
    if plan is not None:
        return [Claim("plans", plan, subject=name, keeps_time=True, inferred=True)] if first_person else []
    if _futurate(verb):
        return []
    if any(c.lower_ in ("will", "'ll", "shall", "wo") for c in _auxes(verb)):
        # "If the job works out, I'll move to Denver", "I'll buy a car if I get the job": what
        # will be true holds nothing now (a plan is read by ``_plan`` above); "I will always
        # love reading" is a liking that holds now
        always = any(c.dep_ == "advmod" and c.lower_ in ("always", "forever") for c in verb.children)
        return [
            _with(c, name, inferred)
            for c in _verb_claims(verb, speakers)
            if always and c.predicate in ("likes", "dislikes")
        ]
    if verb.lemma_ == "be":  # "I am a teacher" is the phrasing rules' job
        return [_with(c, name, inferred) for c in _copula(verb, speakers)]
    return [_with(c, name, inferred) for c in _verb_claims(verb, speakers) if not (c.predicate == "name")]


def _framed(verb: Token, subject_token: Token | None, speakers: Speakers) -> list[Claim] | None:
    """The functional-predicate frames' reading of the clause (``rules_en_frames``), or None."""
    resolved: tuple[str | None, bool] | None
    if subject_token is not None and subject_token.lower_ == "having":  # a participle phrase
        return []  # ("Having moved to X, I ..."): ``nonfinite_frames`` reads it with its host's subject
    if subject_token is None:
        resolved = (SPEAKER, True) if dropped_i(verb) else None
    else:
        resolved = resolve_subject(subject_token, verb, speakers)
    hooks = Hooks(words=lambda t: object_phrase(t, speakers), entity=entity_label, probe=probe_label)
    name = resolved[0] if resolved is not None else None
    claims = frame_claims(verb, name, resolved is not None, hooks)
    if claims is None:
        return None
    inferred = _hedged(verb)
    for claim in claims:
        claim.inferred = claim.inferred or inferred
        claim.framed = True
    return claims


@functools.lru_cache(maxsize=2048)
def probe_label(name: str) -> str:
    """The entity recogniser's label of ``name`` where an employer is expected ("I work at X."):
    a real place keeps its place label there, an unknown company name mostly does not."""
    doc = parse(f"I work at {name}.")
    last = doc[len(doc) - 2] if len(doc) > 4 else None
    return entity_label(last) if last is not None else ""


_REPORTING = frozenset(
    "say tell write text post claim shout yell reply answer announce insist explain".split()
)


def _reported(verb: Token) -> bool:
    """ "She said, 'I quit Initech'", "Tom told me I'm moving": a clause reported from someone
    else (a reporting verb whose subject is not the speaker) is not the speaker's claim."""
    head = verb.head
    if verb.dep_ not in ("ccomp", "parataxis") or head.lemma_.lower() not in _REPORTING:
        return False
    said_by = next((c for c in head.children if c.dep_ in _SUBJ), None)
    return said_by is not None and said_by.lower_ not in _FIRST | _WE


def _non_factive(head: Token) -> bool:
    """ "I hope ...", "It's important (that) ...": the head, or its adjective, does not assert."""
    words = {head.lemma_.lower()} | {c.lemma_.lower() for c in head.children if c.dep_ == "acomp"}
    return bool(words & _NON_FACTIVE_HEADS)


_FUTURATE_VERBS = frozenset("go head hit grab bring take leave come fly drive travel meet pick visit".split())


def _futurate(verb: Token) -> bool:
    """ "I'm heading to the reserve", "We're grabbing snacks": a present progressive of motion is
    usually a plan, not an event. "I'm taking a pottery class / a dog training course" (a course
    taken, no "to" of motion) is what the speaker does now."""
    if verb.lemma_ == "take" and _taking_course(verb):
        return False
    return (
        verb.tag_ == "VBG"
        and verb.lemma_ in _FUTURATE_VERBS
        and any(c.lower_ in ("am", "is", "are", "'m", "'re", "'s") for c in _auxes(verb))
    )


_COURSES = frozenset("class classes course courses lesson lessons workshop program seminar".split())


def _taking_course(verb: Token) -> bool:
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    return (
        dobj is not None
        and dobj.lemma_.lower() in _COURSES
        and not any(c.dep_ in ("prep", "prt") and c.lower_ in ("to", "out") for c in verb.children)
    )


_DROPPED_I_VERBS = frozenset("love like enjoy adore hate miss".split())


def dropped_i(verb: Token) -> bool:
    """A chat sentence that drops its "I": it opens with a past verb, a participle, a gerund or a
    liking verb ("Went to ...", "Been checking out ...", "Love experimenting with ...");
    imperatives ("Check out this book") and gerund subjects do not count."""
    if verb.dep_ != "ROOT":
        return False
    first = next((t for t in verb.doc if t.pos_ not in ("PUNCT", "INTJ", "CCONJ", "ADV")), None)
    if first is not None and first.lower_ == "been" and first.head.i == verb.i and first.dep_ == "aux":
        return verb.tag_ == "VBG"  # "Been working on a new painting."
    if first is None or first.i != verb.i:
        return False
    if verb.tag_ == "VBG" and _gerund_subject(verb):
        return False
    return verb.tag_ in ("VBD", "VBN", "VBG") or (verb.lemma_ in _DROPPED_I_VERBS and verb.tag_ != "VB")


def _gerund_subject(verb: Token) -> bool:
    """A sentence-initial gerund the model took for the root that is the subject of a later "be"
    with a complement ("Seeing her face light up was the best", "Creating a good vibe can be
    helpful"): that "be" has no subject, or a noun the model misattached, never a pronoun."""
    for tok in verb.doc[verb.i + 1 :]:
        if (
            tok.lemma_ != "be"
            or tok.dep_ == "conj"
            or not any(c.dep_ in ("acomp", "attr") for c in tok.children)
        ):
            continue  # "Working on my novel and the plot is great": a clause of its own
        subj = next((c for c in tok.children if c.dep_ in _SUBJ), None)
        if subj is None or subj.pos_ == "NOUN":
            return True
    return False


def _with(claim: Claim, subject: str | None, inferred: bool) -> Claim:
    claim.subject = subject
    claim.inferred = claim.inferred or inferred
    return claim


# --------------------------------------------------------------------------- clause tests


def is_negated(verb: Token) -> bool:
    """Negated, or only nearly done ("I almost joined X", "we nearly moved"): nothing happened. The
    small model hangs the "n't" of a passive with "get" on its "did" ("you didn't get hurt")."""
    return (
        any(c.dep_ == "neg" for c in verb.children)
        or any(
            c.lower_ in ("never", "no longer", "almost", "nearly")
            for c in verb.children
            if c.dep_ == "advmod"
        )
        or any(
            c.dep_ in ("aux", "auxpass") and any(n.dep_ == "neg" for n in c.children) for c in verb.children
        )
    )


def _got_passive(verb: Token) -> bool:
    """A passive with "get" in the past ("got hurt", "got invited", "had gotten lost")."""
    return any(c.dep_ == "auxpass" and c.lower_ in ("got", "gotten") for c in verb.children)


def _auxes(verb: Token) -> list[Token]:
    """The auxiliaries of ``verb``, or of the verb it is a conjunct of ("we'll rock X and teach Y")."""
    own = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if not own and verb.dep_ == "conj":
        return _auxes(verb.head)
    return own


def is_hypothetical(verb: Token) -> bool:
    for tok in [verb, *verb.ancestors]:
        auxes = _auxes(tok)
        for c in auxes:
            if c.lower_ == "'d" and (tok.tag_ == "VBN" or any(a.lower_ == "been" for a in auxes)):
                continue  # "I'd been living in A", "I'd moved": had, a past perfect
            if c.lower_ in _HYPOTHETICAL_AUX:
                return True
        for c in tok.children:
            if c.dep_ == "mark" and c.lower_ in _CONDITIONAL_MARK:
                return True
        if tok.lemma_ in ("wish", "imagine", "pretend", "dream") and tok.i != verb.i:
            return True
        if tok.dep_ in ("ROOT",):
            break
    return False


def question_clause(verb: Token) -> bool:
    return any(c.tag_ in ("WP", "WRB") and c.i < verb.i for c in verb.children)


def _hedged(verb: Token) -> bool:
    if any(c.lower_ in _HEDGE_AUX for c in _auxes(verb)):
        return True
    if any(c.lower_ in _HEDGE_ADV for c in verb.children if c.dep_ == "advmod"):
        return True
    head = verb.head
    return verb.dep_ == "ccomp" and head.lemma_ in _HEDGE_VERBS


# a plan is an intended action: "I'll always cherish it", "I will love it" state no plan
_NOT_PLANNED = frozenset(
    "love like cherish enjoy appreciate remember miss treasure adore hate be feel know think hope".split()
)


def _conditional_or_habitual(verb: Token) -> bool:
    """ "I'll reach out if I need help" (an "if"/"unless" clause under the verb), "I'll always
    love reading" (always/never/forever): an offer or a disposition, not a plan."""
    for c in verb.children:
        if c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("if", "unless") for m in c.children):
            return True
        if c.dep_ == "advmod" and c.lower_ in ("always", "never", "forever"):
            return True
    return False


def _plan(verb: Token) -> str | None:
    """ "I'm going to paint", "I will visit Rome", "I plan to learn X": the planned verb phrase.
    A hedged deed ("I might adopt a kitten", "We may move to Lyon") is a possible plan, not the
    state it would bring about: the caller marks every plan ``inferred``."""
    future = any(c.lower_ in ("will", "'ll", "shall", "wo") or c.lower_ in _HEDGE_AUX for c in _auxes(verb))
    target = verb
    if verb.lemma_ in _PLAN_VERBS or (verb.lemma_ == "go" and verb.tag_ == "VBG"):
        if verb.tag_ == "VBG" and any(c.lower_ in ("was", "were", "had", "'d") for c in _auxes(verb)):
            return None  # "I was going to / was planning to X": a past intention, no plan now
        xcomp = next((c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
        if xcomp is None or not any(c.dep_ == "aux" and c.lower_ == "to" for c in xcomp.children):
            return None
        target, future = xcomp, True
    if not future or target.lemma_ in SKIP_VERBS | {"see", "make", "find", "help"} | _NOT_PLANNED:
        return None
    if not any(c.dep_ in ("dobj", "prep", "xcomp", "prt") for c in target.children):
        return None
    if _conditional_or_habitual(verb) or (target is not verb and _conditional_or_habitual(target)):
        return None
    words = [t for t in target.subtree if t.i >= target.i and t.dep_ not in ("punct", "cc")]
    words = _cut_clause(target, words)
    words = trim(words)
    if len(words) < 2 or len(words) > _MAX_OBJECT_TOKENS + 1:  # "I'll be tuning in": no object
        return None
    if (_PRONOUN_WORDS | _THIRD) & {t.lower_ for t in words}:
        return None
    rest = " ".join(t.text for t in words[1:])
    return tidy(f"{verb_lemma(words[0])} {rest}".strip())


_NESTED = frozenset(
    {"relcl", "advcl", "ccomp", "conj", "cc", "punct", "mark", "parataxis", "npadvmod", "acl"}
)
_TRAILING = frozenset(
    "a an the once at least to of for with and or that who which as than so about on in from by".split()
)
# prepositional phrases that are discourse, not content: "on a different note", "in the meantime"
_DISCOURSE = frozenset("note top meantime while end way moment".split())
TIME_UNITS = frozenset("second minute hour day week month year decade weekend night morning evening".split())
_THIRD = frozenset("he she him his her hers they them their theirs it its".split())
# "our" before these is a group wider than the speaker's household, or the speaker and the
# listener: "our military", "our future generations", "our community", "our friendship", "our
# shared love for X" are nobody's own (the speaker's name would misstate them)
SHARED_OURS = frozenset(
    "community communities military country nation nations world planet society generation "
    "generations city town state government friendship friendships shared ecological ecosystem "
    "ecosystems environment earth species culture democracy youth veterans troops soldiers "
    "conversation conversations chat chats talks bond connection society's country's".split()
)


def group_our(words: list[str], at: int) -> bool:
    """ "our" at ``words[at]`` names a group, not the speaker's own (``SHARED_OURS`` among the
    next three words)."""
    return words[at].casefold() == "our" and any(w.casefold() in SHARED_OURS for w in words[at + 1 : at + 4])


_PREMODIFIER_DEPS = frozenset({"punct", "cc", "conj", "npadvmod"})
_NOMINAL_DEPS = frozenset({"dobj", "pobj", "nsubj", "attr", "appos", "compound", "conj"})


def _joining_mark(t: Token) -> bool:
    """A hyphen inside a word ("dairy-free") or a comma between two modifiers ("safe, inviting")."""
    doc = t.doc
    if t.i == 0 or t.i + 1 >= len(doc):
        return False
    before, after = doc[t.i - 1], doc[t.i + 1]
    if t.tag_ == "HYPH":
        return not t.whitespace_ and not before.whitespace_
    return t.text == "," and before.pos_ == "ADJ" and (after.pos_ == "ADJ" or after.tag_ in ("VBG", "VBN"))


def _premodifier(t: Token, words: list[Token]) -> bool:
    """A comma, "and", conjunct or hyphen part among the words before a noun of the phrase: "a
    safe, inviting place", "an amazing and emotional ceremony", "dairy-free options", "a small
    get-together" are the noun's own, no cut."""
    if t.dep_ == "punct" and not _joining_mark(t):
        return False
    return t.dep_ in _PREMODIFIER_DEPS and any(
        n.i > t.i
        and n.left_edge.i <= t.i
        and n.dep_ in _NOMINAL_DEPS
        and (n.pos_ in ("NOUN", "PROPN") or n.tag_ == "VBG")
        for n in words
    )


def _noun_continuation(t: Token, head: Token) -> bool:
    """A verb form the small model hung on a noun that is the noun phrase's own head: "a poetry
    reading", "a 5K charity run for a shelter" (right after the noun, no object or subject)."""
    return (
        t.dep_ == "acl"
        and t.i == head.i + 1
        and t.tag_ in ("VBG", "VBN", "NN")
        and head.pos_ == "NOUN"
        and any(c.dep_ == "det" for c in head.children)
        and all(c.dep_ in ("prep", "npadvmod", "punct") for c in t.children)
    )


def shared_head(head: Token) -> Token | None:
    """The noun a bare first conjunct shares: "action and sci-fi movies" (the model reads
    "action" as the object and "movies" as its conjunct): the conjunct, or None."""
    if head.tag_ != "NN" or any(c.i < head.i for c in head.children):
        return None
    for c in head.children:
        if (
            c.dep_ == "conj"
            and c.tag_ == "NNS"
            and any(m.dep_ in ("compound", "amod") and m.i < c.i for m in c.children)
            and any(k.dep_ == "cc" and head.i < k.i < c.i for k in head.children)
            and not any(t.text == "," for t in head.doc[head.i : c.i])
        ):
            return c
    return None


_COMPLEMENTS = frozenset({"dobj", "ccomp", "xcomp"})


def _lost_complement(words: list[Token]) -> bool:
    """A verb of the phrase whose object or complement clause was cut away: "watching" (of
    "watching them play"), "a plan for getting" (of "getting it made"): the phrase says nothing."""
    kept = {t.i for t in words}
    return any(
        t.pos_ in ("VERB", "AUX") and any(c.dep_ in _COMPLEMENTS and c.i not in kept for c in t.children)
        for t in words
    )


def _headless(words: list[Token]) -> bool:
    """The phrase ends on a modifier of a noun left out ("taking regular" of 'regular "me-time"
    walks'): no head of its own."""
    last = words[-1]
    kept = {t.i for t in words}
    adjectival = last.dep_ in ("amod", "nummod") or (
        last.dep_ in ("compound", "nmod") and last.pos_ not in ("NOUN", "PROPN")
    )
    return adjectival and last.head.i > last.i and last.head.i not in kept


def _split_compound(head: Token) -> Token | None:
    """A bare noun the model read as an object of its own right before the real one: "took a dog
    grooming course" (dog and course both objects): the real one."""
    if (
        any(c.dep_ != "det" for c in head.children)
        or head.pos_ != "NOUN"
        or head.dep_ not in ("dobj", "pobj")
    ):
        return None
    return next(
        (
            s
            for s in head.head.children
            if s.dep_ == head.dep_ and s.i > head.i and s.left_edge.i == head.i + 1 and s.pos_ == "NOUN"
        ),
        None,
    )


# what an example after "like" points back with: "another quilt like my last one", "like these"
_POINTED_EXAMPLE = frozenset("one ones mine ours yours theirs this that these those it them".split())


def _examples(words: list[Token]) -> tuple[set[int], set[int]]:
    """The examples a noun is likened to with "like": a list ("different teas like oolong,
    jasmine and rooibos", "tricks like sit, stay and fetch") is kept whole (``keep``) when the
    phrase still fits, else cut off before "like" with one pointing back ("another quilt like my
    last one") (``cut``): a value that keeps only the first of a list misstates it."""
    keep: set[int] = set()
    cut: set[int] = set()
    for t in words:
        if t.dep_ != "prep" or t.lower_ != "like" or t.head.pos_ not in ("NOUN", "PROPN"):
            continue
        pobj = next((c for c in t.children if c.dep_ == "pobj"), None)
        if pobj is None:
            continue
        sub = {u.i for u in t.subtree}
        doc = t.doc
        after = [u for u in doc[t.right_edge.i + 1 : t.right_edge.i + 3]]
        torn = any(c.dep_ == "cc" for c in pobj.children) and not any(
            c.dep_ == "conj" for c in pobj.children
        )  # "brands like Nike and Under Armour" with "Armour" hung elsewhere
        torn = torn or bool(
            after
            and (after[0].dep_ == "cc" or (after[0].text == "," and after[1:] and after[1].dep_ == "cc"))
        )
        if torn or any(u.lower_ in _POINTED_EXAMPLE or u.tag_ == "PRP$" for u in t.subtree):
            cut |= sub
        elif any(c.dep_ == "conj" for c in pobj.children):
            before = sum(1 for u in words if u.i < t.i)
            (keep if before + len(sub) <= _MAX_OBJECT_TOKENS else cut).update(sub)
    return keep, cut


def _cut_clause(head: Token, words: list[Token]) -> list[Token]:
    """Words of ``head``'s phrase up to the first nested clause (whose subtree is left out whole:
    "a couple who had a dog" is "a couple"), conjunct or punctuation; a noun's own premodifiers
    stay (``_premodifier``). A list of examples after "like" is kept whole when it fits, else cut
    before "like" (``_examples``)."""
    keep, cut = _examples(words)
    nested = cut | {
        u.i
        for t in words
        if t.i != head.i
        and (
            (t.dep_ in _NESTED and not _premodifier(t, words) and not _noun_continuation(t, head))
            or (t.dep_ == "prep" and any(c.lemma_.lower() in _DISCOURSE | TIME_UNITS for c in t.children))
        )
        for u in t.subtree
        if u.i not in keep
    }
    out: list[Token] = []
    for t in words:
        if t.i in nested:
            if out:
                break
            continue
        out.append(t)
    return out


def trim(words: list[Token]) -> list[Token]:
    while words and (words[-1].lower_ in _TRAILING or words[-1].dep_ in ("punct", "cc", "det")):
        words = words[:-1]
    return words


def tidy(text: str) -> str:
    for punct in (" 's", " n't", " ,", " .", " !", " '"):
        text = text.replace(punct, punct.strip())
    return text.replace(" - ", "-").strip(" .,!")


# --------------------------------------------------------------------------- subject


def _subject_token(verb: Token) -> Token | None:
    tok: Token | None = verb
    while tok is not None:  # a name said to the listener is no subject ("Hey Sam, I went ...")
        subj = next((c for c in tok.children if c.dep_ in _SUBJ and not addressed(c)), None)
        if subj is not None:
            return subj
        if tok.dep_ in ("conj", "xcomp") and tok.head.i != tok.i:
            tok = tok.head
            continue
        if (
            tok.dep_ == "advcl"
            and tok.tag_ == "VBG"
            and tok.head.lemma_ != "go"  # "went camping with the kids" is the head's own claim
            and not any(c.dep_ == "mark" for c in tok.children)
        ):
            tok = tok.head  # "I'm getting creative too, just learning the piano"
            continue
        return None
    return None


def resolve_subject(tok: Token, verb: Token, speakers: Speakers) -> tuple[str | None, bool] | None:
    """(subject name or SPEAKER, is first person); None when it cannot be resolved."""
    low = tok.lower_
    if low in _FIRST or low in _WE or (low == "me" and tok.dep_ == "nsubj"):  # "Me and Jo went"
        return SPEAKER, True
    if any(c.dep_ == "conj" and (c.lower_ in _FIRST or c.lower_ in _WE) for c in tok.children):
        return SPEAKER, True  # "My husband and I went camping": the speaker (their household)
    if low in _YOU:
        if speakers.other is None or verb.lemma_ in SKIP_VERBS or verb.tag_ == "VB":
            return None
        return speakers.other, False
    if tok.pos_ == "PROPN" and tok.tag_ != "NNPS":
        name = _name(tok)
        return (name, False) if name else None
    if low in ("he", "she"):  # "Priya used to live in X, but now she lives in Y"
        return _antecedent(tok)
    if tok.pos_ == "NOUN":
        appos = next((c for c in tok.children if c.dep_ == "appos" and c.pos_ == "PROPN"), None)
        if appos is not None:
            name = _name(appos)
            return (name, False) if name else None
    return None


def _antecedent(pronoun: Token) -> tuple[str | None, bool] | None:
    """The one named person who is a subject earlier in the sentence, for "he"/"she" after it."""
    names = (
        {
            name
            for t in pronoun.doc[: pronoun.i]
            if t.dep_ in _SUBJ and t.pos_ == "PROPN" and t.tag_ != "NNPS" and (name := _name(t))
        }
        | {  # "My friend Elena was a nurse; now she's a chef"
            name
            for t in pronoun.doc[: pronoun.i]
            if t.dep_ in _SUBJ and t.pos_ == "NOUN"
            for a in t.children
            if a.dep_ == "appos" and a.pos_ == "PROPN" and (name := _name(a))
        }
    )
    return (names.pop(), False) if len(names) == 1 else None


def _name(tok: Token) -> str | None:
    parts = [c for c in tok.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"] + [tok]
    while parts and parts[0].lower_ in NOT_SUBJECT_WORDS:
        parts = parts[1:]
    if not parts or not all(p.text[:1].isupper() for p in parts):
        return None
    if parts[0].i == 0 and len(parts) == 1 and parts[0].lower_ in NOT_SUBJECT_WORDS:
        return None
    name = " ".join(p.text for p in parts)
    return name if len(name) > 1 else None


# --------------------------------------------------------------------------- predicate + object


def _verb_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    lemma = verb_lemma(verb)
    if verb.dep_ == "xcomp" and verb.head.lemma_ == "use" and verb.head.tag_ == "VBD":
        return []  # "I used to love / live in X": a past habit, not what holds now
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None) or _together(verb)
    dobj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    # a phrase fronted before the verb sets the scene ("Off the court, I'm looking into X")
    preps = [  # "upon" the model tags SCONJ
        c
        for c in verb.children
        if c.dep_ in ("prep", "dative") and (c.pos_ == "ADP" or c.lower_ == "upon") and c.i > verb.i
    ]
    pobjs = [(p, o) for p in preps for o in p.children if o.dep_ == "pobj"][:3]
    move = _move(lemma, dobj, pobjs, speakers)
    if move:
        return move
    job = _employment(lemma, particle, dobj, pobjs, speakers)
    if job:
        return job
    if lemma == "have" and dobj is not None and _past(verb) and dobj.lemma_.lower() in EVENT_NOUNS:
        value = object_phrase(dobj, speakers)  # "I had an interview for a design internship"
        return [Claim("attended", value)] if value else []
    meaningful = (
        any((lemma, p.lower_) in _MEANINGFUL_PREPS for p, _ in pobjs)
        or (lemma, particle) in _MEANINGFUL_PREPS
        or _trying_thing(verb, lemma, dobj)
    )
    if lemma in SKIP_VERBS and not (lemma == "go" and pobjs) and not meaningful:
        return []
    if dobj is not None:
        claims = _object_claim(verb, lemma, particle, None, dobj, speakers)
        return [_with_place(c, pobjs, speakers) for c in claims]
    # after "rely on them", "stumbled upon this book" a later phrase is no object
    pronoun = False
    for prep, obj in pobjs:
        claims = [
            c
            for c in _object_claim(verb, lemma, particle, prep.lower_, obj, speakers)
            if not pronoun or c.predicate in VOCABULARY
        ]
        if claims:
            return claims
        pronoun = pronoun or obj.pos_ == "PRON" or _anaphoric(obj, None)  # "stumbled upon this book"
    gerund = next((c for c in verb.children if c.dep_ in ("xcomp", "advcl") and c.tag_ == "VBG"), None)
    if gerund is not None and lemma == "go":
        return [Claim(_open_name("go", None, None), gerund.lower_)]
    if gerund is not None and lemma in ("like", "love", "enjoy", "hate", "start", "stop", "begin"):
        value = object_phrase(gerund, speakers)
        if value:
            pred = _CANONICAL.get((lemma, None, None), _open_name(lemma, particle, None))
            return [Claim(pred, value)]
    return []


_NOT_TRIED = frozenset("best hand luck thing things something stuff way ways idea".split())


def _trying_thing(verb: Token, lemma: str, dobj: Token | None) -> bool:
    """ "I'm trying kundalini yoga", "We're trying a new recipe": a present "try" of a thing is
    a deed (the past "tried X" is the readers'); "try my best", "try my hand" are idioms."""
    return (
        lemma == "try"
        and verb.tag_ in ("VBG", "VBP", "VBZ")
        and dobj is not None
        and dobj.pos_ in ("NOUN", "PROPN")
        and dobj.lemma_.lower() not in _NOT_TRIED
    )


# a verb that says nothing alone says something with these: "looking into counseling", "trying out yoga"
_MEANINGFUL_PREPS = frozenset(
    {("look", "into"), ("look", "for"), ("look", "after"), ("try", "out"), ("keep", "up"), ("get", "into")}
)
_PLACE_PREPS = frozenset({"to", "into", "at", "in", "on", "for", "with"})
_DEMONSTRATIVES = frozenset("this that".split())


def _anaphoric(obj: Token, predicate: str | None) -> bool:
    """An object that points back into the conversation is no fact: a singular demonstrative
    ("I love this series", "I finished that one"), and for a preference also "the" before a
    common noun ("I love the color", "glad you liked the suggestion")."""
    if obj.pos_ == "PROPN":
        return False
    dets = {c.lower_ for c in obj.children if c.dep_ in ("det", "predet")}
    if dets & _DEMONSTRATIVES:
        return predicate in ("likes", "dislikes") or not described(obj)
    return predicate in ("likes", "dislikes") and "the" in dets


_DESCRIBING_PREPS = frozenset("about of from by with".split())


def described(obj: Token) -> bool:
    """A demonstrative object that says itself what it is: a phrase after the head names its
    content or origin ("this amazing series about the power of friendship", "this super cool book
    from the 1900s", "that painting of a lighthouse"); "this book", "that one" point back."""
    return any(
        p.dep_ == "prep"
        and p.lower_ in _DESCRIBING_PREPS
        and any(
            o.dep_ == "pobj"
            and o.pos_ in ("NOUN", "PROPN")
            and o.lemma_.lower() not in _EMPTY_OBJECTS
            and not any(d.lower_ in _DEMONSTRATIVES for d in o.children)
            for o in p.children
        )
        for p in obj.children
    )


def _with_place(claim: Claim, pobjs: list[tuple[Token, Token]], speakers: Speakers) -> Claim:
    """An open claim keeps the verb's first place or partner: "took the kids to a park"."""
    if claim.predicate in VOCABULARY or not pobjs or pobjs[0][0].lower_ not in _PLACE_PREPS:
        return claim
    prep, obj = pobjs[0]
    if obj.lemma_.lower() in _DISCOURSE | TIME_UNITS:
        return claim
    where = object_phrase(obj, speakers)
    if where and len(claim.obj.split()) + len(where.split()) < _MAX_OBJECT_TOKENS:
        claim.obj = f"{claim.obj} {prep.lower_} {where}"
    return claim


def _object_claim(
    verb: Token, lemma: str, particle: str | None, prep: str | None, obj: Token, speakers: Speakers
) -> list[Claim]:
    value = object_phrase(obj, speakers)
    if value is None or obj.lemma_.lower() in _LIGHT_OBJECTS or obj.lemma_.lower() in TIME_UNITS:
        return []
    predicate = _CANONICAL.get((lemma, particle, prep)) or _CANONICAL.get((lemma, None, prep))
    if predicate not in ("attended", "visited", "met") and _anaphoric(obj, predicate):
        return []
    if predicate in ("attended", "visited", "met") and not _past(verb):
        predicate = None  # "I go to the gym" is a habit (goes_to), not an event
    elif predicate == "attended" and lemma == "go":
        predicate = "attended" if obj.lower_ in EVENT_NOUNS else "visited"
    if predicate in ("owns", "has_pet"):
        pet = obj.lower_ in PETS
        predicate = "has_pet" if pet else ("owns" if lemma != "adopt" else _open_name(lemma, None, None))
    if predicate in ("works_at", "studies_at", "lives_in", "married_to") and obj.pos_ != "PROPN":
        if predicate != "lives_in":
            return []
    if predicate == "job_title" and obj.lower_ not in JOBS:
        return []
    if predicate is None and lemma == "plan" and prep is None and particle is None:
        # "planning a trip to X", "planned a gaming session": the plan is to take or have it
        # ("plans: trip to X" would read "plans to trip to X")
        light = "take" if obj.lemma_.lower() in _TRIPS else "have"
        return [Claim("plans", f"{light} {value}", inferred=True)]
    if predicate is None:
        passive = any(c.dep_ == "auxpass" for c in verb.children)
        predicate = _open_name(lemma, particle, prep, passive=passive, participle=verb.lower_)
        if passive and _got_passive(verb):  # "I got hurt on the trail": an event, not a state now
            predicate = "got" + predicate[2:]
    kind = "person" if predicate in ("met", "married_to") and obj.pos_ == "PROPN" else None
    if predicate in _PLACE_PREDICATES and obj.pos_ == "PROPN":
        kind = "place" if predicate in ("lives_in", "visited") else "organization"
    return [Claim(predicate, value, object_kind=kind)]


_TRIPS = frozenset("trip vacation holiday cruise getaway tour journey honeymoon road-trip".split())
_MOVE_VERBS = frozenset({"move", "relocate"})
_JOB_CHANGE_VERBS = frozenset({"switch", "jump", "transfer", "change", "go"})


def _pobjs_of(tok: Token) -> list[tuple[Token, Token]]:
    return [(p, o) for p in tok.children if p.dep_ == "prep" for o in p.children if o.dep_ == "pobj"]


def _move(
    lemma: str, dobj: Token | None, pobjs: list[tuple[Token, Token]], speakers: Speakers
) -> list[Claim]:
    """A change that names the old and the new value: "moved from Boston to Denver", "made the move
    from X to Y", "left Boston for Denver" (lives_in); "jumped ship from Initech to Globex"
    (works_at); "switched from architect to pharmacist" (job_title). The old value is asserted just
    before the new one (``Claim.before``), so the history reads old → new even when the old value
    was never stated before."""
    if dobj is not None and dobj.lemma_ in ("move", "ship", "job", "jobs"):
        pobjs = pobjs + _pobjs_of(dobj)
        lemma = "move" if dobj.lemma_ == "move" else "jump"
        dobj = None
    by_prep = {p.lower_: o for p, o in pobjs}
    old: Token | None = None
    new: Token | None = None
    if "from" in by_prep and "to" in by_prep and lemma in _MOVE_VERBS | _JOB_CHANGE_VERBS:
        old, new = by_prep["from"], by_prep["to"]
    elif lemma in ("leave", "swap", "trade", "exchange", "quit") and dobj is not None and "for" in by_prep:
        old, new = dobj, by_prep["for"]
    if old is None or new is None:
        return []
    old_v, new_v = object_phrase(old, speakers), object_phrase(new, speakers)
    if not old_v or not new_v:
        return []
    kind: str | None
    if old.lower_ in JOBS and new.lower_ in JOBS:
        predicate, kind = "job_title", None
    elif old.pos_ != "PROPN" or new.pos_ != "PROPN":
        return []
    elif lemma in _JOB_CHANGE_VERBS or lemma == "quit":
        predicate, kind = "works_at", "organization"
    else:
        predicate, kind = "lives_in", "place"
    return [
        Claim(predicate, old_v, object_kind=kind, before=True),
        Claim(predicate, new_v, object_kind=kind),
    ]


_JOB_NOUNS = frozenset("job role position internship gig post career contract".split())


def _employment(
    lemma: str,
    particle: str | None,
    dobj: Token | None,
    pobjs: list[tuple[Token, Token]],
    speakers: Speakers,
) -> list[Claim]:
    """Employment said with other verbs: "began a new role at Pfizer", "took a job as a chef",
    "signed on with Hooli", "transferred to Globex"."""
    if dobj is not None and dobj.lemma_ in _JOB_NOUNS and lemma in TAKE_JOB:  # not "considering a job"
        for prep, obj in _pobjs_of(dobj) + pobjs:
            value = object_phrase(obj, speakers)
            if value and prep.lower_ in ("at", "with", "for") and obj.pos_ == "PROPN":
                return [Claim("works_at", value, object_kind="organization")]
            if value and prep.lower_ == "as" and obj.lower_ in JOBS:
                return [Claim("job_title", value)]
    if lemma in ("sign", "transfer") and particle in (None, "on", "up"):
        for prep, obj in pobjs:
            value = object_phrase(obj, speakers)
            if value and obj.pos_ == "PROPN" and prep.lower_ in ("with", "to", "at"):
                return [Claim("works_at", value, object_kind="organization")]
    return []


_COPULA_PREPS = frozenset("for about of with in at to into on".split())


# how someone feels at the moment of speaking, not a lasting trait: "I'm stoked for my game",
# "I'm ready for a change", "I'm happy with my decision", "we got comfy with snacks"
MOMENT_ADJS = frozenset(
    "stoked thrilled excited pumped psyched hyped ready happy glad pleased comfy cozy cosy "
    "comfortable lost open sad upset bummed nervous anxious worried scared afraid relieved "
    "surprised amazed shocked impressed sorry jealous mad angry annoyed done".split()
)


def _copula(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm grateful for X", "I'm proud of Y": is_<adjective>_<preposition> X; a feeling of the
    moment (``MOMENT_ADJS``) is no fact about the person."""
    adj = next((c for c in verb.children if c.dep_ == "acomp" and c.pos_ == "ADJ"), None)
    if adj is None or adj.lower_ in MOMENT_ADJS:
        return []
    prep = next((c for c in adj.children if c.dep_ == "prep" and c.pos_ == "ADP"), None)
    obj = next((c for c in prep.children if c.dep_ in ("pobj", "pcomp")), None) if prep else None
    if prep is None or obj is None or prep.lower_ not in _COPULA_PREPS:
        return []
    value = object_phrase(obj, speakers)
    return [Claim(f"is_{adj.lower_}_{prep.lower_}", value)] if value else []


_POSSESSED: dict[str, str] = {
    **dict.fromkeys("home house apartment flat place condo studio loft address".split(), "lives_in"),
    **dict.fromkeys("job office workplace employer company work firm".split(), "works_at"),
    **dict.fromkeys("role title position occupation profession".split(), "job_title"),
}


def _possessed(verb: Token, noun: Token, speakers: Speakers) -> list[Claim]:
    """ "Walter's apartment is in Stockholm", "Rachel's new employer is Massive Dynamic", "Yusuf's
    role at Deloitte is graphic designer", "My job is at Nvidia": the possessor's lives_in /
    works_at / job_title."""
    predicate = _POSSESSED.get(noun.lemma_.lower())
    owner = next((c for c in noun.children if c.dep_ == "poss"), None)
    if predicate is None or owner is None or is_negated(verb) or is_hypothetical(verb):
        return []
    subject: str | None
    if owner.lower_ in ("my", "our"):
        subject = SPEAKER
    elif owner.pos_ == "PROPN" and (name := _name(owner)) is not None:
        subject = name
    else:
        return []
    attr = next((c for c in verb.children if c.dep_ in ("attr", "acomp")), None)
    place = next(
        (
            o
            for p in verb.children
            if p.dep_ == "prep" and p.lower_ in ("in", "at", "with")
            for o in p.children
            if o.dep_ == "pobj"
        ),
        None,
    )
    claims: list[Claim] = []
    if predicate == "job_title":
        if attr is not None and attr.lower_ in JOBS and (value := object_phrase(attr, speakers)):
            claims.append(Claim("job_title", value.lower(), subject=subject))
        org = next(
            (o for p in noun.children if p.dep_ == "prep" for o in p.children if o.pos_ == "PROPN"), None
        )
        if claims and org is not None and (value := object_phrase(org, speakers)):
            claims.append(Claim("works_at", value, subject=subject, object_kind="organization"))
        return claims
    target = place if place is not None else attr
    if target is None or target.pos_ != "PROPN" or (value := object_phrase(target, speakers)) is None:
        return []
    kind = "place" if predicate == "lives_in" else "organization"
    return [Claim(predicate, value, subject=subject, object_kind=kind)]


def _past(verb: Token) -> bool:
    """Simple past or present perfect ("went", "have been to")."""
    return verb.tag_ == "VBD" or (
        verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)
    )


def _together(verb: Token) -> str | None:
    """ "putting together a talent show": the model reads "together" as an adverb, but right after
    the verb and before its object it is the particle ("puts_together"), else the value reads
    "puts talent show"."""
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    if (
        nxt is not None
        and nxt.lower_ == "together"
        and nxt.head.i == verb.i
        and obj is not None
        and obj.i > nxt.i
    ):
        return "together"
    return None


def _open_name(
    lemma: str, particle: str | None, prep: str | None, *, passive: bool = False, participle: str = ""
) -> str:
    """ "signs_up_for", "paints"; a passive names its participle: "is_blessed_with"."""
    head = ["is", participle] if passive and participle else [third_person(lemma)]
    words = head + [w for w in (particle, prep) if w]
    return "_".join(w.lower() for w in words)


def third_person(lemma: str) -> str:
    """The third-person singular present of a verb lemma: paint → paints, go → goes, try → tries."""
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if lemma in irregular:
        return irregular[lemma]
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if len(lemma) > 1 and lemma.endswith("y") and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ies"
    return lemma + "s"


_QUANTITY_HEADS = frozenset("some lots lot few couple plenty tons loads".split())


def _quantity_of(head: Token) -> bool:
    """ "some of my equipment", "lots of new recipes": a vague quantity as the head of a noun
    phrase (the gates' ``drop_quantity`` says the thing without it, or refuses it)."""
    return head.lower_ in _QUANTITY_HEADS and any(
        p.dep_ == "prep"
        and p.lower_ == "of"
        and any(o.dep_ == "pobj" and o.pos_ in ("NOUN", "PROPN") for o in p.children)
        for p in head.children
    )


def _time_with(head: Token) -> bool:
    """ "(I cherish) time with family", "time with my kids": time said with whom is a thing."""
    return head.lower_ == "time" and any(
        p.dep_ == "prep"
        and p.lower_ == "with"
        and any(o.dep_ == "pobj" and o.pos_ in ("NOUN", "PROPN") for o in p.children)
        for p in head.children
    )


def object_phrase(head: Token, speakers: Speakers) -> str | None:
    """The object's words: ``head``'s subtree, cut before nested clauses, with "my" → speaker's;
    a lone "you" is the other speaker ("I'm so proud of you"), a lone "me" the speaker."""
    if head.lower_ == "you" and speakers.other and not list(head.children):
        return speakers.other
    if head.lower_ == "me" and speakers.speaker != "user" and not list(head.children):
        return speakers.speaker
    if (head.lower_ in _EMPTY_OBJECTS or head.pos_ == "PRON") and not (
        _quantity_of(head) or _time_with(head)
    ):
        return None
    real = _split_compound(head)
    if real is not None:
        rest = object_phrase(real, speakers)
        return tidy(f"{head.text} {rest}") if rest else None
    shared = shared_head(head)
    if shared is not None:
        rest = object_phrase(shared, speakers)
        return tidy(f"{head.text} and {rest}") if rest else None
    words = _cut_clause(head, [t for t in head.subtree])
    while words and (words[0].dep_ in ("det", "predet", "punct", "cc") or words[0].tag_ == "PRP$"):
        if words[0].tag_ == "PRP$" and words[0].lower_ not in ("my", "our"):
            return None
        if words[0].tag_ == "PRP$":
            break
        words = words[1:]
    words = trim(words)
    if not words or len(words) > _MAX_OBJECT_TOKENS or _lost_complement(words) or _headless(words):
        return None
    out: list[str] = []
    texts = [t.text for t in words]
    for i, t in enumerate(words):
        low = t.lower_
        if low in ("my", "our"):
            if group_our(texts, i):
                return None
            if speakers.speaker in ("user", ""):
                if i == 0:
                    continue
                return None
            out.append(f"{speakers.speaker}'s")
        elif low in ("your",) and speakers.other:
            out.append(f"{speakers.other}'s")
        elif low in _PRONOUN_WORDS or low in _THIRD:
            return None
        elif t.dep_ == "det" and t.head.i == head.i and i == 0:
            continue
        elif (
            out
            and i > 0
            and not words[i - 1].whitespace_
            and (t.text[:1].isalnum() and words[i - 1].text[-1:].isalnum())
        ):
            out[-1] += t.text  # "5K" tokenised as 5 + K stays one word
        else:
            out.append(t.text)
    text = tidy(" ".join(out))
    if not text or text.lower() in _EMPTY_OBJECTS:
        return None
    return text
