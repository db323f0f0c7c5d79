"""POST/GET/DELETE episodes: idempotency, batches, limits, validation naming the field."""

from __future__ import annotations

import pytest

from tests.api.conftest import EPISODES, Api, seed

ONE = {"content": "Carol works at Initech.", "reference_time": "2024-03-01T12:00:00Z", "speaker": "carol"}


async def test_single_episode_is_created_then_existing(api: Api) -> None:
    url = f"/v1/groups/{api.group_a}/episodes"
    first = await api.call("agent_a", "POST", url, json=ONE)
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["episodes"][0]["status"] == "created"
    assert any(f["statement"] == "Carol works at Initech" for f in body["facts"])
    again = await api.call("agent_a", "POST", url, json=ONE)
    assert again.status_code == 200
    assert again.json()["episodes"] == [{**body["episodes"][0], "status": "existing"}]


async def test_idempotency_key_becomes_external_id(api: Api) -> None:
    url = f"/v1/groups/{api.group_a}/episodes"
    headers = {"Idempotency-Key": "retry-123"}
    first = await api.call("agent_a", "POST", url, json=ONE, headers=headers)
    assert first.status_code == 201
    assert first.json()["episodes"][0]["external_id"] == "retry-123"
    second = await api.call("agent_a", "POST", url, json=ONE, headers=headers)  # a retry
    assert second.status_code == 200
    assert second.json()["episodes"][0]["id"] == first.json()["episodes"][0]["id"]
    # same key, different text: a conflict, never silently "existing" (tests/api/test_input_boundary.py)
    edited = await api.call(
        "agent_a", "POST", url, json={**ONE, "content": "Carol works at Hooli."}, headers=headers
    )
    assert edited.status_code == 409
    assert edited.json()["code"] == "idempotency_conflict"
    batch = await api.call(
        "agent_a",
        "POST",
        url,
        json={"episodes": [ONE, {**ONE, "speaker": "dan"}]},
        headers={"Idempotency-Key": "b"},
    )
    assert [e["external_id"] for e in batch.json()["episodes"]] == ["b:0", "b:1"]


async def test_batch_and_get_episode_with_its_facts(api: Api) -> None:
    seeded = await seed(api, api.group_a, who="agent_a")
    r = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/episodes/{seeded.episode_ids[0]}")
    assert r.status_code == 200
    body = r.json()
    assert body["episode"]["external_id"] == "m1"
    assert body["episode"]["content"] == EPISODES[0]["content"]
    assert {f["statement"] for f in body["facts"]} >= {"Alice works at Acme", "Alice lives in Berlin"}


async def test_batch_over_the_limit_is_413(api: Api) -> None:
    episodes = [{**ONE, "external_id": f"e{i}"} for i in range(6)]  # the fixture's max_batch is 5
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/episodes", json={"episodes": episodes})
    assert r.status_code == 413
    assert r.json()["details"] == {"field": "episodes", "limit": 5, "got": 6}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"reference_time": "2024-01-01T00:00:00Z"}, "content"),
        ({"content": "x"}, "reference_time"),
        ({"content": "x", "reference_time": "yesterday-ish"}, "reference_time"),
        ({**ONE, "source": "fax"}, "source"),
        ({**ONE, "colour": "red"}, "colour"),
        ({"episodes": []}, "episodes"),
        ({"episodes": [{"content": "x"}]}, "episodes.0.reference_time"),
    ],
)
async def test_invalid_episode_names_the_field(api: Api, body: dict[str, object], field: str) -> None:
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/episodes", json=body)
    assert r.status_code == 422, r.text
    error = r.json()
    assert error["code"] == "invalid_input"
    assert error["details"]["errors"][0]["field"] == field
    assert error["message"].startswith(field)


async def test_malformed_json_and_bad_group_name(api: Api) -> None:
    r = await api.call(
        "admin",
        "POST",
        f"/v1/groups/{api.group_a}/episodes",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 422 and r.json()["details"]["errors"][0]["field"] == "body"
    r = await api.call("admin", "GET", "/v1/groups/bad group!/episodes/x")
    assert r.status_code == 422 and r.json()["details"]["errors"][0]["field"] == "group"


async def test_unknown_episode_is_404(api: Api) -> None:
    r = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/episodes/nope")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


async def test_oversized_body_is_413_by_length_and_by_stream(api: Api) -> None:
    url = f"/v1/groups/{api.group_a}/episodes"
    big = {**ONE, "content": "x" * 250_000}  # the fixture's max_body_bytes is 200 000
    r = await api.call("agent_a", "POST", url, json=big)
    assert r.status_code == 413 and r.json()["code"] == "payload_too_large"

    async def chunks():  # no Content-Length: counted while streaming
        for _ in range(30):
            yield b"x" * 10_000

    r = await api.call("agent_a", "POST", url, content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


async def test_forget_episode(api: Api) -> None:
    seeded = await seed(api, api.group_a, who="agent_a")
    url = f"/v1/groups/{api.group_a}/episodes/{seeded.episode_ids[1]}"
    r = await api.call("agent_a", "DELETE", url)
    assert r.status_code == 200, r.text
    assert r.json()["episodes"] == 1
    assert (await api.call("agent_a", "GET", url)).status_code == 404
    assert (await api.call("agent_a", "DELETE", url)).status_code == 404
    # the tombstone refuses re-ingestion of the same episode
    again = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/episodes", json=EPISODES[1])
    assert again.json()["episodes"][0]["status"] == "forgotten"
