"""Self-repairs said in the same breath as the mistake: "I live in Austin — sorry, I mean Dallas",
"I work at Initech, er, Globex", "... scratch that, Globex", "Wait, no, Dallas." (a sentence of its
own after the wrong one), "My mistake, it's Globex."

A repair is a run of repair markers at the end of a sentence (after a comma, a dash, an ellipsis or
at the sentence start), then a short replacement value (one to four words, optionally after "it's"
or "that's"). The run needs at least one marker that announces a repair (sorry, oops, wait, er/um,
scratch that, my mistake, correction, I mean, or rather, make that, actually); "no" and "well"
alone do not ("I like cats, no dogs").

``find_repair`` returns where the repair starts and its value; ``fits`` tells whether a value can
replace a claim's value (a name for a name, a common noun phrase for one), so a hesitation before
more words ("I work at Initech, um, as an engineer") changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STRONG = (
    r"sorry|oops|whoops|wait|er|erm|um|uh|uhh|umm|scratch that|my mistake|my bad|correction|"
    r"i mean|i meant(?: to say)?|or rather|rather|make that|i should say|let me rephrase|"
    r"i misspoke|strike that|actually"
)
_WEAK = r"no|nope|well"
_MARKER = rf"(?:{_STRONG}|{_WEAK})"
_SEP = r"(?:\s*[,;:!.\u2014\u2013]+\s*|\s+-+\s+|\s*\.\.\.\s*|\s+)"
_REPAIR = re.compile(
    rf"(?:^|(?<=[,;\u2014\u2013.])\s*|\s+-+\s+|\s+)(?P<markers>{_MARKER}(?:{_SEP}{_MARKER})*)"
    rf"{_SEP}(?:(?:it's|it is|that's|that is)\s+)?"
    r"(?P<fix>(?:(?:an?|the)\s+)?[^\s,;!?.]+(?:\s+[^\s,;!?.]+){0,3})[\s.,!]*$",
    re.IGNORECASE,
)  # a trailing comma: the time phrase after the repair was cut ("..., no wait, to Osaka, last month")
_STRONG_WORD = re.compile(rf"\b(?:{_STRONG})\b", re.IGNORECASE)
# a bare "no" set off by commas or dashes after the value repairs it ("a pharmacist, no, a chef"),
# unlike "I like cats, no dogs"
_BARE_NO = re.compile(r"(?:no|nope)\s*[,—–-]", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)
_PREPOSITION = re.compile(
    r"^(?i:at|in|for|with|from|to|into)\s+(?=[A-Z])"
)  # "oops, no, at Globex", "sorry, to Leeds"
_APOLOGY = re.compile(r"\b(?:i'm|i am|am|so|very|really|truly|terribly)\s*$", re.IGNORECASE)
_NOT_A_VALUE = re.compile(
    r"^(?:i|we|you|he|she|they|it|that|this|as|at|in|on|for|with|to|from|of|and|but|so|not|"
    r"just|really|very|also|too|then|anyway|though|about|if|because|again|by|into|earlier|before|there|"
    r"here|now|today|yesterday|lately|recently)\b",
    re.IGNORECASE,
)


_TRAILING = re.compile(r"\s+(?:actually|rather|instead|i mean|sorry)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Repair:
    start: int
    value: str


# "I live in Paris, not Paris, Lyon", "Not Paris, Lyon.": the wrong value named, then the right one
_NOT_THIS = re.compile(
    r"(?:^|(?<=[,;\u2014\u2013.])\s*|\s+-+\s+|\s+)not\s+(?:(?:in|at|with|for|an?|the)\s+)?"
    r"(?P<wrong>[^\s,;!?.]+(?:\s+[^\s,;!?.]+){0,2})\s*[,;:\u2014\u2013]\s*(?:(?:it's|it is|but)\s+)?"
    r"(?P<fix>(?:(?:in|at|with|for|an?|the)\s+)?[^\s,;!?.]+(?:\s+[^\s,;!?.]+){0,3})[\s.!]*$",
    re.IGNORECASE,
)


def find_repair(text: str) -> Repair | None:
    """The same-breath repair at the end of ``text`` (see the module docstring), or None."""
    return _marked_repair(text) or _not_this(text)


def _not_this(text: str) -> Repair | None:
    """ "..., not Paris, Lyon": a repair when both values are alike (two names, two common nouns)
    and, inside a sentence, the wrong one was said before ("I like cats, not dogs, honestly" is none)."""
    m = _NOT_THIS.search(text)
    if m is None:
        return None
    wrong = _ARTICLE.sub("", _PREPOSITION.sub("", m.group("wrong").strip()))
    value = _ARTICLE.sub("", _PREPOSITION.sub("", m.group("fix").strip()))
    if not value or _NOT_A_VALUE.match(value) or _NOT_A_VALUE.match(wrong) or not fits(value, wrong):
        return None
    if m.start() > 0 and wrong.casefold() not in text[: m.start()].casefold():
        return None
    return Repair(m.start(), value)


def _marked_repair(text: str) -> Repair | None:
    m = _REPAIR.search(text)
    if m is None:
        return None
    fix = m.group("fix").strip()
    # "I live in Paris, well, Lyon actually": the strong marker may come after the value
    trailing = _TRAILING.search(fix)
    if trailing is not None and trailing.start() > 0:
        fix = fix[: trailing.start()].strip()
    elif not _STRONG_WORD.search(m.group("markers")) and not _BARE_NO.match(text, m.start("markers")):
        return None
    if _APOLOGY.search(text[: m.start("markers")]):  # "I'm sorry about that", "so sorry"
        return None
    value = _ARTICLE.sub("", _PREPOSITION.sub("", fix))  # "oops, no, at Globex"
    if not value or _NOT_A_VALUE.match(value):
        return None
    return Repair(m.start(), value)


def fits(value: str, wrong: str) -> bool:
    """A name replaces a name, a common phrase a common phrase: "Austin" → "Dallas", "teacher" →
    "tutor", not "Initech" → "as an engineer"."""
    return value[:1].isupper() == wrong[:1].isupper() and len(value.split()) <= max(4, len(wrong.split()) + 1)
