"""English phrasings for the rules extractor: one sentence in, claims out.

``parse_en(sentence)`` expects time phrases already removed (``rules.py`` does that). It skips
questions, hypotheticals and second-person statements, notes hedges ("I think", "maybe") and
corrections (", not Y"), drops a short heading ("Big news:", "Update:"), splits the sentence into
clauses ("I live in Paris and work at Acme"), drops leading adverbs ("Finally", "Frankly"), finds
each clause's subject ("I", "we", "Alice", "my sister Emma"; none in "Moved to Berlin!" or
"Currently on vacation in Nairobi", which are the speaker's) and matches the predicate phrasings
in ``rules_en_table`` against the rest. Objects are cut by ``rules_en_objects``.
"""

from __future__ import annotations

import re

from graphmem.models.extraction import ClaimKind
from graphmem.providers.extractors.rules_base import SPEAKER, Claim, ParsedSentence
from graphmem.providers.extractors.rules_en_objects import (
    JOBS,
    NOT_NAMES,
    PERSON,
    REL,
    clean_place,
    is_adverb,
)
from graphmem.providers.extractors.rules_en_table import implicit_first_person, match_rules

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
        (
            r"\b(i|we|you|he|she|they)'d(?= (?:been|had|gone|done|lived|worked|moved|left|got|just|already|never)\b)",
            r"\1 had",
        ),
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
    r"to be clear|(?:let me |just )?(?:to )?correct(?:ing)? (?:that|myself|what i said)|"
    r"i got (?:that|it) wrong|i was wrong|i misspoke|"
    r"scratch that|that was wrong|that's wrong|that is wrong)\b"
    r"(?:\s+(?:earlier|before|there|again|about that|a moment ago))?[,:!.\-]?)+\s*",
    _I,
)
# "Big news: ...", "Quick update - ...": at most three words before a colon or dash
_HEADING = re.compile(r"^(?P<head>(?:[A-Za-z']+ ){0,2}[A-Za-z']+)\s*(?::|\s[-\u2013\u2014])\s+(?=\S)")
_EXPLICIT = re.compile(
    r"\b(?:correction|my bad|my mistake|let me correct|correct(?:ing)? (?:that|myself|what i said)|"
    r"i got (?:that|it) wrong|i was wrong|i misspoke|"
    r"scratch that|that was wrong|that's wrong|that is wrong)\b",
    _I,
)
_MEANT = re.compile(r"^i meant(?: to say)?(?: that)?,?\s+(?P<rest>.+)$", _I)
# "I said Initech earlier, but I meant Globex": the wrong value, then the meant one
_SAID_MEANT = re.compile(
    r"^i (?:said|told you|wrote|mentioned) (?P<wrong>.+?)(?:\s+(?:earlier|before))?,?\s+but\s+(?:i\s+)?"
    r"meant(?: to say)?(?: that)?,?\s+(?P<rest>.+)$",
    _I,
)
# a sentence that opens by taking back what was just said: "Actually, no, ...", "Oops, ...", "Wait, no, ..."
_REPAIR_MARK = re.compile(
    r"\b(?:oops|whoops|no,? wait|wait,? no|actually,? no|no,? actually|sorry,? no)\b", _I
)
# "When I said Initech, I meant Globex"
_WHEN_SAID = re.compile(
    r"^when i (?:said|told you|wrote|mentioned) (?P<wrong>.+?),?\s+(?:i\s+)?meant(?: to say)?(?: that)?,?\s+"
    r"(?P<rest>.+)$",
    _I,
)
# "I said Osaka earlier, but I actually live in Seattle": the wrong value, then the right clause
_SAID_BUT = re.compile(
    r"^(?:(?:earlier|before|yesterday),?\s+)?i (?:said|told you|wrote|mentioned) (?P<wrong>[^,]+?)(?:\s+(?:earlier|before|yesterday))?(?:,?\s+but\s+|,\s+(?=(?:it|that)\b))"
    r"(?P<rest>(?:i|we|it|that)\b.+)$",
    _I,
)
# "Scratch what I said before, ...", "Ignore what I said about Leeds; ...", "Forget that: ..."
_DISOWN = re.compile(
    r"^(?:(?:please|just|oh)\s+)?(?:(?:scratch|ignore|forget|disregard|strike)\s+(?:that|what i (?:said|told you|"
    r"wrote|mentioned)(?:\s+(?:earlier|before|last time))?(?:\s+about\s+(?P<about>[^,;:.]+?))?)|"
    r"i (?:mixed|got) (?:things|them|those|it|that|the names|my words) (?:up|wrong|mixed up))"
    r"\s*(?:[,;:.!\u2014\u2013]+|\s-+)\s*",
    _I,
)
# "...; I misspoke earlier", "..., my mistake": the correction said after the right value
_EXPLICIT_TAIL = re.compile(
    r"\s*(?:[,;:\u2014\u2013]|\s-+)\s*(?:sorry,?\s*)?(?:i misspoke|i got (?:that|it) wrong|my (?:mistake|bad)|"
    r"i was wrong|i mixed (?:them|those|that) up)(?:\s+(?:earlier|before|there))?\s*$",
    _I,
)
# after a correction marker, "it is X" / "that is X" names the right value ("I misspoke, it's X")
_IT_IS = re.compile(r"^(?:it|that)(?: is| was)\s+(?:(?:actually|really)\s+)?(?P<rest>.+)$", _I)
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


_OFFER_ONLY = re.compile(
    r"\b(?:got|get|have|has|had|received|receive|getting|having)\s+(?:an?\s+|the\s+)?(?:new\s+|job\s+)*offer\b",
    _I,
)
_OFFER_TAKEN = re.compile(r"\b(?:accepted|accept|took|take|taken|signed|said yes|jumped at)\b", _I)
_OH_BEFORE_MARK = re.compile(
    r"^(?:oh|ah|um|uh|hmm)[,!]?\s+(?=(?:wait|sorry|no|actually|oops|whoops|my mistake|my bad|correction)\b)",
    _I,
)
_HEDGED_SAYING = re.compile(
    r"^(?:i (?:think|believe|guess)|maybe|probably),?\s+i (?:said|told you|wrote|mentioned)\b", _I
)
_NOW_BEFORE = re.compile(r"\b(?:now|these days|nowadays)\b", re.IGNORECASE)


def parse_en(sentence: str) -> ParsedSentence:
    """Claims made by one English sentence (time phrases already removed)."""
    text = _normalise(sentence)
    if not text or sentence.rstrip().endswith("?"):
        return ParsedSentence()
    if _QUESTION.match(_FILLER_START.sub("", text)) or _HYPOTHETICAL.search(text):
        return ParsedSentence()
    parsed = ParsedSentence()
    said = _HEDGED_SAYING.match(text)  # "I think I said Leeds earlier, it's Bristol": unsure of the saying
    text, hedges = _HEDGE.subn("", text)
    parsed.hedged = hedges > (1 if said is not None else 0)
    heading = _HEADING.match(text)
    if heading is not None:
        parsed.correction = bool(_EXPLICIT.search(heading.group("head")))
        text = text[heading.end() :]
    explicit_tail = _EXPLICIT_TAIL.search(text)
    if explicit_tail is not None and explicit_tail.start() > 0:
        parsed.correction = True
        text = text[: explicit_tail.start()]
    disown = _DISOWN.match(text)
    if disown is not None:
        parsed.correction = True
        if disown.group("about"):
            parsed.replaces = clean_place(disown.group("about"), strip_preposition=True)
        text = text[disown.end() :]
    text = _OH_BEFORE_MARK.sub("", text)  # "Oh wait, it's Bristol, not Seattle"
    mark = _CORRECTION_MARK.match(text)
    if mark is not None:
        parsed.correction = (
            parsed.correction
            or bool(_EXPLICIT.search(mark.group(0)))
            or bool(_REPAIR_MARK.search(mark.group(0)))
        )
        text = text[mark.end() :]
    tail = _NOT_TAIL.search(text)
    previous: str | None = None  # "I live in Denver now, not Nairobi anymore": a change, not a repair
    if tail is not None and (
        _ANYMORE.search(tail.group("wrong"))
        or (_NOW_BEFORE.search(text[: tail.start()]) and not parsed.correction)
    ):
        # "..., not Nairobi anymore", and "I live in Denver now, not Nairobi": "now" sets the
        # new value against the old one (a correction is "I live in Denver, not Nairobi")
        previous = clean_place(_ANYMORE.sub("", tail.group("wrong")), strip_preposition=True)
        text = text[: tail.start()]
    elif tail is not None:
        parsed.replaces = clean_place(tail.group("wrong"), strip_preposition=True)
        parsed.correction = parsed.replaces is not None or parsed.correction
        text = text[: tail.start()]
    said = _SAID_MEANT.match(text.strip()) or _WHEN_SAID.match(text.strip())
    but = None if said is not None else _SAID_BUT.match(text.strip())
    if but is not None:  # "I said Osaka earlier, but I actually live in Seattle"
        parsed.replaces = parsed.replaces or clean_place(but.group("wrong"), strip_preposition=True)
        parsed.correction = True
        text = re.sub(r"\b(?:actually|really)\s+", "", but.group("rest"), flags=_I)
        if (it_is := _IT_IS.match(text)) is not None:  # "..., but it's actually Toronto"
            text = "I meant " + it_is.group("rest")
    if said is not None:
        parsed.replaces = parsed.replaces or clean_place(said.group("wrong"), strip_preposition=True)
        text = "I meant " + said.group("rest")
    meant = _MEANT.match(text.strip())
    if meant is None and parsed.correction:
        meant = _IT_IS.match(text.strip())
    if meant is not None:
        parsed.correction = True
        text = meant.group("rest")
    parsed.claims = _parse_clauses(text)
    if _OFFER_ONLY.search(text) and not _OFFER_TAKEN.search(text):
        # "I got an offer from Globex (, still deciding)": an offer had is no job yet
        parsed.claims = [c for c in parsed.claims if not (c.predicate == "works_at" and c.kind == "assert")]
    if parsed.correction and parsed.replaces:
        _slot_of_being_at(parsed.claims, text)
    if (meant is not None or parsed.correction) and not parsed.claims:  # "My mistake, Bristol, not Seattle"
        obj = clean_place(text)
        if obj is not None:  # the predicate is the earlier fact's; a job word guesses job_title
            guess = "job_title" if obj.lower().split()[-1] in JOBS else ""
            claim = Claim(predicate=guess, obj=obj, from_context=True)
            if guess and parsed.replaces:  # "Sorry, I meant architect, not nurse"
                claim.kind, claim.replaces = "correct", parsed.replaces
            parsed.claims = [claim]
    parsed.claims.extend(_knows(text))
    if previous is not None:
        _before(parsed.claims, previous)
    return parsed


def _slot_of_being_at(claims: list[Claim], text: str) -> None:
    """ "Correction: I'm in Bristol, not Seattle" / "I'm at Globex, not Umbrella" / "To be clear,
    Sam is in Bristol, not Seattle" (a named person's, as the speaker's): a correction
    naming its mistake said with a bare "be in / at" corrects a home or an employer, not a visit:
    the slot is the earlier fact's about the mistake (else guessed, ``rules._from_context``). A
    stay with a purpose after the name ("in Bristol for a conference, not Seattle") stays one."""
    for claim in claims:
        if (
            claim.predicate == "located_at"
            and claim.kind == "assert"
            and text.rstrip(" .!").endswith(claim.obj)
        ):
            claim.predicate, claim.from_context = "", True


def _before(claims: list[Claim], previous: str) -> None:
    """The value a "not Y anymore" tail names held before the clause's new value."""
    new = next((c for c in reversed(claims) if c.kind == "assert" and c.predicate in _CHANGEABLE), None)
    if new is not None and new.obj.casefold() != previous.casefold():
        claims.insert(
            0, Claim(new.predicate, previous, subject=new.subject, object_kind=new.object_kind, before=True)
        )


_CHANGEABLE = frozenset({"lives_in", "works_at", "job_title", "studies_at"})


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
    rf"[Tt]heir|[Ii]ts|[Mm]y|[Oo]ur)|(?P<name>(?P<title>(?:Mr|Mrs|Ms|Dr|Prof)\.? )?{PERSON}))"
    r"\s+(?P<rest>.*)$"
)
_ADV = (
    r"(?:(?:just|recently|finally|now|currently|still|also|already|really|officially|"
    r"eventually|happily|actually|newly|only|even|totally|absolutely|truly|definitely|always|"
    r"kind of|sort of|pretty much|both|all)\s+)*"
)
_AUX_ADV = re.compile(rf"^{_ADV}((?:am|is|are|was|were|have|has|had)(?: been)?\s+)?{_ADV}", _I)
_NEG = re.compile(r"^(?P<aux>(?:am|is|are|do|does|have|has)\s+)?(?P<neg>no longer|not|never)\s+", _I)
# "I almost joined X", "we nearly moved to Y": what nearly happened did not
_ALMOST = re.compile(r"^(?:(?:have|has|had|'d)\s+)?(?:almost|nearly)\s+", _I)
_STOPPED = re.compile(r"^(?:(?:have |has )?stopped|used to)\s+", _I)
_WE_OK = frozenset({"lives_in", "relationship_status", "located_at", "has_pet", "owns", "plans"})
_LEAD_WORD = re.compile(r"^([A-Za-z]+),?\s+")
# a clause with no subject that opens with one of these is the speaker's ("Moved to Berlin!")
_BARE_PAST = (
    r"moved|relocated|settled|joined|started|switched|quit|left|got|graduated|adopted|"
    r"bought|enrolled|came|flew|returned"
)
_BARE_STATE = (
    r"living|based|working|studying|staying|visiting|traveling|travelling|touring|backpacking|"
    r"vacationing|back|on (?:an? |my |our )?(?:\w+ )?(?:trip|vacation|holiday|getaway|tour)|in"
)
_BARE = re.compile(rf"^(?:(?P<past>{_BARE_PAST})|(?P<state>{_BARE_STATE}))\b", _I)

# Subject kinds: "first" (speaker), "we" (speaker, household predicates only), "name".
_Subject = tuple[str, str | None]


def _parse_clauses(text: str) -> list[Claim]:
    claims: list[Claim] = []
    subject: _Subject | None = None
    for clause in _CLAUSE_SPLIT.split(text):
        clause = _strip_adverbs(_FILLER_START.sub("", clause).strip())
        if not clause:
            continue
        implicit = implicit_first_person(clause)
        if implicit:
            claims.extend(implicit)
            subject = ("first", SPEAKER)
            continue
        found = _subject(clause)
        if found is not None:
            subject, rest = found
        elif subject is not None:
            rest = clause
        elif (bare := _BARE.match(clause)) is not None:
            # "on vacation in Nairobi" reads as "I am on vacation in Nairobi"
            subject, rest = ("first", SPEAKER), ("am " if bare.group("state") else "") + clause
        else:
            continue
        if subject[0] == "other" or _ALMOST.match(rest):
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
    first = name.split()[0]
    if (first in NOT_NAMES or is_adverb(first) or _BARE.fullmatch(first)) and not m.group("title"):
        return None
    return ("name", name), m.group("rest")


def _strip_adverbs(clause: str) -> str:
    """Drop the adverbs a clause opens with: "Finally settled in Dublin", "Frankly, I hate it"."""
    while (m := _LEAD_WORD.match(clause)) is not None and is_adverb(m.group(1)):
        clause = clause[m.end() :]
    return clause


def _parse_predicate(rest: str) -> list[Claim]:
    """Negation first ("no longer", "not ... anymore", "stopped"), then the phrasing rules."""
    kind: ClaimKind = "assert"
    negated = False
    stopped = _STOPPED.match(rest)
    neg = _NEG.match(rest)
    if stopped is not None:  # "stopped being a nurse", "used to be a nurse": the state's own words
        # (an end, as "I used to live in Leeds" ends Leeds)
        kind, rest = "end", re.sub(r"^(?:being|be)\s+", "am ", rest[stopped.end() :], flags=_I)
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
    claims = match_rules(rest)
    if negated:
        return [_negate(c) for c in claims if c.predicate == "likes"]
    if kind == "end":
        for claim in claims:
            claim.kind = "end" if claim.kind == "assert" else claim.kind
    return claims


def _negate(claim: Claim) -> Claim:
    claim.predicate = "dislikes"
    return claim
