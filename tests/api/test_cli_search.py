"""``graphmem search`` from the command line, and ``graphmem eval load``'s guards."""

from __future__ import annotations

import asyncio
import json

import pytest
from click.testing import CliRunner

from eval import load
from graphmem_cli.eval_load_cmd import load as load_command
from graphmem_cli.search_cmd import search as search_command
from tests.api.conftest import Api, seed


async def test_cli_search_table_json_as_of_and_range(api: Api) -> None:
    await seed(api, api.group_a)
    runner = CliRunner()
    g = api.group_a

    def invoke(*args: str):  # type: ignore[no-untyped-def]
        return runner.invoke(search_command, list(args))

    table = await asyncio.to_thread(invoke, "where does Alice live?", "--group", g, "--k", "3")
    assert table.exit_code == 0, table.output
    assert "Alice lives in Paris  [2024-06-01 .. now]" in table.output
    as_json = await asyncio.to_thread(
        invoke, "Alice lives in", "--group", g, "--as-of", "2024-03-01", "--json"
    )
    assert as_json.exit_code == 0, as_json.output
    statements = [h["fact"]["statement"] for h in json.loads(as_json.output)["facts"]]
    assert "Alice lives in Berlin" in statements and "Alice lives in Paris" not in statements
    before_move = await asyncio.to_thread(
        invoke, "Alice lives in", "--group", g, "--until", "2024-03-01", "--json"
    )
    assert before_move.exit_code == 0, before_move.output
    ranged = json.loads(before_move.output)
    assert {h["episode"]["external_id"] for h in ranged["episodes"]} == {"m1"}
    assert "Alice lives in Paris" not in [h["fact"]["statement"] for h in ranged["facts"]]
    backwards = await asyncio.to_thread(
        invoke, "x", "--group", g, "--since", "2024-03-01", "--until", "2024-02-01"
    )
    assert backwards.exit_code == 1 and "invalid_time_range" in backwards.output
    bad_since = await asyncio.to_thread(invoke, "x", "--group", g, "--since", "soon")
    assert bad_since.exit_code == 1 and "--since is not an ISO 8601 time" in bad_since.output
    bad = await asyncio.to_thread(invoke, "x", "--group", g, "--as-of", "someday")
    assert bad.exit_code == 1 and "invalid_input" in bad.output
    assert "Example" in (await asyncio.to_thread(invoke, "--help")).output


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://localhost:1", True),
        ("http://[::1]:8", True),
        ("http://10.0.0.5:8000", False),
        ("http://example.com", False),
    ],
)
def test_load_accepts_only_loopback(url: str, ok: bool) -> None:
    assert load.is_loopback_url(url) is ok
    if not ok:
        with pytest.raises(ValueError, match="non-loopback"), load.server(load.LoadConfig(url=url), {}):
            pass


def test_load_stats_and_bounds() -> None:
    stats = load.Stats()
    for ms in range(1, 101):
        stats.record("search", ms / 1000, None)
    stats.record("write", 0.5, "http_503")
    assert stats.errors == {"http_503": 1}
    assert load._latency(stats.latencies["search"]) == {
        "n": 100,
        "p50_ms": 50.5,
        "p90_ms": 90.1,
        "p99_ms": 99.0,
    }
    runner = CliRunner()
    for bad in (["--clients", "0"], ["--clients", "a,b"], ["--seconds", "0"], ["--write-ratio", "2"]):
        result = runner.invoke(load_command, bad)
        assert result.exit_code == 2, (bad, result.output)
