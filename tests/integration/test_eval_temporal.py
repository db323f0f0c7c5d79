"""``graphmem eval temporal`` on a slice of the public suite: the JSON shape, computed accuracies,
exact answers on explicit-fact cases, and groups forgotten afterwards."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from eval.temporal import load_cases, run_suite
from eval.temporal_report import summarize
from graphmem.memory import GraphMemory
from graphmem_cli.eval_temporal_cmd import temporal

DATA = Path(__file__).resolve().parents[2] / "eval" / "data"
SUITE = DATA / "temporal_suite.jsonl"
EXPLICIT = (
    "en-explicit-001",  # works_at chain with valid_to, as_of before the first fact
    "en-explicit-004",  # located_at trip does not supersede lives_in
    "en-explicit-005",  # inferred never overrides stated
    "en-explicit-006",  # multi-valued likes, one ended by valid_to
    "en-explicit-010",  # middle fact inserted last: the chain is re-linked
    "zh-explicit-001",
)
NATURAL = ("en-move-001", "zh-move-001")
KEYS = {
    "n_cases",
    "n_questions",
    "structured_accuracy",
    "search_accuracy",
    "history_accuracy",
    "by_kind",
    "failures",
    "by_source",
    "by_lang",
}


def _slice() -> list:
    wanted = set(EXPLICIT + NATURAL)
    cases = [c for c in load_cases(SUITE) if c.case_id in wanted]
    assert len(cases) == len(wanted)
    return cases


async def test_runner_scores_a_slice_and_explicit_facts_are_exact(memory: GraphMemory) -> None:
    cases = _slice()
    run, outcomes = await run_suite(memory, cases, concurrency=2)
    summary = summarize(outcomes, len(cases))

    assert set(summary) == KEYS
    assert summary["n_cases"] == 8
    assert summary["n_questions"] == sum(len(c.questions) for c in cases)
    for key in ("structured_accuracy", "search_accuracy", "history_accuracy"):
        assert 0.0 <= summary[key] <= 1.0
    for row in summary["by_kind"].values():
        assert set(row) == {"n", "structured", "search"}
    assert set(summary["by_kind"]) <= {"current", "as_of", "history", "no_answer"}
    assert len(summary["failures"]) <= 20

    explicit = summary["by_source"]["explicit"]
    assert explicit["n_cases"] == len(EXPLICIT)
    assert (explicit["structured"], explicit["history"]) == (1.0, 1.0), [
        f for o in outcomes if o.source == "explicit" for f in o.failures() if f["check"] != "search"
    ]
    for case in cases:
        assert await memory.list_facts(run.group_of(case), include_history=True) == []


def test_cli_prints_the_table_and_one_json_object_last() -> None:
    result = CliRunner().invoke(
        temporal, ["--data", str(SUITE), "--only", "en-explicit-00", "--limit", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].split() == ["kind", "n", "structured", "search"]
    payload = json.loads(lines[-1])
    assert set(payload) == KEYS
    assert payload["n_cases"] == 2
    assert payload["structured_accuracy"] == 1.0


def test_cli_runs_both_generated_files_and_reports_the_chosen_split_by_language() -> None:
    files = ["--data", str(DATA / "temporal_gen_dev.jsonl"), "--data", str(DATA / "temporal_gen_test.jsonl")]
    result = CliRunner().invoke(
        temporal, [*files, "--split", "test", "--only", "gen-test-", "--limit", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output.strip().splitlines()[-1])
    assert payload["n_cases"] == 2
    assert set(payload["by_split"]) == {"test"}
    split = payload["by_split"]["test"]
    assert split["n_cases"] == 2 and set(split["by_lang"]) == {"en"}
    assert set(split["by_lang"]["en"]) == {"n_cases", "n_questions", "structured", "search", "history"}
    assert "split=test/en" in result.output

    none = CliRunner().invoke(temporal, [*files, "--split", "dev", "--only", "gen-test-"])
    assert none.exit_code != 0 and "no cases" in none.output
