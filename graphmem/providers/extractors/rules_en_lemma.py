"""The verb lemma an open predicate is named after, with the small English model's lemma slips
mended by one spelling principle each (no word list):

- a doubled consonant before a lemma's final "e" is the lemmatizer's "-ing/-ed → -e" rule applied
  to a doubled form: "prepping" → "preppe" → prep, "blogging" → "blogge" → blog;
- a one-syllable lemma ending consonant-vowel-consonant doubles that consonant before -ing/-ed
  ("hop" → "hopping"), so a form that did not double it comes from a lemma in "e": "hoping" →
  hope, "riding" → ride, "taped" → tape (w, x, y never double: "fixing" stays fix).

``verb_lemma`` is the only source of an open predicate's verb: the predicate is
``third_person(verb_lemma(token))``, never built from the token's surface form.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Token

_VOWELS = "aeiou"
_DOUBLED_E = re.compile(r"([b-df-hj-np-tv-z])\1e$")
_CVC = re.compile(r"^[^aeiou]*[aeiou][b-df-hj-np-tv]$")


def mend_lemma(surface: str, lemma: str) -> str:
    """``lemma`` with the slips of the module docstring mended, given the verb's ``surface`` form."""
    low, lem = surface.lower(), lemma.lower()
    if _DOUBLED_E.search(lem) and low.endswith(("ing", "ed")) and lem[:-1] in low:
        return lem[:-2]  # "preppe" → "prep"
    stem = low[:-3] if low.endswith("ing") else low[:-2] if low.endswith("ed") else ""
    if stem and stem == lem and _CVC.match(lem):
        return lem + "e"  # "hoping" read as "hop" → "hope"
    return lem


def verb_lemma(token: Token) -> str:
    """The lower-case lemma of a verb token, mended (module docstring)."""
    return mend_lemma(token.text, token.lemma_)
