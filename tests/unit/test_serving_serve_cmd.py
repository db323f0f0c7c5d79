"""``graphmem serve`` gives workers time to start before uvicorn's supervisor replaces them."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn
from click.testing import CliRunner

from graphmem_cli import serve_cmd


def test_workers_get_a_long_healthcheck_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 17): with two workers on a busy host uvicorn's 5 s ping timeout killed
    each worker while it still imported and loaded its models, and started another, in a loop."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    monkeypatch.setenv("GRAPHMEM_HOST", "127.0.0.1")
    monkeypatch.setenv("GRAPHMEM_NO_AUTH", "1")
    result = CliRunner().invoke(serve_cmd.serve, ["--no-neo4j", "--workers", "2", "--port", "8765"])
    assert result.exit_code == 0, result.output
    assert calls and calls[0]["workers"] == 2
    assert calls[0]["timeout_worker_healthcheck"] == serve_cmd.WORKER_HEALTHCHECK_S >= 30
