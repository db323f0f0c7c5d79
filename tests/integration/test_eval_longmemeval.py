"""`graphmem eval longmemeval` on a tiny made-up file: the loader, the metrics (pure), and the JSON
shape of every retriever (EVAL.md §5) through the real Neo4j. No recall or wall-clock thresholds."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eval.longmemeval import RETRIEVERS, LongMemEvalOptions, newest_first, question_scores, run_longmemeval
from eval.longmemeval_data import Haystack, load
from eval.longmemeval_report import write
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.store import search as channels
from graphmem_cli.main import cli

KS = (1, 5, 10)


def _question(
    qid: str, qtype: str, question: str, sessions: list[tuple[str, str, list[Any]]]
) -> dict[str, Any]:
    return {
        "question_id": qid,
        "question_type": qtype,
        "question": question,
        "answer": "-",
        "question_date": "2023/06/30 (Fri) 12:00",
        "haystack_session_ids": [s for s, _, _ in sessions],
        "haystack_dates": [d for _, d, _ in sessions],
        "haystack_sessions": [t for _, _, t in sessions],
        "answer_session_ids": [s for s, _, t in sessions if any(x.get("has_answer") for x in t)],
    }


def _turn(role: str, content: str, answer: bool = False) -> dict[str, Any]:
    return {"role": role, "content": content, **({"has_answer": True} if answer else {})}


TINY = [
    _question(
        "ku1",
        "knowledge-update",
        "Where do I keep my bike now?",
        [
            ("a", "2023/03/01 (Wed) 10:00", [_turn("user", "I keep my bike in the garage.", True)]),
            ("b", "2023/04/02 (Sun) 09:00", [_turn("user", "Any pasta recipes?"), _turn("assistant", "Try carbonara.")]),
            ("c", "2023/05/03 (Wed) 08:00", [_turn("user", "I moved my bike to the basement storage.", True)]),
        ],
    ),
    _question(
        "ssa1",
        "single-session-assistant",
        "Which telescope did you recommend for beginners?",
        [
            ("d", "2023/02/01 (Wed) 10:00", [
                _turn("user", "I want to start stargazing."),
                _turn("assistant", "For beginners I recommend the Dobsonian 8-inch telescope.", True),
            ]),
            ("e", "2023/02/05 (Sun) 10:00", [_turn("user", "How do I repot a cactus?")]),
        ],
    ),
    _question("none1", "multi-session", "A question without evidence?", [("f", "2023/01/01 (Sun) 10:00", [_turn("user", "hi")])]),
]  # fmt: skip


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny_lme.json.gz"
    path.write_bytes(gzip.compress(json.dumps(TINY).encode()))
    return path


def test_loader_keeps_questions_with_evidence(tiny: Path) -> None:
    dataset = load(tiny, group_prefix="x")
    assert [h.question_id for h in dataset.haystacks] == ["ku1", "ssa1"] and dataset.skipped == 1
    ku = dataset.haystacks[0]
    assert ku.group_id == "x-ku1" and ku.evidence == ("a:0", "c:0") and ku.answer_sessions == ("a", "c")
    assert [e.external_id for e in ku.episodes] == ["a:0", "b:0", "b:1", "c:0"]
    assert ku.question_date == datetime(2023, 6, 30, 12, 0, tzinfo=UTC)
    assert [h.question_type for h in load(tiny, group_prefix="x", limit=1).haystacks] == ["knowledge-update"]


def _haystack(**kw: Any) -> Haystack:
    base: dict[str, Any] = {
        "question_id": "q",
        "group_id": "g",
        "question_type": "knowledge-update",
        "question": "?",
        "question_date": None,
        "evidence": ("a:0", "c:0"),
        "answer_sessions": ("a", "c"),
        "session_dates": {"a": datetime(2023, 1, 1, tzinfo=UTC), "c": datetime(2023, 5, 1, tzinfo=UTC)},
    }
    return Haystack(**(base | kw))


def test_metrics_of_one_question() -> None:
    h = _haystack()
    scores = question_scores(h, ["b:0", "c:0", "b:1", "a:0"], (1, 2, 4))
    assert scores["turn"] == {1: 0.0, 2: 0.5, 4: 1.0}
    assert scores["any"] == {1: 0.0, 2: 1.0, 4: 1.0}  # sessions b, c, a
    assert scores["all"] == {1: 0.0, 2: 0.0, 4: 1.0}
    assert scores["rr"] == 0.5 and scores["newest_first"] == 1.0
    assert question_scores(h, ["x:1"], (1,))["rr"] == 0.0


def test_newest_first_orders_answer_sessions_by_date() -> None:
    h = _haystack()
    assert newest_first(h, ["a:0", "c:0"]) == 0.0
    assert newest_first(h, ["b:0", "c:3"]) == 1.0  # another turn of the newest session counts
    assert newest_first(h, ["b:0"]) == 0.0
    same_day = _haystack(
        session_dates={"a": datetime(2023, 1, 1, tzinfo=UTC), "c": datetime(2023, 1, 1, tzinfo=UTC)}
    )
    assert newest_first(same_day, ["c:0"]) is None
    assert question_scores(_haystack(question_type="multi-session"), ["c:0"], (1,))["newest_first"] is None


def _check_shape(result: dict[str, Any], ks: tuple[int, ...] = KS) -> None:
    assert set(result) == {
        "retriever", "n", "skipped", "turn_recall", "session_recall_any", "session_recall_all",
        "mrr", "newest_first", "search_ms", "ingest_seconds", "facts",
    }  # fmt: skip
    for grid in ("turn_recall", "session_recall_any", "session_recall_all"):
        assert set(result[grid]["overall"]) == {str(k) for k in ks}
        assert set(result[grid]["by_type"]) == {"knowledge-update", "single-session-assistant"}
    assert set(result["mrr"]) == {"overall", "by_type"} and set(result["newest_first"]) == {"n", "rate"}
    assert result["newest_first"]["n"] == 1
    assert set(result["search_ms"]) == {"p50", "p95", "p99"}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # graphiti-core's pydantic v1-style models
async def test_every_retriever_reports_the_eval_shape(
    memory: GraphMemory, settings: Settings, tiny: Path, tmp_path: Path
) -> None:
    opts = LongMemEvalOptions(data=tiny, retrievers=RETRIEVERS, ks=KS)
    dataset, results = await run_longmemeval(memory, settings, opts)
    assert [r["retriever"] for r in results] == list(RETRIEVERS)
    for result in results:
        if result["retriever"] == "graphiti" and "error" in result:
            continue  # reported, not fatal: the other retrievers still run
        _check_shape(result)
        assert result["n"] == 2 and result["skipped"] == 1
    for h in dataset.haystacks:  # the eval removes its groups
        sizes = await channels.sizes(memory.ctx.store, group_id=h.group_id)
        assert sizes["group"]["episodes"] == 0
    _check_report(tmp_path / "out", results)


async def test_no_facts_and_the_embedding_cache_ingest_episodes_only_and_embed_once(
    memory: GraphMemory, settings: Settings, tiny: Path, tmp_path: Path
) -> None:
    """--no-facts: the results say so and the memory's extractor is put back after; --embed-cache:
    each distinct turn is stored once and a second run (every turn found) ranks the same."""
    cache = tmp_path / "cache"
    runs = []
    for _ in range(2):
        opts = LongMemEvalOptions(data=tiny, retrievers=("graphmem",), ks=KS, embed_cache=cache, facts=False)
        _, (result,) = await run_longmemeval(memory, settings, opts)
        runs.append(result)
    assert runs[0]["facts"] is False and runs[0]["turn_recall"] == runs[1]["turn_recall"]
    keys = next(cache.glob("*.keys")).read_text().split()
    assert len(keys) == len(set(keys)) > 0
    assert memory.ctx.extractor.name != "none"  # the memory's providers are put back


def _check_report(out: Path, results: list[dict[str, Any]]) -> None:
    paths = write(out, results, KS)
    assert "| graphmem |" in Path(paths["markdown"]).read_text()
    assert json.loads(Path(paths["json"]).read_text())["results"] == results


def test_cli_prints_one_json_object_last(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    args = ["eval", "longmemeval", "--data", str(tiny), "--retriever", "rank-bm25", "--k", "1,5", "--json"]
    res = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert res.exit_code == 0, res.output
    (result,) = json.loads(res.stdout.strip().splitlines()[-1])["results"]
    assert result["retriever"] == "rank-bm25" and result["n"] == 2
    assert (out / "results.md").exists() and (out / "results.json").exists()
    bad = CliRunner().invoke(cli, ["eval", "longmemeval", "--data", str(tiny), "--retriever", "nope"])
    assert bad.exit_code != 0 and "unknown retriever" in bad.output
