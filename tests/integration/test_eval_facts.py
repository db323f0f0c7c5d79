"""``graphmem eval facts`` on a tiny synthetic LoCoMo-shaped file (real Neo4j): facts read back
through the store match the graph, coverage and precision are computed from them, the labelling
sample is written, the CLI prints one JSON object last, and the groups are gone afterwards."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from eval.facts import FactsOptions, read_labels, run_facts, write_sample
from graphmem.memory import GraphMemory
from graphmem_cli.eval_facts_cmd import facts

CONVERSATION = {
    "sample_id": "syn-1",
    "conversation": {
        "speaker_a": "Ada",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ada", "dia_id": "D1:1", "text": "Hi Ben! I moved to Lisbon last month."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Nice! I work at Globex now."},
            {"speaker": "Ada", "dia_id": "D1:3", "text": "Sounds like a good plan."},
        ],
        "session_2_date_time": "10:00 am on 20 June, 2023",
        "session_2": [
            {"speaker": "Ada", "dia_id": "D2:1", "text": "I started a new job at Initech last week."},
            {"speaker": "Ben", "dia_id": "D2:2", "text": "Wow, congrats!"},
        ],
    },
    "observation": {
        "session_1_observation": {
            "Ada": [["Ada moved to Lisbon.", "D1:1"]],
            "Ben": [["Ben works at Globex.", "D1:2"]],
        },
        "session_2_observation": {
            "Ada": [["Ada works at Initech.", "D2:1"]],
            "Ben": [["Unresolved.", "D9:9"]],
        },
    },
    "qa": [],
}


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "locomo_tiny.json"
    path.write_text(json.dumps([CONVERSATION]), encoding="utf-8")
    return path


async def test_facts_read_back_match_the_graph_and_are_scored(memory: GraphMemory, tmp_path: Path) -> None:
    data = _write(tmp_path)
    opts = FactsOptions(data=data, labels=None, keep=True)
    result, collected, texts = await run_facts(memory, opts)
    group = f"facts-{opts.run_id}-syn-1"
    try:
        listed = await memory.list_facts(group, include_history=True)
        rows = collected[0].rows
        assert sorted(r["id"] for r in rows) == sorted(f.id for f in listed)
        for fact in listed:
            row = next(r for r in rows if r["id"] == fact.id)
            assert set(row["external_ids"]) == {e.external_id for e in fact.evidence}
            assert row["current"] == (fact.is_current and fact.status == "active")
        assert len(listed) >= 2  # the rules extractor states where Ada lives and where Ben works

        cited = {e.external_id for f in listed if f.is_current for e in f.evidence} & {"D1:1", "D1:2", "D2:1"}
        assert result["observation_turns"] == 3  # D9:9 names no turn
        assert result["coverage"] == round(len(cited) / 3, 4)
        assert result["turns"] == 5 and result["facts"] == len(listed)
        assert result["facts_per_turn"] == round(len(listed) / 5, 4)
        assert set(result["by_family"]) and sum(b["facts"] for b in result["by_family"].values()) == len(
            listed
        )
        assert texts["syn-1"]["D1:1"].startswith("Hi Ben!")

        labels = tmp_path / "labels.jsonl"
        first, second = rows[0], rows[1]
        with labels.open("w", encoding="utf-8") as fh:
            for row, label in ((first, "correct"), (second, "wrong")):
                key = {k: row[k] for k in ("conversation", "predicate", "statement")}
                fh.write(json.dumps({**key, "dia_id": row["external_ids"][0], "label": label}) + "\n")
        sample = tmp_path / "sample.jsonl"
        assert write_sample(sample, collected, texts, 10) == len(listed)
        dumped = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines()]
        assert all(d["turns"] and d["label"] is None for d in dumped)
    finally:
        await memory.forget_group(group, purge_tombstones=True)

    opts2 = FactsOptions(data=data, labels=labels)
    labelled, collected2, texts2 = await run_facts(memory, opts2)
    assert labelled["labelled"] == {"n": 2, "correct": 1, "wrong": 1, "vague": 0}
    assert labelled["precision"] == 0.5
    write_sample(sample, collected2, texts2, 10, read_labels(labels))
    prefilled = [json.loads(line)["label"] for line in sample.read_text(encoding="utf-8").splitlines()]
    assert sorted(x for x in prefilled if x) == ["correct", "wrong"]
    assert await memory.list_facts(f"facts-{opts.run_id}-syn-1", include_history=True) == []


def test_cli_prints_the_table_and_one_json_object_last(tmp_path: Path) -> None:
    result = CliRunner().invoke(facts, ["--data", str(_write(tmp_path)), "--json"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert any(line.split()[:3] == ["family", "facts", "per"] for line in lines)
    payload = json.loads(lines[-1])
    keys = {
        "n_conversations",
        "facts",
        "facts_per_turn",
        "coverage",
        "malformed_rate",
        "precision",
        "by_family",
    }
    assert keys <= set(payload) and payload["n_conversations"] == 1


def test_cli_refuses_a_missing_labels_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        facts, ["--data", str(_write(tmp_path)), "--labels", str(tmp_path / "none.jsonl")]
    )
    assert result.exit_code != 0 and "labels file not found" in result.output
