"""Project rules that code review would otherwise have to remember (STYLE §4, §9)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graphmem", "api", "ingest", "eval", "graphmem_cli")
CYPHER = re.compile(r"\b(MATCH|MERGE)\s*\(|\bCREATE\s*\(|DETACH DELETE")


def _py_files() -> list[Path]:
    return [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]


def test_cypher_lives_only_in_store_cypher() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in _py_files()
        if CYPHER.search(p.read_text(encoding="utf-8"))
        and not str(p.relative_to(ROOT)).startswith("graphmem/store/")
    ]
    assert offenders == []


def test_environment_is_read_only_in_config() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "graphmem").rglob("*.py")
        if re.search(r"os\.(getenv|environ)", p.read_text(encoding="utf-8")) and p.name != "config.py"
    ]
    assert offenders == []
