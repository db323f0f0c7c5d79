"""Side-by-side LoCoMo results: a markdown table (results.md) and a PNG chart (recall.png)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eval.locomo_data import CATEGORIES


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}"


def _num(value: Any, digits: int = 1) -> str:
    return "–" if value is None else f"{float(value):.{digits}f}"


def _focus_k(ks: Sequence[int]) -> int:
    return 10 if 10 in ks else max(ks)


def markdown(
    results: Sequence[dict[str, Any]],
    ks: Sequence[int],
    *,
    title: str = "LoCoMo evidence recall@k",
    command: str | None = None,
    counts: dict[str, int] | None = None,
    notes: Sequence[str] = (),
) -> str:
    """Tables: recall@k for category ids 1-4 with latency and ingest time; recall@10 by category id;
    the full per-category grid. Recall is shown in percent."""
    ok = [r for r in results if "recall" in r]
    lines = [f"# {title}", ""]
    if command:
        lines += ["```", command, "```", ""]
    if ok:
        lines.append(f"QA scored: {ok[0]['n']}, skipped (no resolvable evidence): {ok[0]['skipped']}.")
        lines.append("")
    head = ["retriever", *[f"R@{k}" for k in ks], "search p50 ms", "p95 ms", "p99 ms", "ingest s"]
    lines += ["## Category ids 1–4", "", _row(head), _row(["---"] * len(head))]
    for r in results:
        if "recall" not in r:
            lines.append(_row([r["retriever"], f"error: {r.get('error', '?')}"] + [""] * (len(head) - 2)))
            continue
        ms = r["search_ms"]
        lines.append(
            _row(
                [r["retriever"]]
                + [_pct(r["recall"]["1-4"].get(str(k))) for k in ks]
                + [_num(ms["p50"]), _num(ms["p95"]), _num(ms["p99"]), _num(r["ingest_seconds"], 2)]
            )
        )
    cats = sorted({c for r in ok for c in r["recall"]["by_category"]}, key=int)
    k = _focus_k(ks)
    if cats:
        label = [
            f"{c} {CATEGORIES.get(int(c), '')}" + (f" (n={counts[c]})" if counts and c in counts else "")
            for c in cats
        ]
        lines += ["", f"## Recall@{k} by category id", "", _row(["retriever", *label])]
        lines.append(_row(["---"] * (len(cats) + 1)))
        for r in ok:
            by = r["recall"]["by_category"]
            lines.append(_row([r["retriever"]] + [_pct(by.get(c, {}).get(str(k))) for c in cats]))
        lines += ["", "## Recall@k by category id (all k)", ""]
        lines.append(_row(["retriever", "category", *[f"R@{kk}" for kk in ks]]))
        lines.append(_row(["---"] * (len(ks) + 2)))
        for r in ok:
            for c in cats:
                by = r["recall"]["by_category"].get(c, {})
                lines.append(_row([r["retriever"], c, *[_pct(by.get(str(kk))) for kk in ks]]))
    lines += ["", "Category ids (official): " + ", ".join(f"{i} {n}" for i, n in CATEGORIES.items()) + "."]
    lines += [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def chart(results: Sequence[dict[str, Any]], ks: Sequence[int], path: Path) -> None:
    """recall@k (ids 1-4) per retriever, and recall@10 per category id."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in results if "recall" in r]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    for r in ok:
        ys = [100 * (r["recall"]["1-4"].get(str(k)) or 0.0) for k in ks]
        left.plot(list(ks), ys, marker="o", label=r["retriever"])
    left.set_xscale("log")
    left.set_xticks(list(ks))
    left.set_xticklabels([str(k) for k in ks])
    left.set_xlabel("k")
    left.set_ylabel("evidence recall@k (%)")
    left.set_title("LoCoMo, category ids 1-4")
    left.set_ylim(0, 100)
    left.grid(True, alpha=0.3)
    left.legend()
    k = _focus_k(ks)
    cats = sorted({c for r in ok for c in r["recall"]["by_category"]}, key=int)
    width = 0.8 / max(len(ok), 1)
    for i, r in enumerate(ok):
        by = r["recall"]["by_category"]
        xs = [j + i * width for j in range(len(cats))]
        right.bar(xs, [100 * (by.get(c, {}).get(str(k)) or 0.0) for c in cats], width, label=r["retriever"])
    right.set_xticks([j + width * (len(ok) - 1) / 2 for j in range(len(cats))])
    right.set_xticklabels([f"{c}\n{CATEGORIES.get(int(c), '')}" for c in cats])
    right.set_ylabel(f"recall@{k} (%)")
    right.set_title(f"recall@{k} by category id")
    right.set_ylim(0, 100)
    right.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write(
    out_dir: Path,
    results: Sequence[dict[str, Any]],
    ks: Sequence[int],
    *,
    command: str | None = None,
    counts: dict[str, int] | None = None,
    notes: Sequence[str] = (),
) -> dict[str, str]:
    """Write results.md, recall.png and results.json into ``out_dir``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / "results.md"
    md.write_text(markdown(results, ks, command=command, counts=counts, notes=notes), encoding="utf-8")
    js = out_dir / "results.json"
    js.write_text(json.dumps({"results": list(results)}, indent=2) + "\n", encoding="utf-8")
    png = out_dir / "recall.png"
    chart(results, ks, png)
    return {"markdown": str(md), "chart": str(png), "json": str(js)}
