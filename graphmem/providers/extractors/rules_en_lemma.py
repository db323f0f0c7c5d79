"""The verb lemma an open predicate is named after, with the small English model's lemma slips
mended by one spelling principle each (no word list):

- a doubled consonant before a lemma's final "e" is the lemmatizer's "-ing/-ed → -e" rule applied
  to a doubled form: "prepping" → "preppe" → prep, "blogging" → "blogge" → blog;
- a one-syllable lemma ending consonant-vowel-consonant doubles that consonant before -ing/-ed
  ("hop" → "hopping"), so a form that did not double it comes from a lemma in "e": "hoping" →
  hope, "riding" → ride, "taped" → tape (w, x, y never double: "fixing" stays fix);
- a form the lemmatizer left whole ("roasted" as its own lemma) loses its ending by the same
  two rules: "roasted" → roast, "zipped" → zip, "baked" → bake; a present-tagged form in "-ed"
  ("We roasted marshmallows" read VBP) is such a form when the verb tables do not know it as a
  lemma ("need", "proceed", "embed" they know).

``verb_lemma`` is the only source of an open predicate's verb: the predicate is
``third_person(verb_lemma(token))``, never built from the token's surface form.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import known_verb

if TYPE_CHECKING:
    from spacy.tokens import Token

_VOWELS = "aeiou"
_DOUBLED_E = re.compile(r"([b-df-hj-np-tv-z])\1e$")
_CVC = re.compile(r"^[^aeiou]*[aeiou][b-df-hj-np-tv]$")


def mend_lemma(surface: str, lemma: str, tag: str = "") -> str:
    """``lemma`` with the slips of the module docstring mended, given the verb's ``surface`` form
    and its tag (a form left whole is mended only as a past form or a gerund)."""
    low, lem = surface.lower(), lemma.lower()
    if _DOUBLED_E.search(lem) and low.endswith(("ing", "ed")) and lem[:-1] in low:
        return lem[:-2]  # "preppe" → "prep"
    stem = low[:-3] if low.endswith("ing") else low[:-2] if low.endswith("ed") else ""
    if stem and stem == lem and _CVC.match(lem):
        return lem + "e"  # "hoping" read as "hop" → "hope"
    whole = (
        (tag == "VBG" and low.endswith("ing"))
        or (tag in ("VBD", "VBN") and low.endswith("ed"))
        or (tag in ("VBP", "VB") and low.endswith("ed") and not known_verb(low))
    )
    if whole and lem == low and len(stem) > 2 and any(v in stem for v in _VOWELS):
        # an unknown form left whole: "roasted" → roast
        if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS + "ls":
            return stem[:-1]  # "zipped" → zip
        return stem + "e" if _CVC.match(stem) else stem
    return lem


def verb_lemma(token: Token) -> str:
    """The lower-case lemma of a verb token, mended (module docstring)."""
    return mend_lemma(token.text, token.lemma_, token.tag_)
