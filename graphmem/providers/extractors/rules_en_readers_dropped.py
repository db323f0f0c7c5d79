"""A chat sentence that drops its "I" before a past verb: "Been working on some projects and
testing out dessert recipes", "Got some awesome hiking stuff", "Finished my first marathon".

The small model often reads such an opening verb as a name or a noun ("Got" NNP) or leaves the
clause without a subject, so no reader fires. When the sentence's first word (after an opening
adverb: "Just", "Finally", "Also"...) is a past form the lemmatizer knows as a verb and nothing in
the sentence is its subject, the sentence is read again with the speaker written in ("I've been
working on ...", "I got some ..."), and the statement readers judge it like any other (negation,
questions, the gates). One parse more, only for such sentences.

Not for a verb with "me" after it ("Really made me proud", "Been hectic for me": the dropped
subject is a thing, "it"), "took" of an effort ("Took some trial and error"), an imperative or a
present verb ("Need help with X", "Love it!": a request, a reaction),
a participle that opens a phrase about something else ("Made in Italy, this bag ..."), or a word
that has a subject after it ("Got a minute?" is a question, never parsed; "Went the kids to ..."
no).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import parse
from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_en_parse import Speakers
from graphmem.providers.extractors.rules_en_readers_relative import restated_claims

if TYPE_CHECKING:
    from spacy.tokens import Doc

_OPENERS = frozenset("just finally also recently actually really so and then lately".split())
_EFFORT = frozenset("trial while time effort work patience courage guts ages forever lot bit".split())
_PAST_FORMS = frozenset(
    "got had went made finished started tried took bought spent visited joined baked painted watched "
    "saw met won began learned learnt picked signed found built wrote drew cooked ran hiked adopted "
    "booked tested volunteered skyped completed launched opened lost moved graduated celebrated "
    "received attended returned".split()
)


def dropped_sentence(doc: Doc) -> str | None:
    """``doc`` with the speaker written in before its opening past verb, or None (module docstring)."""
    at = 0
    while at < len(doc) and doc[at].lower_ in _OPENERS:
        at += 1
    if at >= len(doc) - 2 or doc.text.rstrip().endswith("?"):
        return None
    word = doc[at]
    low = word.lower_
    if low == "been":
        subject = "I've"
    elif low in _PAST_FORMS:
        subject = "I"
    else:
        return None
    if any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in word.children):
        return None  # a subject of its own; the forms above are past only (no "read", "quit"), so a
        # present tag is the small model's misreading ("Lost my job ..." tagged VB)
    if any(t.lower_ in ("me", "myself") for t in word.subtree):
        return None  # "(It) made me proud", "(It's) been hectic for me": the dropped subject is a thing
    if low == "took" and any(t.lower_ in _EFFORT for t in doc[word.i + 1 : word.i + 4]):
        return None  # "(It) took some trial and error", "took a while"
    if word.dep_ in ("acl", "amod") or (word.i + 1 < len(doc) and doc[word.i + 1].lower_ in ("in", "by")):
        return None  # "Made in Italy, ...", "Painted by my aunt"
    opener = doc[:at].text.lower()
    return " ".join(f"{subject} {opener} {low}{doc[at:].text[len(word.text) :]}".split())


def dropped_claims(doc: Doc, speakers: Speakers) -> list[tuple[Claim, str]]:
    """The statement readers' claims for ``doc`` read with its dropped "I" written in."""
    text = dropped_sentence(doc)
    return restated_claims([parse(text)], speakers) if text else []
