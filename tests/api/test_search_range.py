"""Search over a time range: ``since``/``until`` on POST /search keep the episodes said in the range
and the facts whose valid interval meets it (issue 18, item 3)."""

from __future__ import annotations

from tests.api.conftest import Api

TURNS = [
    {"content": "I moved to Porto and love the river", "reference_time": "2024-01-10T09:00:00Z"},
    {"content": "The river in Porto flooded the old quay", "reference_time": "2024-03-12T09:00:00Z"},
    {"content": "We walked along the river to the bridge", "reference_time": "2024-03-20T09:00:00Z"},
    {"content": "A new ferry now crosses the river", "reference_time": "2024-06-05T09:00:00Z"},
]
FACTS = [
    {
        "subject": "Dana",
        "predicate": "lives_in",
        "object": "Porto",
        "valid_from": "2024-01-01T00:00:00Z",
        "valid_to": "2024-02-01T00:00:00Z",
    },
    {"subject": "Dana", "predicate": "lives_in", "object": "Lisbon", "valid_from": "2024-02-01T00:00:00Z"},
]


async def _seed(api: Api, group: str) -> None:
    episodes = [
        {**t, "speaker": "Dana", "session_id": "s1", "external_id": f"r{i}"} for i, t in enumerate(TURNS)
    ]
    r = await api.call("admin", "POST", f"/v1/groups/{group}/episodes", json={"episodes": episodes})
    assert r.status_code == 201, r.text
    for fact in FACTS:
        r = await api.call("admin", "POST", f"/v1/groups/{group}/facts", json=fact)
        assert r.status_code == 201, r.text


async def test_a_range_keeps_the_episodes_and_facts_it_meets(api: Api) -> None:
    g = api.group_a
    await _seed(api, g)
    body = {"query": "river Porto Lisbon Dana lives", "k": 20}
    everything = await api.call("agent_a", "POST", f"/v1/groups/{g}/search", json=body)
    assert everything.status_code == 200, everything.text
    assert {h["episode"]["external_id"] for h in everything.json()["episodes"]} == {"r0", "r1", "r2", "r3"}

    march = {**body, "since": "2024-03-01T00:00:00Z", "until": "2024-04-01T00:00:00Z"}
    r = await api.call("agent_a", "POST", f"/v1/groups/{g}/search", json=march)
    assert r.status_code == 200, r.text
    assert {h["episode"]["external_id"] for h in r.json()["episodes"]} == {"r1", "r2"}
    statements = [h["fact"]["statement"] for h in r.json()["facts"]]
    assert any("Lisbon" in s for s in statements) and not any("Porto" in s for s in statements)

    january = {**body, "since": "2024-01-05T00:00:00Z", "until": "2024-01-20T00:00:00Z"}
    r = await api.call("agent_a", "POST", f"/v1/groups/{g}/search", json=january)
    assert r.status_code == 200, r.text
    assert {h["episode"]["external_id"] for h in r.json()["episodes"]} == {"r0"}
    statements = [h["fact"]["statement"] for h in r.json()["facts"]]
    assert any("Porto" in s for s in statements)  # ended since, but true in the range
    assert not any("Lisbon" in s for s in statements)


async def test_a_range_that_ends_before_it_starts_is_a_422(api: Api) -> None:
    body = {"query": "river", "since": "2024-04-01T00:00:00Z", "until": "2024-03-01T00:00:00Z"}
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/search", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_time_range"
    assert r.json()["details"]["field"] == "until"
