"""The README's configuration table and `Settings` name the same variables (STYLE §19: reference
tables are checked against the code). A row may abbreviate names after the first one: in
`GRAPHMEM_EMBED_BASE_URL` / `_MODEL`, `_MODEL` stands for `GRAPHMEM_EMBED_MODEL`."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import AliasChoices

from graphmem.config import Settings

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
# read at the edge outside Settings: `graphmem mcp` (stdio) takes its key from the environment
OUTSIDE_SETTINGS = {"GRAPHMEM_API_KEY"}
# fields no code reads yet, so there is nothing true to document
UNREAD = {"search_default_k"}


def documented() -> set[str]:
    table = README.split("\n## Configuration", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in table.splitlines():
        cells = line.split("|")
        found = re.findall(r"`([A-Z_][A-Z0-9_]*)`", cells[1]) if len(cells) > 2 else []
        if not found:
            continue
        stem = "_".join(found[0].split("_")[:2])  # GRAPHMEM_EMBED_BASE_URL -> GRAPHMEM_EMBED
        names |= {stem + n if n.startswith("_") else n for n in found}
    return names


def variables(field: str) -> list[str]:
    alias = Settings.model_fields[field].validation_alias
    return (
        [str(c) for c in alias.choices] if isinstance(alias, AliasChoices) else [f"GRAPHMEM_{field.upper()}"]
    )


def test_every_setting_has_a_row() -> None:
    rows = documented()
    missing = [f for f in Settings.model_fields if f not in UNREAD and not set(variables(f)) & rows]
    assert missing == []


def test_every_row_is_a_setting() -> None:
    known = {v for f in Settings.model_fields for v in variables(f)} | OUTSIDE_SETTINGS
    assert documented() - known == set()


def test_the_abbreviations_expand_as_documented() -> None:
    rows = documented()
    assert {"GRAPHMEM_EMBED_MODEL", "GRAPHMEM_EMBED_API_KEY", "GRAPHMEM_LLM_MAX_RETRIES"} <= rows
    assert {"GRAPHMEM_EMBED_DIMENSION", "GRAPHMEM_EMBEDDING_DIMENSION"} <= set(
        variables("embedding_dimension")
    )
