"""The public surface is small, sorted and importable (STYLE §1)."""

import graphmem


def test_all_is_sorted_and_complete() -> None:
    assert graphmem.__all__ == sorted(graphmem.__all__)
    for name in graphmem.__all__:
        assert getattr(graphmem, name) is not None
    assert "GraphMemory" in graphmem.__all__ and "GraphMemError" in graphmem.__all__


def test_every_error_has_a_stable_code() -> None:
    codes = {
        getattr(graphmem, n).code
        for n in graphmem.__all__
        if isinstance(getattr(graphmem, n), type) and issubclass(getattr(graphmem, n), graphmem.GraphMemError)
    }
    assert {"not_found", "conflict", "store_unavailable", "invalid_time_range", "invalid_query"} <= codes
