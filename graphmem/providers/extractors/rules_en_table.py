"""English predicate phrasings: a table of (regex over the clause after its subject, builder).

The first rule whose pattern matches and whose builder finds a usable object wins, so order
matters: verb-specific ends ("moved out of", "left") come first, "I am a/an <job>" after
"I am a fan of", pets before owned things. ``implicit_first_person`` covers subject-less clauses
("my name is X", "my home is in X", "home for me is X", "today was my first day at X",
"they made me X", "my favourite food is X").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.models.extraction import ClaimKind
from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_en_objects import (
    NOT_NAMES,
    PERSON,
    ROLES,
    home_place,
    job_parts,
    leading_name,
    object_for,
    pet_or_thing,
    school,
)
from graphmem.providers.extractors.rules_en_parse import probe_label

_I = re.IGNORECASE


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


# "I love the color", "I'm a fan of this genre", "I love all the yellow leaves": an object that
# points back into the conversation (a demonstrative, or "the" before a common noun) is no lasting
# preference; "I used to love X" is a past one
_ANAPHORIC = re.compile(r"^(?:[Aa]ll\s+)?(?:(?:[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose)\b|[Tt]he\s+(?![A-Z]))")
_USED_TO = re.compile(r"\bused to\s*$", re.IGNORECASE)
_LINGER = re.compile(r"\s+(?:lately|recently|right now|these days|too|as well|even more)\s*$", re.IGNORECASE)


def _preference(predicate: str) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        raw = m.group("obj").strip()
        if _ANAPHORIC.match(raw) or _USED_TO.search(m.string[: m.start()]):
            return []
        obj = object_for("phrase", raw)
        obj = None if obj is None else _LINGER.sub("", obj) or None
        return [] if obj is None else [Claim(predicate, obj)]

    return build


def _lives(m: re.Match[str]) -> list[Claim]:
    place = home_place(m.group("obj"))
    return [] if place is None else [Claim("lives_in", place)]


# "I switched to Python" is not a new employer; the rest of "switched to <Name>" is
_NOT_EMPLOYERS = frozenset(
    "python java javascript typescript rust go golang ruby swift kotlin linux ubuntu windows mac "
    "macos android ios iphone ipad pixel vim emacs excel chrome firefox safari english spanish "
    "french german chinese japanese decaf".split()
)


def _switched(m: re.Match[str]) -> list[Claim]:
    org = leading_name(m.group("obj"))
    if org is None or org.lower() in _NOT_EMPLOYERS:
        return []
    return [Claim("works_at", org)]


_AFTER_RETURN = re.compile(r"^(?:\s*$|\s+(?:as|now|full-time|part-time|after|last|this|in|on)\b)")


def _returned_to_firm(m: re.Match[str]) -> list[Claim]:
    """ "I went back to Globex", "returned to Hooli as a lead": an employer when the recogniser
    does not read the name as a place or a person and only a role, a time or nothing follows it."""
    org = leading_name(m.group("obj"))
    if org is None or org.lower() in _NOT_EMPLOYERS or probe_label(org) not in ("ORG", "PRODUCT", ""):
        return []
    rest = m.group("obj")[m.group("obj").find(org) + len(org) :]
    return [Claim("works_at", org)] if _AFTER_RETURN.match(rest) else []


def _appointed(m: re.Match[str]) -> list[Claim]:
    """For "They made me finance director": a job title when a word of it names a role."""
    parts = job_parts(m.group("obj"), check=False)
    if parts is None or not ROLES.intersection(w.strip(".,") for w in parts[0].split()):
        return []
    claims = [Claim("job_title", parts[0])]
    return claims + ([Claim("works_at", parts[1])] if parts[1] else [])


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
    parts = re.split(r"\s+(?:over|to|rather than|instead of|more than)\s+", m.group("obj"), maxsplit=1)
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
    place = leading_name(m.group("obj"))
    value = f"go to {place}" if place else object_for("phrase", m.group("obj"))
    return [] if value is None else [Claim("plans", value, needs_future=True, keeps_time=True)]


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
# "I've started to dislike X", "I'm beginning to love X", "I've grown to hate X"
_STARTING = (
    r"(?:(?:(?:have|has|am|is|are) )?(?:started|starting|begun|began|beginning|come|coming|grown|"
    r"grew|growing) (?:to )?)?"
)
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
        _lives,
    ),
    (r"(?:have|has) (?:lived|resided) in (?P<obj>.+)", _lives),
    (rf"{_HAVE}(?:moved|relocated)(?: back| over)? (?:to|into) (?P<obj>.+)", _lives),
    (rf"{_BE} based (?:in|out of) (?P<obj>.+)", _lives),
    (rf"{_HAVE}settled(?: down)? in (?P<obj>.+)", _lives),
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
    # a return to a former employer: "I rejoined Globex", "went back to work at Hooli", "I've
    # returned to Initech" (a firm the recogniser reads as one, and nothing after it but a role or
    # a time: "went back to Starbucks for a coffee" and "went back to Leeds" are visits)
    (rf"{_HAVE}rejoined (?P<obj>.+)", _switched),
    (
        rf"{_HAVE}(?:went|gone|came|come|returned|moved) back to (?:work (?:at|for)|my (?:old )?job at) "
        r"(?P<obj>.+)",
        _switched,
    ),
    (rf"{_HAVE}(?:went back|gone back|returned) to (?P<obj>.+)", _returned_to_firm),
    (
        rf"{_HAVE}started (?:a |an |my |the )?(?:new )?(?:job|position|role|work|working|"
        r"internship) (?:at|with|for) (?P<obj>.+)",
        _simple("works_at", "place"),
    ),
    (rf"{_HAVE}started at (?P<obj>.+)", _simple("works_at", "name")),
    (
        rf"{_HAVE}(?:switched|jumped ship|changed jobs|moved jobs)(?: jobs| companies| employers)? "
        r"(?:over )?to (?P<obj>.+)",
        _switched,
    ),
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
        _preference("likes"),
    ),
    (
        # "I'm mostly into X", "I've always been into X" (a perfect liking holds now)
        rf"(?:{_BE} (?:(?:really|so|mostly|totally|super|very|pretty|always|big|huge|still) )*"
        r"(?:into|passionate about|obsessed with|crazy about|fond of)|(?:have|has) (?:always |long )?been "
        r"(?:(?:really|so|mostly|totally|super|very|pretty|big|huge) )*into) (?P<obj>.+)",
        _preference("likes"),
    ),
    (
        rf"{_STARTING}(?:(?:have|has) (?:liked|loved|enjoyed)|like|likes|liking|love|loves|loving|"
        r"enjoy|enjoys|enjoying|adore|adores) (?P<obj>.+)",
        _preference("likes"),
    ),
    (
        rf"{_STARTING}(?:hate|hates|hating|dislike|dislikes|disliking|detest|detests|loathe|"
        r"loathes|cannot stand|can not stand) (?P<obj>.+)",
        _preference("dislikes"),
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
        (r"^(?:my|our) (?:home|house|apartment|flat|place) is (?:now )?in (?P<obj>.+)", _lives),
        (
            r"^(?:(?:my|our) new home|home(?: for (?:me|us)| to (?:me|us))?) (?:is|has become) "
            r"(?:now )?(?:in )?(?P<obj>(?-i:[A-Z]).*)",
            _simple("lives_in", "name"),
        ),
        (
            r"^(?:(?:it|this|that|today|tomorrow|yesterday) )?(?:(?:i|we) )?(?:is |was |will be |"
            r"am |have |has )?(?:just )?(?:(?:started|starting|finished|finishing|had|having|"
            r"survived|completed|began|begun) )?my (?:(?P<first>first)|last) (?:day|week|month|shift|"
            r"days|weeks) (?:of work |on the job )?(?:at|with) (?P<obj>.+)",
            lambda m: _simple("works_at", "name", "assert" if m["first"] else "end")(m),
        ),
        (
            r"^(?:they|the company|the board|management|my (?:boss|manager|company|team)|he|she) "
            r"(?:have |has )?(?:just |finally |officially )?(?:made|named|appointed|promoted) me "
            r"(?:to |as )?(?:the |an? |their |our |its |his |her )?(?:new )?(?P<obj>.+)",
            _appointed,
        ),
        (
            r"^my (?:new )?(?:job|office|workplace) is (?:at|with) (?P<obj>.+)",
            _simple("works_at", "place"),
        ),
        (
            r"^my (?:job title|job|role|position|title) is (?:now |currently )?(?:an? )?(?P<obj>.+)",
            _job(False),
        ),
        (r"^my favou?rite (?P<topic>\w+(?: \w+)?) is (?P<obj>.+)", _favourite),
    )
)


def implicit_first_person(clause: str) -> list[Claim]:
    for rule in _IMPLICIT:
        m = rule.pattern.match(clause)
        if m is not None:
            return rule.build(m)
    return []


def match_rules(rest: str) -> list[Claim]:
    for rule in _RULES:
        m = rule.pattern.match(rest)
        if m is not None:
            claims = rule.build(m)
            if claims:
                return claims
    return []
