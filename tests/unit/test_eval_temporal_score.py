"""Temporal-suite scoring rules (EVAL.md §1) and the public suite's shape and determinism."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from eval.temporal import ingest_plan, load_cases
from eval.temporal_score import Question, chain, history_ok, search_ok, structured_ok
from graphmem.models.fact import FactRecord

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "eval" / "data" / "temporal_suite.jsonl"
NOW = datetime(2024, 1, 1, tzinfo=UTC)


def fact(fid: str, value: str, *, year: int = 2020, source: str = "user_stated", **kw: object) -> FactRecord:
    data: dict = {
        "id": fid,
        "group_id": "g",
        "subject": "Alice",
        "subject_id": "s",
        "predicate": "lives_in",
        "object": value,
        "value": value,
        "statement": f"Alice lives in {value}",
        "valid_from": datetime(year, 1, 1, tzinfo=UTC),
        "recorded_at": NOW,
        "source_kind": source,
        "tier": "inferred" if source == "inferred" else "stated",
    }
    data.update(kw)
    return FactRecord(**data)


def question(expect: object = "Paris", predicate: str = "lives_in", kind: str = "current") -> Question:
    return Question(q_id="q", kind=kind, subject="Alice", predicate=predicate, expect=expect)


def test_values_compare_case_folded_and_trimmed() -> None:
    assert structured_ok(question(" PARIS "), [fact("1", "paris")])[0]


def test_functional_predicate_needs_exactly_one_value() -> None:
    assert not structured_ok(question("Paris"), [fact("1", "Paris"), fact("2", "Rome")])[0]


def test_stated_fact_answers_over_an_inferred_one() -> None:
    holding = [fact("1", "Paris"), fact("2", "Rome", source="inferred")]
    assert structured_ok(question("Paris"), holding)[0]
    assert structured_ok(question("Rome"), [fact("2", "Rome", source="inferred")])[0]


def test_null_means_none_and_lists_are_sets_for_multi_valued_predicates() -> None:
    assert structured_ok(question(None), [])[0]
    assert not structured_ok(question(None), [fact("1", "Paris")])[0]
    likes = [fact("1", "tea", predicate="likes"), fact("2", "chess", predicate="likes")]
    assert structured_ok(question(["chess", "tea"], "likes"), likes)[0]
    assert not structured_ok(question(["tea"], "likes"), likes)[0]


def test_search_uses_the_best_ranked_fact_about_subject_and_predicate() -> None:
    other = fact("0", "Rome", subject="Bob")
    ranked = [other, fact("1", "Paris"), fact("2", "Rome")]
    assert search_ok(question("Paris"), ranked)[0]
    assert not search_ok(question("Rome"), ranked)[0]
    assert search_ok(question(None, kind="no_answer"), [other])[0]
    assert not search_ok(question(None, kind="no_answer"), ranked)[0]


def test_history_walks_supersedes_from_the_current_stated_fact() -> None:
    facts = [
        fact("a", "Paris", year=2018, superseded_by=["b"], valid_to=datetime(2020, 1, 1, tzinfo=UTC)),
        fact("b", "Rome", year=2020, supersedes=["a"]),
        fact("x", "Oslo", year=2019, expired_at=NOW),
        fact("i", "Lima", year=2021, source="inferred"),
    ]
    assert [f.value for f in chain(facts)] == ["Paris", "Rome"]
    q = Question(
        q_id="h", kind="history", subject="Alice", predicate="lives_in", expect_history=["paris", "rome"]
    )
    assert history_ok(q, facts)[0]


def test_shuffled_order_is_fixed_and_given_order_is_kept() -> None:
    cases = load_cases(SUITE)
    shuffled = next(c for c in cases if c.ingest_order == "shuffled" and len(c.episodes) >= 3)
    assert ingest_plan(shuffled) == ingest_plan(shuffled)
    given = next(c for c in cases if c.ingest_order == "given" and c.episodes)
    assert ingest_plan(given) == [*given.episodes, *given.facts]


def test_public_suite_is_what_the_generator_writes(tmp_path: Path) -> None:
    out = tmp_path / "suite.jsonl"
    subprocess.run(
        [sys.executable, str(ROOT / "eval" / "data" / "make_temporal_suite.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_bytes() == SUITE.read_bytes()


def test_public_suite_covers_the_required_ground() -> None:
    cases = load_cases(SUITE)
    questions = [q for c in cases for q in c.questions]
    assert len(cases) >= 100 and len(questions) >= 300
    assert Counter(c.lang for c in cases)["zh"] >= 25
    assert {q.kind for q in questions} == {"current", "as_of", "history", "no_answer"}
    assert {c.source for c in cases} == {"explicit", "natural", "mixed"}
    assert any(c.ingest_order == "shuffled" for c in cases)
    assert all(q.query for q in questions)
    assert len({c.case_id for c in cases}) == len(cases)
