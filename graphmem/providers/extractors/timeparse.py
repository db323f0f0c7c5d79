"""Resolve English and Chinese time expressions against an episode's ``reference_time``.

``find_times(text, reference_time)`` locates time phrases in a sentence ("last May",
"two weeks ago", "in 2019", "上周二", "前天下午3点") and resolves each;
``resolve_time(phrase, reference_time)`` resolves one phrase. Results are aware UTC datetimes at day
resolution (midnight) unless an hour is given ("前天下午3点" is 15:00).

A rule table handles the common phrases quickly; ``dateparser`` (imported lazily) is the fallback
for English dates the table does not know ("on 3/4/2021"). Conventions for the table: "last week"
is seven days back, "last month"/"last year" (上个月/去年) the same day one month/year back,
"last <Month>" and "in <Month>" the first of the most recent such month, "in/since <year>" and
"this year" (今年) January 1st, "last <weekday>" the most recent such day strictly before the
reference day, 上周二 the Tuesday of the previous calendar week.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphmem.clock import as_utc
from graphmem.providers.extractors.rules_zh_hant import simplified
from graphmem.providers.extractors.timeparse_calendar import (
    Handler,
    TimeRule,
    make_date,
    midnight,
    next_weekday,
    past_date,
    past_weekday,
    shift,
)
from graphmem.providers.extractors.timeparse_zh import ZH_RULES

_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class TimeMatch:
    """One time phrase found in a text: its span, resolved time and whether it points ahead."""

    text: str
    start: int
    end: int
    when: datetime | None
    future: bool


# --------------------------------------------------------------------------- English rules

_MONTHS = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_MONTH_NUM = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}
_WEEKDAYS = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_WEEKDAY_NUM = {d: i for i, d in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))}
_UNIT = r"(?P<unit>day|week|month|year)s?"
_EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "eighteen": 18,
    "twenty": 20,
    "thirty": 30,
    "a couple": 2,
    "a couple of": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}
_NUM = (
    r"(?P<n>\d{1,3}|a couple(?: of)?|a few|several|an?|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|eighteen|twenty|thirty)"
)
_PREP = r"(?:(?:back )?(?:in|since|during|from)|around|by|until|till|up until|up to|to) "
_PART = r"(?:(?P<part>early|mid|late)[- ])?"
_PART_MONTH = {"early": 1, "mid": 7, "late": 10}


def _en_christmas(m: re.Match[str], ref: datetime) -> datetime:
    """The most recent Christmas Day up to ``ref`` ("last Christmas", "around Christmas")."""
    this = ref.replace(month=12, day=25, hour=0, minute=0, second=0, microsecond=0)
    return this if this <= ref else this.replace(year=ref.year - 1)


def _n(m: re.Match[str]) -> int:
    text = m.group("n")
    return int(text) if text.isdigit() else _EN_NUMBERS[text]


def _month(m: re.Match[str]) -> int:
    return _MONTH_NUM[m.group("mon")[:3]]


def _en_offset(days: int) -> Handler:
    return lambda m, ref: ref + timedelta(days=days)


def _en_last_unit(m: re.Match[str], ref: datetime) -> datetime:
    unit = m.group("unit")
    if unit == "weekend":
        return past_weekday(ref, 5)
    return shift(ref, unit, -1)


def _en_this_unit(m: re.Match[str], ref: datetime) -> datetime:
    unit = m.group("unit")
    if unit == "week":
        return ref - timedelta(days=ref.weekday())
    if unit == "month":
        return ref.replace(day=1)
    return ref.replace(month=1, day=1)


def _en_year(m: re.Match[str], ref: datetime) -> datetime | None:
    part = m.group("part")
    return make_date(int(m.group("year")), _PART_MONTH[part] if part else 1)


def _en_month(m: re.Match[str], ref: datetime) -> datetime | None:
    year = m.group("year")
    if year:
        return make_date(int(year), _month(m))
    return past_date(ref, _month(m))


_SEASONS = r"(?P<season>spring|summer|fall|autumn|winter)"
_SEASON_MONTH = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def _en_last_season(m: re.Match[str], ref: datetime) -> datetime | None:
    """ "last spring": the first day of the most recent such season that began before this one
    (spring March, summer June, fall September, winter December)."""
    month = _SEASON_MONTH[m.group("season")]
    start = past_date(ref, month)
    if start is not None and (ref - start).days < 92:  # the season we are in: the one before
        start = make_date(start.year - 1, month)
    return start


def _en_last_month_name(m: re.Match[str], ref: datetime) -> datetime | None:
    month = _month(m)
    return make_date(ref.year if month < ref.month else ref.year - 1, month)


def _en_day_month(m: re.Match[str], ref: datetime) -> datetime | None:
    day, year = int(m.group("d")), m.group("year")
    if year:
        return make_date(int(year), _month(m), day)
    return past_date(ref, _month(m), day)


def _iso(m: re.Match[str], ref: datetime) -> datetime | None:
    return make_date(int(m.group("year")), int(m.group("m")), int(m.group("d")))


def _weekday(m: re.Match[str]) -> int:
    return _WEEKDAY_NUM[m.group("wd")[:3]]


def _en_next_unit_any(m: re.Match[str], ref: datetime) -> datetime:
    unit = m.group("unit") or m.group("unit2")
    if unit == "weekend":
        return ref + timedelta(days=(5 - ref.weekday()) % 7)
    return shift(ref, unit, 1)


_EDGE = r"(?:(?:back )?(?:in|since|during|from|at|by|around|over)|until|till|up until|up to) "
_PARTS_OF_YEAR = {"start": 1, "beginning": 1, "middle": 7, "end": 12}


def _en_season_year(m: re.Match[str], ref: datetime) -> datetime | None:
    """ "the spring of 2021", "in fall 2022": the first day of that season in that year."""
    return make_date(int(m.group("year")), _SEASON_MONTH[m.group("season")])


def _en_seasons_ago(m: re.Match[str], ref: datetime) -> datetime | None:
    """ "two summers ago": the most recent such season before this one, n-1 years further back."""
    last = _en_last_season(m, ref)
    return None if last is None else make_date(last.year - (_n(m) - 1), last.month)


def _en_this_season(m: re.Match[str], ref: datetime) -> datetime | None:
    """ "this spring", "in the summer", "over the summer": the most recent such season start."""
    return past_date(ref, _SEASON_MONTH[m.group("season")])


def _relative_year(m: re.Match[str], ref: datetime) -> int:
    year = m.group("year")
    if year:
        return int(year)
    return ref.year - (1 if m.group("rel") == "last" else 2 if m.group("rel") == "before" else 0)


def _en_part_of_year(m: re.Match[str], ref: datetime) -> datetime | None:
    """ "at the end of last year" (December), "the start of 2022" (January), "the middle of 2020"."""
    return make_date(_relative_year(m, ref), _PARTS_OF_YEAR[m.group("edge")])


def _en_before_last(m: re.Match[str], ref: datetime) -> datetime | None:
    return make_date(ref.year - 2, _PARTS_OF_YEAR[m.group("edge")])


def _en_part_relative(m: re.Match[str], ref: datetime) -> datetime | None:
    """ "early last year", "late last year", "mid-2020" (no preposition)."""
    return make_date(_relative_year(m, ref), _PART_MONTH[m.group("part")])


_EN_RULES: tuple[TimeRule, ...] = (
    TimeRule(
        rf"(?:{_EDGE})?(?:the )?(?:(?:early|late|mid)[- ])?{_SEASONS}(?: of)? (?P<year>(?:19|20)\d{{2}})",
        _en_season_year,
    ),
    TimeRule(rf"{_NUM} (?P<season>spring|summer|fall|autumn|winter)s ago", _en_seasons_ago),
    TimeRule(
        rf"(?:{_EDGE})?the {_SEASONS} before last",
        lambda m, ref: (lambda d: None if d is None else make_date(d.year - 1, d.month))(
            _en_last_season(m, ref)
        ),
    ),
    TimeRule(
        rf"(?:{_EDGE})?(?:the )?(?P<edge>start|beginning|middle|end) of "
        r"(?:(?P<rel>last|this) year|the year before last(?P<before>)|(?P<year>(?:19|20)\d{2}))",
        lambda m, ref: _en_part_of_year(m, ref) if m.group("before") is None else _en_before_last(m, ref),
    ),
    TimeRule(
        rf"(?:{_EDGE})?(?P<part>early|late|mid)[- ](?:(?P<rel>last|this) year|(?P<year>(?:19|20)\d{{2}}))",
        _en_part_relative,
    ),
    TimeRule(rf"(?:{_EDGE})?the year before last", lambda m, ref: shift(ref, "year", -2)),
    TimeRule(rf"{_NUM} {_UNIT} back", lambda m, ref: shift(ref, m.group("unit"), -_n(m))),
    # "back in the fall" is past; a bare "in the spring" may be ahead ("I start in the fall"): undated
    TimeRule(rf"(?:this|over the|during the|back in the) {_SEASONS}", _en_this_season),
    TimeRule(r"(?:the )?day before yesterday", _en_offset(-2)),
    TimeRule(r"yesterday(?: (?:morning|afternoon|evening|night))?|last night", _en_offset(-1)),
    TimeRule(r"today|tonight|this (?:morning|afternoon|evening)", _en_offset(0)),
    TimeRule(r"tomorrow(?: (?:morning|afternoon|evening|night))?", _en_offset(1), future=True),
    TimeRule(r"(?:last|this past|the past) (?P<unit>week|month|year|weekend)", _en_last_unit),
    TimeRule(r"this (?P<unit>week|month|year)", _en_this_unit),
    TimeRule(
        r"(?:next|this coming) (?P<unit>week|month|year|weekend)|this (?P<unit2>weekend)",
        _en_next_unit_any,
        future=True,
    ),
    TimeRule(rf"{_NUM} {_UNIT} ago", lambda m, ref: shift(ref, m.group("unit"), -_n(m))),
    # "a year and a half ago", "half a year ago", "last Christmas", "around Christmas"
    TimeRule(r"(?:a|one) year and a half ago", lambda m, ref: shift(ref, "month", -18)),
    TimeRule(r"half a year ago", lambda m, ref: shift(ref, "month", -6)),
    TimeRule(r"(?:last |(?:back )?(?:at|around|over|by|in|since) (?:the )?)christmas", _en_christmas),
    # a duration reaches back from the reference time: "for three years" (a start only under the
    # perfect, see ``is_duration`` and ``rules._starts``)
    TimeRule(
        rf"for (?:the (?:past|last) |over |almost |nearly |about |around |more than )?{_NUM} {_UNIT}",
        lambda m, ref: shift(ref, m.group("unit"), -_n(m)),
    ),
    # a span with no verb opening a sentence: "Six months at Initech now!", "Two years in Lisbon"
    # (the start; ``rules_en_context.rewrite`` gives the rest its verb)
    TimeRule(
        rf"^(?:almost |nearly |about |around |over |just over |more than )?{_NUM} {_UNIT}"
        r"(?:(?= (?:now |already )?(?:at|with|in) [A-Z][\w&'-]*(?: (?:of |& )?[A-Z][\w&'-]*){0,3}"
        r"(?:(?: now| already)(?:[\s,;.!?]|$)|[\s.!]*$))|$)",
        lambda m, ref: shift(ref, m.group("unit"), -_n(m)),
    ),
    TimeRule(
        rf"(?:until|till|up until) {_NUM} {_UNIT} ago", lambda m, ref: shift(ref, m.group("unit"), -_n(m))
    ),
    TimeRule(
        r"(?:until|till|up until) (?:(?P<lw>last week)|(?P<lm>last month)|(?P<ly>last year)|(?P<y>yesterday))",
        lambda m, ref: (
            shift(ref, "week" if m["lw"] else "month" if m["lm"] else "year", -1)
            if not m["y"]
            else ref - timedelta(days=1)
        ),
    ),
    # "in two weeks" is ahead, but "moved in two weeks ago" is "two weeks ago" after a particle
    TimeRule(rf"in {_NUM} {_UNIT}(?! ago)", lambda m, ref: shift(ref, m.group("unit"), _n(m)), future=True),
    TimeRule(rf"(?:last|this past|on|this) {_WEEKDAYS}", lambda m, ref: past_weekday(ref, _weekday(m))),
    TimeRule(rf"next {_WEEKDAYS}", lambda m, ref: next_weekday(ref, _weekday(m)), future=True),
    TimeRule(r"(?:on |since |from )?(?P<year>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})", _iso),
    TimeRule(
        rf"(?:(?:on|in|since|from) )?(?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?: of)? {_MONTHS}"
        r"(?:,? (?P<year>\d{4}))?",
        _en_day_month,
    ),
    TimeRule(
        rf"(?:(?:on|in|since|from) )?{_MONTHS} (?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?"
        r"(?:,? (?P<year>\d{4}))?",
        _en_day_month,
    ),
    # "it's been three years since I moved": the start, reaching back like a duration
    TimeRule(
        rf"it(?:'s| is| has) been (?:almost |nearly |about |around |over |more than )?{_NUM} {_UNIT} since",
        lambda m, ref: shift(ref, m.group("unit"), -_n(m)),
    ),
    TimeRule(
        rf"(?:until|till|up until|since) (?:the |last )?{_SEASONS}", lambda m, ref: _en_last_season(m, ref)
    ),
    TimeRule(rf"last {_MONTHS}", _en_last_month_name),
    TimeRule(rf"(?:last|this past) {_SEASONS}", lambda m, ref: _en_last_season(m, ref)),
    TimeRule(rf"{_PREP}{_PART}{_MONTHS}(?:,? (?:of )?(?P<year>\d{{4}}))?", _en_month),
    TimeRule(rf"{_MONTHS},? (?P<year>\d{{4}})", _en_month),
    TimeRule(rf"{_PREP}{_PART}(?:the year )?(?P<year>(?:19|20)\d{{2}})", _en_year),
    TimeRule(
        r"(?:on |since |from )?\d{1,2}/\d{1,2}(?:/\d{2,4})?",
        lambda m, ref: _dateparse(re.sub(r"^(?:on|since|from) ", "", m.group(0)), ref, "en"),
    ),
)


# --------------------------------------------------------------------------- compiled tables

_UNNAME = re.compile(r"\(\?P<\w+>")


def _union(rules: tuple[TimeRule, ...]) -> str:
    return "|".join(f"(?:{_UNNAME.sub('(?:', rule.source)})" for rule in rules)


def _compile(rules: tuple[TimeRule, ...]) -> tuple[tuple[re.Pattern[str], TimeRule], ...]:
    return tuple((re.compile(rule.source, re.IGNORECASE), rule) for rule in rules)


_EN_TABLE = _compile(_EN_RULES)
_ZH_TABLE = _compile(ZH_RULES)
_EN_FIND = re.compile(rf"\b(?:{_union(_EN_RULES)})\b", re.IGNORECASE)
_ZH_AFFIX_PRE = r"(?:自从|从|在|于|一直到|直到|到了|到|至)?"  # 到/至: where a state ended (is_until)
_ZH_AFFIX_POST = r"(?:的时候|时候|的时|时|起|开始|以来)?"
_ZH_FIND = re.compile(rf"{_ZH_AFFIX_PRE}(?:{_union(ZH_RULES)}){_ZH_AFFIX_POST}")
_ZH_STRIP = re.compile(rf"^{_ZH_AFFIX_PRE}(.*?){_ZH_AFFIX_POST}$")
_SPACES = re.compile(r"\s+")


def _normalise(phrase: str) -> str:
    return _SPACES.sub(" ", phrase.strip().strip(".,;:!?").lower().replace("’", "'"))


def _lookup(phrase: str, ref_day: datetime, cjk: bool) -> tuple[datetime | None, bool] | None:
    if cjk:
        stripped = _ZH_STRIP.match(phrase)
        phrase = stripped.group(1) if stripped else phrase
    for pattern, rule in _ZH_TABLE if cjk else _EN_TABLE:
        m = pattern.fullmatch(phrase)
        if m is not None:
            return _guarded(rule.handler, m, ref_day), rule.future
    return None


def _guarded(handler: Handler, m: re.Match[str], ref_day: datetime) -> datetime | None:
    """The handler's time, or None when it falls outside datetime's years 1-9999 ("last week" in
    year 1, "tomorrow" on 9999-12-31): an overflowing time expression is dropped, never fatal."""
    try:
        return handler(m, ref_day)
    except (OverflowError, ValueError):
        return None


def _dateparse(phrase: str, ref: datetime, language: str) -> datetime | None:
    import dateparser  # lazy: importing it costs a few hundred milliseconds

    settings = {
        "RELATIVE_BASE": as_utc(ref).replace(tzinfo=None),
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "TIMEZONE": "UTC",
        "TO_TIMEZONE": "UTC",
    }
    try:  # dateparser's relative arithmetic overflows near years 1 and 9999 like the table's
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = dateparser.parse(phrase, languages=[language], settings=settings)
        if parsed is None:
            return None
        parsed = as_utc(parsed)
    except (OverflowError, ValueError):
        return None
    return parsed if re.search(r"\d:\d\d|\d\s*[ap]\.?m\b", phrase) else midnight(parsed)


_UNTIL = re.compile(r"^(?:(?:until|till|up until|up to|to)\b|一直到|直到|到|至)", re.IGNORECASE)
_DURATION = re.compile(r"^for\b", re.IGNORECASE)


def is_until(match: TimeMatch) -> bool:
    """ "until last year", "till March", "to 2019" (after "from 2015"), 到2022年, 直到去年: where a
    state ended."""
    return _UNTIL.match(match.text) is not None


def is_duration(match: TimeMatch) -> bool:
    """ "for three years": how long a state has lasted, reaching back from the reference time."""
    return _DURATION.match(match.text) is not None


def resolve_time(phrase: str, reference_time: datetime) -> datetime | None:
    """Resolve one time phrase ("last May", "3 days ago", "上周二") to aware UTC, or ``None``."""
    text = _normalise(phrase)
    if not text:
        return None
    cjk = bool(_CJK.search(text))
    found = _lookup(text, midnight(reference_time), cjk)
    if found is not None:
        return found[0]
    return _dateparse(text, reference_time, "zh" if cjk else "en")


def find_times(text: str, reference_time: datetime) -> list[TimeMatch]:
    """Every time phrase in ``text`` (left to right, non-overlapping) with its resolution."""
    ref_day = midnight(reference_time)
    finder = _ZH_FIND if _CJK.search(text) else _EN_FIND
    matches: list[TimeMatch] = []
    # traditional characters are read as simplified ones, one for one (上個月 is 上个月)
    for m in finder.finditer(simplified(text) if finder is _ZH_FIND else text):
        phrase = m.group(0)
        if not phrase:
            continue
        found = _lookup(_normalise(phrase), ref_day, finder is _ZH_FIND)
        when, future = found if found is not None else (None, False)
        matches.append(TimeMatch(text[m.start() : m.end()], m.start(), m.end(), when, future))
    if finder is _EN_FIND:
        matches = sorted(matches + _past_seasons(text, ref_day, matches), key=lambda t: t.start)
    return matches


_BARE_SEASON = re.compile(rf"\b(?:in|during) (?:the )?{_SEASONS}\b(?! (?:of )?(?:19|20)\d\d)", re.IGNORECASE)
# a past verb of the sentence: a regular past ("moved", "started"), a common irregular one, a
# perfect; and nothing that points ahead (a plan, a modal, a bare present "I start in the fall")
_PAST_VERB = re.compile(
    r"\b(?:(?!need|feed|seed|bed|red|shed|speed|breed|proceed|succeed|exceed)[a-z]{2,}ed|was|were|had|did|"
    r"went|left|got|took|became|began|came|made|found|spent|bought|sold|quit|sent|moved|'ve|have been|has been)\b",
    re.IGNORECASE,
)
_AHEAD = re.compile(
    r"\b(?:will|'ll|shall|going to|gonna|plan|plans|planning|planned|hope|hoping|want|wants|might|may|"
    r"would|'d|could|should|next|if|someday|intend|intends|expect|expecting|expected|supposed|scheduled|"
    r"due|set to|about to|meant to|thinking|considering)\b",
    re.IGNORECASE,
)


def _past_seasons(text: str, ref_day: datetime, taken: list[TimeMatch]) -> list[TimeMatch]:
    """ "I moved to Leeds in the spring": a bare season said with a past verb and nothing pointing
    ahead is the most recent such season (its first day); undated otherwise ("I start at Initech
    in the fall", "we plan to move in the spring")."""
    if not _PAST_VERB.search(text) or _AHEAD.search(text):
        return []
    out = []
    for m in _BARE_SEASON.finditer(text):
        if any(t.start < m.end() and m.start() < t.end for t in taken):
            continue
        when = past_date(ref_day, _SEASON_MONTH[m.group("season").lower()])
        out.append(TimeMatch(m.group(0), m.start(), m.end(), when, False))
    return out


# a time repaired in the same breath: "I moved to Lyon in 2019, no wait, 2018", "I joined Globex in
# March - sorry, April": repair markers, then a time phrase ending the sentence
_TIME_REPAIR = re.compile(
    r"(?:\s*[,;\u2014\u2013]+\s*|\s+-+\s+|\s*\.\.\.\s*)(?P<markers>(?i:no wait|no|nope|sorry|oops|wait|"
    r"i mean|i meant|or rather|actually|make that|scratch that|my mistake|correction)"
    r"(?:[\s,]+(?i:no|wait|sorry|i mean|i meant|actually|it was))*)[\s,:]+(?i:it was\s+)?"
    r"(?P<fix>[^,;!?.\u2014\u2013]{1,30}?)[\s.!]*$"
)


def repaired_times(text: str, times: list[TimeMatch], reference_time: datetime) -> list[TimeMatch]:
    """``times`` with a time repaired in the same breath ("..., in 2019, no wait, 2018"): the
    earlier time takes the repaired one's resolution, and the repair itself becomes a phrase with no
    time, so cutting the sentence's times drops it and no clause reads "2018" or "April" as a value.
    A repair whose words are not all one time phrase (", sorry, Denver") changes nothing."""
    m = _TIME_REPAIR.search(text)
    if m is None or not times:
        return times
    earlier = [t for t in times if t.end <= m.start() and t.when is not None]
    fix = m.group("fix").strip()
    bare = re.fullmatch(rf"(?:(?:19|20)\d\d|{_MONTHS}(?: (?:19|20)\d\d)?)", fix, re.IGNORECASE)
    if fix[:1].isupper() and bare is None:
        return times  # a capitalised name is a value, not a time
    # a bare year or month is read as "in 2018" / "in April", as the mistaken time was said
    when = resolve_time(f"in {fix}" if bare else fix, reference_time)
    if not earlier or when is None or not re.fullmatch(r"(?i:(?:in|on|back in)\s+)?[\w ]+", fix):
        return times
    wrong = earlier[-1]
    kept = [t for t in times if t.end <= m.start()]
    fixed = TimeMatch(wrong.text, wrong.start, wrong.end, when, wrong.future)
    return [fixed if t is wrong else t for t in kept] + [
        TimeMatch(text[m.start() :], m.start(), len(text), None, False)
    ]
