"""Facts over HTTP: explicit create, list (now / as_of / history), read, PATCH with If-Match, retract."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api

BERLIN = {
    "subject": "Erin",
    "predicate": "lives_in",
    "object": "Berlin",
    "valid_from": "2023-01-01T00:00:00Z",
}
ROME = {"subject": "Erin", "predicate": "lives_in", "object": "Rome", "valid_from": "2024-01-01T00:00:00Z"}


async def _create(api: Api, *facts: dict[str, object]) -> list[dict[str, object]]:
    body = facts[0] if len(facts) == 1 else {"facts": list(facts)}
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/facts", json=body)
    assert r.status_code == 201, r.text
    return r.json()["facts"]


async def test_explicit_facts_supersede_and_list_by_time(api: Api) -> None:
    await _create(api, BERLIN, ROME)
    url = f"/v1/groups/{api.group_a}/facts"
    now = (await api.call("agent_a", "GET", url, params={"subject": "Erin"})).json()["facts"]
    assert [f["object"] for f in now] == ["Rome"]
    then = await api.call("agent_a", "GET", url, params={"subject": "erin", "as_of": "2023-06-01T00:00:00Z"})
    assert [f["object"] for f in then.json()["facts"]] == ["Berlin"]
    history = await api.call(
        "agent_a", "GET", url, params={"predicate": "lives_in", "include_history": "true"}
    )
    facts = history.json()["facts"]
    assert sorted(f["object"] for f in facts) == ["Berlin", "Rome"]
    rome = next(f for f in facts if f["object"] == "Rome")
    berlin = next(f for f in facts if f["object"] == "Berlin")
    assert rome["supersedes"] == [berlin["id"]]
    assert berlin["valid_to"] == "2024-01-01T00:00:00Z"
    limited = await api.call("agent_a", "GET", url, params={"include_history": "true", "limit": 1})
    assert len(limited.json()["facts"]) == 1


async def test_get_fact_has_etag_and_unknown_is_404(api: Api) -> None:
    [change] = await _create(api, BERLIN)
    r = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts/{change['fact_id']}")
    assert r.status_code == 200
    assert r.headers["ETag"] == f'"{r.json()["version"]}"'
    missing = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts/no-such-fact")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


async def test_patch_needs_if_match_and_refuses_a_stale_version(api: Api) -> None:
    [change] = await _create(api, BERLIN)
    url = f"/v1/groups/{api.group_a}/facts/{change['fact_id']}"
    version = (await api.call("agent_a", "GET", url)).json()["version"]
    missing = await api.call("agent_a", "PATCH", url, json={"object": "Munich"})
    assert missing.status_code == 428 and missing.json()["code"] == "precondition_required"
    bad = await api.call("agent_a", "PATCH", url, json={"object": "Munich"}, headers={"If-Match": "v-one"})
    assert bad.status_code == 422 and bad.json()["details"]["errors"][0]["field"] == "if-match"
    stale = await api.call(
        "agent_a", "PATCH", url, json={"object": "Munich"}, headers={"If-Match": str(version + 7)}
    )
    assert stale.status_code == 409 and stale.json()["code"] == "conflict"
    ok = await api.call(
        "agent_a", "PATCH", url, json={"object": "Munich"}, headers={"If-Match": f'"{version}"'}
    )
    assert ok.status_code == 200, ok.text
    assert ok.json()["object"] == "Munich" and ok.headers["ETag"] == f'"{ok.json()["version"]}"'
    # the corrected fact is expired: a second correction with the old version conflicts
    again = await api.call(
        "agent_a", "PATCH", url, json={"object": "Oslo"}, headers={"If-Match": str(version)}
    )
    assert again.status_code == 409
    now = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts", params={"subject": "Erin"})
    assert [f["object"] for f in now.json()["facts"]] == ["Munich"]


async def test_patch_end_closes_the_fact(api: Api) -> None:
    [change] = await _create(api, BERLIN)
    url = f"/v1/groups/{api.group_a}/facts/{change['fact_id']}"
    version = (await api.call("agent_a", "GET", url)).json()["version"]
    body = {"end": True, "valid_to": "2024-05-01T00:00:00Z"}
    r = await api.call("agent_a", "PATCH", url, json=body, headers={"If-Match": str(version)})
    assert r.status_code == 200, r.text
    assert r.json()["valid_to"] == "2024-05-01T00:00:00Z"
    now = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts", params={"subject": "Erin"})
    assert now.json()["facts"] == []


async def test_retract_restores_the_superseded_fact(api: Api) -> None:
    changes = await _create(api, BERLIN, ROME)
    rome_id = next(c["fact_id"] for c in changes if c["statement"].endswith("Rome"))
    url = f"/v1/groups/{api.group_a}/facts/{rome_id}"
    r = await api.call("agent_a", "DELETE", url)
    assert r.status_code == 200, r.text
    assert r.json()["expired_at"] is not None
    now = await api.call("agent_a", "GET", f"/v1/groups/{api.group_a}/facts", params={"subject": "Erin"})
    assert [f["object"] for f in now.json()["facts"]] == ["Berlin"]
    assert (await api.call("agent_a", "DELETE", url)).status_code == 409
    assert (await api.call("agent_a", "DELETE", f"/v1/groups/{api.group_a}/facts/nope")).status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"subject": "Erin", "predicate": "lives_in"}, 422, "invalid_input", ""),
        ({**BERLIN, "value": "x"}, 422, "invalid_input", ""),
        ({**BERLIN, "predicate": "Lives In"}, 422, "invalid_input", "predicate"),
        ({**BERLIN, "confidence": 2}, 422, "invalid_input", "confidence"),
        ({**BERLIN, "valid_to": "2022-01-01T00:00:00Z"}, 422, "invalid_time_range", None),
        ({**BERLIN, "evidence_episode_ids": ["not-in-this-group"]}, 404, "not_found", None),
        ({"facts": [BERLIN] * 6}, 413, "payload_too_large", None),
    ],
)
async def test_invalid_facts(
    api: Api, body: dict[str, object], status: int, code: str, field: str | None
) -> None:
    r = await api.call("agent_a", "POST", f"/v1/groups/{api.group_a}/facts", json=body)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code
    if field:
        assert r.json()["details"]["errors"][0]["field"] == field


@pytest.mark.parametrize(
    "patch",
    [{}, {"value": "a", "object": "b"}, {"valid_from": "2024-02-01T00:00:00Z"}, {"object": ""}, {"nope": 1}],
)
async def test_invalid_patches_are_422(api: Api, patch: dict[str, object]) -> None:
    [change] = await _create(api, BERLIN)
    url = f"/v1/groups/{api.group_a}/facts/{change['fact_id']}"
    r = await api.call("agent_a", "PATCH", url, json=patch, headers={"If-Match": "1"})
    assert r.status_code == 422, r.text


async def test_patch_of_unknown_fact_is_404(api: Api) -> None:
    r = await api.call(
        "agent_a",
        "PATCH",
        f"/v1/groups/{api.group_a}/facts/nope",
        json={"value": "x"},
        headers={"If-Match": "1"},
    )
    assert r.status_code == 404


async def test_a_fact_created_already_ended_reports_its_interval(api: Api) -> None:
    """Bug: the write response said only ``created`` for a fact created already ended (a past
    job), indistinguishable from a current one; each change reports the fact's valid interval."""
    url = f"/v1/groups/{api.group_a}/facts"
    past = {
        "subject": "Dana",
        "predicate": "works_at",
        "object": "Initech",
        "valid_from": "2019-01-01T00:00:00Z",
        "valid_to": "2021-06-30T00:00:00Z",
    }
    r = await api.call("agent_a", "POST", url, json=past)
    assert r.status_code == 201, r.text
    [change] = r.json()["facts"]
    assert (change["change"], change["valid_from"], change["valid_to"]) == (
        "created",
        "2019-01-01T00:00:00Z",
        "2021-06-30T00:00:00Z",
    )
    now = await api.call(
        "agent_a", "POST", url, json={"subject": "Dana", "predicate": "likes", "object": "tea"}
    )
    assert now.json()["facts"][0]["valid_to"] is None


async def test_a_corrected_fact_says_expired_and_links_its_correction(api: Api) -> None:
    """Bug: after ``PATCH /facts/{id}`` the replaced fact was expired but still reported
    ``"status": "active"``, and nothing linked it to the fact that corrected it."""
    [change] = await _create(api, BERLIN)
    url = f"/v1/groups/{api.group_a}/facts/{change['fact_id']}"
    version = (await api.call("agent_a", "GET", url)).json()["version"]
    new = await api.call(
        "agent_a", "PATCH", url, json={"object": "Munich"}, headers={"If-Match": str(version)}
    )
    assert new.status_code == 200, new.text
    old = (await api.call("agent_a", "GET", url)).json()
    assert old["expired_at"] is not None
    assert (old["status"], old["corrected_by"], old["corrects"]) == ("expired", new.json()["id"], None)
    assert (new.json()["status"], new.json()["corrects"]) == ("active", change["fact_id"])
    [other] = await _create(api, {"subject": "Erin", "predicate": "likes", "object": "jazz"})
    retracted = await api.call("agent_a", "DELETE", f"/v1/groups/{api.group_a}/facts/{other['fact_id']}")
    assert (retracted.json()["expired_at"] is not None, retracted.json()["status"]) == (True, "expired")


async def test_a_fact_written_without_valid_from_can_be_corrected(api: Api) -> None:
    """Bug: PATCH of a fact written without ``valid_from`` was a 500: its claim was stored without
    ``at`` (None is left out of the JSON) and could not be read back (``Claim.from_json``)."""
    [change] = await _create(api, {"subject": "Gus", "predicate": "lives_in", "object": "Oslo"})
    url = f"/v1/groups/{api.group_a}/facts/{change['fact_id']}"
    version = (await api.call("agent_a", "GET", url)).json()["version"]
    r = await api.call("agent_a", "PATCH", url, json={"object": "Bergen"}, headers={"If-Match": str(version)})
    assert r.status_code == 200, r.text
    assert r.json()["object"] == "Bergen" and r.json()["corrects"] == change["fact_id"]
