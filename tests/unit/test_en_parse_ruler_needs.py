"""``en_parse.FastAttributeRuler`` runs spaCy's Matcher for the patterns it does not look up only on
docs where one of them can match (``_needs``): each names lower forms or dependency labels that
some token must have. The match list stays spaCy's own, whether the Matcher runs or not."""

from __future__ import annotations

from typing import Any

import pytest
import spacy
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc
from spacy.vocab import Vocab

from graphmem.providers.extractors import en_parse


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    return spacy.blank("en").vocab


def _doc(vocab: Vocab, words: list[str], deps: list[str] | None = None) -> Doc:
    deps = deps or ["dep"] * len(words)
    return Doc(vocab, words=words, tags=["NN"] * len(words), deps=deps, heads=[0] * len(words))


class _Counting:
    """The Matcher, counting its calls."""

    def __init__(self, matcher: Any) -> None:
        self.matcher = matcher
        self.calls = 0

    def __len__(self) -> int:
        return len(self.matcher)

    def __call__(self, doc: Doc, **kwargs: Any) -> Any:
        self.calls += 1
        return self.matcher(doc, **kwargs)


def _fast(vocab: Vocab, patterns: list[list[dict[str, Any]]]) -> tuple[AttributeRuler, Any, _Counting]:
    ruler = AttributeRuler(vocab)
    ruler.add(patterns=patterns, attrs={"POS": "VERB"})
    ruler.add(patterns=[[{"LOWER": "na"}]], attrs={"POS": "PART"})  # a looked-up pattern beside them
    fast = en_parse.FastAttributeRuler(ruler)
    counting = _Counting(fast.rest)
    fast.rest = counting
    return ruler, fast, counting


SENTENCES = [
    ["I", "'m", "gon", "na", "move"],
    ["gon", "there", "na"],  # both words, not adjacent: the Matcher runs and finds nothing
    ["I", "'m", "going", "to", "move"],
    ["na", "na", "na"],
    ["there", "is", "a", "cat"],
]


@pytest.mark.parametrize("words", SENTENCES)
def test_the_list_is_spacys_whether_or_not_the_matcher_runs(vocab: Vocab, words: list[str]) -> None:
    patterns = [
        [{"LOWER": "gon"}, {"LOWER": "na"}],
        [{"DEP": "expl"}, {"LOWER": {"IN": ["is", "are"]}}],
    ]
    ruler, fast, _ = _fast(vocab, patterns)
    for deps in (None, ["expl", "ROOT", "det", "attr"] if words[0] == "there" else None):
        doc = _doc(vocab, words, deps)
        assert fast.match(doc) == AttributeRuler.match(ruler, doc)


def test_the_matcher_is_skipped_where_no_pattern_can_match(vocab: Vocab) -> None:
    _, fast, counting = _fast(vocab, [[{"LOWER": "gon"}, {"LOWER": "na"}]])
    fast.match(_doc(vocab, ["I", "'m", "going", "to", "move"]))
    fast.match(_doc(vocab, ["na", "na"]))  # "na" alone is not enough
    assert counting.calls == 0
    fast.match(_doc(vocab, ["Gon", "na"]))  # the lower form, as the Matcher reads it
    assert counting.calls == 1


def test_a_dependency_label_is_a_need_too(vocab: Vocab) -> None:
    _, fast, counting = _fast(vocab, [[{"DEP": "expl"}, {"LOWER": "is"}]])
    fast.match(_doc(vocab, ["there", "is"], ["advmod", "ROOT"]))
    assert counting.calls == 0
    fast.match(_doc(vocab, ["there", "is"], ["expl", "ROOT"]))
    assert counting.calls == 1


@pytest.mark.parametrize(
    "pattern",
    [
        [{"LOWER": "gon", "OP": "?"}, {"TAG": "NN"}],  # a token the pattern may skip
        [{"TAG": "NN"}, {"ORTH": "x"}],  # nothing a lower form or label can rule out
        [{"LOWER": {"REGEX": "^g"}}, {"TAG": "NN"}],
    ],
)
def test_a_pattern_without_needs_always_runs(vocab: Vocab, pattern: list[dict[str, Any]]) -> None:
    ruler, fast, counting = _fast(vocab, [[{"LOWER": "gon"}, {"LOWER": "na"}], pattern])
    doc = _doc(vocab, ["I", "move", "x"])
    assert fast.match(doc) == AttributeRuler.match(ruler, doc)
    assert fast.needs is None and counting.calls == 1
