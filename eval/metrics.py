"""Small, dependency-free metric helpers shared by the eval runners."""

from __future__ import annotations

import math
import resource
import sys
from collections.abc import Iterable, Sequence


def evidence_recall(evidence: Iterable[str], ranked: Sequence[str], k: int) -> float:
    """|evidence ∩ top-k| / |evidence| (``ranked`` is already de-duplicated, best first)."""
    wanted = set(evidence)
    if not wanted:
        raise ValueError("evidence must not be empty")
    return len(wanted & set(ranked[:k])) / len(wanted)


def dedupe(items: Iterable[str]) -> list[str]:
    """Keep the first occurrence of each item, in order."""
    return list(dict.fromkeys(items))


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default method); ``q`` in [0, 100]."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    if lo == hi:
        return ordered[lo]
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def latency_summary(ms: Sequence[float]) -> dict[str, float | None]:
    """``{"p50", "p95", "p99"}`` in milliseconds, rounded to 0.01 ms (None when nothing was timed)."""
    if not ms:
        return {"p50": None, "p95": None, "p99": None}
    return {f"p{q}": round(percentile(ms, q), 2) for q in (50, 95, 99)}


def mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024
    return round(peak / scale, 1)
