"""Write the public temporal suite, ``eval/data/temporal_suite.jsonl`` (EVAL.md §1).

Deterministic: every category draws its names, cities, companies and dates from its own seeded
generator, so the same script always writes the same file, and adding a category leaves the others
unchanged. Run from the repository root:

    .venv/bin/python eval/data/make_temporal_suite.py [--out PATH]

Categories (``category`` key): move, job_change, job_title, negation, preference, trip, correction,
out_of_order, hedged, third_person, relationship, no_answer, relative_time (English and Chinese
episodes), explicit (``facts`` only) and mixed (facts plus episodes).
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import suite_en
import suite_zh
from suite_explicit import explicit_cases, mixed_cases
from suite_kit import Case, Pools
from suite_time import relative_times

SEED = 20240601
OUT = Path(__file__).with_name("temporal_suite.jsonl")

# (name, builder): each builder gets its own Pools, seeded from SEED and the name.
BUILDERS: tuple[tuple[str, Callable[[Pools], list[Case]]], ...] = (
    ("en-move", lambda p: suite_en.moves(p, 10)),
    ("en-job", lambda p: suite_en.jobs(p, 10)),
    ("en-title", lambda p: suite_en.titles(p, 7)),
    ("en-neg", lambda p: suite_en.negations(p, 12)),
    ("en-pref", lambda p: suite_en.preferences(p, 7)),
    ("en-trip", lambda p: suite_en.trips(p, 7)),
    ("en-corr", lambda p: suite_en.corrections(p, 7)),
    ("en-late", lambda p: suite_en.late_arrivals(p, 6)),
    ("en-hedge", lambda p: suite_en.hedges(p, 7)),
    ("en-third", lambda p: suite_en.third_persons(p, 4)),
    ("en-rel", lambda p: suite_en.relationships(p, 4)),
    ("en-none", lambda p: suite_en.no_answers(p, 6)),
    ("zh-move", lambda p: suite_zh.moves(p, 7)),
    ("zh-job", lambda p: suite_zh.jobs(p, 6)),
    ("zh-neg", lambda p: suite_zh.negations(p, 7)),
    ("zh-trip", lambda p: suite_zh.trips(p, 5)),
    ("zh-corr", lambda p: suite_zh.corrections(p, 6)),
    ("zh-pref", lambda p: suite_zh.preferences(p, 4)),
    ("zh-title", lambda p: suite_zh.titles(p, 4)),
    ("zh-hedge", lambda p: suite_zh.hedges(p, 3)),
    ("zh-third", lambda p: suite_zh.third_persons(p, 3)),
    ("zh-none", lambda p: suite_zh.no_answers(p, 4)),
    ("zh-rel", lambda p: suite_zh.relationships(p, 2)),
    ("time", relative_times),
    ("explicit", lambda p: explicit_cases(p, zh_count=6)),
    ("mixed", lambda p: mixed_cases(p, zh_count=3)),
)


def build_suite() -> list[Case]:
    cases: list[Case] = []
    for name, build in BUILDERS:
        cases.extend(build(Pools(SEED ^ zlib.crc32(name.encode()))))
    ids = [c.case_id for c in cases]
    duplicates = [i for i, n in Counter(ids).items() if n > 1]
    if duplicates:
        raise SystemExit(f"duplicate case ids: {duplicates}")
    return cases


def summary(cases: list[Case]) -> str:
    questions = [q for c in cases for q in c.questions]
    langs = Counter(c.lang for c in cases)
    kinds = Counter(q["kind"] for q in questions)
    return (
        f"{len(cases)} cases ({dict(sorted(langs.items()))}), {len(questions)} questions "
        f"({dict(sorted(kinds.items()))})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    cases = build_suite()
    with args.out.open("w", encoding="utf-8") as fh:
        for case in cases:
            fh.write(json.dumps(case.to_json(), ensure_ascii=False) + "\n")
    print(f"wrote {args.out}: {summary(cases)}")


if __name__ == "__main__":
    main()
