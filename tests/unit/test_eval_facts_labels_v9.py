"""Label set v9 (ninth session, drawn with seed 9 before the precision fixes): scored by every
``eval facts`` run beside the older sets, a header then keys and labels only."""

from __future__ import annotations

import json
from pathlib import Path

from eval.facts import label_sets, read_labels

V9 = Path(__file__).resolve().parents[2] / "eval" / "data" / "facts_labels_dev_v9.jsonl"


def test_v9_is_scored_with_the_other_label_sets() -> None:
    assert V9.name in {p.name for p in label_sets()}


def test_v9_is_a_header_then_at_least_150_keys_and_labels() -> None:
    rows = [json.loads(line) for line in V9.read_text(encoding="utf-8").splitlines()]
    assert set(rows[0]) == {"_comment"}
    assert "seed 9" in rows[0]["_comment"]
    body = rows[1:]
    assert len(body) >= 150
    assert all(set(r) == {"conversation", "dia_id", "predicate", "statement", "label"} for r in body)
    assert len(read_labels(V9)) == len(body)  # no duplicate keys, every label known
