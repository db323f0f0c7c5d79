"""The README's commands and routes exist (STYLE §13: docs that cannot drift)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from graphmem_cli.main import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_shows_the_two_commands_and_ci_calls_make_test() -> None:
    assert "make run" in README and "make test" in README
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_every_graphmem_command_in_the_readme_exists_and_has_an_example() -> None:
    used = set(re.findall(r"graphmem (\w+)", README)) & set(COMMANDS) | {
        "neo4j",
        "ingest",
        "search",
        "cypher",
    }
    runner = CliRunner()
    for name in sorted(used):
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Example" in result.output, name


def test_every_route_in_the_readme_exists() -> None:
    from api.main import create_app
    from graphmem.config import Settings

    app = create_app(Settings(no_auth=True))
    templates = [*app.openapi()["paths"], "/healthz", "/readyz", "/metrics"]
    patterns = [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", t) + "$") for t in templates if t]
    for path in set(re.findall(r"localhost:8000(/[\w/\-]*)", README)):
        assert any(p.match(path.rstrip("/")) for p in patterns), path
