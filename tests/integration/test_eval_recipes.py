"""`graphmem eval recipes` on the tiny LoCoMo and LongMemEval files: every candidate tried is
reported with its gains over the single channels, and the chosen one has the best worst case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from eval.recipe_select import Scores, _gains, candidates
from graphmem_cli.main import cli
from tests.integration.test_eval_locomo import TINY as TINY_LOCOMO
from tests.integration.test_eval_longmemeval import TINY as TINY_LME


def _scores(name: str, locomo: float, lme: float) -> Scores:
    grid = {str(k): locomo for k in (1, 5, 10)}
    turn = {str(k): lme for k in (1, 5, 10)}
    return Scores(name, {"recall": {"1-4": grid}}, {"turn_recall": {"overall": turn}})


def test_gains_are_over_the_best_single_channel_per_dataset() -> None:
    singles = [_scores("bm25", 0.5, 0.7), _scores("vector", 0.4, 0.8)]
    gains = _gains(_scores("x", 0.6, 0.82), singles)
    assert gains == {"locomo@5": 0.1, "locomo@10": 0.1, "lme@5": 0.02, "lme@10": 0.02}


def test_candidate_names_are_unique_and_the_default_comes_first() -> None:
    names = list(candidates())
    assert names[0] == "default" and len(names) == len(set(names)) > 5


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cli_reports_every_candidate_tried(tmp_path: Path) -> None:
    locomo, lme = tmp_path / "l.json", tmp_path / "m.json"
    locomo.write_text(json.dumps(TINY_LOCOMO))
    lme.write_text(json.dumps(TINY_LME))
    only = "default,zscore v1 f1/0.5/0.5"
    args = ["eval", "recipes", "--locomo", str(locomo), "--longmemeval", str(lme), "--only", only]
    res = CliRunner().invoke(cli, [*args, "--prefix", f"t-rs-{tmp_path.name[-8:]}", "--forget", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout.strip().splitlines()[-1])
    assert [c["name"] for c in report["candidates"]] == only.split(",")
    # each candidate is compared with the BM25 channel alone under its own episode fields too
    assert [b["name"] for b in report["baselines"]] == [
        "rank-bm25",
        "bm25",
        "vector",
        "bm25 f1/0.7/0.5",
        "bm25 f1/0.5/0.5",
    ]
    best = max(report["candidates"], key=lambda c: c["worst_gain"])
    assert report["chosen"] in {
        c["name"] for c in report["candidates"] if c["worst_gain"] == best["worst_gain"]
    }
    assert "| default" in res.stdout
