"""A bad environment variable is one line naming it, at every edge, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from api.main import app_from_env
from graphmem.config import Settings
from graphmem.errors import ConfigError
from ingest.cli import ingest


def test_empty_no_auth_is_a_one_line_config_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Bug: ``GRAPHMEM_NO_AUTH=`` (empty) printed pydantic's traceback instead of a one-line error."""
    monkeypatch.setenv("GRAPHMEM_NO_AUTH", "")
    with pytest.raises(ConfigError) as raised:
        Settings()
    assert (
        raised.value.message == "GRAPHMEM_NO_AUTH: Input should be a valid boolean, unable to interpret input"
    )
    with pytest.raises(SystemExit) as server:
        app_from_env()
    assert str(server.value.code) == f"error: config_error: {raised.value.message}"
    source = tmp_path / "m.jsonl"
    source.write_text("{}\n")
    result = CliRunner().invoke(ingest, [str(source), "--format", "jsonl", "--group", "g"])
    assert result.exit_code == 1
    assert result.output.strip() == f"error: config_error: {raised.value.message}"


def test_secret_values_are_not_echoed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rejected value may be a key: the error names the variable and the rule only."""
    monkeypatch.setenv("GRAPHMEM_MAX_BATCH", "secret-looking-value")
    with pytest.raises(ConfigError) as raised:
        Settings()
    assert raised.value.message.startswith("GRAPHMEM_MAX_BATCH: ")
    assert "secret-looking-value" not in str(raised.value.to_dict())
