"""The generated temporal benchmark (eval/data/temporal_gen.py): determinism, the dev/test family
split, coverage of every phrasing family, and the per-split, per-language report."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from eval.temporal import load_cases
from eval.temporal_report import summarize
from eval.temporal_score import Outcome

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "eval" / "data"
FILES = {split: DATA / f"temporal_gen_{split}.jsonl" for split in ("dev", "test")}


def _phrases() -> ModuleType:
    spec = importlib.util.spec_from_file_location("temporal_gen_phrases", DATA / "temporal_gen_phrases.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(split: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in FILES[split].read_text(encoding="utf-8").splitlines()]


def test_committed_files_are_what_the_generator_writes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(DATA / "temporal_gen.py"), "--out-dir", str(tmp_path), "--heldout"],
        check=True,
        capture_output=True,
    )
    for split, path in {**FILES, "heldout": DATA / "temporal_gen_heldout.jsonl"}.items():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), split


def test_heldout_families_are_new_and_cover_every_form() -> None:
    phrases = _phrases()
    spec = importlib.util.spec_from_file_location("heldout", DATA / "temporal_gen_heldout_phrases.py")
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(DATA))
    try:
        heldout = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(heldout)
    finally:
        sys.path.remove(str(DATA))
    seen = {
        t for forms in phrases.FAMILIES.values() for listed in forms.values() for _, ts in listed for t in ts
    }
    for key, forms in heldout.FAMILIES.items():
        assert set(forms) == set(phrases.FORMS), key
        assert sum(len(f) for f in forms.values()) >= 8, key
        assert not {t for listed in forms.values() for _, ts in listed for t in ts} & seen, key
    cases = load_cases(DATA / "temporal_gen_heldout.jsonl", split="heldout")
    assert len(cases) >= 100 and {c.lang for c in cases} == {"en", "zh"}


def test_at_least_eight_families_per_predicate_and_language_and_both_splits_in_every_form() -> None:
    phrases = _phrases()
    assert {pred for _, pred in phrases.FAMILIES} >= {"lives_in", "works_at", "job_title"}
    for (lang, pred), forms in phrases.FAMILIES.items():
        assert set(forms) == set(phrases.FORMS), (lang, pred)
        assert sum(len(f) for f in forms.values()) >= 8, (lang, pred)
        for form, listed in forms.items():
            assert len(listed) >= 2, (lang, pred, form)
            assert len({name for name, _ in listed}) == len(listed), (lang, pred, form)


def test_each_split_uses_only_its_own_families_and_uses_all_of_them() -> None:
    phrases = _phrases()
    for index, split in enumerate(("dev", "test")):
        used = {(r["lang"], r["case_id"].split("-")[3], r["category"], r["family"]) for r in _rows(split)}
        own = {
            (lang, pred, form, name)
            for (lang, pred), forms in phrases.FAMILIES.items()
            for form, listed in forms.items()
            for name, _ in listed[index::2]
        }
        # change cases also render a state family; the case's own family is the one named.
        assert used == own, split


def test_test_phrasings_never_appear_in_the_dev_file() -> None:
    phrases = _phrases()
    leaks: list[str] = []
    dev_text = "\n".join(e["content"] for r in _rows("dev") for e in r["episodes"])  # type: ignore[attr-defined]
    for forms in phrases.FAMILIES.values():
        for listed in forms.values():
            for _, templates in listed[1::2]:
                for template in templates:
                    # the longest literal stretch of a test template, placeholders removed
                    pieces = re.split(r"\{[^}]*\}|<[^>]*>", template)
                    longest = max(pieces, key=len).strip(" ,.。，")
                    if len(longest) >= 6 and not any(longest in t for _, ts in listed[0::2] for t in ts):
                        leaks.extend([template] if longest in dev_text else [])
    assert not leaks


def test_rendered_cases_are_complete_and_mix_every_dimension() -> None:
    for split in ("dev", "test"):
        rows = _rows(split)
        cases = load_cases(FILES[split])
        assert len(cases) == len(rows) >= 100
        assert Counter(c.lang for c in cases) == {"en": len(cases) // 2, "zh": len(cases) // 2}
        assert {c.category for c in cases} == {"state", "change", "neg", "corr_same", "corr_later", "plan"}
        assert {c.split for c in cases} == {split}
        assert {c.ingest_order for c in cases} == {"given", "shuffled"}
        assert any(q.subject != c.episodes[0].speaker for c in cases for q in c.questions)  # third person
        assert any(len(c.episodes) > 2 for c in cases)  # chatter-only and distractor episodes
        for case in cases:
            text = " ".join(e.content for e in case.episodes)
            assert not re.search(r"[{}<>|]", text), case.case_id
            for q in case.questions:
                for value in q.expect_history or ([q.expect] if isinstance(q.expect, str) else []):
                    assert value in text, (case.case_id, value)


def test_split_filter_and_report_by_split_and_language() -> None:
    both = [c for split in ("dev", "test") for c in load_cases(FILES[split], split="test")]
    assert both and {c.split for c in both} == {"test"}

    def outcome(split: str, lang: str, ok: bool, kind: str = "current") -> Outcome:
        return Outcome(
            case_id=f"{split}-{lang}-{ok}-{kind}",
            q_id="q1",
            kind=kind,
            source="natural",
            lang=lang,
            category="change",
            split=split,
            query="",
            expect="x",
            structured=ok,
            structured_got=[],
            search=None if kind == "history" else ok,
        )

    rows = [
        outcome("dev", "en", True),
        outcome("test", "en", False),
        outcome("test", "zh", True),
        outcome("test", "zh", True, "history"),
    ]
    summary = summarize(rows, 4)
    assert summary["by_lang"]["zh"]["structured"] == 1.0
    test = summary["by_split"]["test"]
    assert test["n_cases"] == 3 and test["structured"] == 0.5
    assert test["by_lang"]["en"]["structured"] == 0.0
    assert test["by_lang"]["zh"] == {
        "n_questions": 2,
        "structured": 1.0,
        "search": 1.0,
        "history": 1.0,
        "n_cases": 2,
    }
    assert summarize([outcome("", "en", True)], 1).get("by_split") is None
