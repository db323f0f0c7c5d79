"""Chinese time phrases: 今天 昨天 前天 大前天 明天, 上周二, 上个月, 去年5月, 三个月前, 2019年3月,
5月3日, 上周末, 去年春天 / 2019年夏天 (the season's first month), 去年年底 / 上个月初, 半年前, 两三天前 (its lower end), 几天前 / 前几天 (three days
back) and 前阵子 (two weeks back), with an optional time of day
(前天下午3点 is 15:00: 下午/晚上 add twelve hours)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from graphmem.providers.extractors.timeparse_calendar import (
    Handler,
    TimeRule,
    add_months,
    make_date,
    past_date,
    shift,
)

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
# vague recent days: 前几天 "a few days ago" is three days back, 前阵子 "a while ago" two weeks
_ZH_RECENT_WORDS = {
    "前几天": -3,
    "前些天": -3,
    "前两天": -2,
    "这几天": 0,
    "这两天": 0,
    "前些日子": -7,
    "前阵子": -14,
    "前一阵子": -14,
    "前一阵": -14,
    "前段时间": -14,
    "前一段时间": -14,
    "前不久": -7,
    "不久前": -7,
    "不久之前": -7,
    "没多久前": -7,
}
_ZH_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1}


def zh_number(text: str) -> int | None:
    """Parse "3", "十二", "二十", "两", "二〇一九" (digit by digit) into an int."""
    if text.isdigit():
        return int(text)
    if len(text) == 2 and all(ch in _ZH_DIGITS for ch in text):
        low, high = _ZH_DIGITS[text[0]], _ZH_DIGITS[text[1]]
        if 0 < low < high:  # 两三天 / 三五年: a range, its lower end
            return low
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
    return 6 if wd in ("日", "天", "7") else (int(wd) - 1 if wd.isdigit() else "一二三四五六".index(wd))


def _zh_day(m: re.Match[str], ref: datetime) -> datetime | None:
    word = m.group("w")
    return _with_tod(ref + timedelta(days=_ZH_DAY_WORDS[word]), m, evening=word.endswith("晚"))


def _zh_recent(m: re.Match[str], ref: datetime) -> datetime | None:
    return ref + timedelta(days=_ZH_RECENT_WORDS[m.group("w")])


def _zh_weekend(m: re.Match[str], ref: datetime) -> datetime | None:
    """周末 is the latest Saturday; 上周末 / 这周末 / 下周末 the Saturday of that calendar week."""
    rel = m.group("rel")
    if rel is None:
        return ref - timedelta(days=(ref.weekday() - 5) % 7)
    weeks = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1}[rel]
    return ref - timedelta(days=ref.weekday()) + timedelta(days=7 * weeks + 5)


def _zh_half_ago(m: re.Match[str], ref: datetime) -> datetime | None:
    return add_months(ref, -6) if m.group("unit") == "年" else ref - timedelta(days=15)


_SEASON_MONTH = {"春": 3, "夏": 6, "秋": 9, "冬": 12}
_SEASON = r"(?P<s>春|夏|秋|冬)(?:天|季|季度)"


def _zh_half_later(m: re.Match[str], ref: datetime) -> datetime | None:
    """半年后 / 半个月以后: half a year or a month ahead."""
    return add_months(ref, 6) if m.group("unit") == "年" else ref + timedelta(days=15)


def _zh_season(m: re.Match[str], ref: datetime) -> datetime | None:
    """去年春天 / 2019年夏天 / 今年冬季: the first day of the season's first month (spring March,
    summer June, autumn September, winter December of that year)."""
    word, year = m.groupdict().get("w"), _zh_group(m, "year")
    if year is None:
        year = ref.year + _ZH_YEAR_WORDS[word] if word else ref.year
    return make_date(year, _SEASON_MONTH[m.group("s")], 1)


_MONTH_PART = {"初": 1, "上旬": 1, "中": 15, "中旬": 15, "下旬": 21, "底": 28, "末": 28}
_YEAR_PART = {"初": 1, "中": 7, "底": 12, "末": 12}


# 年中 not in 年中秋 (the festival) / 年中国 (China); 年初 not in 年初一 (a lunar day)
_YEAR_PART_RE = r"(?P<part>初(?![一二三四五六七八九十])|中(?![秋国文])|底|末)"
_MONTH_PART_RE = r"(?P<part>初(?![一二三四五六七八九十])|上旬|中旬|下旬|中(?![秋国文])|底|末)"


def _zh_year_part(m: re.Match[str], ref: datetime) -> datetime | None:
    """2021年底 / 2021年年末 / 二〇二〇年初 / 2019年中: that year's December, January or July (the
    English "end of 2021", "start of 2021", "middle of 2019")."""
    year = _zh_group(m, "year")
    return None if year is None else make_date(year, _YEAR_PART[m.group("part")], 1)


def _zh_month_part(m: re.Match[str], ref: datetime) -> datetime | None:
    """3月底 / 2021年3月初 / 去年5月中旬: that month's part (初 the 1st, 中 the 15th, 底 the 28th);
    with no year, the latest such month not ahead."""
    month, day = _zh_group(m, "m"), _MONTH_PART[m.group("part")]
    if month is None or not 1 <= month <= 12:
        return None
    year, word = _zh_group(m, "year"), m.groupdict().get("w")
    if word:
        year = ref.year + _ZH_YEAR_WORDS[word]
    return make_date(year, month, day) if year is not None else past_date(ref, month, day)


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
    shifted = add_months(ref, months)
    part = m.groupdict().get("part")
    if part:  # 上个月底 / 这个月初
        return shifted.replace(day=_MONTH_PART[part])
    if day is None:
        return shifted if months else shifted.replace(day=1)
    return _with_tod(make_date(shifted.year, shifted.month, day), m)


def _zh_year_rel(m: re.Match[str], ref: datetime) -> datetime | None:
    years = _ZH_YEAR_WORDS[m.group("w")]
    part = m.groupdict().get("part")
    if part:  # 去年年底 / 今年初
        return make_date(ref.year + years, _YEAR_PART[part], 1)
    month, day = _zh_group(m, "m"), _zh_group(m, "d")
    if month is None:
        return add_months(ref, 12 * years) if years else ref.replace(month=1, day=1)
    return _with_tod(make_date(ref.year + years, month, day or 1), m)


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
        amount = 3 if m.group("n") == "几" else _zh_group(m, "n")  # 几天前: a few, three
        return None if amount is None else shift(ref, units[m.group("unit")], sign * amount)

    return handler


def _zh_ymd(m: re.Match[str], ref: datetime) -> datetime | None:
    year, month, day = _zh_group(m, "year"), _zh_group(m, "m"), _zh_group(m, "d")
    if year is None:
        return None
    return _with_tod(make_date(year, month or 1, day or 1), m)


def _zh_md(m: re.Match[str], ref: datetime) -> datetime | None:
    month, day = _zh_group(m, "m"), _zh_group(m, "d")
    if month is None or not 1 <= month <= 12:
        return None
    return _with_tod(past_date(ref, month, day or 1), m)


def _zh_lasted(m: re.Match[str], ref: datetime) -> datetime | None:
    """住了三年 / 已经两个多月了 / 一住就是十年: how long a state has lasted, so its start, reaching
    back from the reference time (半年 six months, 一年半 eighteen)."""
    unit, raw = m.group("unit") or m.group("unit2"), m.group("n")
    amount = 3 if raw in ("几", "好几", "好多", "很多", "许多") else (0 if raw == "半" else zh_number(raw))
    if amount is None:
        return None
    if unit == "年":
        return add_months(ref, -(12 * amount + (6 if raw == "半" or m.group("half") else 0)))
    if unit == "月":
        return add_months(ref, -amount) - timedelta(days=15 if raw == "半" or m.group("half") else 0)
    days = {"天": 1, "周": 7, "星期": 7, "礼拜": 7}[unit] * amount
    return ref - timedelta(days=days)


def _zh_these_years(m: re.Match[str], ref: datetime) -> datetime | None:
    """这几年 / 近两年 / 这些年 / 这半年: a state held over the last few years (or months), so its start."""
    raw, unit = m.group("n"), m.group("unit")
    amount = {"几": 3, "些": 3, "么多": 5, "半": 0}.get(raw) or zh_number(raw) or 3
    months = 6 if raw == "半" else amount * (12 if unit == "年" else 1)
    return add_months(ref, -months)


def _zh_until_end(m: re.Match[str], ref: datetime) -> datetime | None:
    """(到)去年为止 / 2020年底为止 / 上个月为止: up to the end of that year or month, so the first
    day after it (the end of a state that lasted through it)."""
    word, year = m.groupdict().get("w"), _zh_group(m, "year")
    if m.groupdict().get("rel"):
        months = {"上上": -2, "上": -1}[m.group("rel")]
        shifted = add_months(ref, months + 1)
        return make_date(shifted.year, shifted.month, 1)
    if year is None:
        if word is None:
            return None
        year = ref.year + _ZH_YEAR_WORDS[word]
    return make_date(year + 1, 1, 1)


def _zh_ago_season(m: re.Match[str], ref: datetime) -> datetime | None:
    """三年前的夏天 / 两年前的冬天: the season of the year that many years back."""
    amount = _zh_group(m, "n")
    if amount is None:
        return None
    return make_date(ref.year - amount, _SEASON_MONTH[m.group("s")], 1)


def _zh_unknown(m: re.Match[str], ref: datetime) -> datetime | None:
    """那年夏天 / 那时候 / 那会儿: a time the sentence alone does not tell; cut, never dated."""
    return None


# how long a stay lasted before what came next (住了三年后搬走了, 在华为干两年后去了腾讯): no time ahead
_NOT_AFTER_STAY = r"(?<!了)(?<!过)(?<!住)(?<!干)(?<!待)(?<!呆)(?<!作)(?<!班)(?<!做)(?<!读)(?<!书)(?<!学)"
# 去日本待了一周 / 在东京住了三天: a stay of days or weeks is a visit; the words stay for the rules
_NOT_A_VISIT = (
    rf"(?!(?<=[待呆住玩逛]了)(?:整整|足足|大概|大约)?(?:{_ZN}|好几|几|半)个?(?:天|日|周|星期|礼拜))"
)
# a time told by what happened then (疫情那年, 毕业那年, 大学毕业以后): not dated, cut
_EVENT = (
    r"(?:疫情|新冠|非典|(?:大学|研究生|博士|硕士|高中|本科)?毕业|结婚|生孩子|生娃|孩子出生|高考|上大学|读研)"
)
# 毕业以后 stays (从复旦毕业后去了华为 is read by the rules: the school and what came after)
_AFTER_EVENT = r"(?:疫情|结婚|生孩子|生娃|孩子出生)"

ZH_RULES: tuple[TimeRule, ...] = (
    TimeRule(
        rf"(?:(?P<w>大前年|前年|去年|今年)|(?P<year>{_ZH_YEAR})年|(?P<rel>上上|上)个?月)(?:年?底|年?末)?为止",
        _zh_until_end,
    ),
    TimeRule(rf"(?P<n>{_ZN})年(?:前|以前|之前)的?{_SEASON}", _zh_ago_season),
    TimeRule(rf"{_EVENT}的?(?:那(?:一)?年|那会儿?|那时候?|期间)|{_AFTER_EVENT}(?:以后|之后|后)", _zh_unknown),
    TimeRule(
        r"(?:这|(?<![将接])近|最近|过去|这么)(?P<n>几|两|三|四|五|些|么多|十几|半)个?(?P<unit>年|月)(?:来|里|间|中)?",
        _zh_these_years,
    ),
    TimeRule(r"那(?:一)?年(?:的)?(?:春天|夏天|秋天|冬天|年初|年底|年末)?|那时候?|那会儿?", _zh_unknown),
    TimeRule(rf"{_NOT_AFTER_STAY}半个?(?P<unit>年|月)(?:后|以后|之后)", _zh_half_later, future=True),
    TimeRule(rf"(?P<w>大前年|前年|去年|今年)的?{_SEASON}", _zh_season),
    TimeRule(rf"(?P<w>明年)的?{_SEASON}", _zh_season, future=True),
    TimeRule(rf"(?P<year>{_ZH_YEAR})年的?{_SEASON}", _zh_season),
    TimeRule(rf"(?P<w>{'|'.join(sorted(_ZH_RECENT_WORDS, key=len, reverse=True))})", _zh_recent),
    TimeRule(rf"(?P<w>大前天|前天|昨天|昨日|昨晚|今天|今日|今晚|今早){_ZH_TOD}", _zh_day),
    TimeRule(rf"(?P<w>明天|后天){_ZH_TOD}", _zh_day, future=True),
    TimeRule(r"(?:(?P<rel>上上|上|这|本)个?)?周末", _zh_weekend),
    TimeRule(r"(?P<rel>下)个?周末", _zh_weekend, future=True),
    TimeRule(r"半个?(?P<unit>年|月)(?:前|以前|之前)", _zh_half_ago),
    TimeRule(rf"(?P<rel>上上|上|这|本)个?(?:周|星期|礼拜){_ZH_WD}?{_ZH_TOD}", _zh_week),
    TimeRule(rf"(?P<rel>下)个?(?:周|星期|礼拜){_ZH_WD}?{_ZH_TOD}", _zh_week, future=True),
    TimeRule(r"(?P<rel>上上|上|这|本)个?月(?P<part>初|上旬|中旬|下旬|底|末)", _zh_month_rel),
    TimeRule(rf"(?P<rel>上上|上|这|本)个?月(?:(?P<d>{_ZN})[日号])?{_ZH_TOD}", _zh_month_rel),
    TimeRule(rf"(?P<rel>下)个?月(?:(?P<d>{_ZN})[日号])?{_ZH_TOD}", _zh_month_rel, future=True),
    TimeRule(
        rf"(?:(?P<w>大前年|前年|去年|今年)|(?P<year>{_ZH_YEAR})年)?(?P<m>{_ZN})月份?{_MONTH_PART_RE}",
        _zh_month_part,
    ),
    TimeRule(r"(?P<w>大前年|前年|去年|今年)年?(?P<part>初|中|底|末)", _zh_year_rel),
    TimeRule(rf"(?P<year>{_ZH_YEAR})年年?{_YEAR_PART_RE}", _zh_year_part),
    TimeRule(
        rf"(?P<w>大前年|前年|去年|今年)(?:(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?)?{_ZH_TOD}",
        _zh_year_rel,
    ),
    TimeRule(rf"(?P<w>明年)(?:(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?)?", _zh_year_rel, future=True),
    TimeRule(rf"(?P<n>{_ZN}|几)个?(?P<unit>天|日|周|星期|礼拜|月|年)(?:前|以前|之前)", _zh_ago(-1)),
    TimeRule(
        rf"{_NOT_AFTER_STAY}(?P<n>{_ZN})个?(?P<unit>天|周|星期|礼拜|月|年)(?:后|以后|之后)",
        _zh_ago(1),
        future=True,
    ),
    TimeRule(rf"(?P<year>{_ZH_YEAR})年(?:(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?)?{_ZH_TOD}", _zh_ymd),
    TimeRule(rf"(?P<m>{_ZN})月份?(?:(?P<d>{_ZN})[日号])?{_ZH_TOD}", _zh_md),
    TimeRule(rf"(?:周|星期|礼拜){_ZH_WD}{_ZH_TOD}", _zh_bare_weekday),
    # a duration last: 三月 is March (above), 三个月 three months; never after 过 (过几天 is ahead,
    # 干过两年 the experiential aspect: both left to the extractor); 快/将近/差不多 before it stay in
    # the sentence, where they tell the extractor that a state has lasted (我来南京快三年了)
    TimeRule(
        rf"(?<!过){_NOT_A_VISIT}(?:整整|足足|大概|大约)?(?P<n>{_ZN}|好几|好多|很多|许多|几|半)"
        r"(?:(?P<unit>年|天|周|星期|礼拜)|个多?(?P<unit2>月))(?P<half>半)?多?",
        _zh_lasted,
    ),
)
