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
