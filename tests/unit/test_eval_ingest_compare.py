"""``graphmem eval ingest --compare``: the settings it toggles, in one process (issue 21: the change
log's and redaction's cost on ingestion, measured off and on in one run)."""

from __future__ import annotations

from click.testing import CliRunner

from graphmem.config import Settings
from graphmem_cli.eval_ingest_cmd import _VARIANTS
from graphmem_cli.main import cli


def test_each_comparison_is_off_then_on_of_a_real_setting() -> None:
    for (off_name, off), (on_name, on) in _VARIANTS.values():
        assert off_name.endswith("=off") and on_name.endswith("=on")
        assert set(off) == set(on) and all(name in Settings.model_fields for name in off)
        assert all(off[k] is False and on[k] is True for k in off)


def test_unknown_comparisons_are_refused() -> None:
    result = CliRunner().invoke(cli, ["eval", "ingest", "--compare", "nonsense"])
    assert result.exit_code == 2 and "change_log" in result.output
