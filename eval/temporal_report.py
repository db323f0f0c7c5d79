"""Aggregate temporal-suite outcomes into the EVAL.md §1 JSON object and a human table.

Accuracies are over the questions a check applies to: ``structured_accuracy`` and
``search_accuracy`` over current, as_of and no_answer questions; ``history_accuracy`` over history
questions. In ``by_kind``, the history row's ``structured`` is its chain accuracy and its
``search`` is null (EVAL.md defines no search check for history). ``by_source`` (an allowed
extra key) splits the same numbers by case source: explicit (facts only), natural (episodes only)
and mixed. ``by_lang`` splits them by case language, and ``by_split`` (present when some case
carries a ``split``, as the generated benchmark's do) by split, each split with its own ``by_lang``:
the generated benchmark's acceptance figures are ``by_split.test.by_lang.{en,zh}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eval.temporal_score import Outcome

KINDS = ("current", "as_of", "no_answer", "history")
SOURCES = ("explicit", "natural", "mixed")
MAX_FAILURES = 20


def _rate(hits: int, n: int) -> float | None:
    return round(hits / n, 4) if n else None


def _accuracy(outcomes: Sequence[Outcome], field: str) -> float | None:
    scored = [getattr(o, field) for o in outcomes if getattr(o, field) is not None]
    return _rate(sum(bool(v) for v in scored), len(scored))


def _split(outcomes: Sequence[Outcome]) -> tuple[list[Outcome], list[Outcome]]:
    point = [o for o in outcomes if o.kind != "history"]
    return point, [o for o in outcomes if o.kind == "history"]


def _group(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    point, history = _split(outcomes)
    return {
        "n_questions": len(outcomes),
        "structured": _accuracy(point, "structured"),
        "search": _accuracy(point, "search"),
        "history": _accuracy(history, "structured"),
    }


def _by(outcomes: Sequence[Outcome], key: Callable[[Outcome], str], order: Sequence[str]) -> dict[str, Any]:
    seen = [k for k in order if any(key(o) == k for o in outcomes)]
    seen += sorted({key(o) for o in outcomes} - set(seen))
    return {k: _group([o for o in outcomes if key(o) == k]) for k in seen}


def summarize(outcomes: Sequence[Outcome], n_cases: int) -> dict[str, Any]:
    point, history = _split(outcomes)
    by_kind = {}
    for kind in [k for k in KINDS if any(o.kind == k for o in outcomes)]:
        rows = [o for o in outcomes if o.kind == kind]
        by_kind[kind] = {
            "n": len(rows),
            "structured": _accuracy(rows, "structured"),
            "search": _accuracy(rows, "search"),
        }
    failures = [f for o in outcomes for f in o.failures()]
    sources = _by(outcomes, lambda o: o.source, SOURCES)
    for name, row in sources.items():
        row["n_cases"] = len({o.case_id for o in outcomes if o.source == name})
    result = {
        "n_cases": n_cases,
        "n_questions": len(outcomes),
        "structured_accuracy": _accuracy(point, "structured"),
        "search_accuracy": _accuracy(point, "search"),
        "history_accuracy": _accuracy(history, "structured"),
        "by_kind": by_kind,
        "failures": failures[:MAX_FAILURES],
        "by_source": sources,
        "by_lang": _by_lang(outcomes),
    }
    splits = sorted({o.split for o in outcomes if o.split})
    if splits:
        result["by_split"] = {}
        for name in splits:
            rows = [o for o in outcomes if o.split == name]
            result["by_split"][name] = {
                **_group(rows),
                "n_cases": len({o.case_id for o in rows}),
                "by_lang": _by_lang(rows),
            }
    return result


def _by_lang(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    groups = _by(outcomes, lambda o: o.lang or "-", ())
    for name, row in groups.items():
        row["n_cases"] = len({o.case_id for o in outcomes if (o.lang or "-") == name})
    return groups


def all_failures(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    return [f for o in outcomes for f in o.failures()]


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(summary: dict[str, Any], outcomes: Sequence[Outcome]) -> str:
    lines = [f"{'kind':<12}{'n':>6}{'structured':>12}{'search':>10}"]
    for kind, row in summary["by_kind"].items():
        lines.append(f"{kind:<12}{row['n']:>6}{_cell(row['structured']):>12}{_cell(row['search']):>10}")
    lines.append(
        f"{'total':<12}{summary['n_questions']:>6}{_cell(summary['structured_accuracy']):>12}"
        f"{_cell(summary['search_accuracy']):>10}"
    )
    lines.append(f"history accuracy: {_cell(summary['history_accuracy'])}  (cases: {summary['n_cases']})")
    lines.append("")
    lines.append(f"{'split':<20}{'cases':>6}{'questions':>10}{'structured':>12}{'search':>10}{'history':>10}")
    rows: list[tuple[str, dict[str, Any]]] = [("source=" + k, v) for k, v in summary["by_source"].items()]
    rows += [("lang=" + k, v) for k, v in summary["by_lang"].items()]
    for name, split in summary.get("by_split", {}).items():
        rows.append(("split=" + name, split))
        rows += [(f"split={name}/{k}", v) for k, v in split["by_lang"].items()]
    for label, row in rows:
        lines.append(
            f"{label:<20}{row['n_cases']:>6}{row['n_questions']:>10}{_cell(row['structured']):>12}"
            f"{_cell(row['search']):>10}{_cell(row['history']):>10}"
        )
    return "\n".join(lines)
