"""The hand labels of ``graphmem eval facts``: a header row (``_comment``) saying how they were
drawn is skipped, and a second label set (an older extractor's) is scored as a regression set."""

from __future__ import annotations

import json
from pathlib import Path

from eval.facts import read_labels
from eval.facts_metrics import labelled_precision


def test_a_header_row_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    rows = [
        {"_comment": "drawn by a seeded stratified sample"},
        {
            "conversation": "c1",
            "dia_id": "D1:1",
            "predicate": "likes",
            "statement": "Ann likes jazz",
            "label": "correct",
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert list(read_labels(path).values()) == ["correct"]


def test_precision_on_one_label_set_counts_vague_and_wrong_against_it() -> None:
    labels = {
        ("c1", "D1:1", "likes", "ann likes jazz"): "correct",
        ("c1", "D1:2", "owns", "ann owns stuff"): "vague",
        ("c1", "D1:3", "plans", "ann plans to events"): "wrong",
    }
    rows = [
        {"conversation": "c1", "external_ids": ["D1:1"], "predicate": "likes", "statement": "Ann likes jazz"},
        {"conversation": "c1", "external_ids": ["D1:2"], "predicate": "owns", "statement": "Ann owns stuff"},
        {
            "conversation": "c1",
            "external_ids": ["D1:3"],
            "predicate": "plans",
            "statement": "Ann plans to events",
        },
        {"conversation": "c1", "external_ids": ["D1:4"], "predicate": "likes", "statement": "Ann likes tea"},
    ]
    out = labelled_precision(rows, labels)
    assert (out["n"], out["precision"], out["vague"], out["wrong"]) == (3, 0.3333, 1, 1)


def test_committed_v2_labels_are_a_header_then_keys_and_labels_only() -> None:
    """The current labels (eval/data/facts_labels_dev_v2.jsonl) say how they were drawn in a first
    ``_comment`` row, then hold keys and labels only (LoCoMo is CC BY-NC), at least 300 of them
    over the six dev conversations."""
    path = Path(__file__).resolve().parents[2] / "eval" / "data" / "facts_labels_dev_v2.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert set(rows[0]) == {"_comment"}
    body = rows[1:]
    assert len(body) >= 300
    assert all(set(r) == {"conversation", "dia_id", "predicate", "statement", "label"} for r in body)
    assert all(len(r["statement"]) <= 200 for r in body)
    assert len(read_labels(path)) == len(body)  # no duplicate keys, every label known
    assert {r["conversation"] for r in body} == {
        "conv-26",
        "conv-30",
        "conv-41",
        "conv-42",
        "conv-43",
        "conv-44",
    }


def test_every_committed_label_set_is_scored_and_v4_holds_keys_and_labels_only() -> None:
    """``eval facts`` scores each committed label set in one run (``label_sets``); v4, drawn fresh
    from the extractor that the open-rule classes changed, says how it was drawn, then holds keys
    and labels only, at least 100 of them."""
    from eval.facts import label_sets

    names = [p.name for p in label_sets()]
    assert {"facts_labels_dev.jsonl", "facts_labels_dev_v2.jsonl", "facts_labels_dev_v4.jsonl"} <= set(names)
    path = Path(__file__).resolve().parents[2] / "eval" / "data" / "facts_labels_dev_v4.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert set(rows[0]) == {"_comment"}
    assert len(rows[1:]) >= 100
    assert all(set(r) == {"conversation", "dia_id", "predicate", "statement", "label"} for r in rows[1:])
    assert len(read_labels(path)) == len(rows) - 1
