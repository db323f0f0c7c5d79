"""Side-by-side LongMemEval results: a markdown table (results.md) and the JSON (results.json)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eval.report import _num, _pct, _row

SESSION_KS = (5, 10)


def markdown(
    results: Sequence[dict[str, Any]],
    ks: Sequence[int],
    *,
    command: str | None = None,
    counts: dict[str, int] | None = None,
) -> str:
    """Turn recall@k, MRR, session recall, newest-first rate and latency per retriever; turn
    recall@10 (else the largest k) and MRR per question type. Rates in percent."""
    ok = [r for r in results if "turn_recall" in r]
    lines = ["# LongMemEval retrieval", ""]
    if command:
        lines += ["```", command, "```", ""]
    if ok:
        lines += [f"Questions scored: {ok[0]['n']}, skipped (no has_answer turn): {ok[0]['skipped']}.", ""]
    sks = [k for k in SESSION_KS if k in ks]
    head = ["retriever", *[f"R@{k}" for k in ks], "MRR"]
    head += [f"any@{k}" for k in sks] + [f"all@{k}" for k in sks]
    head += ["newest first", "search p50 ms", "p95 ms", "p99 ms", "ingest s"]
    lines += ["## Overall (turn evidence recall, session recall any/all)", "", _row(head)]
    lines.append(_row(["---"] * len(head)))
    for r in results:
        if "turn_recall" not in r:
            lines.append(_row([r["retriever"], f"error: {r.get('error', '?')}"] + [""] * (len(head) - 2)))
            continue
        ms, nf = r["search_ms"], r["newest_first"]
        cells = [r["retriever"]] + [_pct(r["turn_recall"]["overall"].get(str(k))) for k in ks]
        cells.append(_pct(r["mrr"]["overall"]))
        cells += [_pct(r["session_recall_any"]["overall"].get(str(k))) for k in sks]
        cells += [_pct(r["session_recall_all"]["overall"].get(str(k))) for k in sks]
        cells.append(f"{_pct(nf['rate'])} (n={nf['n']})")
        cells += [_num(ms["p50"]), _num(ms["p95"]), _num(ms["p99"]), _num(r["ingest_seconds"], 2)]
        lines.append(_row(cells))
    types = sorted({t for r in ok for t in r["turn_recall"]["by_type"]})
    k = 10 if 10 in ks else max(ks)
    if types:
        label = [t + (f" (n={counts[t]})" if counts and t in counts else "") for t in types]
        for title, read in (
            (f"Turn recall@{k} by question type", lambda r, t: r["turn_recall"]["by_type"][t].get(str(k))),
            ("MRR by question type", lambda r, t: r["mrr"]["by_type"].get(t)),
        ):
            lines += ["", f"## {title}", "", _row(["retriever", *label]), _row(["---"] * (len(types) + 1))]
            for r in ok:
                present = r["turn_recall"]["by_type"]
                lines.append(
                    _row([r["retriever"]] + [_pct(read(r, t)) if t in present else "–" for t in types])
                )
    return "\n".join(lines) + "\n"


def write(
    out_dir: Path,
    results: Sequence[dict[str, Any]],
    ks: Sequence[int],
    *,
    command: str | None = None,
    counts: dict[str, int] | None = None,
) -> dict[str, str]:
    """Write results.md and results.json into ``out_dir``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / "results.md"
    md.write_text(markdown(results, ks, command=command, counts=counts), encoding="utf-8")
    js = out_dir / "results.json"
    js.write_text(json.dumps({"results": list(results)}, indent=2) + "\n", encoding="utf-8")
    return {"markdown": str(md), "json": str(js)}
