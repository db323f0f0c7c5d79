"""The synthetic tenant of the speed and ingest benchmarks (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

from eval.synthetic import Tenant


def test_a_large_synthetic_tenant_stays_in_the_past() -> None:
    """Readers refuse timestamps in the future: 100k turns must all be ingestible."""
    latest = max(e.reference_time for e in Tenant(100_000, 0).episodes())
    assert latest < datetime(2026, 6, 1, tzinfo=UTC)
