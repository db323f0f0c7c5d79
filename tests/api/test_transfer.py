"""Export and import over HTTP (admin keys): the CLI's JSONL format, tombstones honoured as the CLI
honours them, bad lines refused before anything is written, other keys refused."""

from __future__ import annotations

import json
from typing import Any

from graphmem.memory import GraphMemory
from graphmem.memory.lifecycle import records
from tests.api.conftest import EPISODES, Api, new_group


def _lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


async def _export(api: Api, group: str) -> str:
    r = await api.call("admin", "GET", f"/v1/groups/{group}/export")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return r.text


async def test_the_export_is_the_clis_jsonl_and_imports_into_another_group(
    api: Api, memory: GraphMemory
) -> None:
    r = await api.call("admin", "POST", f"/v1/groups/{api.group_a}/episodes", json={"episodes": EPISODES})
    assert r.status_code == 201, r.text
    text = await _export(api, api.group_a)
    lines = _lines(text)
    assert lines[0]["type"] == "header" and lines[0]["group_id"] == api.group_a
    library = [record async for record in memory.export_group(api.group_a)]  # what `graphmem export` writes
    assert records.canonical(lines) == records.canonical(library)

    copy = new_group("tc")
    try:
        imported = await api.call("admin", "POST", f"/v1/groups/{copy}/import", content=text.encode())
        assert imported.status_code == 200, imported.text
        report = imported.json()
        assert report["groups"] == [copy] and report["nodes"] == sum(1 for x in lines if x["type"] == "node")
        again = await api.call("admin", "POST", f"/v1/groups/{copy}/import", content=text.encode())
        assert again.status_code == 200  # idempotent
        facts = await api.call("admin", "GET", f"/v1/groups/{copy}/facts", params={"subject": "Alice"})
        assert "Alice lives in Paris" in {f["statement"] for f in facts.json()["facts"]}
    finally:
        await memory.forget_group(copy, purge_tombstones=True)


async def test_forgotten_episodes_stay_forgotten_unless_allowed(api: Api) -> None:
    g = api.group_a
    r = await api.call("admin", "POST", f"/v1/groups/{g}/episodes", json={"episodes": EPISODES})
    assert r.status_code == 201, r.text
    text = await _export(api, g)
    gone = r.json()["episodes"][1]["id"]
    assert (await api.call("admin", "DELETE", f"/v1/groups/{g}/episodes/{gone}")).status_code == 200
    kept = await api.call("admin", "POST", f"/v1/groups/{g}/import", content=text.encode())
    assert kept.status_code == 200 and kept.json()["forgotten"] == 1, kept.text
    assert (await api.call("admin", "GET", f"/v1/groups/{g}/episodes/{gone}")).status_code == 404
    back = await api.call(
        "admin", "POST", f"/v1/groups/{g}/import?allow_forgotten=true", content=text.encode()
    )
    assert back.status_code == 200 and back.json()["tombstones_removed"] == 1, back.text
    assert (await api.call("admin", "GET", f"/v1/groups/{g}/episodes/{gone}")).status_code == 200


async def test_a_bad_line_is_refused_before_anything_is_written(api: Api) -> None:
    await api.call("admin", "POST", f"/v1/groups/{api.group_a}/episodes", json={"episodes": EPISODES})
    text = await _export(api, api.group_a)
    broken = text.rstrip("\n").split("\n")
    broken.insert(3, "{not json")
    target = new_group("tx")
    r = await api.call("admin", "POST", f"/v1/groups/{target}/import", content="\n".join(broken).encode())
    assert r.status_code == 422 and r.json()["details"]["line"] == 4, r.text
    groups = (await api.call("admin", "GET", "/v1/groups")).json()["groups"]
    assert target not in {g["group_id"] for g in groups}
    empty = await api.call("admin", "POST", f"/v1/groups/{target}/import", content=b"")
    assert empty.status_code == 422 and empty.json()["code"] == "invalid_input"


async def test_only_admin_keys_export_or_import(api: Api) -> None:
    await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/episodes", json={"episodes": EPISODES})
    text = await _export(api, api.group_a)
    for who in ("agent_a", "agent_b", "analyst"):
        out = await api.call(who, "GET", f"/v1/groups/{api.group_a}/export")
        assert out.status_code == 403, (who, out.text)
        assert "Alice" not in out.text
        into = await api.call(who, "POST", f"/v1/groups/{api.group_a}/import", content=text.encode())
        assert into.status_code == 403, (who, into.text)
    unknown = await api.call("admin", "GET", f"/v1/groups/{api.group_a}/export", params={"sinse": "2024"})
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_parameter"
