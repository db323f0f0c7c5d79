"""Search hits carry the stored records, not reconstructions of them."""

from __future__ import annotations

from tests.api.conftest import Api, seed


async def test_an_episode_hit_equals_the_stored_episode_field_by_field(api: Api) -> None:
    """Regression (issue 16, defect 6): an episode hit's ``ingested_at`` was its reference time and
    its ``content_hash`` was "", because the hydration query never selected them and the pipeline
    filled the gaps; every field of a hit must equal ``GET /episodes/{id}``."""
    g = api.group_a
    await seed(api, g, who="agent_a")
    r = await api.call(
        "agent_a",
        "POST",
        f"/v1/groups/{g}/search",
        json={"query": "Alice moved to Paris", "recipe": "episodes_only", "k": 5},
    )
    assert r.status_code == 200, r.text
    hits = r.json()["episodes"]
    assert hits
    for hit in hits:
        stored = await api.call("agent_a", "GET", f"/v1/groups/{g}/episodes/{hit['id']}")
        assert stored.status_code == 200, stored.text
        expected = stored.json()["episode"]
        assert expected["content_hash"]
        assert expected["ingested_at"] != expected["reference_time"]
        for field, value in expected.items():
            assert hit["episode"].get(field) == value, field
