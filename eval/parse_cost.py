"""English parse cost of the ``rules`` extractor on LoCoMo turns (no database).

``python -m eval.parse_cost --data locomo_dev.json [--limit N] [--batch 64]`` splits every turn
into sentences as the extractor does and times ``en_parse.parse_many`` in batches of turns (as
ingestion batches episodes) twice, back to back under the same load: over the sentences
``worth_parsing`` lets through (not questions, two words or more) and over those that also pass
``can_hold_claim`` (what the extractor parses). Then the whole ``RulesExtractor.extract_batch`` on
the same batches. The pipeline is loaded (and warmed on one batch) before timing. Reports sentence
counts, parse ms per turn both ways and extract ms per turn, as JSON. ``components`` times the
parsed sentences once more, one pipeline step at a time (the tokenizer, then each component in
order), as CPU ms per turn of the timing thread: CPU time moves little with the host's load, wall
time moves a lot (``*_cpu_ms_per_turn`` beside the wall-clock figures).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.providers.extractors import en_parse
from graphmem.providers.extractors.rules import ExtractRequest, RulesExtractor, split_sentences
from graphmem.providers.extractors.rules_en_gates import can_hold_claim, worth_parsing


def turns(path: str | Path, limit: int | None) -> list[tuple[str, str, str | None]]:
    """(text, speaker, other speaker) of each turn, conversation by conversation, in order."""
    out: list[tuple[str, str, str | None]] = []
    for sample in json.loads(Path(path).read_text(encoding="utf-8")):
        conv = sample["conversation"]
        a, b = conv.get("speaker_a"), conv.get("speaker_b")
        keys = sorted(
            (k for k in conv if k.startswith("session_") and k.split("_")[-1].isdigit()),
            key=lambda k: int(k.split("_")[-1]),
        )
        for key in keys:
            for turn in conv[key] or []:
                text = turn.get("text") or ""
                if not text.strip():
                    continue
                speaker = turn.get("speaker") or ""
                out.append((text, speaker, b if speaker == a else a))
    return out[:limit] if limit else out


def measure(path: str | Path, *, limit: int | None = None, batch: int = 64) -> dict[str, Any]:
    data = turns(path, limit)
    en_parse.pipeline()
    batches = [data[i : i + batch] for i in range(0, len(data), batch)]
    seen = parsed = 0
    texts: list[list[str]] = []
    unchecked: list[list[str]] = []
    for chunk in batches:
        sentences = {
            s for text, _, _ in chunk for start, end in split_sentences(text) for s in [text[start:end]]
        }
        seen += len(sentences)
        worth = sorted(s for s in sentences if worth_parsing(s, False))
        keep = [s for s in worth if can_hold_claim(s)]
        parsed += len(keep)
        texts.append(keep)
        unchecked.append(worth)
    en_parse.parse_many(unchecked[0] if unchecked else [])  # warm
    t0 = time.perf_counter()
    for worth in unchecked:
        en_parse.parse_many(worth)
    unchecked_s = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.thread_time()
    for keep in texts:
        en_parse.parse_many(keep)
    parse_s, parse_cpu = time.perf_counter() - t0, time.thread_time() - c0
    extractor = RulesExtractor()
    ref = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
    t0, c0 = time.perf_counter(), time.thread_time()
    facts = 0
    for chunk in batches:
        requests = [ExtractRequest(text, speaker, ref, other) for text, speaker, other in chunk]
        facts += sum(len(e.facts) for e in extractor.extract_batch(requests))
    extract_s, extract_cpu = time.perf_counter() - t0, time.thread_time() - c0
    n = max(len(data), 1)
    return {
        "turns": len(data),
        "sentences": seen,
        "sentences_worth_parsing": sum(len(w) for w in unchecked),
        "sentences_parsed": parsed,
        "parsed_share": round(parsed / max(seen, 1), 3),
        "parse_ms_per_turn_without_claim_check": round(1000 * unchecked_s / n, 2),
        "parse_ms_per_turn": round(1000 * parse_s / n, 2),
        "extract_ms_per_turn": round(1000 * extract_s / n, 2),
        "parse_cpu_ms_per_turn": round(1000 * parse_cpu / n, 2),
        "extract_cpu_ms_per_turn": round(1000 * extract_cpu / n, 2),
        "components": {k: round(1000 * v / n, 2) for k, v in component_cpu(texts).items()},
        "facts": facts,
        "pipeline": list(en_parse.pipeline().pipe_names),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def component_cpu(batches: list[list[str]]) -> dict[str, float]:
    """CPU seconds of each pipeline step over ``batches`` (the tokenizer first, then the loaded
    components in order; the entity recogniser is not among them: it runs on demand)."""
    nlp = en_parse.pipeline()
    spent = dict.fromkeys(["tokenizer", *nlp.pipe_names], 0.0)
    for batch in batches:
        c0 = time.thread_time()
        docs = [nlp.make_doc(text) for text in batch]
        spent["tokenizer"] += time.thread_time() - c0
        for name, proc in nlp.pipeline:
            c0 = time.thread_time()
            docs = (
                list(proc.pipe(docs, batch_size=en_parse.BATCH_SIZE))
                if hasattr(proc, "pipe")
                else [proc(doc) for doc in docs]
            )
            spent[name] += time.thread_time() - c0
    return spent


def check_ruler(path: str | Path, *, limit: int | None = None) -> dict[str, Any]:
    """``en_parse.FastAttributeRuler`` against spaCy's own ``AttributeRuler.match`` on every sentence
    of the file's turns: the match lists on each doc as the ruler sees it (tagged and parsed), and
    the final annotations of a whole parse with and without the replacement."""
    from spacy.pipeline import AttributeRuler

    nlp = en_parse.pipeline()
    ruler = nlp.get_pipe("attribute_ruler")
    sentences = sorted({t[a:b] for t, _, _ in turns(path, limit) for a, b in split_sentences(t)})
    fast = en_parse.FastAttributeRuler(ruler)
    with nlp.select_pipes(disable=["attribute_ruler", "lemmatizer"]):
        docs = list(nlp.pipe(sentences, batch_size=en_parse.BATCH_SIZE))
    differ = [d.text for d in docs if AttributeRuler.match(ruler, d) != fast.match(d)]

    def annotations() -> list[tuple[Any, ...]]:
        return [
            (t.tag_, t.pos_, t.dep_, t.head.i, t.lemma_, str(t.morph))
            for d in nlp.pipe(sentences, batch_size=en_parse.BATCH_SIZE)
            for t in d
        ]

    replaced = annotations()
    installed = ruler.match
    del ruler.match  # spaCy's own method again
    try:
        own = annotations()
    finally:
        ruler.match = installed
    return {
        "sentences": len(sentences),
        "match_lists_differ": len(differ),
        "first_differing": differ[:5],
        "tokens": len(own),
        "annotations_identical": own == replaced,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument(
        "--check-ruler",
        action="store_true",
        help="compare en_parse.FastAttributeRuler with spaCy's attribute ruler instead of timing",
    )
    args = ap.parse_args()
    if args.check_ruler:
        print(json.dumps(check_ruler(args.data, limit=args.limit), indent=2))
        return
    print(json.dumps(measure(args.data, limit=args.limit, batch=args.batch), indent=2))


if __name__ == "__main__":
    main()
