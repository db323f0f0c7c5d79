"""The English parser loader: the pinned en_core_web_sm package, loaded lazily and once."""

from __future__ import annotations

import subprocess
import sys

from graphmem.providers.extractors import en_parse


def test_the_model_is_explosions_en_core_web_sm_380_under_mit() -> None:
    meta = en_parse.meta()
    assert (meta["lang"], meta["version"]) == ("en", en_parse.MODEL_VERSION)
    assert (meta["author"], meta["license"]) == ("Explosion", "MIT")
    assert meta["performance"]["dep_las"] > 0.89


def test_only_the_components_the_extractor_reads_are_loaded() -> None:
    names = en_parse.pipeline().pipe_names
    assert {"tagger", "parser", "lemmatizer"} <= set(names)
    assert not set(en_parse.EXCLUDED) & set(names)
    assert en_parse.pipeline() is en_parse.pipeline()


def test_parse_many_keeps_order_and_gives_dependencies() -> None:
    docs = en_parse.parse_many(["I went to a support group.", "Melanie paints."])
    assert [d.text for d in docs] == ["I went to a support group.", "Melanie paints."]
    went = docs[0][1]
    assert (went.lemma_, went.dep_) == ("go", "ROOT")
    assert en_parse.parse_many([]) == []


def test_importing_the_loader_does_not_import_spacy() -> None:
    code = "import sys, graphmem.providers.extractors.en_parse; print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
