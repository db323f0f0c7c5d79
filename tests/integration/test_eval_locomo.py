"""`graphmem eval locomo` on tiny, bounded inputs: the loader's quirk handling, the metric, and the
JSON shape of every retriever (EVAL.md §2). No recall or wall-clock thresholds: benchmarks measure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eval.baselines.bm25 import RankBM25Index, tokenize
from eval.locomo import RETRIEVERS, LocomoOptions, run_locomo
from eval.locomo_data import load
from eval.metrics import evidence_recall, latency_summary, percentile
from eval.report import write
from graphmem.config import Settings
from graphmem.memory import GraphMemory
from graphmem.store import search as channels
from graphmem_cli.main import cli
from tests import locomo_synthetic

KS = (1, 5, 10, 25)

# A made-up conversation in the locomo10.json schema (the real data is CC BY-NC: never copied here).
TINY: list[dict[str, Any]] = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "2:00 pm on 3 March, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben! Long week?"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Very long. The bakery had a huge order."},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "I adopted a greyhound called Pixel on Sunday!"},
                {
                    "speaker": "Ben",
                    "dia_id": "D1:4",
                    "text": "Amazing. I've been practising the cello again.",
                },
                {"speaker": "Ana", "dia_id": "D1:5", "text": "My sister in Porto wants to meet Pixel."},
                {"speaker": "Ben", "dia_id": "D1:6", "text": "Porto is lovely in spring."},
            ],
            "session_2_date_time": "10:15 am on 20 April, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "How is the new dog settling in?"},
                {
                    "speaker": "Ana",
                    "dia_id": "D2:2",
                    "text": "Pixel loves the beach. We drove to Porto last week.",
                },
                {
                    "speaker": "Ben",
                    "dia_id": "D2:3",
                    "text": "Look at my first sourdough loaf.",
                    "blip_caption": "a photo of a round loaf of bread on a wooden board",
                },
                {"speaker": "Ana", "dia_id": "D2:4", "text": "That crust looks perfect."},
                {"speaker": "Ben", "dia_id": "D2:5", "text": "The cello recital is on the 2nd of May."},
                {"speaker": "Ana", "dia_id": "D2:6", "text": "I'll be there with flowers."},
            ],
        },
        "qa": [
            {
                "question": "When did Ana adopt Pixel?",
                "answer": "Sunday before 3 March 2023",
                "evidence": ["D1:3"],
                "category": 2,
            },
            {
                "question": "What instrument does Ben play?",
                "answer": "cello",
                "evidence": ["D1:4"],
                "category": 4,
            },
            {
                "question": "Where does Ana's sister live and did Pixel go there?",
                "answer": "Porto; yes",
                "evidence": ["D1:5", "D2:2"],
                "category": 1,
            },
            {
                "question": "What did Ben bake?",
                "answer": "sourdough",
                "evidence": ["D2:3; D2:4"],
                "category": 3,
            },
            {"question": "What does Ana do for work?", "answer": "unknown", "evidence": [], "category": 4},
            {
                "question": "Will Ana attend the recital?",
                "answer": "yes",
                "evidence": ["D2:6", "D"],
                "category": 3,
            },
            {
                "question": "What is Ben's greyhound called?",
                "adversarial_answer": "Pixel",
                "evidence": ["D2:1"],
                "category": 5,
            },
        ],
    }
]


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny_locomo.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def _check_shape(result: dict[str, Any], name: str, ks: tuple[int, ...] = KS) -> None:
    assert set(result) == {"retriever", "n", "skipped", "recall", "mrr", "search_ms", "ingest_seconds"}
    assert set(result["mrr"]) == {"1-4"}
    assert result["retriever"] == name
    assert set(result["recall"]) == {"1-4", "by_category"}
    assert set(result["recall"]["1-4"]) == {str(k) for k in ks}
    for by_k in [result["recall"]["1-4"], *result["recall"]["by_category"].values()]:
        values = [by_k[str(k)] for k in ks]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert values == sorted(values)  # recall@k never falls as k grows
    assert set(result["search_ms"]) == {"p50", "p95", "p99"}
    assert result["search_ms"]["p50"] <= result["search_ms"]["p99"]
    assert result["ingest_seconds"] is None or result["ingest_seconds"] >= 0


def test_loader_drops_unresolved_evidence_and_counts_skipped(tiny: Path) -> None:
    data = load(tiny, group_prefix="x")
    [conv] = data.conversations
    assert conv.group_id == "x-tiny-1" and len(conv.episodes) == 12
    assert conv.episodes[8].content.endswith("[image: a photo of a round loaf of bread on a wooden board]")
    assert data.skipped == 2  # 'D2:3; D2:4' does not resolve; empty evidence
    assert [q.category for q in conv.questions] == [2, 4, 1, 3, 5]
    recital = conv.questions[3]
    assert recital.evidence == ("D2:6",) and recital.dropped == 1


def test_metric_and_percentiles() -> None:
    assert evidence_recall(["a", "b"], ["x", "a", "y", "b"], 1) == 0.0
    assert evidence_recall(["a", "b"], ["x", "a", "y", "b"], 2) == 0.5
    assert evidence_recall(["a", "b"], ["x", "a", "y", "b"], 10) == 1.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert latency_summary([]) == {"p50": None, "p95": None, "p99": None}


def test_rank_bm25_tokenizer_and_ranking(tiny: Path) -> None:
    assert tokenize("What did the Cello-player do?") == ["cello", "player"]
    [conv] = load(tiny, group_prefix="x").conversations
    index = RankBM25Index(conv.episodes)
    assert index.search("Which instrument, the cello?", 3)[0] in {"D1:4", "D2:5"}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # graphiti-core's pydantic v1-style models
async def test_every_retriever_reports_the_eval_shape(
    memory: GraphMemory, settings: Settings, tiny: Path, tmp_path: Path
) -> None:
    opts = LocomoOptions(data=tiny, retrievers=RETRIEVERS, ks=KS)
    dataset, results = await run_locomo(memory, settings, opts)
    assert [r["retriever"] for r in results] == list(RETRIEVERS)
    for result in results:
        if result["retriever"] == "graphiti" and "error" in result:
            continue  # reported, not fatal: the other retrievers still run
        _check_shape(result, result["retriever"])
        assert result["n"] == dataset.n_questions == 5 and result["skipped"] == 2
        assert set(result["recall"]["by_category"]) == {"1", "2", "3", "4", "5"}
    # the eval removes its groups when it can
    if hasattr(memory, "forget_group"):
        for conv in dataset.conversations:
            sizes = await channels.sizes(memory.ctx.store, group_id=conv.group_id)
            assert sizes["group"]["episodes"] == 0
    _check_report(tmp_path / "out", results)


def _check_report(out: Path, results: list[dict[str, Any]]) -> None:
    paths = write(out, results, KS)
    assert "| graphmem |" in Path(paths["markdown"]).read_text()
    assert Path(paths["chart"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_prints_one_json_object_last(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    res = CliRunner().invoke(
        cli,
        [
            "eval",
            "locomo",
            "--data",
            str(tiny),
            "--retriever",
            "rank-bm25",
            "--k",
            "1,5",
            "--json",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    result = json.loads(res.stdout.strip().splitlines()[-1])
    _check_shape(result, "rank-bm25", (1, 5))
    assert (out / "results.md").exists() and (out / "recall.png").exists()
    bad = CliRunner().invoke(cli, ["eval", "locomo", "--data", str(tiny), "--retriever", "nope"])
    assert bad.exit_code != 0 and "unknown retriever" in bad.output


async def test_a_bounded_subset_of_a_multi_conversation_file(
    memory: GraphMemory, settings: Settings, tmp_path: Path
) -> None:
    """The options for small runs on a file in the dev split's format: one conversation picked out of
    several, its first sessions only (evidence beyond them is dropped), QA capped."""
    path = tmp_path / "locomo_like.json"
    locomo_synthetic.write(path, conversations=3, sessions=3, turns=3)
    opts = LocomoOptions(
        data=path,
        retrievers=("rank-bm25", "graphmem"),
        ks=(5, 10),
        conversations=["syn-2"],
        sessions=2,
        max_questions=3,
    )
    dataset, results = await run_locomo(memory, settings, opts)
    [conv] = dataset.conversations
    assert conv.sample_id == "syn-2" and len(conv.episodes) == 6
    assert {e.session_id for e in conv.episodes} == {"syn-2:session_1", "syn-2:session_2"}
    assert dataset.n_questions == 3
    assert all(d.split(":")[0] in {"D1", "D2"} for q in conv.questions for d in q.evidence)
    for result in results:
        _check_shape(result, result["retriever"], (5, 10))
