"""English phrasings for the rules extractor: one sentence in, claims out.

``parse_en(sentence)`` expects time phrases already removed (``rules.py`` does that). It skips
questions, hypotheticals and second-person statements, notes hedges ("I think", "maybe") and
corrections (", not Y"), splits the sentence into clauses ("I live in Paris and work at Acme"),
finds each clause's subject ("I", "we", "Alice", "my sister Emma") and matches the predicate
phrasings in ``_RULES`` against the rest. Objects are cut by ``rules_en_objects``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.models.extraction import ClaimKind
from graphmem.providers.extractors.rules_base import SPEAKER, Claim, ParsedSentence
from graphmem.providers.extractors.rules_en_objects import (
    NOT_NAMES,
    PERSON,
    REL,
    clean_place,
    job_parts,
    leading_name,
    object_for,
    pet_or_thing,
    school,
)

_I = re.IGNORECASE

# --------------------------------------------------------------------------- sentence level

_CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _I), repl)
    for pattern, repl in (
        (r"\bcan't\b", "cannot"),
        (r"\bwon't\b", "will not"),
        (r"\b(\w+)n't\b", r"\1 not"),
        (r"\b(i)'m\b", r"\1 am"),
        (r"'re\b", " are"),
        (r"'ve\b", " have"),
        (r"'ll\b", " will"),
        (r"\b(i|we|you|he|she|they)'d\b", r"\1 would"),
        (r"\b(he|she|it|that|there|what|who)'s\b", r"\1 is"),
        (r"\bgonna\b", "going to"),
    )
)
_QUESTION = re.compile(
    r"^(?:(?:where|what|who|whom|whose|why|how|which)\b|(?:do|does|did|are|is|am|was|were|can|"
    r"could|would|should|will|have|has|shall)\s+(?:you|i|we|he|she|they|it|there|your|my)\b)",
    _I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|wish|would|could|should|whether|pretend|dream of)\b",
    _I,
)
_HEDGE = re.compile(
    r"\b(?:i (?:think|believe|guess|suppose|heard|reckon|assume|feel like)(?: that)?|maybe|"
    r"probably|perhaps|possibly|apparently|likely|supposedly|(?-i:might|may))\b,?\s*",
    _I,
)
_FILLER_START = re.compile(
    r"^(?:[\s,;:!.\-]+|(?:so|well|oh|ok|okay|yeah|yes|yep|no|anyway|anyways|also|and|but|then|btw|"
    r"by the way|guess what|honestly|fun fact|hey|hi|hello|lol|um|uh|actually|sorry|oops|wait|"
    r"now|currently|these days|recently|lately|right now|nowadays|fyi|just so you know|as i said|"
    r"like i said|as you know|in fact|great news|good news|news|i mean)\b[,!:.]?\s*)+",
    _I,
)
_CORRECTION_MARK = re.compile(
    r"^(?:[\s,]*(?:actually|sorry|oops|wait|no|my bad|my mistake|correction|"
    r"to be clear|let me correct (?:that|myself))\b[,:!.]?)+\s*",
    _I,
)
_EXPLICIT = re.compile(r"\b(?:correction|my bad|my mistake|let me correct)\b", _I)
_MEANT = re.compile(r"^i meant(?: to say)?(?: that)?,?\s+(?P<rest>.+)$", _I)
_NOT_TAIL = re.compile(r",\s*(?:and )?not\s+(?P<wrong>[^,;]+?)[\s,.!]*$", _I)
_ANYMORE = re.compile(r",?\s*\b(?:any ?more|no more)\b", _I)
_CLAUSE_SPLIT = re.compile(
    r"\s*;\s*|,\s+(?=(?:I|i|we|We|my|My)\s)|,?\s+(?:and|but|so|because|while|although|though|"
    r"whereas|plus)\s+(?=(?:then |also |now |recently |just |currently |finally )?(?:I|i|we|We|"
    r"my|My|he|she|they|[A-Z][a-z]+ (?:is|lives|works|moved|has|joined|likes|loves|studies|got|"
    r"started|left|quit)|live|living|work|working|moved|relocated|joined|started|got|study|"
    r"studying|like|love|hate|enjoy|prefer|have|bought|own|adopted|plan|planning|left|quit|am)\b)"
)
_MY_REL = re.compile(rf"\b[Mm]y (?P<rel>{REL}),? (?P<name>{PERSON})")


def _normalise(sentence: str) -> str:
    text = sentence.replace("\u2019", "'").replace("\u2018", "'")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return re.sub(r"\s+", " ", text).strip().rstrip(".!?").strip()


def parse_en(sentence: str) -> ParsedSentence:
    """Claims made by one English sentence (time phrases already removed)."""
    text = _normalise(sentence)
    if not text or sentence.rstrip().endswith("?"):
        return ParsedSentence()
    if _QUESTION.match(_FILLER_START.sub("", text)) or _HYPOTHETICAL.search(text):
        return ParsedSentence()
    parsed = ParsedSentence()
    text, hedges = _HEDGE.subn("", text)
    parsed.hedged = hedges > 0
    mark = _CORRECTION_MARK.match(text)
    if mark is not None:
        parsed.correction = bool(_EXPLICIT.search(mark.group(0)))
        text = text[mark.end() :]
    tail = _NOT_TAIL.search(text)
    if tail is not None:
        parsed.replaces = clean_place(tail.group("wrong"), strip_preposition=True)
        parsed.correction = parsed.replaces is not None or parsed.correction
        text = text[: tail.start()]
    meant = _MEANT.match(text.strip())
    if meant is not None:
        parsed.correction = True
        text = meant.group("rest")
    parsed.claims = _parse_clauses(text)
    if meant is not None and not parsed.claims:
        obj = clean_place(text)
        if obj is not None:
            parsed.claims = [Claim(predicate="", obj=obj, from_context=True)]
    parsed.claims.extend(_knows(text))
    return parsed


def _knows(text: str) -> list[Claim]:
    claims = []
    for m in _MY_REL.finditer(text):
        if m.group("name").split()[0] not in NOT_NAMES:
            rel = m.group("rel").split()[-1].lower()
            claims.append(Claim("knows", m.group("name"), qualifier=rel, object_kind="person"))
    return claims


# --------------------------------------------------------------------------- clause level

_SUBJECT = re.compile(
    rf"^(?:(?P<first>I|i)|(?P<we>[Ww]e)|(?:[Mm]y|[Oo]ur) (?P<rel>{REL}),? (?P<relname>{PERSON})|"
    rf"(?P<other>[Yy]ou|[Hh]e|[Ss]he|[Tt]hey|[Ii]t|[Tt]his|[Tt]hat|[Tt]here|[Yy]our|[Hh]is|[Hh]er|"
    rf"[Tt]heir|[Ii]ts|[Mm]y|[Oo]ur)|(?P<name>(?P<title>(?:Mr|Mrs|Ms|Dr|Prof)\.? )?{PERSON}))\s+(?P<rest>.*)$"
)
_ADV = (
    r"(?:(?:just|recently|finally|now|currently|still|also|already|really|officially|"
    r"eventually|happily|actually|newly|only|even|totally|absolutely|truly|definitely|always|"
    r"kind of|sort of|pretty much|both|all)\s+)*"
)
_AUX_ADV = re.compile(rf"^{_ADV}((?:am|is|are|was|were|have|has|had)(?: been)?\s+)?{_ADV}", _I)
_NEG = re.compile(
    r"^(?P<aux>(?:am|is|are|do|does|have|has)\s+)?(?P<neg>no longer|not|never)\s+", _I
)
_STOPPED = re.compile(r"^(?:have |has )?stopped\s+", _I)
_WE_OK = frozenset({"lives_in", "relationship_status", "located_at", "has_pet", "owns", "plans"})

# Subject kinds: "first" (speaker), "we" (speaker, household predicates only), "name".
_Subject = tuple[str, str | None]


def _parse_clauses(text: str) -> list[Claim]:
    claims: list[Claim] = []
    subject: _Subject | None = None
    for clause in _CLAUSE_SPLIT.split(text):
        clause = _FILLER_START.sub("", clause).strip()
        if not clause:
            continue
        implicit = _implicit_first_person(clause)
        if implicit:
            claims.extend(implicit)
            subject = ("first", SPEAKER)
            continue
        found = _subject(clause)
        if found is not None:
            subject, rest = found
        elif subject is not None:
            rest = clause
        else:
            continue
        if subject[0] == "other":
            continue
        for claim in _parse_predicate(_AUX_ADV.sub(lambda m: m.group(1) or "", rest)):
            if subject[0] == "we" and claim.predicate not in _WE_OK:
                continue
            if subject[0] == "name" and claim.predicate == "name":
                continue
            claim.subject = subject[1]
            claims.append(claim)
    return claims


def _subject(clause: str) -> tuple[_Subject, str] | None:
    m = _SUBJECT.match(clause)
    if m is None:
        return None
    if m.group("first"):
        return ("first", SPEAKER), m.group("rest")
    if m.group("we"):
        return ("we", SPEAKER), m.group("rest")
    if m.group("other"):
        return ("other", None), m.group("rest")
    name = m.group("relname") or m.group("name")
    if name.split()[0] in NOT_NAMES and not m.group("title"):
        return None
    return ("name", name), m.group("rest")


def _parse_predicate(rest: str) -> list[Claim]:
    """Negation first ("no longer", "not ... anymore", "stopped"), then the phrasing rules."""
    kind: ClaimKind = "assert"
    negated = False
    stopped = _STOPPED.match(rest)
    neg = _NEG.match(rest)
    if stopped is not None:
        kind, rest = "end", rest[stopped.end() :]
    elif neg is not None:
        aux = neg.group("aux") or ""
        keep = "" if aux.strip().lower() in ("do", "does") else aux
        if neg.group("neg").lower() == "never":
            return []
        if neg.group("neg").lower() == "no longer" or _ANYMORE.search(rest):
            kind = "end"
        else:
            negated = True
        rest = _ANYMORE.sub("", keep + rest[neg.end() :])
    claims = _match_rules(rest)
    if negated:
        return [_negate(c) for c in claims if c.predicate == "likes"]
    if kind == "end":
        for claim in claims:
            claim.kind = "end" if claim.kind == "assert" else claim.kind
    return claims


def _negate(claim: Claim) -> Claim:
    claim.predicate = "dislikes"
    return claim


# --------------------------------------------------------------------------- phrasing rules

Build = Callable[[re.Match[str]], list[Claim]]


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    build: Build


def _simple(predicate: str, mode: str, kind: ClaimKind = "assert") -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        obj = object_for(mode, m.group("obj"))
        return [] if obj is None else [Claim(predicate, obj, kind=kind)]

    return build


def _job(check: bool) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        parts = job_parts(m.group("obj"), check=check)
        if parts is None:
            return []
        title, org = parts
        claims = [Claim("job_title", title)]
        if org is not None:
            claims.append(Claim("studies_at" if title.endswith("student") else "works_at", org))
        return claims

    return build


def _relationship(m: re.Match[str]) -> list[Claim]:
    status = (m.group("status") or "single").lower()
    claims = [Claim("relationship_status", status)]
    partner = m.groupdict().get("partner")
    if partner and status == "married" and partner.split()[0] not in NOT_NAMES:
        claims.append(Claim("married_to", partner, object_kind="person"))
    return claims


def _prefers(m: re.Match[str]) -> list[Claim]:
    parts = re.split(
        r"\s+(?:over|to|rather than|instead of|more than)\s+", m.group("obj"), maxsplit=1
    )
    choice = object_for("phrase", re.sub(r"^to\s+", "", parts[0], flags=_I))
    if choice is None:
        return []
    other = object_for("phrase", parts[1]) if len(parts) > 1 else None
    qualifier = " vs ".join(sorted((choice.lower(), other.lower()))) if other else ""
    return [Claim("prefers", choice, qualifier=qualifier)]


def _has(verb_owns: bool) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        found = pet_or_thing(m.group("obj"), owns_verb=verb_owns)
        return [] if found is None else [Claim(found[0], found[1])]

    return build


def _going(m: re.Match[str]) -> list[Claim]:
    obj = object_for("phrase", m.group("obj"))
    if obj is None:
        return []
    value = f"go to {obj}" if obj[:1].isupper() else obj
    return [Claim("plans", value, needs_future=True, keeps_time=True)]


def _plan(prefix: str) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        obj = object_for("phrase", m.group("obj"))
        return [] if obj is None else [Claim("plans", prefix + obj, keeps_time=True)]

    return build


def _first_person_name(m: re.Match[str]) -> list[Claim]:
    name = leading_name(m.group("obj"), allow_lower=True)
    return [] if name is None else [Claim("name", name)]


def _favourite(m: re.Match[str]) -> list[Claim]:
    obj = object_for("phrase", m.group("obj"))
    topic = m.group("topic").lower()
    return [] if obj is None else [Claim("prefers", obj, qualifier=topic)]


def _located_here(m: re.Match[str]) -> list[Claim]:
    name = leading_name(m.group("obj"))
    if name is None:
        return []
    tail = m.group("obj")[len(name) :].strip(" ,").lower()
    if tail and not re.match(r"(?:for|on|until|till|to|with|at|visiting)\b", tail):
        return []
    return [Claim("located_at", name)]


_HAVE = r"(?:have |has )?"
_BE = r"(?:am|is|are)"
_RULE_TABLE: tuple[tuple[str, Build], ...] = (
    # ends expressed by the verb itself
    (rf"{_HAVE}moved (?:out of|away from) (?P<obj>.+)", _simple("lives_in", "place", "end")),
    (
        rf"{_HAVE}(?:left|quit|resigned from|retired from|(?:was|were|got|have been|has been) "
        r"(?:laid off|fired|let go) (?:from|by))\s+(?:(?:my|his|her|their|the|a) )?"
        r"(?:(?:job|position|role|work) (?:at|with|in) )?(?P<obj>.+)",
        _simple("works_at", "name", "end"),
    ),
    (
        rf"{_HAVE}(?:graduated|dropped out) (?:from|of) (?P<obj>.+)",
        _simple("studies_at", "name", "end"),
    ),
    (
        rf"(?:{_BE} |got |came |have come |flew )?(?:back|returned) (?:home )?from (?P<obj>.+)",
        _simple("located_at", "name", "end"),
    ),
    (rf"{_HAVE}sold (?:my|our|his|her|their|the) (?P<obj>.+)", _simple("owns", "phrase", "end")),
    # lives_in
    (
        rf"(?:{_BE} |have been |has been )?(?:living|live|lives|reside|resides|residing) in "
        r"(?P<obj>.+)",
        _simple("lives_in", "place"),
    ),
    (r"(?:have|has) (?:lived|resided) in (?P<obj>.+)", _simple("lives_in", "place")),
    (
        rf"{_HAVE}(?:moved|relocated)(?: back| over)? (?:to|into) (?P<obj>.+)",
        _simple("lives_in", "place"),
    ),
    (rf"{_BE} based (?:in|out of) (?P<obj>.+)", _simple("lives_in", "place")),
    (rf"{_HAVE}settled(?: down)? in (?P<obj>.+)", _simple("lives_in", "place")),
    # works_at / job_title
    (
        rf"(?:{_BE} |have been |has been )?(?:working|work|works) as (?:an? )?(?P<obj>.+)",
        _job(False),
    ),
    (
        rf"(?:{_BE} |have been |has been )?(?:working|work|works) (?:at|for) (?P<obj>.+)",
        _simple("works_at", "place"),
    ),
    (r"(?:have|has) worked (?:at|for) (?P<obj>.+)", _simple("works_at", "place")),
    (rf"{_HAVE}joined (?P<obj>.+)", _simple("works_at", "name")),
    (
        rf"{_HAVE}started (?:a |an |my |the )?(?:new )?(?:job|position|role|work|working|"
        r"internship) (?:at|with|for) (?P<obj>.+)",
        _simple("works_at", "place"),
    ),
    (rf"{_HAVE}started at (?P<obj>.+)", _simple("works_at", "name")),
    (
        rf"{_HAVE}(?:got|landed|accepted|took|have|has) (?:a |an |the )?(?:new )?(?:job|position|"
        r"role|offer|internship)(?: offer)? (?:at|with|from) (?P<obj>.+)",
        _simple("works_at", "place"),
    ),
    (
        rf"(?:{_BE}|got|was|were) (?:employed|hired) (?:by|at) (?P<obj>.+)",
        _simple("works_at", "place"),
    ),
    (
        rf"(?:{_HAVE}got |was |were |have been |has been )?promoted to (?:an? |the )?(?P<obj>.+)",
        _job(False),
    ),
    # studies_at
    (
        rf"(?:{_BE} )?(?:studying|study|studies)(?: [a-z]+){{0,3}}? at (?P<obj>.+)",
        _simple("studies_at", "place"),
    ),
    (rf"{_HAVE}enrolled (?:at|in) (?P<obj>.+)", _simple("studies_at", "name")),
    (
        rf"(?:go|goes|{_BE} going|attend|attends|{_BE} attending) (?:to )?(?P<obj>.+)",
        lambda m: [] if (s := school(m.group("obj"))) is None else [Claim("studies_at", s)],
    ),
    # relationship_status
    (
        rf"{_BE} (?P<status>single|married|engaged|divorced|widowed|separated)\b(?: to "
        rf"(?P<partner>{PERSON}))?",
        _relationship,
    ),
    (
        rf"{_HAVE}(?:got|gotten) (?P<status>married|engaged|divorced|separated)\b(?: to "
        rf"(?P<partner>{PERSON}))?",
        _relationship,
    ),
    (rf"{_HAVE}married (?P<partner>{PERSON})(?P<status>)", lambda m: _relationship_married(m)),
    (rf"{_BE} in a relationship\b", lambda m: [Claim("relationship_status", "in a relationship")]),
    (rf"{_HAVE}(?:broke|broken|split) up\b(?P<status>)", _relationship),
    # located_at (temporary)
    (
        rf"{_BE} (?:on|taking) (?:an? |my |our )?(?:\w+ )?(?:trip|vacation|holiday|getaway|tour) "
        r"(?:to|in|around|through) (?P<obj>.+)",
        _simple("located_at", "place"),
    ),
    (
        rf"{_BE} (?:traveling|travelling|touring|backpacking|vacationing|holidaying) "
        r"(?:in|through|around|across|to) (?P<obj>.+)",
        _simple("located_at", "place"),
    ),
    (rf"{_BE} (?:visiting|staying (?:in|at)) (?P<obj>.+)", _simple("located_at", "name")),
    (rf"{_BE} (?:in|at) (?P<obj>.+)", _located_here),
    # likes / dislikes / prefers
    (
        rf"{_BE} (?:an? )?(?:big |huge |great |massive |die-hard |long-time )?fans? of (?P<obj>.+)",
        _simple("likes", "phrase"),
    ),
    (
        rf"{_BE} (?:really |so )?(?:into|passionate about|obsessed with|crazy about|fond of) "
        r"(?P<obj>.+)",
        _simple("likes", "phrase"),
    ),
    (
        r"(?:(?:have|has) (?:liked|loved|enjoyed)|like|likes|liking|love|loves|loving|enjoy|enjoys|"
        r"enjoying|adore|adores) (?P<obj>.+)",
        _simple("likes", "phrase"),
    ),
    (
        r"(?:hate|hates|dislike|dislikes|detest|detests|loathe|loathes|cannot stand|can not stand) "
        r"(?P<obj>.+)",
        _simple("dislikes", "phrase"),
    ),
    (r"(?:prefer|prefers) (?P<obj>.+)", _prefers),
    # plans
    (
        rf"(?:{_BE} )?(?:planning|plan|plans|intend|intends|intending|(?:have |has )?decided) "
        r"(?:to|on) (?P<obj>.+)",
        _plan(""),
    ),
    (rf"{_BE} moving to (?P<obj>.+)", _plan("move to ")),
    (rf"{_BE} going to (?P<obj>.+)", _going),
    # job_title by "I am a ..." (after "fan of", so fans are not jobs)
    (rf"(?:{_BE}|became|(?:have|has) become) (?:an?) (?P<obj>.+)", _job(True)),
    # has_pet / owns
    (r"(?:own|owns|bought|purchased) (?P<obj>.+)", _has(True)),
    (r"(?:have|has|got|have got|adopted|rescued|gotten) (?P<obj>.+)", _has(False)),
    # name (first person only; dropped for named subjects)
    (rf"(?:{_BE} (?:called|named)|go by) (?P<obj>.+)", _first_person_name),
    (rf"am (?P<obj>{PERSON})$", _first_person_name),
)


def _relationship_married(m: re.Match[str]) -> list[Claim]:
    partner = m.group("partner")
    if partner.split()[0] in NOT_NAMES:
        return []
    return [
        Claim("relationship_status", "married"),
        Claim("married_to", partner, object_kind="person"),
    ]


_RULES = tuple(_Rule(re.compile(p, _I), build) for p, build in _RULE_TABLE)

_IMPLICIT: tuple[_Rule, ...] = tuple(
    _Rule(re.compile(p, _I), build)
    for p, build in (
        (r"^my name is (?P<obj>.+)", _first_person_name),
        (r"^(?:please |you can )?call me (?P<obj>.+)", _first_person_name),
        (
            r"^(?:my|our) (?:home|house|apartment|flat|place) is (?:now )?in (?P<obj>.+)",
            _simple("lives_in", "place"),
        ),
        (
            r"^my (?:new )?(?:job|office|workplace) is (?:at|with) (?P<obj>.+)",
            _simple("works_at", "place"),
        ),
        (r"^my (?:job title|job|role|position|title) is (?:an? )?(?P<obj>.+)", _job(False)),
        (r"^my favou?rite (?P<topic>\w+(?: \w+)?) is (?P<obj>.+)", _favourite),
    )
)


def _implicit_first_person(clause: str) -> list[Claim]:
    for rule in _IMPLICIT:
        m = rule.pattern.match(clause)
        if m is not None:
            return rule.build(m)
    return []


def _match_rules(rest: str) -> list[Claim]:
    for rule in _RULES:
        m = rule.pattern.match(rest)
        if m is not None:
            claims = rule.build(m)
            if claims:
                return claims
    return []
