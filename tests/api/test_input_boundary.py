"""The input boundary: Unicode normalisation, unknown query parameters, idempotency conflicts."""

from __future__ import annotations

import hashlib

from tests.api.conftest import Api, seed

DECOMPOSED = "Zu\u0308rich"  # "Zürich" with a combining diaeresis
COMPOSED = "Z\u00fcrich"


async def test_decomposed_unicode_does_not_cut_a_name(api: Api) -> None:
    """Bug: "Zu\\u0308rich" was stored as "Zu" and "Sa\\u0303o Paulo" as "Sa" (the combining mark
    is no word character); input text is NFC-normalised at the boundary."""
    url = f"/v1/groups/{api.group_a}/episodes"
    body = {
        "content": f"I moved to {DECOMPOSED} last year.",
        "reference_time": "2024-03-01T12:00:00Z",
        "speaker": "alice",
    }
    r = await api.call("agent_a", "POST", url, json=body)
    assert r.status_code == 201, r.text
    assert [f["statement"] for f in r.json()["facts"]] == [f"alice lives in {COMPOSED}"]
    episode = await api.call("agent_a", "GET", f"{url}/{r.json()['episodes'][0]['id']}")
    assert episode.json()["episode"]["content"] == f"I moved to {COMPOSED} last year."
    # the composed spelling is the same episode (keys and hashes are taken after NFC)
    again = await api.call(
        "agent_a", "POST", url, json={**body, "content": f"I moved to {COMPOSED} last year."}
    )
    assert again.json()["episodes"][0]["status"] == "existing"
    facts = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts", params={"subject": "alice"})
    assert [f["object"] for f in facts.json()["facts"]] == [COMPOSED]
    found = await api.call(
        "agent_a", "POST", f"/v1/groups/{api.group_a}/search", json={"query": f"who lives in {DECOMPOSED}?"}
    )
    assert found.json()["facts"][0]["fact"]["object"] == COMPOSED


async def test_entity_names_lose_nul_and_bidi_controls(api: Api) -> None:
    """Bug: NUL and bidirectional-override characters were kept in entity names, so "Bob" and
    "Bo\\u202eb" were two people and the second displayed reversed."""
    url = f"/v1/groups/{api.group_a}/facts"
    fact = {"subject": "Bo\u202eb\x00", "predicate": "likes", "object": "S\u2066a\u0303o Paulo\u2069"}
    r = await api.call("agent_a", "POST", url, json=fact)
    assert r.status_code == 201, r.text
    assert r.json()["facts"][0]["statement"] == "Bob likes S\u00e3o Paulo"
    only_controls = await api.call("agent_a", "POST", url, json={**fact, "subject": "\u202e\u202d"})
    assert only_controls.status_code == 422
    assert only_controls.json()["details"]["field"] == "facts.0.subject"


async def test_unknown_query_parameters_are_rejected(api: Api) -> None:
    """Bug: ``facts?since=...`` returned every fact and unknown parameters were silently ignored;
    every route answers 422 naming the parameter."""
    seeded = await seed(api, api.group_a, who="agent_a")
    g = api.group_a
    probes = [
        ("GET", f"/v1/groups/{g}/facts", {"since": "2024-01-01T00:00:00Z"}),
        ("GET", f"/v1/groups/{g}/facts/{seeded.fact_id}", {"verbose": "1"}),
        ("GET", f"/v1/groups/{g}/entities", {"nmae": "alice"}),
        ("GET", f"/v1/groups/{g}/episodes/{seeded.episode_ids[0]}", {"x": ""}),
        ("POST", f"/v1/groups/{g}/search", {"k": "3"}),
    ]
    for method, url, params in probes:
        kwargs = {"json": {"query": "alice"}} if method == "POST" else {}
        r = await api.call("agent_a", method, url, params=params, **kwargs)
        assert r.status_code == 422, (url, r.text)
        body = r.json()
        name = next(iter(params))
        assert body["code"] == "unknown_parameter"
        assert body["details"] == {"field": name, "in": "query", "allowed": body["details"]["allowed"]}
        assert name in body["message"]
    facts = await api.call("agent_a", "GET", f"/v1/groups/{g}/facts", params={"limit": "2"})
    assert facts.status_code == 200  # declared parameters still work
    assert (await api.call("agent_a", "GET", "/healthz", params={"probe": "1"})).status_code == 422


async def test_forget_group_purges_tombstones_on_request(api: Api) -> None:
    """Bug: ``DELETE /v1/groups/G?purge_tombstones=true`` purged nothing (the parameter was
    ignored); it removes the group's tombstones, so forgotten episodes may be ingested again."""
    g = api.group_a
    episode = {
        "content": "Carol works at Initech.",
        "reference_time": "2024-03-01T12:00:00Z",
        "external_id": "c1",
    }
    assert (await api.call("admin", "POST", f"/v1/groups/{g}/episodes", json=episode)).status_code == 201
    kept = await api.call("admin", "DELETE", f"/v1/groups/{g}")
    assert kept.status_code == 200, kept.text
    again = await api.call("admin", "POST", f"/v1/groups/{g}/episodes", json=episode)
    assert again.json()["episodes"][0]["status"] == "forgotten"
    purged = await api.call("admin", "DELETE", f"/v1/groups/{g}", params={"purge_tombstones": "true"})
    assert purged.status_code == 200, purged.text
    assert purged.json()["tombstones_deleted"] >= 1
    back = await api.call("admin", "POST", f"/v1/groups/{g}/episodes", json=episode)
    assert back.status_code == 201
    assert back.json()["episodes"][0]["status"] == "created"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_same_external_id_with_other_content_is_a_conflict(api: Api) -> None:
    """Bug: re-sending an external_id with different content answered ``existing`` and dropped the
    new text; it is a 409 ``idempotency_conflict`` with both content hashes, and nothing is written."""
    url = f"/v1/groups/{api.group_a}/episodes"
    first = {
        "content": "Carol works at Initech.",
        "reference_time": "2024-03-01T12:00:00Z",
        "external_id": "m7",
    }
    created = await api.call("agent_a", "POST", url, json=first)
    assert created.status_code == 201
    other = {
        "content": "Carol works at Hooli.",
        "reference_time": "2024-03-01T12:00:00Z",
        "external_id": "m8",
    }
    edited = {**first, "content": "Carol works at Hooli."}
    r = await api.call("agent_a", "POST", url, json={"episodes": [other, edited]})
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["code"] == "idempotency_conflict"
    assert body["details"]["conflicts"] == [
        {
            "index": 1,
            "external_id": "m7",
            "episode_id": created.json()["episodes"][0]["id"],
            "stored_content_hash": _sha(first["content"]),
            "content_hash": _sha(edited["content"]),
        }
    ]
    listed = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts")
    assert [f["statement"] for f in listed.json()["facts"]] == ["Carol works at Initech"]  # m8 not written
    same = await api.call("agent_a", "POST", url, json=first)
    assert same.status_code == 200  # the same content is still an idempotent retry
    assert same.json()["episodes"][0]["status"] == "existing"


async def test_replace_overwrites_an_episode_by_external_id(api: Api) -> None:
    """Bug: a client could not correct an episode it had sent (same external_id, new text) at all:
    ``on_conflict=replace`` forgets the stored episode and ingests the new content in its place."""
    url = f"/v1/groups/{api.group_a}/episodes"
    first = {
        "content": "Carol works at Initech.",
        "reference_time": "2024-03-01T12:00:00Z",
        "external_id": "m9",
    }
    old = (await api.call("agent_a", "POST", url, json=first)).json()["episodes"][0]["id"]
    edited = {**first, "content": "Carol works at Hooli."}
    r = await api.call("agent_a", "POST", url, json=edited, params={"on_conflict": "replace"})
    assert r.status_code == 201, r.text
    outcome = r.json()["episodes"][0]
    assert outcome["status"] == "created" and outcome["id"] != old
    listed = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts")
    assert [f["statement"] for f in listed.json()["facts"]] == ["Carol works at Hooli"]
    assert (await api.call("agent_a", "GET", f"{url}/{old}")).status_code == 404
    # replacing with the same content changes nothing
    same = await api.call("agent_a", "POST", url, json=edited, params={"on_conflict": "replace"})
    assert same.status_code == 200
    assert same.json()["episodes"][0] == {**outcome, "status": "existing"}
    bad = await api.call("agent_a", "POST", url, json=edited, params={"on_conflict": "merge"})
    assert bad.status_code == 422
