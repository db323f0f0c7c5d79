"""Pure parts of the proof of forgetting (graphmem/memory/lifecycle/proof.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from graphmem.memory.lifecycle.proof import _exports, external_key
from graphmem.models.episode import EpisodeIn


def test_the_external_key_is_the_episodes_idempotency_key() -> None:
    ep = EpisodeIn(content="x", reference_time=datetime(2024, 1, 1, tzinfo=UTC), external_id="msg-17")
    assert external_key("g", "msg-17") == ep.idempotency_key("g")


def _line(label: str, **props: str) -> str:
    return json.dumps({"type": "node", "label": label, "properties": props})


def test_the_export_scan_names_files_holding_the_groups_content(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "00001-g.jsonl").write_text(
        _line("Episode", group_id="g", external_id="m1", content="I live in Paris") + "\n", encoding="utf-8"
    )
    (tmp_path / "other.jsonl").write_text(
        _line("Episode", group_id="h", content="x") + "\n", encoding="utf-8"
    )
    (tmp_path / "marks.jsonl").write_text(_line("Tombstone", group_id="g", key="k") + "\n", encoding="utf-8")

    whole = _exports(tmp_path, "g", None, [])
    assert whole.found == 1 and whole.ids[0].endswith("00001-g.jsonl")
    assert _exports(tmp_path, "g", "m1", []).found == 1
    assert _exports(tmp_path, "g", "m2", []).found == 0
    assert _exports(tmp_path, "g", "m2", ["Paris"]).found == 1
    assert not _exports(None, "g", None, []).checked
