"""What the earlier English sentences of one episode hand to the next, and values told in passing.

``EnContext`` (one per episode, sentences in order, like ``rules_zh.ZhContext``) keeps the last
value the speaker named per slot (lives_in, works_at) and which slot was named last. ``rewrite``
puts that value in place of a pronoun or an ellipsis before the sentence is read:

- "I joined Globex in 2019. I left it last spring." → "I left Globex";
- "I lived in Leeds. I lived there until 2019." / "There since 2020." → "lived in Leeds" /
  "I have been in Leeds"; "worked there" → "worked at X";
- "Leeds was home until 2019. Now it's Lisbon." → "I live in Lisbon now";
- "I got laid off from Umbrella. These days I'm at Globex." → "I work at Globex": "I'm at X" /
  "I'm in X" with "now" or "these days" is the slot named last, not a visit.

``passing_values`` reads values said in passing, in a noun phrase or a subordinate clause, as the
value before (when the sentence names a new value of the same slot) or as an end: "my ex-employer
Initech", "my former company X", "my old place in X", "back when I lived in X", "X was home",
"home used to be X (now it's Y)", "I sold our house in A and bought one in B" (A before, B new).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from graphmem.models.extraction import WHATEVER_HOLDS, ExtractedFact
from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_parse import probe_label

_NAME = r"(?P<{g}>[A-Z][\w&'-]*(?: (?:of |de |&  ?)?[A-Z][\w&'-]*){{0,3}})"
_SLOTS = ("lives_in", "works_at")
_PAST_SLOTS = (*_SLOTS, "job_title")  # a past state a later sentence's new value follows
_PREP = {"lives_in": "in", "works_at": "at"}
_VERB = {"lives_in": "live in", "works_at": "work at"}


_WAS_AT = re.compile(
    r"\bI (?i:was|worked|was working|have been|'ve been|spent \w+ \w+) (?P<prep>(?i:at|with|for|in)) "
    + _NAME.format(g="value")
)
_WAS_SLOT = {"at": "works_at", "with": "works_at", "for": "works_at", "in": "lives_in"}


@dataclass
class EnContext:
    """The speaker's last named value per slot in this episode, and the slot named last."""

    values: dict[str, str] = field(default_factory=dict)
    last: str | None = None
    person: str | None = None  # the named person the last sentence about someone else was about
    theirs: dict[str, str] = field(default_factory=dict)  # that person's values per slot
    # past states with no end told ("I lived in Leeds for years."): the value before a new one
    # a later sentence tells
    pasts: dict[tuple[str | None, str], str] = field(default_factory=dict)
    asked: str | None = None  # "Wait, did I say Siemens?": the mistake a correction may name next
    offer: str | None = None  # "I got an offer from Globex.": the firm a later "I took it" joins
    place: str | None = None  # the last place a claim named ("visited Denver"): "moved there"

    def remember(self, text: str, claims: list[Claim]) -> None:
        """The speaker's values this sentence named (any kind: a past or ended value is named too;
        "I was at Umbrella for years", no claim of its own, names an employer)."""
        if not any(c.subject == SPEAKER and c.predicate in _SLOTS for c in claims):
            for m in _WAS_AT.finditer(text):
                self.values[_WAS_SLOT[m.group("prep").lower()]] = m.group("value")
                self.last = _WAS_SLOT[m.group("prep").lower()]
        if (offer := _OFFER_FROM.search(text)) is not None:
            self.offer = offer.group("value") or offer.group("firm")
        for claim in claims:
            if claim.obj and claim.obj[:1].isupper() and probe_label(claim.obj) in ("GPE", "LOC"):
                self.place = claim.obj
            if claim.past and claim.kind == "assert" and claim.predicate in _PAST_SLOTS and claim.obj:
                self.pasts[(claim.subject, claim.predicate)] = claim.obj
            if claim.subject == SPEAKER and claim.predicate in _SLOTS and claim.obj:
                self.values[claim.predicate] = claim.obj
                self.last = claim.predicate
            elif claim.subject is not None and claim.predicate in _PAST_SLOTS and claim.obj:
                if claim.subject != self.person:
                    self.person, self.theirs = claim.subject, {}
                self.theirs[claim.predicate] = claim.obj


_OFFER_FROM = re.compile(
    r"\b(?:(?i:job|work) )?(?i:offer) (?i:from|at|with) "
    + _NAME.format(g="value")
    + r"|"
    + _NAME.format(g="firm")
    + r" (?i:made|offered) (?:me|us|him|her|[A-Z][a-z]+) (?i:an? |the )?(?:(?i:job|work) )?"
    r"(?i:offer|job|role|position)\b"
)
# an offer taken in the next sentence: "I took it.", "And I accepted.", "Sam said yes."
_TOOK_IT = re.compile(
    r"^(?i:and |so |in the end,? |eventually,? )?(?P<who>I|We|[A-Z][a-z]+) (?i:finally |just )?"
    r"(?i:took it|took the (?:job|offer|role|position)|accepted(?: it| the (?:job|offer|role|position))?|"
    r"said yes|jumped at it|took them up on it)(?P<rest>\b.*)$"
)
_MOVED_THERE = re.compile(r"\b(?P<verb>moved|relocated|moving|relocating)(?: (?:over|back))? there\b", re.I)
_LEFT_IT = re.compile(
    r"\b(?P<verb>left|quit|leave|leaving|quitting|departed)\s+(?:it|there|that place)\b", re.I
)
_VERB_THERE = re.compile(
    r"\b(?P<verb>lived|live|living|lives|stayed|stay|worked|work|working|works|been)\s+there\b", re.I
)
_THERE_SINCE = re.compile(r"^(?:and |but )?(?:still )?there\b[\s.!]*$", re.I)
_NOW_ITS = re.compile(
    r"^(?i:and |but )?(?i:(?:now|these days|today),? )?(?i:it's|it is|home is) "
    + _NAME.format(g="value")
    + r"(?: now| these days)?[\s.!)]*$"
)
_NOW_ITS_INLINE = re.compile(r"\((?i:now|these days),? (?i:it's|it is) " + _NAME.format(g="value") + r"\)")
_BE_AT = re.compile(r"\bI(?:'m| am) (?P<prep>at|in|with) " + _NAME.format(g="value"))
_NOW = re.compile(r"\b(?:now|these days|nowadays|currently)\b", re.I)
_HABITUAL = re.compile(r"\b(?:these days|nowadays)\b", re.I)
_WORK_VERBS = frozenset({"worked", "work", "working", "works"})
_HOME_VERBS = frozenset({"lived", "live", "living", "lives", "stayed", "stay"})


# a span with no verb ("Six months at Initech now!", "Two years in Lisbon already"): its time
# cut (``timeparse``), the sentence opens with a lower-case preposition no sentence opens with
_SPAN_AT = re.compile(
    r"^(?:now |already )?(?P<prep>at|with|in) "
    + _NAME.format(g="value")
    + r"(?P<now>(?: now| already)(?=[\s,.!;]|$)|(?=[\s.!]*$))"
)


# an offer taken: "Globex offered me a job and I took it", "Initech offered me the role, and I
# said yes" (an offer alone, or one turned down, is no job)
_OFFER_TAKEN = re.compile(
    _NAME.format(g="value") + r" (?i:offered) (?P<who>me|us|[A-Z][a-z]+) (?i:a|an|the) (?:[\w-]+ ){0,3}?"
    r"(?i:job|position|role|post|contract)\b[^,.;]*?,?"
    r" (?i:and|so) (?:I|we|he|she|they) (?i:took it|took them up on it|accepted(?: it)?|said yes|jumped at it)"
    r"|"
    + _NAME.format(g="firm")
    + r" (?i:made) (?P<whom>me|us|[A-Z][a-z]+) (?i:an? )?(?:(?i:job) )?(?i:offer),?"
    r" (?i:and|so) (?:I|we|he|she|they) (?i:took it|accepted(?: it)?|said yes|jumped at it)"
)
# a short lead-in before a colon and a clause of the speaker's own ("Big news: ...", "Update: ...")
_LEAD_IN = re.compile(r"^[^:;.!?]{1,40}:\s+(?=(?:I|I'm|I've|We|We're|We've|My|Our)\b)")
_CORRECTION_WORDS = re.compile(
    r"\b(?i:correction|correct|sorry|oops|whoops|actually|wait|mistake|bad|scratch|meant|mean|"
    r"wrong|no|nope|misspoke|rather|strike|fix)\b"
)
_HAS_BEEN = re.compile(r"\b([A-Z][a-z]+|[Hh]e|[Ss]he)'s been\b")
# a tag question after a statement asks nothing of the listener: "..., can you believe it?"
# a fronted state denied with no verb of its own, then the clause that says what holds instead
_FRONT_NOT = re.compile(
    r"^(?i:not|no longer) (?P<prep>(?i:in|at|with)) "
    + _NAME.format(g="value")
    + r"(?: (?i:any ?more))?(?: (?i:though))?,\s+(?P<rest>(?:I|We|we)\b.+)$"
)
_NEW_JOB_AT = re.compile(
    r"^(?i:new (?:job|gig|role|position)) (?i:at|with) " + _NAME.format(g="value") + r"(?=\s*(?:[,;!.]|$))"
)
_DID_I_SAY = re.compile(
    r"^(?:(?i:wait|hmm|oh|oops|sorry|hold on),?\s+)*(?i:did I (?:just )?(?:say|write|tell you|mention)|"
    r"I said) " + _NAME.format(g="value") + r"\s*\?\s*$"
)
_I_MEANT = re.compile(
    r"^(?:(?i:no|sorry|oops),?\s+)?(?i:I meant|I mean)(?: (?i:to say))? "
    + _NAME.format(g="value")
    + r"[\s.!]*$"
)
_BEEN_AT = re.compile(
    r"^(?:(?i:still|now|already) )?(?i:been) (?P<prep>(?i:at|in|with)) " + _NAME.format(g="value")
)
_DASH_REPAIR = re.compile(
    r"\s+[-\u2013\u2014]+\s+(?=(?i:scratch that|strike that|sorry|i mean|i meant|or rather|make that|my mistake)\b)"
)
_TAG_QUESTION = re.compile(
    r"\s*[,\u2014\u2013-]+\s*(?i:(?:can|would|could) you believe it|who knew|how (?:crazy|cool|wild) is that|"
    r"crazy,? right|wild,? right|right|you know|huh|eh|isn't it|wasn't it|can you imagine)\s*[?!.]*\s*$"
)


# a span told in the past perfect or the past, closed by the clause of the change that ended it:
# "I'd been in Leeds for five years when I moved to Denver", "I lived in Leeds until I moved to
# Denver" (the parser reads the "when" / "until" clause as a time and drops its move; "before" is
# the reading the frames have: the span's value held before the clause's new one)
_SPAN_CLOSED_BY = re.compile(
    r"^(?P<head>.*?\b(?:(?:had|'d)\s+(?:been|lived|worked|stayed|spent)|lived|worked|stayed|was|were)\b[^,;]*?)"
    r",?\s+(?:when|until|till)\s+"
    r"(?P<rest>(?:I|we|he|she|they|[A-Z][a-z]+)\s+(?:(?:finally|eventually|then|suddenly)\s+)?"
    r"(?:moved|relocated|joined|switched|became|transferred|took|got|started|left|quit)\b.*)$"
)

_BEEN_PLACE = re.compile(r"\b(had|'d) been (in|at|with) (?=[A-Z])")
_BEEN_AS = {"in": "lived in", "at": "worked at", "with": "worked with"}


def rewrite(text: str, context: EnContext) -> str:
    """``text`` with a pronoun or an ellipsis standing for a value of ``context`` spelled out (the
    same text when there is none). "He" / "She" opening the sentence is the person the episode
    was last about ("My sister Priya lives in Leeds. She moved to Denver."), and "it" / "there"
    that person's value."""
    asked, context.asked = context.asked, None
    if (m := _DID_I_SAY.match(text)) is not None:  # a question naming a mistake: the next
        context.asked = m.group("value")  # sentence's "I meant X" corrects it
        return text
    if asked is not None and (m := _I_MEANT.match(text)) is not None and asked not in text:
        return f"{m.group(0).rstrip(' .!')}, not {asked}."  # "Did I say Siemens? I meant Stripe."
    if (m := _TAG_QUESTION.search(text)) is not None and m.start() > 0:
        text = text[: m.start()] + "."  # "I moved to Leeds last year, can you believe it?"
    if (m := _LEAD_IN.match(text)) is not None and not _CORRECTION_WORDS.search(m.group(0)):
        text = text[m.end() :]  # "New city, new me: I'm in Toronto now", "Big news: we moved"
    text = _HAS_BEEN.sub(r"\1 has been", text)  # "Sam's been in Leeds": the parser reads a passive
    text = _DASH_REPAIR.sub(", ", text)  # "a nurse - scratch that, a chef": the parser reads it as a comma
    if (m := _OFFER_TAKEN.search(text)) is not None:  # "X offered me a job and I took it"
        whom, firm = m.group("who") or m.group("whom"), m.group("value") or m.group("firm")
        who = "I" if whom.lower() in ("me", "us") else whom
        text = text[: m.start()] + f"{who} joined {firm}" + text[m.end() :]
    if (m := _FRONT_NOT.match(text)) is not None:  # "Not in Leeds anymore, I moved to Denver."
        verb = "live" if m.group("prep").lower() == "in" else "work"
        text = f"I no longer {verb} {m.group('prep').lower()} {m.group('value')}, and {m.group('rest')}"
    if (m := _SPAN_CLOSED_BY.match(text)) is not None:  # "... for years when I moved to X"
        head = _BEEN_PLACE.sub(lambda b: f"{b.group(1)} {_BEEN_AS[b.group(2)]} ", m.group("head"))
        text = f"{head} before {m.group('rest')}"  # "had been in Leeds": "had lived in Leeds"
    if (m := _BEEN_AT.match(text)) is not None:  # "Been at Hooli since 2024." (its time cut)
        text = f"I have been {m.group('prep').lower()} {m.group('value')}" + text[m.end() :]
    if (m := _NEW_JOB_AT.match(text)) is not None:  # "New job at Initech, starting today!"
        text = f"My new job is at {m.group('value')}" + text[m.end() :]
    if (m := _SPAN_AT.match(text)) is not None:  # "Six months at Initech now!"
        text = f"I have been {m.group('prep')} {m.group('value')} now" + text[m.end() :]
    if context.offer is not None and (m := _TOOK_IT.match(text)) is not None:  # "I took it."
        who = "I" if m.group("who") == "We" else m.group("who")
        return f"{who} joined {context.offer}{m.group('rest')}"
    if context.place is not None and (m := _MOVED_THERE.search(text)) is not None:  # "moved there"
        text = text[: m.start()] + f"{m.group('verb')} to {context.place}" + text[m.end() :]
    if context.person is not None and (m := _PRONOUN.match(text)) is not None:
        return _their_values(context.person + text[m.end() :], context)
    if context.person is not None and (m := _TIMED_PRONOUN.match(text)) is not None:
        # "Now he lives in B", "Two years later she joined B": the time kept, the person named
        lead = m.group("lead") if m.group("lead").strip(", ") else ""  # ", he": a time cut before
        return _their_values(lead + context.person + text[m.end() :], context)
    if context.last is None:
        return _employer_now(text)
    last = context.last
    value = context.values[last]
    if (m := _NOW_ITS_INLINE.search(text)) is not None:  # "Home used to be X (now it's Y)"
        return text
    if (m := _LEFT_IT.search(text)) is not None:
        slot = "works_at" if m.group("verb").lower().startswith("quit") else last
        spelled = _left(m.group("verb"), slot, context.values.get(slot, value))
        return text[: m.start()] + spelled + text[m.end() :]
    if (m := _VERB_THERE.search(text)) is not None:
        verb = m.group("verb").lower()
        slot = "works_at" if verb in _WORK_VERBS else "lives_in" if verb in _HOME_VERBS else last
        if slot in context.values:
            spelled = f"{m.group('verb')} {_PREP[slot]} {context.values[slot]}"
            return text[: m.start()] + spelled + text[m.end() :]
    if _THERE_SINCE.match(text):  # "There since 2020." (its time already cut)
        return f"I have been {_PREP[last]} {value}."
    if (m := _NOW_ITS.match(text)) is not None:
        return f"I {_VERB[last]} {m.group('value')} now."
    if (m := _BE_AT.search(text)) is not None and _NOW.search(text) and m.group("prep") != "in":
        if last == "works_at" or m.group("prep") == "with":
            return text[: m.start()] + f"I work at {m.group('value')}" + text[m.end() :]
    if (
        (m := _BE_AT.search(text)) is not None
        and _NOW.search(text)
        and last == "lives_in"
        and m.group("prep") == "in"
    ):
        return text[: m.start()] + f"I live in {m.group('value')}" + text[m.end() :]
    return text


def _left(verb: str, slot: str, value: str) -> str:
    """ "left it" spelled with the slot's own words: "left the job at Hooli", "moved away from
    Leeds" (a bare name after "left" is read by its sound: Hooli a place, Leeds an employer)."""
    return f"{verb} the job at {value}" if slot == "works_at" else f"moved away from {value}"


_PRONOUN = re.compile(r"^(?:(?:And|But|So|Then),? (?:he|she|He|She)|He|She)\b")
# a sentence-initial time phrase before the pronoun: "Now he ...", "Two years later, she ...",
# "Last month he ...", "In 2021 she ...", "These days he ..."; a time phrase that ``timeparse``
# cut leaves a lower-case "he" / ", she" opening the sentence ("In March he moved" → "he moved")
_TIMED_PRONOUN = re.compile(
    r"^(?P<lead>(?:(?:And|But|So) )?(?:Now|Nowadays|Today|These days|Later|Soon after|Eventually|"
    r"Since then|After that|Last (?:year|month|week|spring|summer|autumn|fall|winter)|"
    r"In (?:\d{4}|(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December))|"
    r"(?:(?:A|An|One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|A few|Several|\d+) "
    r"(?:years?|months?|weeks?|days?) (?:later|after(?:wards)?|on))),? |,? ?(?=[hs]))(?:he|she)\b"
)


def _their_values(text: str, context: EnContext) -> str:
    """ "Priya left it" / "Priya lived there until 2019": that person's value spelled out."""
    slots = [k for k in context.theirs if k in _SLOTS]
    if (m := _LEFT_IT.search(text)) is not None and slots:
        slot = "works_at" if m.group("verb").lower().startswith("quit") else slots[-1]
        value = context.theirs.get(slot)
        return (
            text
            if value is None
            else text[: m.start()] + _left(m.group("verb"), slot, value) + text[m.end() :]
        )
    if (m := _VERB_THERE.search(text)) is not None:
        verb = m.group("verb").lower()
        slot = "works_at" if verb in _WORK_VERBS else "lives_in"
        if slot in context.theirs:
            spelled = f"{m.group('verb')} {_PREP[slot]} {context.theirs[slot]}"
            return text[: m.start()] + spelled + text[m.end() :]
    return text


def _employer_now(text: str) -> str:
    """ "These days I'm at Stark Industries": "at" a name that the recogniser does not read as a
    place, said of the present, is an employer (a visit is "I'm at X" without "now")."""
    m = _BE_AT.search(text)
    if m is None or m.group("prep") != "at" or not _NOW.search(text):
        return text
    label = probe_label(m.group("value"))
    if label in ("GPE", "LOC") or (label == "FAC" and not _HABITUAL.search(text)):
        return text  # a place; a building only for now ("these days I'm at Pied Piper" is a job)
    return text[: m.start()] + f"I work at {m.group('value')}" + text[m.end() :]


_FORMER_JOB = re.compile(
    r"\b[Mm]y (?:ex-? ?|former |old |previous |last )(?:employer|company|firm|job|workplace|boss)"
    r"(?: at)?,? " + _NAME.format(g="value")
)
_FORMER_HOME = re.compile(
    r"\b[Mm]y (?:old|former|previous) (?:place|house|flat|apartment|home|neighbourhood|neighborhood|city|town)"
    r" (?:in|at) " + _NAME.format(g="value")
)
_BACK_WHEN = re.compile(
    r"\b(?:[Bb]ack )?when I (?:lived|was living|was based|worked|was working) (?P<prep>in|at|for) "
    + _NAME.format(g="value")
)
_WAS_HOME = re.compile(_NAME.format(g="value") + r" (?:was|used to be) (?:my |our )?home\b")
_HOME_WAS = re.compile(r"\b(?:[Hh]ome|[Mm]y home) (?:was|used to be) " + _NAME.format(g="value"))
_SOLD_BOUGHT = re.compile(
    r"\bsold (?:my|our|the) (?:house|home|flat|apartment|place|condo) in "
    + _NAME.format(g="old")
    + r",? and (?:then )?bought (?:one|a (?:new )?(?:house|home|flat|apartment|place|condo)|another) in "
    + _NAME.format(g="new")
)


def with_passing_values(text: str, claims: list[Claim], context: EnContext) -> list[Claim]:
    """``claims`` with the values said in passing (values before first, so a dated successor
    dates them) and the ends that name no value (``unnamed_ends``)."""
    passing = _passing_values(text, claims)
    claims = [c for c in passing if c.before] + claims + [c for c in passing if not c.before]
    _guess_left_names(text, claims)
    return _earlier_pasts(claims, context) + claims + unnamed_ends(text, claims, context)


_LEFT_NAME = re.compile(r"\b(?i:left|leaving|leave|leaves|exited|departed)\s+" + _NAME.format(g="value"))
_TOLD_KIND = re.compile(
    r"\b(?i:job|work|worked|working|company|employer|boss|office|colleagues?|coworkers?|career|team|"
    r"notice|hired|fired|resigned|salary|position|role|inc|corp|ltd|llc|group|labs|"
    r"live|lived|living|home|house|flat|apartment|city|town|country|rent|moved?|relocated|"
    r"university|college|school|academy|institute|campus|degree)\b"
)


def _guess_left_names(text: str, claims: list[Claim]) -> None:
    """ "I left Hooli." with nothing in the sentence but the entity recogniser to tell a firm from a
    town, and the recogniser reading a place (it reads many firm names so: Hooli, Spotify): the end
    is ``guessed`` and offered to both slots (``guessed_copies``); the chain lets it end the value
    only in a slot where that value is asserted (``temporal.chain``). A name read as a firm keeps
    its one reading ("I left Amazon.")."""
    if _TOLD_KIND.search(text):
        return
    left = {m.group("value") for m in _LEFT_NAME.finditer(text)}
    for claim in claims:
        if claim.kind == "end" and claim.predicate == "lives_in" and claim.obj in left:
            claim.guessed = True


def _earlier_pasts(claims: list[Claim], context: EnContext) -> list[Claim]:
    """The past state an earlier sentence told ("Priya lived in Toronto for years.") is the value
    before the new value of the same slot this sentence tells ("She moved to Nairobi.")."""
    out = []
    for claim in claims:
        key = (claim.subject, claim.predicate)
        old = context.pasts.get(key)
        new = claim.kind == "assert" and not claim.before and not claim.past
        if old is not None and new and old.casefold() != claim.obj.casefold():
            if not any(c.predicate == claim.predicate and c.obj.casefold() == old.casefold() for c in claims):
                out.append(Claim(claim.predicate, old, subject=claim.subject, before=True))
            del context.pasts[key]
    return out


def _passing_values(text: str, claims: list[Claim]) -> list[Claim]:
    """Values said in passing (module docstring): the value before a new value of the same slot
    told in the sentence, else an end; "sold our house in A and bought one in B" gives both."""
    found: list[tuple[str, str]] = []
    if (m := _SOLD_BOUGHT.search(text)) is not None:
        return [Claim("lives_in", m.group("old"), before=True), Claim("lives_in", m.group("new"))]
    for pattern, predicate in (
        (_FORMER_JOB, "works_at"),
        (_FORMER_HOME, "lives_in"),
        (_WAS_HOME, "lives_in"),
    ):
        found += [(predicate, m.group("value")) for m in pattern.finditer(text)]
    found += [("lives_in", m.group("value")) for m in _HOME_WAS.finditer(text)]
    for m in _BACK_WHEN.finditer(text):
        found.append(("works_at" if m.group("prep") != "in" else "lives_in", m.group("value")))
    out: list[Claim] = []
    for predicate, value in found:
        if any(c.predicate == predicate and c.obj.casefold() == value.casefold() for c in claims):
            continue
        new = [c for c in claims if c.predicate == predicate and c.subject == SPEAKER and c.kind == "assert"]
        out.append(Claim(predicate, value, before=True) if new else Claim(predicate, value, kind="end"))
    if (m := _NOW_ITS_INLINE.search(text)) is not None and out:
        out.append(Claim(out[-1].predicate, m.group("value")))
        out[0].before, out[0].kind = True, "assert"
    return out


_CJK = re.compile(r"[\u4e00-\u9fff]")
_SLOT_PREDICATES = frozenset({"lives_in", "works_at", "job_title"})


def settle_episode(facts: list[ExtractedFact], ref: datetime) -> list[ExtractedFact]:
    """The English facts of one episode, read together (before duplicates merge, first one first).

    An end said without a time ("I used to work at Umbrella.") beside a new value of the same slot
    dated earlier in the episode ("I came on board at Globex last month.") is the value before that
    one: it held up to just before the new value began. A value stated twice keeps the earliest
    start either sentence gives ("I live in Leeds. There since 2019.")."""
    out = _undated_ends(facts, ref)
    for n, fact in enumerate(out):
        if fact.claim != "assert" or fact.predicate not in _SLOT_PREDICATES or _CJK.search(fact.quote or ""):
            continue
        same = [
            f.valid_from
            for f in out[n + 1 :]
            if f.claim == "assert"
            and (f.subject, f.predicate, f.literal.casefold())
            == (fact.subject, fact.predicate, fact.literal.casefold())
            and f.valid_from is not None
            and f.valid_to is None
        ]
        if same and fact.valid_from is not None and fact.valid_to is None and min(same) < fact.valid_from:
            out[n] = fact.model_copy(update={"valid_from": min(same)})
    return out


def _undated_ends(facts: list[ExtractedFact], ref: datetime) -> list[ExtractedFact]:
    out = list(facts)
    for n, fact in enumerate(out):
        if fact.claim != "end" or fact.predicate not in _SLOT_PREDICATES or fact.valid_from != ref:
            continue
        if _CJK.search(fact.quote or ""):
            continue
        starts = [
            f.valid_from
            for f in out
            if f.claim == "assert"
            and f.subject == fact.subject
            and f.predicate == fact.predicate
            and f.literal.casefold() != fact.literal.casefold()
            and f.valid_from is not None
            and f.valid_from < ref
        ]
        if starts:
            out[n] = fact.model_copy(
                update={"claim": "assert", "valid_from": min(starts) - timedelta(seconds=1)}
            )
    return out


GUESS_SLOTS = ("lives_in", "works_at")
_PAST_SLOTS = (*_SLOTS, "job_title")  # a past state a later sentence's new value follows


def guess_slot(value: str, wrong: str | None) -> str:
    """The slot of "I meant X, not Y" / "Correction: X." told with no earlier fact of the episode
    about Y (the mistake came in an earlier message): with Y named, lives_in, spread over the other
    slots by ``guessed_copies`` (the slot where Y held takes it, ``temporal.chain``); with no Y,
    the slot the entity recogniser's reading of X suggests (a place: lives_in, else works_at)."""
    if wrong:
        return "lives_in"
    return "lives_in" if probe_label(value) in ("GPE", "LOC") else "works_at"


_HOME_WORDS = re.compile(
    r"\b(?i:home|house|flat|apartment|condo|city|town|country|rent|renting|neighbou?rhood|live|lived|"
    r"living|settled|relocated|emigrated|moving house|moved house|family)\b"
)
_FIRM_LABELS = ("ORG", "PRODUCT")


def guessed_changes(facts: list[ExtractedFact], sentence: str) -> list[ExtractedFact]:
    """A change between two names of one sentence read as homes ("I left Globex for Hooli", "I
    moved to Massive Dynamic from Hooli") where the recogniser reads one name as a firm and the
    other not, with no home word in the sentence: the change stays a move, and works_at takes a
    ``guessed`` copy, which the chain keeps only where the value left is told (``temporal.chain``):
    "I work at Globex." then "I left Globex for Hooli" changes the employer though "Hooli" reads
    as a town. (The recogniser's reading of towns is no surer, Bristol reads as a firm, so the
    move is never taken from lives_in.)"""
    homes = [f for f in facts if f.predicate == "lives_in" and f.claim == "assert" and not f.guessed]
    if len(homes) != 2 or _HOME_WORDS.search(sentence) or _CJK.search(sentence):
        return facts
    if sum(probe_label(f.literal) in _FIRM_LABELS for f in homes) != 1:
        return facts
    return facts + [
        f.model_copy(update={"predicate": "works_at", "object_kind": "organization", "guessed": True})
        for f in homes
    ]


def guessed_copies(fact: ExtractedFact) -> list[ExtractedFact]:
    """A guessed correction naming its mistake, or a guessed end ("I left Hooli." with only the
    recogniser to tell a firm from a town), for each other slot it may be about."""
    if not fact.guessed or fact.predicate not in GUESS_SLOTS:
        return []
    if fact.claim != "end" and not fact.replaces:
        return []
    kinds = {"lives_in": "place", "works_at": "organization"}
    return [
        fact.model_copy(update={"predicate": other, "object_kind": kinds[other]})
        for other in GUESS_SLOTS
        if other != fact.predicate
    ]


_NAME_CORRECTION = re.compile(
    r"^(?i:(?:oh|ah|um|uh),?\s+)?(?i:sorry|oops|whoops|my mistake|my bad|correction|actually|wait|no)\b[,:!]*\s*"
    r"(?i:it's\s+|it is\s+)?"
    + _NAME.format(g="right")
    + r",?\s+(?i:not)\s+"
    + _NAME.format(g="wrong")
    + r"[\s.!]*$"
)


def names_correction(text: str) -> bool:
    """ "Sorry, Bristol, not Seattle.": a correction made of two names, no verb."""
    return _NAME_CORRECTION.match(text.strip()) is not None


_TAIL = r"\s*(?:$|[,;.!]|\s(?:and|but|because|so|after|which|when)\b)"
_SUBJ = r"^(?i:(?:so|and|but|well|anyway|yeah|also|update)[,:]?\s+)?(?:(?:I|We|we)(?:'ve| have)?\s+)?(?i:just\s+|finally\s+|recently\s+|actually\s+|officially\s+)?"
_JOB_END = re.compile(
    _SUBJ
    + r"(?i:quit|resigned|retired|stepped down|handed in my (?:notice|resignation)|put in my (?:notice|two weeks)|"
    r"gave (?:my )?notice|got (?:laid off|fired|sacked|let go|made redundant)|"
    r"(?:was|were|been|got) (?:laid off|fired|sacked|let go|made redundant)|"
    r"(?:left|quit) (?:my|the|that|our|his|her|their) (?:job|company|firm|position|role|employer)|(?:left|quit) it)"
    + _TAIL
)
_HOME_END = re.compile(
    _SUBJ
    + r"(?i:moved out|moved away|left (?:the|that) (?:city|town|country|flat|apartment|house)|left there)"
    + _TAIL
)
_NOT_THERE = re.compile(
    r"\b(?i:don't|do not|no longer|not)\s+(?P<verb>(?i:work|live|living|working|based))\s+(?i:there)\b"
)
_WAS_AT_UNTIL = re.compile(r"^(?:I|We) (?:was|were) (?P<prep>at|with|in) " + _NAME.format(g="value") + _TAIL)
_WAS_THERE = re.compile(_SUBJ + r"(?i:(?P<verb>lived|stayed|worked|was based) there)" + _TAIL)


_NAMED_SUBJECT = re.compile(
    r"^(?:(?i:my|our) (?i:friend|brother|sister|cousin|wife|husband|partner|colleague|coworker|boss|"
    r"mum|mom|dad|son|daughter|roommate|flatmate|neighbour|neighbor) )?(?P<name>[A-Z][a-z]+) (?=[a-z])"
)
_OPENERS = frozenset(
    "And But So Then Anyway Well Yesterday Today Finally Also Now Honestly Basically Sadly Luckily "
    "Recently Eventually Actually Apparently Oh Yeah Update Last This We He She They It You".split()
)


def unnamed_ends(text: str, claims: list[Claim], context: EnContext) -> list[Claim]:
    """An end that names no value ("I quit.", "I got laid off.", "We moved out.", "I lived there
    until 2019." in a message of its own): the value the episode named before, else
    ``WHATEVER_HOLDS``, which the chain reads as whatever the slot holds then. "I lived there",
    past with no "until", ends nothing (``Claim.past``)."""
    subject, values = SPEAKER, context.values
    if context.person is not None and text.startswith(context.person + " "):
        subject, values, text = context.person, context.theirs, text[len(context.person) + 1 :]
    elif (m := _NAMED_SUBJECT.match(text)) is not None and m.group("name") not in _OPENERS:
        # "Sam quit last week.", "My friend Sam moved out.": a person named first, in an episode
        # that has not named their value (the end verbs below take no place or firm as subject)
        subject, values, text = m.group("name"), {}, text[m.end() :]
    if any(c.predicate in _SLOTS and c.subject == subject for c in claims):
        return []
    found: list[tuple[str, bool]] = []
    if _JOB_END.search(text):
        found.append(("works_at", False))
    elif _HOME_END.search(text):
        found.append(("lives_in", False))
    elif (m := _NOT_THERE.search(text)) is not None and re.search(
        r"(?i)\b(?:anymore|any more|no longer)\b", text
    ):
        found.append(("works_at" if m.group("verb").lower().startswith("work") else "lives_in", False))
    elif (m := _WAS_AT_UNTIL.search(text)) is not None:  # "I was at X until May" (held until then)
        label = probe_label(m.group("value"))
        place = label in ("GPE", "LOC")
        if (m.group("prep") == "in") == place:
            return [Claim("lives_in" if place else "works_at", m.group("value"), past=True)]
    elif (m := _WAS_THERE.search(text)) is not None:
        found.append(("works_at" if m.group("verb").lower() == "worked" else "lives_in", True))
    return [
        Claim(slot, values.get(slot, WHATEVER_HOLDS), subject=subject, kind="end", past=past)
        for slot, past in found
    ]
