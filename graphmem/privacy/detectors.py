"""PII detectors: each finds candidates with a pattern and keeps only those its validator accepts.

Kinds (``Kind``): ``EMAIL``; ``PHONE`` (international ``+<country> …``, North American
``(555) 123-4567`` / ``555-123-4567``, Chinese mobile ``138 1234 5678`` with or without ``+86``,
Chinese landline ``010-12345678`` / ``(0755)1234567``); ``CARD`` (13-19 digits, a known issuer
prefix and length, Luhn-checked); ``CN_ID`` (18-character resident ID: region, a real birth date,
ISO 7064 MOD 11-2 check character); ``IBAN`` (country length table and the mod-97 check); ``IP``
(IPv4 and IPv6, parsed by ``ipaddress``).

Numbers are matched only as whole tokens: not inside a longer run of ASCII letters or digits, nor
after ``-``, ``#``, ``/``, ``_`` or ``.`` (an order number ``ORD-2024-0001234`` or the tail of a
version ``1.2.3.4.5`` is no phone or address). CJK text around a value is a boundary, so
``电话13812345678。`` finds the number. Overlaps resolve to the longest span, then by the order of
``DETECTORS``. Every detection carries a ``canonical`` form (emails lower-cased, phones as
``+<digits>`` where the country is known, cards and IDs without separators, addresses compressed)
so that two spellings of one value share one token.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Literal

Kind = Literal["EMAIL", "PHONE", "CARD", "CN_ID", "IBAN", "IP"]


@dataclass(frozen=True)
class Detection:
    kind: Kind
    start: int
    end: int
    value: str  # the text as written
    canonical: str  # what the token is derived from


# not inside a longer ASCII word/number, nor the tail of "ORD-…", "#…", "a/…", "x_…", "1.2.…"
_B = r"(?<![0-9A-Za-z#/_.\-+])"
_E = r"(?![0-9A-Za-z])"
_E_DIGIT = r"(?![0-9A-Za-z]|[.\-/][0-9])"  # nor followed by ".5" / "-12": a longer number


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


# --- email --------------------------------------------------------------------------------------
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9](?:[A-Za-z0-9._%+\-]{0,62}[A-Za-z0-9])?"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9\-])"
)


def _emails(text: str) -> list[Detection]:
    out = []
    for m in _EMAIL.finditer(text):
        local = m.group().split("@", 1)[0]
        if ".." in local:
            continue
        out.append(Detection("EMAIL", m.start(), m.end(), m.group(), m.group().lower()))
    return out


# --- phones -------------------------------------------------------------------------------------
_INTL = re.compile(_B + r"\+\d{1,3}(?:[ .\-]?\(?\d{1,5}\)?){1,6}" + _E_DIGIT)
_NANP = re.compile(
    _B + r"(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}(?P<sep>[ .\-]))\d{3}(?(sep)(?P=sep)|[ .\-])\d{4}" + _E_DIGIT
)
_CN_MOBILE = re.compile(_B + r"(?:(?:\+|00)86[ \-]?)?1[3-9]\d(?:[ \-]?\d{4}){2}" + _E_DIGIT)
_CN_AREA = r"0(?:10|2\d|[3-9]\d{2})"  # Beijing 010, 02x, then 0 + three digits
_CN_LANDLINE = re.compile(
    _B
    + rf"(?:\({_CN_AREA}\)[ ]?|{_CN_AREA}[ \-])(?:\d{{7,8}}|\d{{3,4}}[ \-]\d{{4}})(?:-\d{{1,4}})?"
    + _E_DIGIT
)
_CN_MOBILE_DIGITS = re.compile(r"^(1[3-9]\d{9})$")
_CN_PREFIXED_DIGITS = re.compile(r"^(?:0086|86)(1[3-9]\d{9})$")


def _phone_canonical(text: str, *, nanp: bool = False) -> str:
    digits = _digits(text)
    prefixed = text.startswith(("+", "00"))
    mobile = (_CN_PREFIXED_DIGITS if prefixed else _CN_MOBILE_DIGITS).match(digits)
    if mobile:
        return "+86" + mobile.group(1)
    if nanp:
        return "+1" + digits
    return ("+" if text.startswith("+") else "") + digits


def _phones(text: str) -> list[Detection]:
    out = []
    for m in _INTL.finditer(text):
        digits = _digits(m.group())
        if 8 <= len(digits) <= 15 and not re.search(r"[ .\-]{2}", m.group()):
            out.append(Detection("PHONE", m.start(), m.end(), m.group(), _phone_canonical(m.group())))
    for m in _NANP.finditer(text):
        out.append(Detection("PHONE", m.start(), m.end(), m.group(), _phone_canonical(m.group(), nanp=True)))
    for pattern in (_CN_MOBILE, _CN_LANDLINE):
        for m in pattern.finditer(text):
            out.append(Detection("PHONE", m.start(), m.end(), m.group(), _phone_canonical(m.group())))
    return out


# --- payment cards ------------------------------------------------------------------------------
_CARD = re.compile(
    _B
    + r"(?:\d{13,19}|\d{4}(?P<s>[ \-])\d{4}(?P=s)\d{4}(?P=s)\d{1,7}|\d{4}(?P<a>[ \-])\d{6}(?P=a)\d{4,5})"
    + _E_DIGIT
)

# issuer prefixes (IIN ranges) and the lengths each issues
_ISSUERS: tuple[tuple[int, int, frozenset[int]], ...] = (
    (4, 4, frozenset({13, 16, 19})),  # Visa
    (51, 55, frozenset({16})),  # Mastercard
    (2221, 2720, frozenset({16})),  # Mastercard 2-series
    (34, 34, frozenset({15})),  # American Express
    (37, 37, frozenset({15})),
    (6011, 6011, frozenset(range(16, 20))),  # Discover
    (644, 649, frozenset(range(16, 20))),
    (65, 65, frozenset(range(16, 20))),
    (3528, 3589, frozenset(range(16, 20))),  # JCB
    (62, 62, frozenset(range(16, 20))),  # UnionPay
    (300, 305, frozenset(range(14, 20))),  # Diners Club
    (36, 36, frozenset(range(14, 20))),
    (38, 39, frozenset(range(16, 20))),
)


def luhn_ok(digits: str) -> bool:
    """The Luhn (mod 10) check of a digit string."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_ok(digits: str) -> bool:
    """A plausible card number: a known issuer prefix with one of its lengths, and the Luhn check."""
    if not digits.isdigit() or not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    known = any(
        lo <= int(digits[: len(str(lo))]) <= hi and len(digits) in lengths for lo, hi, lengths in _ISSUERS
    )
    return known and luhn_ok(digits)


def _cards(text: str) -> list[Detection]:
    out = []
    for m in _CARD.finditer(text):
        digits = _digits(m.group())
        if card_ok(digits):
            out.append(Detection("CARD", m.start(), m.end(), m.group(), digits))
    return out


# --- Chinese resident identity card -------------------------------------------------------------
_CN_ID = re.compile(
    _B + r"[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]" + _E
)
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def cn_id_ok(text: str) -> bool:
    """GB 11643: 6-digit region, a real birth date (YYYYMMDD), 3-digit sequence, the check character."""
    value = text.upper()
    if len(value) != 18 or not value[:17].isdigit() or value[0] == "0":
        return False
    try:
        date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    total = sum(int(ch) * w for ch, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17]


def _cn_ids(text: str) -> list[Detection]:
    return [
        Detection("CN_ID", m.start(), m.end(), m.group(), m.group().upper())
        for m in _CN_ID.finditer(text)
        if cn_id_ok(m.group())
    ]


# --- IBAN -------------------------------------------------------------------------------------------
_IBAN = re.compile(r"(?<![0-9A-Za-z])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?" + _E)
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24,
    "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21,
    "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31,
    "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
    "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}  # fmt: skip


def iban_ok(text: str) -> bool:
    """The country's IBAN length and ISO 13616 mod-97 == 1."""
    value = text.replace(" ", "").upper()
    if _IBAN_LENGTHS.get(value[:2]) != len(value) or not value.isalnum():
        return False
    moved = value[4:] + value[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def _ibans(text: str) -> list[Detection]:
    return [
        Detection("IBAN", m.start(), m.end(), m.group(), m.group().replace(" ", ""))
        for m in _IBAN.finditer(text)
        if iban_ok(m.group())
    ]


# --- IP addresses ---------------------------------------------------------------------------------
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = re.compile(r"(?<![0-9A-Za-z.:])" + rf"{_OCTET}(?:\.{_OCTET}){{3}}" + r"(?![0-9A-Za-z]|\.[0-9])")
_IPV6 = re.compile(
    r"(?<![0-9A-Za-z:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|\d{1,3}(?:\.\d{1,3}){3})?(?![0-9A-Za-z:])"
)


def _ips(text: str) -> list[Detection]:
    out = [
        Detection("IP", m.start(), m.end(), m.group(), str(ipaddress.IPv4Address(m.group())))
        for m in _IPV4.finditer(text)
    ]
    for m in _IPV6.finditer(text):
        candidate = m.group()
        if len(re.findall(r"[0-9A-Fa-f]+", candidate)) < 2:
            continue  # "::", "::1" alone and similar are no one's address
        try:
            address = ipaddress.IPv6Address(candidate)
        except ValueError:
            continue
        out.append(Detection("IP", m.start(), m.end(), candidate, address.compressed))
    return out


Detector = Callable[[str], list[Detection]]
DETECTORS: tuple[tuple[Kind, Detector], ...] = (
    ("EMAIL", _emails),
    ("IBAN", _ibans),
    ("CN_ID", _cn_ids),
    ("CARD", _cards),
    ("PHONE", _phones),
    ("IP", _ips),
)
_PRIORITY = {kind: i for i, (kind, _) in enumerate(DETECTORS)}


def detect(text: str) -> list[Detection]:
    """Every PII value in ``text``, non-overlapping, in text order."""
    found = [d for _, find in DETECTORS for d in find(text)]
    found.sort(key=lambda d: (-(d.end - d.start), _PRIORITY[d.kind], d.start))
    taken: list[Detection] = []
    for d in found:
        if all(d.end <= t.start or d.start >= t.end for t in taken):
            taken.append(d)
    return sorted(taken, key=lambda d: d.start)
