"""GRAPHMEM_EXTRACT_PROCESSES: the rules extractor in worker processes, or in process (0)."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.providers.extractors.factory import build_extractor
from graphmem.providers.extractors.pool import PooledExtractor
from graphmem.providers.extractors.rules import RulesExtractor


def test_in_process_by_default() -> None:
    extractor = build_extractor(Settings())
    assert isinstance(extractor, RulesExtractor)


def test_workers_wrap_the_rules_extractor_and_start_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_EXTRACT_PROCESSES", "2")
    extractor = build_extractor(Settings())
    assert isinstance(extractor, PooledExtractor)
    assert extractor.processes == 2
    assert isinstance(extractor.inner, RulesExtractor)
    assert extractor.name == extractor.inner.name
    assert extractor._pool is None  # no process until the first batch
    extractor.close()


def test_a_negative_count_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_EXTRACT_PROCESSES", "-1")
    with pytest.raises(ConfigError, match="GRAPHMEM_EXTRACT_PROCESSES"):
        Settings()
