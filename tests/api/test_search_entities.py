"""Search, entities, timelines and forgetting a group over HTTP."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api, seed


async def test_search_entities_and_timeline(api: Api) -> None:
    seeded = await seed(api, api.group_a, who="agent_a")
    g = api.group_a
    r = await api.call(
        "agent_a", "POST", f"/v1/groups/{g}/search", json={"query": "where does Alice live?", "k": 5}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["facts"][0]["fact"]["statement"] == "Alice lives in Paris"
    assert body["facts"][0]["fact"]["evidence"][0]["external_id"] == "m2"
    assert "Paris" in body["context"]
    past = await api.call(
        "agent_a",
        "POST",
        f"/v1/groups/{g}/search",
        json={"query": "Alice lives in", "as_of": "2024-03-01T00:00:00Z"},
    )
    assert "Alice lives in Berlin" in [h["fact"]["statement"] for h in past.json()["facts"]]

    entity = await api.call("agent_a", "GET", f"/v1/groups/{g}/entities/{seeded.entity_id}")
    assert entity.status_code == 200 and entity.json()["name"] == "Alice"
    timeline = await api.call("agent_a", "GET", f"/v1/groups/{g}/entities/{seeded.entity_id}/timeline")
    assert timeline.status_code == 200
    lives = [f["object"] for f in timeline.json()["facts"] if f["predicate"] == "lives_in"]
    assert lives == ["Berlin", "Paris"]
    listed = await api.call("agent_a", "GET", f"/v1/groups/{g}/entities", params={"limit": 2})
    assert len(listed.json()["entities"]) == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "x", "k": 0}, "k"),
        ({"query": "x", "recipe": "nope"}, "recipe"),
        ({"query": "x", "as_of": "soon"}, "as_of"),
        ({"query": "x", "extra": 1}, "extra"),
    ],
)
async def test_invalid_search_is_422(api: Api, body: dict[str, object], field: str) -> None:
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/search", json=body)
    assert r.status_code == 422, r.text
    details = r.json()["details"]
    assert details.get("field", details.get("errors", [{}])[0].get("field")) == field


async def test_unknown_entities_are_404_and_empty_search_is_fine(api: Api) -> None:
    g = api.group_a
    assert (await api.call("agent_a", "GET", f"/v1/groups/{g}/entities/nope")).status_code == 404
    assert (await api.call("agent_a", "GET", f"/v1/groups/{g}/entities/nope/timeline")).status_code == 404
    assert (await api.call("agent_a", "GET", f"/v1/groups/{g}/entities", params={"name": "zed"})).json() == {
        "entities": []
    }
    r = await api.call("agent_a", "POST", f"/v1/groups/{g}/search", json={"query": "anything"})
    assert r.status_code == 200 and r.json()["ranked"] == []


async def test_forget_group_is_admin_only(api: Api) -> None:
    await seed(api, api.group_a, who="agent_a")
    url = f"/v1/groups/{api.group_a}"
    assert (await api.call("agent_a", "DELETE", url)).status_code == 403
    assert (await api.call("analyst", "DELETE", url)).status_code == 403
    r = await api.call("admin", "DELETE", url)
    assert r.status_code == 200, r.text
    assert r.json()["episodes"] == 2 and r.json()["facts_deleted"] >= 3
    left = await api.call(
        "agent_a", "GET", f"/v1/groups/{api.group_a}/facts", params={"include_history": True}
    )
    assert left.json()["facts"] == []
