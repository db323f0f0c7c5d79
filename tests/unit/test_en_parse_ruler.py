"""``en_parse.FastAttributeRuler``: the attribute ruler's match list, with one-token patterns looked
up by token key, is the list spaCy's Matcher gives, for the model's own 179 patterns and for
patterns the lookup does not handle (they stay in the Matcher)."""

from __future__ import annotations

import pytest
import spacy
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc
from spacy.vocab import Vocab

from graphmem.providers.extractors import en_parse

SENTENCES = [
    "I'm gonna move to Lisbon, y'all, and I gotta say it ain't cheap.",
    "Let's go!  There is a new café on 5th Ave. and there were 2 dogs there.",
    "C'mon, she's been working at the U.N. since '09 :) #blessed",
    "Wow\n\nthat's so cool... my bro's band played @ the Fox Theatre last night!!!",
    "Me and my wife adopted a pup named Max in 2022 and he's 3 now.",
]


def test_the_models_patterns_match_the_same_list() -> None:
    nlp = en_parse.pipeline()
    ruler = nlp.get_pipe("attribute_ruler")
    fast = en_parse.FastAttributeRuler(ruler)
    assert fast.single and len(fast.rest) > 0  # both paths are exercised
    with nlp.select_pipes(disable=["attribute_ruler", "lemmatizer"]):
        docs = list(nlp.pipe(SENTENCES))
    for doc in docs:
        assert fast.match(doc) == AttributeRuler.match(ruler, doc)
        assert fast.match(doc) == AttributeRuler.match(ruler, doc)  # from the remembered keys


def test_the_loaded_pipeline_uses_the_lookup() -> None:
    ruler = en_parse.pipeline().get_pipe("attribute_ruler")
    assert getattr(ruler.match, "__self__", None).__class__ is en_parse.FastAttributeRuler


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    return spacy.blank("en").vocab


def tagged(vocab: Vocab, words: list[str], tags: list[str], deps: list[str]) -> Doc:
    return Doc(vocab, words=words, tags=tags, deps=deps, heads=[0] * len(words))


@pytest.mark.parametrize(
    "patterns",
    [
        [[{"ORTH": "Dogs"}]],  # an attribute the lookup does not read
        [[{"LOWER": "dogs", "OP": "?"}]],  # an operator
        [[{"TAG": {"IS_SUBSET": ["NNS"]}}]],  # a set operator it does not handle
        [[{"LOWER": {"REGEX": "^d"}}, {"TAG": "VBP"}]],  # two tokens
        [[{"TAG": {"NOT_IN": ["NNS", "VBP"]}, "IS_SPACE": False}], [{"DEP": "ROOT"}]],
        [[{"LOWER": {"IN": ["dogs", "bark"]}, "TAG": "NNS"}], [{"LOWER": {"REGEX": "k$"}}]],
    ],
)
def test_patterns_outside_the_lookup_stay_in_the_matcher(
    vocab: Vocab, patterns: list[list[dict[str, object]]]
) -> None:
    ruler = AttributeRuler(vocab)
    ruler.add(patterns=patterns, attrs={"POS": "NOUN"})
    ruler.add(patterns=[[{"TAG": "NNS"}]], attrs={"POS": "PROPN"})  # a later rule overrides
    fast = en_parse.FastAttributeRuler(ruler)
    for words, tags, deps in [
        (["Dogs", "bark", "loudly"], ["NNS", "VBP", "RB"], ["nsubj", "ROOT", "advmod"]),
        (["dogs", " ", "Bark"], ["NNS", "_SP", "VBP"], ["ROOT", "dep", "dep"]),
    ]:
        doc = tagged(vocab, words, tags, deps)
        assert fast.match(doc) == AttributeRuler.match(ruler, doc)
