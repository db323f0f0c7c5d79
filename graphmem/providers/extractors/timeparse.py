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

import calendar
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graphmem.clock import as_utc

Handler = Callable[[re.Match[str], datetime], datetime | None]

_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class TimeMatch:
    """One time phrase found in a text: its span, resolved time and whether it points ahead."""

    text: str
    start: int
    end: int
    when: datetime | None
    future: bool


@dataclass(frozen=True, slots=True)
class _Rule:
    source: str
    handler: Handler
    future: bool = False


# --------------------------------------------------------------------------- calendar arithmetic


def _midnight(value: datetime) -> datetime:
    return as_utc(value).replace(hour=0, minute=0, second=0, microsecond=0)


def _add_months(value: datetime, months: int) -> datetime:
    years, month0 = divmod(value.month - 1 + months, 12)
    year = value.year + years
    day = min(value.day, calendar.monthrange(year, month0 + 1)[1])
    return value.replace(year=year, month=month0 + 1, day=day)


def _shift(day: datetime, unit: str, amount: int) -> datetime:
    if unit.startswith("day"):
        return day + timedelta(days=amount)
    if unit.startswith("week"):
        return day + timedelta(days=7 * amount)
    if unit.startswith("month"):
        return _add_months(day, amount)
    return _add_months(day, 12 * amount)


def _past_weekday(day: datetime, weekday: int) -> datetime:
    """The most recent ``weekday`` strictly before ``day``."""
    return day - timedelta(days=(day.weekday() - weekday) % 7 or 7)


def _next_weekday(day: datetime, weekday: int) -> datetime:
    return day + timedelta(days=(weekday - day.weekday()) % 7 or 7)


def _date(year: int, month: int, day: int = 1) -> datetime | None:
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def _past_date(ref: datetime, month: int, day: int = 1) -> datetime | None:
    """``month``/``day`` in the reference year, or the year before when that is still ahead."""
    candidate = _date(ref.year, month, day)
    if candidate is not None and candidate <= ref:
        return candidate
    return _date(ref.year - 1, month, day)


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
    "fifteen": 15,
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
    r"nine|ten|eleven|twelve|fifteen|twenty|thirty)"
)
_PREP = r"(?:(?:back )?(?:in|since|during|from)|around|by) "
_PART = r"(?:(?P<part>early|mid|late)[- ])?"
_PART_MONTH = {"early": 1, "mid": 7, "late": 10}


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
        return _past_weekday(ref, 5)
    return _shift(ref, unit, -1)


def _en_this_unit(m: re.Match[str], ref: datetime) -> datetime:
    unit = m.group("unit")
    if unit == "week":
        return ref - timedelta(days=ref.weekday())
    if unit == "month":
        return ref.replace(day=1)
    return ref.replace(month=1, day=1)


def _en_year(m: re.Match[str], ref: datetime) -> datetime | None:
    part = m.group("part")
    return _date(int(m.group("year")), _PART_MONTH[part] if part else 1)


def _en_month(m: re.Match[str], ref: datetime) -> datetime | None:
    year = m.group("year")
    if year:
        return _date(int(year), _month(m))
    return _past_date(ref, _month(m))


def _en_last_month_name(m: re.Match[str], ref: datetime) -> datetime | None:
    month = _month(m)
    return _date(ref.year if month < ref.month else ref.year - 1, month)


def _en_day_month(m: re.Match[str], ref: datetime) -> datetime | None:
    day, year = int(m.group("d")), m.group("year")
    if year:
        return _date(int(year), _month(m), day)
    return _past_date(ref, _month(m), day)


def _iso(m: re.Match[str], ref: datetime) -> datetime | None:
    return _date(int(m.group("year")), int(m.group("m")), int(m.group("d")))


def _weekday(m: re.Match[str]) -> int:
    return _WEEKDAY_NUM[m.group("wd")[:3]]


def _en_next_unit_any(m: re.Match[str], ref: datetime) -> datetime:
    unit = m.group("unit") or m.group("unit2")
    if unit == "weekend":
        return ref + timedelta(days=(5 - ref.weekday()) % 7)
    return _shift(ref, unit, 1)


_EN_RULES: tuple[_Rule, ...] = (
    _Rule(r"(?:the )?day before yesterday", _en_offset(-2)),
    _Rule(r"yesterday(?: (?:morning|afternoon|evening|night))?|last night", _en_offset(-1)),
    _Rule(r"today|tonight|this (?:morning|afternoon|evening)", _en_offset(0)),
    _Rule(r"tomorrow(?: (?:morning|afternoon|evening|night))?", _en_offset(1), future=True),
    _Rule(r"(?:last|this past|the past) (?P<unit>week|month|year|weekend)", _en_last_unit),
    _Rule(r"this (?P<unit>week|month|year)", _en_this_unit),
    _Rule(
        r"(?:next|this coming) (?P<unit>week|month|year|weekend)|this (?P<unit2>weekend)",
        _en_next_unit_any,
        future=True,
    ),
    _Rule(rf"{_NUM} {_UNIT} ago", lambda m, ref: _shift(ref, m.group("unit"), -_n(m))),
    _Rule(rf"in {_NUM} {_UNIT}", lambda m, ref: _shift(ref, m.group("unit"), _n(m)), future=True),
    _Rule(
        rf"(?:last|this past|on|this) {_WEEKDAYS}", lambda m, ref: _past_weekday(ref, _weekday(m))
    ),
    _Rule(rf"next {_WEEKDAYS}", lambda m, ref: _next_weekday(ref, _weekday(m)), future=True),
    _Rule(r"(?:on |since |from )?(?P<year>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})", _iso),
    _Rule(
        rf"(?:(?:on|in|since|from) )?(?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?: of)? {_MONTHS}"
        r"(?:,? (?P<year>\d{4}))?",
        _en_day_month,
    ),
    _Rule(
        rf"(?:(?:on|in|since|from) )?{_MONTHS} (?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?"
        r"(?:,? (?P<year>\d{4}))?",
        _en_day_month,
    ),
    _Rule(rf"last {_MONTHS}", _en_last_month_name),
    _Rule(rf"{_PREP}{_PART}{_MONTHS}(?:,? (?:of )?(?P<year>\d{{4}}))?", _en_month),
    _Rule(rf"{_MONTHS},? (?P<year>\d{{4}})", _en_month),
    _Rule(rf"{_PREP}{_PART}(?:the year )?(?P<year>(?:19|20)\d{{2}})", _en_year),
    _Rule(
        r"(?:on |since |from )?\d{1,2}/\d{1,2}(?:/\d{2,4})?",
        lambda m, ref: _dateparse(re.sub(r"^(?:on|since|from) ", "", m.group(0)), ref, "en"),
    ),
)


# --------------------------------------------------------------------------- Chinese rules

_ZH_DIGITS = {ch: i for i, ch in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}
_ZN = r"\d{1,2}|[零〇一二两三四五六七八九十]{1,3}"
_ZH_YEAR = r"\d{4}|[零〇一二三四五六七八九]{4}"
_ZH_WD = r"(?P<wd>[一二三四五六日天1-7])"
_ZH_TOD = (
    rf"(?:(?P<tod>凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?(?:(?P<hour>{_ZN})[点點]"
    rf"(?:(?P<half>半)|(?P<minute>{_ZN})分?)?)?)"
)
_ZH_DAY_WORDS = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "今天": 0,
    "今日": 0,
    "今晚": 0,
    "今早": 0,
    "明天": 1,
    "后天": 2,
}
_ZH_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1}


def zh_number(text: str) -> int | None:
    """Parse "3", "十二", "二十", "两", "二〇一九" (digit by digit) into an int."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        high = _ZH_DIGITS.get(tens, -1) if tens else 1
        low = _ZH_DIGITS.get(ones, -1) if ones else 0
        return None if high < 0 or low < 0 else high * 10 + low
    digits = [_ZH_DIGITS.get(ch) for ch in text]
    if not digits or any(d is None for d in digits):
        return None
    return int("".join(str(d) for d in digits))


def _zh_group(m: re.Match[str], name: str) -> int | None:
    text = m.groupdict().get(name)
    return zh_number(text) if text else None


def _with_tod(value: datetime | None, m: re.Match[str], evening: bool = False) -> datetime | None:
    hour = _zh_group(m, "hour")
    if value is None or hour is None:
        return value
    if (evening or m.groupdict().get("tod") in ("下午", "傍晚", "晚上", "夜里")) and hour < 12:
        hour += 12
    elif m.groupdict().get("tod") == "中午" and hour < 6:
        hour += 12
    minute = 30 if m.groupdict().get("half") else (_zh_group(m, "minute") or 0)
    if hour > 23 or minute > 59:
        return value
    return value.replace(hour=hour, minute=minute)


def _zh_weekday(m: re.Match[str]) -> int:
    wd = m.group("wd")
    return (
        6
        if wd in ("日", "天", "7")
        else (int(wd) - 1 if wd.isdigit() else "一二三四五六".index(wd))
    )


def _zh_day(m: re.Match[str], ref: datetime) -> datetime | None:
    word = m.group("w")
    return _with_tod(ref + timedelta(days=_ZH_DAY_WORDS[word]), m, evening=word.endswith("晚"))


def _zh_week(m: re.Match[str], ref: datetime) -> datetime | None:
    weeks = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1}[m.group("rel")]
    if not m.group("wd"):
        return ref + timedelta(days=7 * weeks)
    monday = ref - timedelta(days=ref.weekday()) + timedelta(days=7 * weeks)
    return _with_tod(monday + timedelta(days=_zh_weekday(m)), m)


def _zh_bare_weekday(m: re.Match[str], ref: datetime) -> datetime | None:
    delta = (ref.weekday() - _zh_weekday(m)) % 7
    return _with_tod(ref - timedelta(days=delta), m)


def _zh_month_rel(m: re.Match[str], ref: datetime) -> datetime | None:
    months = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1}[m.group("rel")]
    day = _zh_group(m, "d")
    shifted = _add_months(ref, months)
    if day is None:
        return shifted if months else shifted.replace(day=1)
    return _with_tod(_date(shifted.year, shifted.month, day), m)


def _zh_year_rel(m: re.Match[str], ref: datetime) -> datetime | None:
    years = _ZH_YEAR_WORDS[m.group("w")]
    month, day = _zh_group(m, "m"), _zh_group(m, "d")
    if month is None:
        return _add_months(ref, 12 * years) if years else ref.replace(month=1, day=1)
    return _with_tod(_date(ref.year + years, month, day or 1), m)


def _zh_ago(sign: int) -> Handler:
    units = {
        "天": "day",
        "日": "day",
        "周": "week",
        "星期": "week",
        "礼拜": "week",
        "月": "month",
        "年": "year",
    }

    def handler(m: re.Match[str], ref: datetime) -> datetime | None:
        amount = _zh_group(m, "n")
        return None if amount is None else _shift(ref, units[m.group("unit")], sign * amount)

    return handler


def _zh_ymd(m: re.Match[str], ref: datetime) -> datetime | None:
    year, month, day = _zh_group(m, "year"), _zh_group(m, "m"), _zh_group(m, "d")
    if year is None:
        return None
    return _with_tod(_date(year, month or 1, day or 1), m)


def _zh_md(m: re.Match[str], ref: datetime) -> datetime | None:
    month, day = _zh_group(m, "m"), _zh_group(m, "d")
    if month is None or not 1 <= month <= 12:
        return None
    return _with_tod(_past_date(ref, month, day or 1), m)


_ZH_RULES: tuple[_Rule, ...] = (
    _Rule(rf"(?P<w>大前天|前天|昨天|昨日|昨晚|今天|今日|今晚|今早){_ZH_TOD}", _zh_day),
    _Rule(rf"(?P<w>明天|后天){_ZH_TOD}", _zh_day, future=True),
    _Rule(rf"(?P<rel>上上|上|这|本)个?(?:周|星期|礼拜){_ZH_WD}?{_ZH_TOD}", _zh_week),
    _Rule(rf"(?P<rel>下)个?(?:周|星期|礼拜){_ZH_WD}?{_ZH_TOD}", _zh_week, future=True),
    _Rule(rf"(?P<rel>上上|上|这|本)个?月(?:(?P<d>{_ZN})[日号])?{_ZH_TOD}", _zh_month_rel),
    _Rule(rf"(?P<rel>下)个?月(?:(?P<d>{_ZN})[日号])?{_ZH_TOD}", _zh_month_rel, future=True),
    _Rule(
        rf"(?P<w>大前年|前年|去年|今年)(?:(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?)?{_ZH_TOD}",
        _zh_year_rel,
    ),
    _Rule(rf"(?P<w>明年)(?:(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?)?", _zh_year_rel, future=True),
    _Rule(rf"(?P<n>{_ZN}|几)个?(?P<unit>天|日|周|星期|礼拜|月|年)(?:前|以前|之前)", _zh_ago(-1)),
    _Rule(
        rf"(?P<n>{_ZN})个?(?P<unit>天|周|星期|礼拜|月|年)(?:后|以后|之后)", _zh_ago(1), future=True
    ),
    _Rule(
        rf"(?P<year>{_ZH_YEAR})年(?:(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?)?{_ZH_TOD}", _zh_ymd
    ),
    _Rule(rf"(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?{_ZH_TOD}", _zh_md),
    _Rule(rf"(?:周|星期|礼拜){_ZH_WD}{_ZH_TOD}", _zh_bare_weekday),
)

# --------------------------------------------------------------------------- compiled tables

_UNNAME = re.compile(r"\(\?P<\w+>")


def _union(rules: tuple[_Rule, ...]) -> str:
    return "|".join(f"(?:{_UNNAME.sub('(?:', rule.source)})" for rule in rules)


def _compile(rules: tuple[_Rule, ...]) -> tuple[tuple[re.Pattern[str], _Rule], ...]:
    return tuple((re.compile(rule.source, re.IGNORECASE), rule) for rule in rules)


_EN_TABLE = _compile(_EN_RULES)
_ZH_TABLE = _compile(_ZH_RULES)
_EN_FIND = re.compile(rf"\b(?:{_union(_EN_RULES)})\b", re.IGNORECASE)
_ZH_AFFIX_PRE = r"(?:自从|从|在|于)?"
_ZH_AFFIX_POST = r"(?:的时候|时候|的时|时|起|开始|以来)?"
_ZH_FIND = re.compile(rf"{_ZH_AFFIX_PRE}(?:{_union(_ZH_RULES)}){_ZH_AFFIX_POST}")
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
            return rule.handler(m, ref_day), rule.future
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = dateparser.parse(phrase, languages=[language], settings=settings)
    if parsed is None:
        return None
    parsed = as_utc(parsed)
    return parsed if re.search(r"\d:\d\d|\d\s*[ap]\.?m\b", phrase) else _midnight(parsed)


def resolve_time(phrase: str, reference_time: datetime) -> datetime | None:
    """Resolve one time phrase ("last May", "3 days ago", "上周二") to aware UTC, or ``None``."""
    text = _normalise(phrase)
    if not text:
        return None
    cjk = bool(_CJK.search(text))
    found = _lookup(text, _midnight(reference_time), cjk)
    if found is not None:
        return found[0]
    return _dateparse(text, reference_time, "zh" if cjk else "en")


def find_times(text: str, reference_time: datetime) -> list[TimeMatch]:
    """Every time phrase in ``text`` (left to right, non-overlapping) with its resolution."""
    ref_day = _midnight(reference_time)
    finder = _ZH_FIND if _CJK.search(text) else _EN_FIND
    matches: list[TimeMatch] = []
    for m in finder.finditer(text):
        phrase = m.group(0)
        if not phrase:
            continue
        found = _lookup(_normalise(phrase), ref_day, finder is _ZH_FIND)
        when, future = found if found is not None else (None, False)
        matches.append(TimeMatch(phrase, m.start(), m.end(), when, future))
    return matches
