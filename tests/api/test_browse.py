"""Browsing routes (groups a key can read, a session's turns) and the explorer's static assets."""

from __future__ import annotations

import re

from tests.api.conftest import EPISODES, Api


async def _seed(api: Api) -> None:
    for who, group in (("agent_a", api.group_a), ("agent_b", api.group_b)):
        r = await api.call(who, "POST", f"/v1/groups/{group}/episodes", json={"episodes": EPISODES})
        assert r.status_code in (200, 201), r.text


async def test_groups_list_only_what_the_key_can_read(api: Api) -> None:
    await _seed(api)
    own = await api.call("agent_a", "GET", "/v1/groups")
    assert own.status_code == 200
    assert [g["group_id"] for g in own.json()["groups"]] == [api.group_a]
    assert own.json()["groups"][0]["episodes"] == len(EPISODES)
    every: list[str] = []
    params: dict[str, str | int] = {"limit": 1000}
    while True:  # an analyst reads every group of the database, page by page
        page = (await api.call("analyst", "GET", "/v1/groups", params=params)).json()
        every += [g["group_id"] for g in page["groups"]]
        if not page["has_more"]:
            break
        params["cursor"] = page["next_cursor"]
    assert (
        {api.group_a, api.group_b} <= set(every) and every == sorted(every) and len(set(every)) == len(every)
    )
    first = (await api.call("analyst", "GET", "/v1/groups", params={"limit": 1})).json()
    assert len(first["groups"]) == 1 and first["has_more"] and first["next_cursor"]


async def test_session_turns_come_oldest_first_with_their_facts(api: Api) -> None:
    await _seed(api)
    r = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/sessions/s1/episodes")
    assert r.status_code == 200, r.text
    turns = r.json()["turns"]
    assert [t["episode"]["external_id"] for t in turns] == ["m1", "m2"]
    assert any("Paris" in f["statement"] for f in turns[1]["facts"])
    last = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/sessions/s1/episodes?last_n=1")
    assert [t["episode"]["external_id"] for t in last.json()["turns"]] == ["m2"]
    other = await api.call("agent_a", "GET", f"/v1/groups/{api.group_b}/sessions/s1/episodes")
    assert other.status_code == 403


async def test_explorer_assets_are_served_from_the_package_without_a_cdn(api: Api) -> None:
    page = await api.client.get("/explorer")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("explorer.js", "explorer.css"):
        r = await api.client.get(f"/explorer/{asset}")
        assert r.status_code == 200
        # the only absolute URL is the SVG namespace: nothing is loaded from another host
        assert set(re.findall(r"https?://[^\s\"')]+", r.text)) <= {"http://www.w3.org/2000/svg"}
    assert (await api.client.get("/explorer/../main.py")).status_code == 404
    assert (await api.client.get("/explorer/secrets.txt")).status_code == 404


async def test_a_session_id_with_a_slash_reads_back(api: Api) -> None:
    """Bug: a session id holding '/' was accepted on write but its turns were a plain 404 (the router
    decoded %2F before matching the route)."""
    episode = {**EPISODES[0], "session_id": "thread/42", "external_id": "slash-1"}
    assert (
        await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/episodes", json=episode)
    ).status_code == 201
    for sid in ("thread%2F42", "thread/42"):
        r = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/sessions/{sid}/episodes")
        assert r.status_code == 200, r.text
        assert [t["episode"]["external_id"] for t in r.json()["turns"]] == ["slash-1"]
