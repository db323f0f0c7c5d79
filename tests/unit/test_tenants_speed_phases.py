"""``eval.speed.Phases``: each phase's own peak RSS, reset after each phase (Linux ``/proc``)."""

from __future__ import annotations

import sys

import pytest

from eval.speed import Phases


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/clear_refs is Linux's")
def test_a_phase_peak_is_its_own_not_the_runs_so_far() -> None:
    phases = Phases()
    big = bytearray(96 << 20)  # touched: 96 MiB resident
    big[::4096] = b"x" * len(big[::4096])
    del big
    phases.mark("big")
    phases.mark("small")
    assert set(phases.peaks) == {"big", "small"}
    big_peak, small_peak = phases.peaks["big"]["peak_mb"], phases.peaks["small"]["peak_mb"]
    assert big_peak >= phases.peaks["big"]["end_mb"] + 64  # the allocation is in the first peak
    assert small_peak < big_peak - 64  # and not in the next phase's
