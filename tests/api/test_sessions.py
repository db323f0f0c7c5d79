"""Short-term memory over HTTP: a group's sessions and episodes page by page, and a search that
brings a session's digest (its facts, key turns and newest turns) beside the long-term hits."""

from __future__ import annotations

from typing import Any

from graphmem.retrieval.context import estimate_tokens
from tests.api.conftest import Api

TURNS = [
    ("s1", "alice", "2024-01-10T09:00:00Z", "Alice lives in Berlin. Alice works at Acme."),
    ("s1", "bob", "2024-01-10T09:05:00Z", "Nice, I have never been to Berlin."),
    ("s1", "alice", "2024-06-01T09:00:00Z", "Alice moved to Paris."),
    ("s2", "bob", "2024-03-01T10:00:00Z", "Bob adopted a dog named Pixel."),
    ("s3", "carol", "2024-04-01T10:00:00Z", "Carol plays the violin."),
]


async def _seed(api: Api, who: str = "agent_a", group: str | None = None) -> list[dict[str, Any]]:
    episodes = [
        {"session_id": s, "speaker": sp, "reference_time": t, "content": c, "external_id": f"e{i}"}
        for i, (s, sp, t, c) in enumerate(TURNS)
    ]
    r = await api.call(
        who, "POST", f"/v1/groups/{group or api.group_a}/episodes", json={"episodes": episodes}
    )
    assert r.status_code == 201, r.text
    return episodes


async def _get(api: Api, url: str, **params: Any) -> dict[str, Any]:
    r = await api.call("agent_a", "GET", url, params=params)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_sessions_come_in_pages_with_counts_and_times(api: Api) -> None:
    await _seed(api)
    url = f"/v1/groups/{api.group_a}/sessions"
    first = await _get(api, url, limit=2)
    assert [s["session_id"] for s in first["sessions"]] == ["s1", "s2"] and first["has_more"]
    s1 = first["sessions"][0]
    assert (s1["episodes"], s1["first_at"], s1["last_at"]) == (
        3,
        "2024-01-10T09:00:00Z",
        "2024-06-01T09:00:00Z",
    )
    assert s1["facts"] >= 3  # lives in Berlin, works at Acme, lives in Paris
    rest = await _get(api, url, limit=2, cursor=first["next_cursor"])
    assert [s["session_id"] for s in rest["sessions"]] == ["s3"]
    assert not rest["has_more"] and rest["next_cursor"] is None


async def test_episodes_page_through_every_filter_without_gaps_or_repeats(api: Api) -> None:
    await _seed(api)
    url = f"/v1/groups/{api.group_a}/episodes"
    for order, expected in (
        ("asc", ["e0", "e1", "e3", "e4", "e2"]),
        ("desc", ["e2", "e4", "e3", "e1", "e0"]),
    ):
        seen: list[str] = []
        params: dict[str, Any] = {"limit": 2, "order": order}
        while True:
            page = await _get(api, url, **params)
            seen += [item["episode"]["external_id"] for item in page["episodes"]]
            if not page["has_more"]:
                break
            params["cursor"] = page["next_cursor"]
        assert seen == expected, order
    only = await _get(api, url, session_id="s1", speaker="alice")
    assert [i["episode"]["external_id"] for i in only["episodes"]] == ["e0", "e2"]
    assert all(i["fact_ids"] for i in only["episodes"])
    window = await _get(api, url, since="2024-01-10T09:05:00Z", until="2024-04-01T10:00:00Z")
    assert [i["episode"]["external_id"] for i in window["episodes"]] == ["e1", "e3"]  # until is exclusive


async def test_bad_list_parameters_get_a_clear_422(api: Api) -> None:
    await _seed(api)
    url = f"/v1/groups/{api.group_a}/episodes"
    asc = await _get(api, url, limit=1)
    cases = [
        ({"sesion_id": "s1"}, "unknown_parameter", "sesion_id"),
        ({"since": "2024-05-01T00:00:00Z", "until": "2024-01-01T00:00:00Z"}, "invalid_time_range", "until"),
        ({"order": "desc", "cursor": asc["next_cursor"]}, "invalid_input", "cursor"),
        ({"cursor": "not-a-cursor"}, "invalid_input", "cursor"),
        ({"limit": 0}, "invalid_input", None),
    ]
    for params, code, field in cases:
        r = await api.call("agent_a", "GET", url, params=params)
        assert r.status_code == 422, (params, r.text)
        assert r.json()["code"] == code, (params, r.text)
        if field:
            assert field in r.text
    sessions = await api.call(
        "agent_a", "GET", f"/v1/groups/{api.group_a}/sessions", params={"cursor": asc["next_cursor"]}
    )
    assert sessions.status_code == 422 and sessions.json()["code"] == "invalid_input"


async def test_a_search_brings_the_sessions_digest_beside_long_term_hits(api: Api) -> None:
    await _seed(api)
    body = {"query": "where does Alice live?", "token_budget": 600, "session": {"id": "s1", "last_n": 1}}
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/search", json=body)
    assert r.status_code == 200, r.text
    result = r.json()
    digest = result["session"]
    assert digest["session_id"] == "s1" and digest["episodes"] == 3
    assert [t["episode"]["external_id"] for t in digest["recent"]] == ["e2"]
    statements = [f["statement"] for f in digest["facts"]]
    assert "Alice lives in Paris" in statements and "Alice lives in Berlin" not in statements  # current only
    assert [t["episode"]["external_id"] for t in digest["key_turns"]] == ["e0"]  # it gave facts; e1 none
    assert result["context"].startswith("Session s1 (3 turns, 2024-01-10 to 2024-06-01):")
    assert "Alice moved to Paris." in result["context"]
    assert result["facts"], "the long-term hits are there too"
    assert estimate_tokens(result["context"]) <= 600 + 2  # two parts joined, each within its share


async def test_a_new_session_has_an_empty_digest_and_another_group_is_refused(api: Api) -> None:
    await _seed(api)
    url = f"/v1/groups/{api.group_a}/search"
    fresh = await api.call("agent_a", "POST", url, json={"query": "Alice", "session": {"id": "never-seen"}})
    assert fresh.status_code == 200, fresh.text
    assert fresh.json()["session"]["episodes"] == 0 and fresh.json()["session"]["recent"] == []
    other = {"query": "Alice", "session": {"id": "s1", "group_id": api.group_b}}
    refused = await api.call("agent_a", "POST", url, json=other)
    assert refused.status_code == 422 and "session.group_id" in refused.text
    across = await api.call("agent_a", "POST", "/v1/search", json=other)  # B is not among the searched
    assert across.status_code == 422 and "session.group_id" in across.text
    both = await api.call(
        "agent_a", "POST", "/v1/search", json={**other, "groups": [api.group_a, api.group_b]}
    )
    assert both.status_code == 403
    mine = {"query": "Alice", "groups": [api.group_a], "session": {"id": "s1"}}
    found = await api.call("agent_a", "POST", "/v1/search", json=mine)
    assert found.status_code == 200 and found.json()["session"]["group_id"] == api.group_a


async def test_the_digest_route_gives_the_same_digest_as_the_search(api: Api) -> None:
    await _seed(api)
    digest = await _get(api, f"/v1/groups/{api.group_a}/sessions/s1/digest", last_n=1, token_budget=300)
    body = {"query": "Alice", "session": {"id": "s1", "last_n": 1, "token_budget": 300}}
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/search", json=body)
    assert r.json()["session"] == digest
    assert digest["context"].splitlines()[0] == "Session s1 (3 turns, 2024-01-10 to 2024-06-01):"
    assert (
        await api.call("agent_a", "GET", f"/v1/groups/{api.group_b}/sessions/s1/digest")
    ).status_code == 403
