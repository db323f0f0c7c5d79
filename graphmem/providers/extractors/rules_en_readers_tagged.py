"""A statement that ends in a question after a dash: "I finished another pottery project - want
to see a pic?", "Just adopted a puppy – any tips on training?".

Every statement reader refuses a sentence that ends in "?", so the statement before the dash was
lost with its question. When the sentence ends in "?", the part before its last dash (" - ",
" – ", " — ") holds no "?" of its own and at least three words, and the part after it is short
(at most ten words: a tag question, not a second statement), the part before is read again as a
sentence of its own and the statement readers judge it like any other (negation, modals, the
gates). One parse more, only for such sentences. A question before the dash ("Have you been? -
it's lovely?"), a dash inside a word ("self-care?") and a long question after it give nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_en_parse import Speakers
from graphmem.providers.extractors.rules_en_readers_relative import restated_claims

if TYPE_CHECKING:
    from spacy.tokens import Doc

_DASH = re.compile(r"\s+[-–—]+\s+")
_TAG_WORDS = 10


def tagged_statement(text: str) -> str | None:
    """The statement before a trailing tag question after a dash, as a sentence, or None."""
    text = text.rstrip()
    if not text.endswith("?"):
        return None
    dashes = list(_DASH.finditer(text))
    if not dashes:
        return None
    cut = dashes[-1]
    head, tail = text[: cut.start()].strip(), text[cut.end() :].strip()
    if "?" in head or len(head.split()) < 3 or not tail or len(tail.split()) > _TAG_WORDS:
        return None
    return head.rstrip(" ,;:") + "."


def tagged_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The statement readers' claims for the statement before ``doc``'s tag question."""
    text = tagged_statement(doc.text)
    return restated_claims([parse(text)], speakers) if text else []
