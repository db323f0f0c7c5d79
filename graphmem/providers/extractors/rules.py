"""The offline, deterministic ``rules`` extractor (English and Chinese).

Steps for a batch of episodes (``extract_batch``; ``extract`` is a batch of one): split sentences
→ per sentence, find and cut time phrases (``timeparse``) → parse every English sentence of the
batch in one spaCy pass (``en_parse``) → per sentence, claims: Chinese from ``rules_zh``; English
from the phrasing rules (``rules_en``), kept where the parse agrees with their subject and value,
plus the parse's own claims (``rules_en_parse``: events, open predicates, changes naming both
values; ``rules_en_chat`` and ``rules_en_readers``: statement classes such as plans, values,
family, goals, achievements, outings, traits) → bind subjects (first person → the speaker, or
"user"; "you" → the other speaker) → build facts (claim kind, source kind, confidence, valid_from, quote span) → a correction of a value
stated earlier in the episode replaces it → quality gates and one fact per claim
(``rules_en_gates``) → collect entities (fact subjects/objects, capitalised names, jieba
person/place/organization tags).

A time phrase dates the claims of its own clause (clauses end at "," "，" ";"), and of the clauses
after it only when it stands alone ("Last May, ..." / "去年，..."): in "我下周一开始去腾讯上班，已经从
京东离职了" the end at 京东 takes the reference time, not next Monday. "I meant X, not Y" with no
earlier fact about Y in the episode guesses its predicate from the names (see ``_guess``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from graphmem.clock import as_utc
from graphmem.models.common import SourceKind
from graphmem.models.extraction import WHATEVER_HOLDS, ExtractedEntity, ExtractedFact, Extraction
from graphmem.models.predicates import lookup
from graphmem.providers.extractors.en_parse import parse, parse_many
from graphmem.providers.extractors.rules_base import Claim, ParsedSentence
from graphmem.providers.extractors.rules_en import parse_en
from graphmem.providers.extractors.rules_en_chat import chat_claims
from graphmem.providers.extractors.rules_en_context import (
    EnContext,
    guess_slot,
    guessed_changes,
    guessed_copies,
    names_correction,
    rewrite,
    settle_episode,
    with_passing_values,
)
from graphmem.providers.extractors.rules_en_gates import (
    can_hold_claim,
    gate_facts,
    mark_past_likings,
    merge_duplicates,
    new_claims,
    said_to_listener,
    subject_in_parse,
    value_in_parse,
    worth_parsing,
)
from graphmem.providers.extractors.rules_en_objects import NOT_NAMES, leading_name
from graphmem.providers.extractors.rules_en_parse import Speakers, parse_claims
from graphmem.providers.extractors.rules_en_readers import kin_claims, reader_claims
from graphmem.providers.extractors.rules_en_readers_experiences import experience_claims
from graphmem.providers.extractors.rules_en_readers_feelings import feeling_claims, may_point_back
from graphmem.providers.extractors.rules_en_readers_listener import asks_after, listener_claims
from graphmem.providers.extractors.rules_en_readers_opinions import opinion_claims
from graphmem.providers.extractors.rules_en_readers_tagged import tagged_statement
from graphmem.providers.extractors.rules_en_repair import find_repair, fits
from graphmem.providers.extractors.rules_zh import ZhContext, parse_zh, zh_entities
from graphmem.providers.extractors.timeparse import (
    TimeMatch,
    find_times,
    is_duration,
    is_until,
    repaired_times,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

_CJK = re.compile(r"[\u4e00-\u9fff]")
_SENTENCE_END = re.compile(
    r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bProf)[.!?]+(?=[\s\"')\]]|$)|[。！？]+|\n+"
)
_SPACES = re.compile(r"[ \t]{2,}")
_CLAUSE_END = re.compile(r"[,，;；]")
_TIME_ONLY = re.compile(r"^(?:on|in|at|since|from|by|around|during|back|then|about|是|在|于|从|自从|到)?$")
_SUBJECT_TIME = re.compile(r"\s*(?:is|was|will be|has been|'s)\b", re.IGNORECASE)
_WORK_HINT = re.compile(r"\b(?:Inc|Corp|Ltd|LLC|Labs|Technologies|Systems|Group|Bank)\b\.?")
_SCHOOL_HINT = re.compile(r"\b(?:University|College|School|Institute|Academy)\b")
_SPACE_PUNCT = re.compile(r"\s+([,.;:!?])")
_NAME_RUN = re.compile(
    r"(?<![\w'])(?!I\b|I')[A-Z][\w&'-]*"
    r"(?:(?: (?:of|de|the|&|van|von|der))* (?!I\b|I')[A-Z][\w&'-]+)*"
)
_ORG_SUFFIX = re.compile(
    r"\b(?:Inc|Corp|Corporation|Ltd|LLC|Co|Company|Bank|Group|Labs|Technologies|Systems|"
    r"University|College|School|Institute|Academy|Hospital)\.?$"
)
_PLACE_BEFORE = re.compile(r"\b(?:in|from|near|to|visit|visiting|around)\s+$", re.IGNORECASE)
_PERSON_BEFORE = re.compile(
    r"\b(?:with|met|told|asked|call|friend|sister|brother|wife|husband|mom|dad|"
    r"son|daughter|boss|colleague|and)\s+$",
    re.IGNORECASE,
)

_NAMING = frozenset({"has_pet", "name"})

USER = "user"
"""Subject name for first-person claims when the episode has no speaker."""


def split_sentences(content: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences in ``content``, terminators included, trimmed."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(content):
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(content)))
    trimmed = []
    for begin, end in spans:
        chunk = content[begin:end]
        stripped = chunk.strip()
        if stripped:
            left = begin + len(chunk) - len(chunk.lstrip())
            trimmed.append((left, left + len(stripped)))
    return trimmed


def _cut_times(sentence: str, times: list[TimeMatch], zh: bool) -> str:
    """The sentence without its time phrases; "Today was my first day" keeps a subject: "It was"."""
    pieces, last = [], 0
    for t in times:
        pieces.append(sentence[last : t.start])
        if not zh and t.start == 0 and _SUBJECT_TIME.match(sentence, t.end):
            pieces.append("It")
        last = t.end
    pieces.append(sentence[last:])
    text = ("" if zh else " ").join(pieces)
    return _SPACE_PUNCT.sub(r"\1", _SPACES.sub(" ", text)).strip()


@dataclass(frozen=True, slots=True)
class ExtractRequest:
    """One episode for ``RulesExtractor.extract_batch``; ``other_speaker`` is who "you" is (the
    other party of a two-party session), else None."""

    content: str
    speaker: str | None
    reference_time: datetime
    other_speaker: str | None = None


@dataclass(slots=True)
class _Sentence:
    start: int
    end: int
    zh: bool
    times: list[TimeMatch]
    text: str


class RulesExtractor:
    """Parser- and pattern-based extractor: no I/O; the same input always gives the same output."""

    name = "rules"

    def extract(
        self,
        *,
        content: str,
        speaker: str | None,
        reference_time: datetime,
        other_speaker: str | None = None,
    ) -> Extraction:
        return self.extract_batch([ExtractRequest(content, speaker, reference_time, other_speaker)])[0]

    def extract_batch(self, requests: Sequence[ExtractRequest]) -> list[Extraction]:
        """Extractions for several episodes, their English sentences parsed in one ``nlp.pipe``."""
        split = [_split(r.content, as_utc(r.reference_time)) for r in requests]
        english = sorted(
            {
                s.text
                for sentences in split
                for s in sentences
                if (worth_parsing(s.text, s.zh) and (can_hold_claim(s.text) or may_point_back(s.text)))
                or asks_after(s.text)
                or (not s.zh and tagged_statement(s.text) is not None)
            }
        )
        docs = dict(zip(english, parse_many(english), strict=True))
        return [_episode(r, sentences, docs) for r, sentences in zip(requests, split, strict=True)]


def _split(content: str, ref: datetime) -> list[_Sentence]:
    out = []
    for start, end in split_sentences(content):
        sentence = content[start:end]
        zh = bool(_CJK.search(sentence))
        times = find_times(sentence, ref)
        if not zh:  # "in 2019, no wait, 2018": the repaired time
            times = repaired_times(sentence, times, ref)
        out.append(_Sentence(start, end, zh, times, _cut_times(sentence, times, zh)))
    return out


def _episode(request: ExtractRequest, sentences: list[_Sentence], docs: dict[str, Doc]) -> Extraction:
    ref = as_utc(request.reference_time)
    speaker_name = (request.speaker or "").strip()[:200] or USER
    other = (request.other_speaker or "").strip()[:200] or None
    speakers = Speakers(speaker_name, other if other != speaker_name else None)
    facts: list[ExtractedFact] = []
    zh_context = ZhContext()  # a 他/她 or an unnamed quit reads the episode's earlier sentences
    en_context = EnContext()  # "I left it", "lived there": the value an earlier sentence named
    previous: Doc | None = None  # the sentence before, where an "it" of a feeling may point
    for s in sentences:
        future = any(t.future for t in s.times)
        if s.zh:
            parsed = parse_zh(s.text, zh_context)
        else:
            text = rewrite(s.text, en_context)
            doc = docs.get(s.text) if text == s.text else parse(text)
            parsed = _parse_english(text, doc, speakers, future, previous)
            previous = doc
            parsed.claims = with_passing_values(text, parsed.claims, en_context)
            en_context.remember(text, parsed.claims)
        facts.extend(_sentence_facts(request.content, s, parsed, speaker_name, ref, facts))
    facts = merge_duplicates(gate_facts(_same_moment_corrections(settle_episode(facts, ref)), speakers))
    return Extraction(entities=_entities(request.content, facts, ref), facts=facts)


def _same_moment_corrections(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A correction of a value stated earlier in the same episode ("I live in Paris. Sorry, I mean
    Lyon.") is said at the same moment as the mistake: the mistake is dropped and the correction
    is a plain assertion, so the wrong value never enters the history."""
    out: list[ExtractedFact] = []
    for fact in facts:
        if fact.claim == "correct" and fact.replaces:
            wrong = fact.replaces.casefold()
            same = [
                f
                for f in out
                if f.claim == "assert"
                and f.subject == fact.subject
                and f.predicate == fact.predicate
                and f.literal.casefold() == wrong
            ]
            if same:
                out = [f for f in out if f not in same]
                fact = fact.model_copy(update={"claim": "assert", "replaces": None})
        out.append(fact)
    return out


def _parse_english(
    text: str, doc: Doc | None, speakers: Speakers, future: bool, previous: Doc | None = None
) -> ParsedSentence:
    """The phrasing rules' claims, kept when the parse agrees with their subject, plus the parse's
    own claims about what the rules did not cover (events, open predicates)."""
    fix = find_repair(text)
    if fix is not None and fix.start == 0:  # "Sorry, I mean Lyon." after "I live in Paris."
        return ParsedSentence(claims=[Claim("", fix.value, from_context=True)], correction=True)
    if (
        fix is None and not can_hold_claim(text) and not names_correction(text) and not may_point_back(text)
    ):  # "Hey Mel!", "That's awesome!": nothing to parse
        return ParsedSentence(claims=[])
    parsed = parse_en(text)
    parsed.claims = [c for c in parsed.claims if future or not c.needs_future]
    if doc is not None:
        parsed.claims = [c for c in parsed.claims if subject_in_parse(c, doc) and value_in_parse(c, doc)]
        if not parsed.correction:  # a correction's target is the rules' claim
            found = (
                chat_claims(doc, speakers, future)
                + parse_claims(doc, speakers)
                + reader_claims(doc, speakers)
                + experience_claims(doc, speakers)
                + opinion_claims(doc, speakers)
                + listener_claims(doc, speakers)
            )
            conversation = said_to_listener(doc, speakers, future)
            found = [(c, clause) for c, clause in found if clause not in conversation]
            parsed.claims.extend(new_claims(parsed.claims, found))
            # a feeling says what a thing does for the speaker beside any other claim about it
            # ("Baking helps me unwind": values baking, finds peace in baking)
            feelings = [
                c for c, clause in feeling_claims(doc, speakers, previous) if clause not in conversation
            ]
            parsed.claims.extend(
                c
                for c in [*kin_claims(doc, speakers), *feelings]
                if not any(
                    (o.subject, o.predicate, o.obj) == (c.subject, c.predicate, c.obj) for o in parsed.claims
                )
            )
        mark_past_likings(parsed.claims, doc)
    if fix is not None:
        _apply_inline_fix(parsed, text[: fix.start], fix.value)
    return parsed


def _apply_inline_fix(parsed: ParsedSentence, before: str, value: str) -> None:
    """The last claim of a functional predicate whose value is in ``before`` takes the repaired
    value when it fits (``rules_en_repair``); the wrong one is gone."""
    for claim in reversed(parsed.claims):
        if claim.obj and claim.obj.casefold() in before.casefold():
            if lookup(claim.predicate).functional and fits(value, claim.obj):
                claim.obj = value.lower() if claim.predicate == "job_title" else value
            return


def _sentence_facts(
    content: str,
    s: _Sentence,
    parsed: ParsedSentence,
    speaker: str,
    ref: datetime,
    earlier: list[ExtractedFact],
) -> list[ExtractedFact]:
    start, end, zh, times = s.start, s.end, s.zh, s.times
    sentence = content[start:end]
    future = any(t.future for t in times)
    dated = [t for t in times if t.future] or ([] if any(t.when and t.when < ref for t in times) else times)
    plan_words = "".join(t.text for t in dated) if zh else " ".join(t.text for t in dated)
    _mark_corrections(parsed)
    starts, ends = _starts_and_ends(sentence, times, zh)
    facts: list[ExtractedFact] = []
    for claim in parsed.claims:
        if claim.needs_future and not future:
            continue
        if claim.from_context and not _from_context(claim, parsed, earlier + facts, speaker):
            continue
        when = None if claim.keeps_time else _claim_time(sentence, starts, claim.obj)
        until = None if claim.keeps_time or not ends else _claim_time(sentence, ends, claim.obj)
        if claim.past and (until is None or until > ref):  # "I was a teacher": nothing holds now
            continue
        if claim.keeps_time and plan_words:  # a plan keeps its own (future) time phrase
            claim.obj = f"{plan_words}{claim.obj}" if zh else f"{claim.obj} {plan_words}"
        valid_from = ref if when is None else when
        if claim.kind == "end" and when is None and until is not None and until <= ref:
            valid_from = until  # "Leeds was home until 2019": the end is then
        if claim.before:  # the old value of a change said in the same clause (从X搬到Y) comes first,
            # also when only its successor is dated (在厦门住了三年，去年搬到了福州)
            after = _successor_time(parsed.claims, claim, sentence, starts)
            valid_from = min(valid_from, after or valid_from) - timedelta(seconds=1)
        fact = _fact(claim, parsed, speaker, valid_from, sentence, start, end)
        if until is not None and until <= ref and claim.kind == "assert" and (when is None or when < until):
            # "I worked at Acme until last year": held up to then. With a start ("from 2015 to
            # 2019") that is the interval; without one, the value held just before it ended
            if when is not None:
                fact = fact.model_copy(update={"valid_to": until})
            else:
                facts.append(fact.model_copy(update={"valid_from": until - timedelta(seconds=1)}))
                fact = fact.model_copy(update={"claim": "end", "valid_from": until})
        facts.append(fact)
        facts.extend(guessed_copies(fact))
    return facts if zh else guessed_changes(facts, sentence)


_PERFECT = re.compile(r"\b(?:have|has|had|'ve|'s been|been|now|still)\b", re.IGNORECASE)
# a span under the past perfect ("I had lived in Leeds for five years before I moved", "Sam'd been
# at Hooli for a year when ...") ended at a past moment the sentence does not date: its duration
# dates nothing (reaching back from the reference time put the move five years ago)
_PAST_PERFECT = re.compile(
    r"\b(?:had|'d)\s+(?:(?:just|already|only|never|always)\s+)?"
    r"(?:been|lived|worked|stayed|spent|resided|served|taught|studied)\b",
    re.IGNORECASE,
)


def _starts_and_ends(
    sentence: str, times: list[TimeMatch], zh: bool
) -> tuple[list[TimeMatch], list[TimeMatch]]:
    """The sentence's times that date a start, and those that date an end ("until last year",
    "to 2019", 到2022年). A duration ("for three years") dates a start only under the perfect or
    "now" ("I've lived here for three years"); "I went to Paris for two weeks" starts nothing.
    Chinese durations are read by the Chinese rules themselves (住了三年)."""
    perfect = zh or (_PERFECT.search(sentence) is not None and _PAST_PERFECT.search(sentence) is None)
    starts = [t for t in times if not is_until(t) and (perfect or not is_duration(t))]
    return starts, [t for t in times if is_until(t)]


def _successor_time(
    claims: list[Claim], claim: Claim, sentence: str, times: list[TimeMatch]
) -> datetime | None:
    """The time of the value told after ``claim`` for the same subject and predicate, if dated."""
    at = next((n for n, c in enumerate(claims) if c is claim), len(claims))
    later = claims[at + 1 :]
    for other in later:
        if other.subject == claim.subject and other.predicate == claim.predicate and not other.before:
            return None if other.keeps_time else _claim_time(sentence, times, other.obj)
    return None


def _claim_time(sentence: str, times: list[TimeMatch], obj: str) -> datetime | None:
    """The time of the clause holding ``obj``, or of a bare time clause before it ("Last May, ...").

    Falls back to the sentence's first time when ``obj`` is not found verbatim ("dog named Max")."""
    dated = [t for t in times if t.when is not None]
    at = sentence.casefold().find(obj.casefold()) if obj else -1
    if not dated or at < 0:
        return dated[0].when if dated else None
    inside = [(t.start, t.end) for t in times]
    cuts = [
        m.start() for m in _CLAUSE_END.finditer(sentence) if not any(a <= m.start() < b for a, b in inside)
    ]
    bounds = list(zip([0, *[c + 1 for c in cuts]], [*cuts, len(sentence)], strict=True))
    own = next(i for i, (a, b) in enumerate(bounds) if a <= at < b or i == len(bounds) - 1)
    for i in range(own, -1, -1):
        a, b = bounds[i]
        mine = [t for t in times if a <= t.start < b]
        if not mine:
            continue
        rest = _cut_times(sentence[a:b], [_shift(t, -a) for t in mine], False).strip(" .!?。！")
        whens = [t.when for t in mine if t.when is not None]
        return whens[0] if whens and (i == own or _TIME_ONLY.match(rest.lower())) else None
    return None


def _shift(t: TimeMatch, by: int) -> TimeMatch:
    return TimeMatch(t.text, t.start + by, t.end + by, t.when, t.future)


def _mark_corrections(parsed: ParsedSentence) -> None:
    """A trailing ", not Y" corrects the claim next to it (the last); "Correction:" corrects all."""
    correctable = [
        c for c in parsed.claims if c.predicate != "knows" and c.kind == "assert" and not c.from_context
    ]
    if not parsed.correction or not correctable:
        return
    targets = correctable[-1:] if parsed.replaces is not None else correctable
    for claim in targets:
        claim.kind = "correct"
        claim.replaces = claim.replaces or parsed.replaces


def _from_context(claim: Claim, parsed: ParsedSentence, earlier: list[ExtractedFact], speaker: str) -> bool:
    """For "I meant X, not Y": borrow predicate and subject from the latest earlier fact about Y.
    With no Y named ("Sorry, I meant Stripe."), only a slot's fact (a functional predicate) lends
    its predicate: a chatter fact between ("I made pasta for dinner.") is no value to correct."""
    wrong = (parsed.replaces or "").casefold()
    for fact in reversed(earlier):
        if fact.claim == "end" or (wrong and fact.literal.casefold() != wrong):
            continue
        if not wrong and not lookup(fact.predicate).functional:
            continue
        claim.predicate = fact.predicate
        claim.subject = None if fact.subject == speaker else fact.subject
        claim.kind = "correct"
        claim.replaces = parsed.replaces or fact.literal
        return True
    return _guess(claim, parsed.replaces) or bool(claim.predicate)


def _guess(claim: Claim, wrong: str | None) -> bool:
    """For "I meant Lisbon, not Atlanta" / "Correction: Lisbon." alone: a name, so a place or an
    employer told in an earlier message was misstated.

    works_at when either name carries a company suffix ("Globex Corp"), studies_at for a school
    ("Yale University"), else a guessed slot (``rules_en_context.guess_slot``: the correction
    applies only where its mistake held); nothing when either value is not a capitalised name
    ("I meant tea, not coffee", "I meant Tuesday, not Monday")."""
    if leading_name(claim.obj) != claim.obj or (wrong and leading_name(wrong) != wrong):
        return False
    names = f"{claim.obj} {wrong or ''}"
    hint = "works_at" if _WORK_HINT.search(names) else "studies_at" if _SCHOOL_HINT.search(names) else None
    claim.predicate = hint or guess_slot(claim.obj, wrong)
    claim.kind, claim.replaces, claim.guessed = "correct", wrong, hint is None
    return True


def _fact(
    claim: Claim,
    parsed: ParsedSentence,
    speaker: str,
    valid_from: datetime,
    sentence: str,
    start: int,
    end: int,
) -> ExtractedFact:
    info = lookup(claim.predicate)
    # an end naming no value (WHATEVER_HOLDS) is no entity
    entity_object = (info.object_is_entity or claim.object_kind is not None) and claim.obj != WHATEVER_HOLDS
    source: SourceKind
    if parsed.hedged or claim.inferred or claim.predicate == "plans":  # a plan may not happen
        source, confidence = "inferred", 0.5
    elif claim.subject is None:
        source, confidence = "user_stated", 0.9
    else:
        source, confidence = "extracted", 0.7
    return ExtractedFact(
        subject=claim.subject or speaker,
        subject_kind="person",
        predicate=claim.predicate,
        object=claim.obj if entity_object else None,
        object_kind=(claim.object_kind or info.object_kind) if entity_object else "thing",
        value=None if entity_object else claim.obj,
        qualifier=claim.qualifier,
        claim=claim.kind,
        replaces=claim.replaces if claim.kind == "correct" else None,
        guessed=claim.guessed,
        valid_from=valid_from,
        confidence=confidence,
        source_kind=source,
        quote=sentence,
        start=start,
        end=end,
    )


# --------------------------------------------------------------------------- entities


def _entities(content: str, facts: list[ExtractedFact], ref: datetime) -> list[ExtractedEntity]:
    found: dict[str, ExtractedEntity] = {}

    def add(name: str, kind: str) -> None:
        name = name.strip()
        if name and len(name) <= 200 and name.casefold() not in found:
            found[name.casefold()] = ExtractedEntity(name=name, kind=kind)

    for fact in facts:
        add(fact.subject, fact.subject_kind)
        if fact.object is not None:
            add(fact.object, fact.object_kind)
    # "Italian" in "Italian food", "Max" in "dog named Max" are parts, not entities of their own
    literals = [f.literal.casefold() for f in facts if f.object or f.predicate in _NAMING]
    literals += [f.subject.casefold() for f in facts]
    for name, kind in _mentions(content):
        if any(name.casefold() in literal for literal in literals) or find_times(name, ref):
            continue
        add(name, kind)
    return list(found.values())


def _mentions(content: str) -> list[tuple[str, str]]:
    mentions: list[tuple[str, str]] = []
    for start, end in split_sentences(content):
        sentence = content[start:end]
        if _CJK.search(sentence):
            mentions.extend(zh_entities(sentence))
        for m in _NAME_RUN.finditer(sentence):
            name = m.group(0).rstrip(".'")
            words = name.split()
            initial = sentence[: m.start()].strip(" \"'(") == ""
            if words[0] in NOT_NAMES or (initial and len(words) == 1) or len(name) == 1:
                continue
            mentions.append((name, _mention_kind(name, sentence[: m.start()])))
    return mentions


def _mention_kind(name: str, before: str) -> str:
    if _ORG_SUFFIX.search(name):
        return "organization"
    if _PLACE_BEFORE.search(before):
        return "place"
    if _PERSON_BEFORE.search(before):
        return "person"
    return "thing"
