"""``GET /v1/groups/{group}/changes`` (issue 21, item 1): the change log over HTTP, with the
caller's key as actor and ``X-Consent-Id`` / ``X-Change-Reason`` from every write route;
cursor-paginated, group-scoped like every route; forget empties earlier payloads."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import EPISODES, Api

HEADERS = {"X-Consent-Id": "consent-7", "X-Change-Reason": "onboarding chat"}


async def _all(api: Api, who: str, group: str, **params: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {**params, "limit": 3, **({"cursor": cursor} if cursor else {})}
        r = await api.call(who, "GET", f"/v1/groups/{group}/changes", params=query)
        assert r.status_code == 200, r.text
        body = r.json()
        out += body["changes"]
        cursor = body["next_cursor"]
        if not body["has_more"]:
            return out


async def test_writes_record_the_key_reason_and_consent(api: Api) -> None:
    url = f"/v1/groups/{api.group_a}/episodes"
    r = await api.call("agent_a", "POST", url, json={"episodes": EPISODES}, headers=HEADERS)
    assert r.status_code == 201, r.text
    log = await _all(api, "agent_a", api.group_a)
    added = [c for c in log if c["kind"] == "episode_added"]
    assert [c["target_ids"][0] for c in added] == [e["id"] for e in r.json()["episodes"]]
    assert {(c["actor"], c["actor_role"]) for c in added} == {("key:agent-a", "agent")}
    facts = [c for c in log if c["kind"].startswith("fact_")]
    assert len(facts) == len(r.json()["facts"])
    assert {(c["actor_role"], c["requested_by"]) for c in facts} == {("extractor", "key:agent-a")}
    assert {(c["consent_id"], c["reason"]) for c in log} == {("consent-7", "onboarding chat")}
    order = [(c["seq"], c["n"]) for c in log]
    assert order == sorted(set(order))

    # the next request says nothing: nothing of the previous one's context is left
    body = {"subject": "Bob", "predicate": "likes", "object": "tea"}
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/facts", json=body)
    assert r.status_code == 201, r.text
    last = (await _all(api, "agent_a", api.group_a))[len(log) :]
    assert last and {(c["actor"], c["consent_id"], c["reason"]) for c in last} == {
        ("key:agent-a", None, None)
    }


async def test_correct_retract_and_forget_over_http(api: Api) -> None:
    group = api.group_a
    r = await api.call("agent_a", "POST", f"/v1/groups/{group}/episodes", json={"episodes": EPISODES})
    episode_ids = [e["id"] for e in r.json()["episodes"]]
    body = {"subject": "Bob", "predicate": "likes", "object": "tea"}
    r = await api.call("agent_a", "POST", f"/v1/groups/{group}/facts", json=body)
    fact_id = r.json()["facts"][0]["fact_id"]
    r = await api.call(
        "agent_a", "DELETE", f"/v1/groups/{group}/facts/{fact_id}", headers={"X-Change-Reason": "not true"}
    )
    assert r.status_code == 200, r.text
    history = await _all(api, "agent_a", group, target=fact_id)
    assert [c["kind"] for c in history] == ["fact_created", "fact_retracted"]
    assert history[-1]["reason"] == "not true"

    before = await _all(api, "agent_a", group, target=episode_ids[0])
    assert before and all(c["payload"] is not None for c in before)
    r = await api.call("agent_a", "DELETE", f"/v1/groups/{group}/episodes/{episode_ids[0]}", headers=HEADERS)
    assert r.status_code == 200, r.text
    after = await _all(api, "agent_a", group, target=episode_ids[0])
    assert [c["id"] for c in after[: len(before)]] == [c["id"] for c in before]
    assert all(c["payload"] is None and c["payload_hash"] for c in after[: len(before)])
    [forget] = after[len(before) :]
    assert (forget["kind"], forget["consent_id"], forget["actor"]) == ("forget", "consent-7", "key:agent-a")


async def test_the_log_is_scoped_to_the_key_s_groups(api: Api) -> None:
    r = await api.call("agent_b", "POST", f"/v1/groups/{api.group_b}/episodes", json={"episodes": EPISODES})
    assert r.status_code == 201
    assert (await api.call("agent_a", "GET", f"/v1/groups/{api.group_b}/changes")).status_code == 403
    assert await _all(api, "agent_a", api.group_a) == []
    assert await _all(api, "analyst", api.group_b)  # analysts read every group


async def test_bad_parameters_are_clear_errors(api: Api) -> None:
    url = f"/v1/groups/{api.group_a}/changes"
    for params, code in [
        ({"cursor": "abc"}, "invalid_input"),
        ({"since": "2024-02-01T00:00:00Z", "until": "2024-01-01T00:00:00Z"}, "invalid_time_range"),
        ({"limit": 0}, "invalid_input"),
        ({"after": "1"}, "unknown_parameter"),
    ]:
        r = await api.call("agent_a", "GET", url, params=params)
        assert r.status_code == 422 and r.json()["code"] == code, (params, r.text)
    long = {"X-Change-Reason": "x" * 501}
    r = await api.call(
        "agent_a", "POST", f"/v1/groups/{api.group_a}/episodes", json={"episodes": EPISODES}, headers=long
    )
    assert r.status_code == 422, r.text
    assert await _all(api, "agent_a", api.group_a) == []  # nothing written
