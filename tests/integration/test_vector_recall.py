"""The tenant index's int8 vectors rank as f32 does, on real text embedded with MiniLM (issue 22,
item 2): recall@10 against exact f32 scoring stays at least 0.99 (eval/vector_recall.py measures it
on LoCoMo dev turns)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from eval.vector_recall import recall
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder

SUITE = Path(__file__).resolve().parents[2] / "eval" / "data" / "temporal_suite.jsonl"


def test_int8_vectors_keep_recall_at_10_against_exact_f32(embedder: MiniLMOnnxEmbedder) -> None:
    cases = [json.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines() if line.strip()]
    turns = sorted({f"{e['speaker']}: {e['content']}" for c in cases for e in c["episodes"]})
    queries = sorted({q["query"] for c in cases for q in c["questions"] if q.get("query")})[:80]
    assert len(turns) >= 300 and len(queries) >= 40
    result = recall(np.asarray(embedder.embed(turns)), np.asarray(embedder.embed(queries)), k=10, hnsw=True)
    assert result["i8"]["recall"] >= 0.99, result
    assert result["hnsw_i8"]["recall"] >= 0.9, result  # the HNSW graph (f16) built from int8 rows
