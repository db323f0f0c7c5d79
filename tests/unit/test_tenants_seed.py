"""``eval.tenants_seed``' pure parts: which template a tenant is copied from, and a copy's rows."""

from __future__ import annotations

import json

from eval.tenants_seed import copy_rows, template_for

TEMPLATE = {
    "Episode": [{"id": "e1", "key": "k1"}],
    "Fact": [
        {
            "id": "f1",
            "subject_id": "x1",
            "object_id": "x2",
            "predicate": "lives_in",
            "value": "Porto",
            "qualifier": None,
            "claims": [json.dumps({"episode_id": "e1", "ref": "e1:0"})],
        }
    ],
    "Entity": [{"id": "x1", "normalized_name": "dana"}, {"id": "x2", "normalized_name": "porto"}],
    "SUBJECT": [{"a": "f1", "b": "x1", "props": {}}],
    "OBJECT": [{"a": "f1", "b": "x2", "props": {}}],
    "EVIDENCED_BY": [{"a": "f1", "b": "e1", "props": {"quote": "Porto"}}],
    "SUPERSEDES": [],
    "MENTIONS": [{"a": "e1", "b": "x2", "props": {}}],
    "NEXT": [],
}


def test_a_tenant_copies_the_nearest_template_or_many_of_the_largest() -> None:
    templates = {20: "t20", 60: "t60", 400: "t400"}
    assert template_for(10, templates) == ("t20", 1)
    assert template_for(30, templates) == ("t20", 1)  # 30/20 is nearer than 60/30
    assert template_for(50, templates) == ("t60", 1)
    assert template_for(400, templates) == ("t400", 1)
    assert template_for(20_000, templates) == ("t400", 50)


def test_copies_get_their_own_ids_keys_and_names_and_keep_their_links() -> None:
    first_nodes, first_rels = copy_rows(TEMPLATE, "g", 0)
    second_nodes, _ = copy_rows(TEMPLATE, "g", 1)
    other_nodes, _ = copy_rows(TEMPLATE, "h", 0)
    ids = [
        r["set"]["id"]
        for nodes in (first_nodes, second_nodes, other_nodes)
        for rows in nodes.values()
        for r in rows
    ]
    assert len(set(ids)) == len(ids) == 12
    first_fact, second_fact = first_nodes["Fact"][0]["set"], second_nodes["Fact"][0]["set"]
    entity = {r["src"]: r["set"]["id"] for r in first_nodes["Entity"]}
    episode = first_nodes["Episode"][0]["set"]["id"]
    assert first_fact["subject_id"] == entity["x1"] and first_fact["object_id"] == entity["x2"]
    assert first_fact["slot"] != second_fact["slot"]
    assert json.loads(first_fact["claims"][0])["episode_id"] == episode
    assert first_rels["SUBJECT"] == [{"a": first_fact["id"], "b": entity["x1"], "props": {}}]
    assert first_rels["EVIDENCED_BY"][0]["b"] == episode
    assert [r["set"]["normalized_name"] for r in second_nodes["Entity"]] == ["dana 1", "porto 1"]
    assert {r["set"]["group_id"] for r in first_nodes["Episode"]} == {"g"}
    assert first_nodes["Episode"][0]["set"]["key"] != second_nodes["Episode"][0]["set"]["key"]
