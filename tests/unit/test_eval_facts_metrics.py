"""``graphmem eval facts`` scoring (EVAL.md §4): malformed facts, families, coverage, precision
against labels, the stratified labelling sample and the observation reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eval.facts_data import observation_ids
from eval.facts_metrics import (
    ConversationFacts,
    family,
    has_pronoun,
    labels_index,
    mid_sentence_names,
    score,
    stratified_sample,
    subject_ok,
)


def test_first_and_second_person_pronouns_are_found_as_words_only() -> None:
    for text in ("John likes sharing what I know", "Sam likes expressing myself", "James owns my book"):
        assert has_pronoun(text), text
    for text in ("Sam likes you-know-what", "Anna's Yours Truly"):
        assert has_pronoun(text), text  # still the word "you"/"Yours"
    for text in ("Melanie likes pottery", "Caroline visited Mumbai", "Jon owns a Iris print", "Usher fan"):
        assert not has_pronoun(text), text
    assert has_pronoun("王芳说我住在北京") and not has_pronoun("王芳住在北京")


def test_names_are_capitalised_phrases_used_mid_sentence() -> None:
    names = mid_sentence_names(["I went hiking with Max yesterday. Sounds like fun!", "Bet you did, Jon."])
    assert {"Max", "Jon"} <= names
    assert "Sounds" not in names and "Bet" not in names and "I" not in names


def test_subject_is_a_speaker_a_mid_sentence_name_or_a_possessive_of_one() -> None:
    speakers = ("Caroline Smith", "Melanie")
    names = {"Max", "Oliver"}
    for subject in ("Caroline Smith", "caroline", "Melanie", "Max", "Melanie's daughter", "Max's owner"):
        assert subject_ok(subject, speakers, names), subject
    for subject in ("Sounds", "Bet Max", "the kids", "", "Sounds's thing", "I"):
        assert not subject_ok(subject, speakers, names), subject


def test_families_cover_the_vocabulary_events_attributes_and_open_predicates() -> None:
    assert family("lives_in") == "place_work" and family("likes") == "preference"
    assert family("attended") == "event" and family("attribute:eye_color") == "attribute"
    assert family("puts_on") == "open"


def _row(
    fid: str, predicate: str, statement: str, ids: list[str], *, subject: str = "Ann", current: bool = True
):
    return {
        "id": fid,
        "subject": subject,
        "predicate": predicate,
        "value": "x",
        "statement": statement,
        "current": current,
        "external_ids": ids,
    }


def _conv(rows: list[dict[str, Any]]) -> ConversationFacts:
    return ConversationFacts("c1", 10, ("Ann", "Bo"), {"Max"}, {"D1:1", "D1:2", "D1:3", "D1:4"}, rows)


def test_score_counts_coverage_from_current_facts_malformed_reasons_and_labelled_precision() -> None:
    rows = [
        _row("f1", "lives_in", "Ann lives in Oslo", ["D1:1"]),
        _row("f2", "likes", "Ann likes my cat", ["D1:2"]),  # pronoun
        _row("f3", "likes", "Sounds likes fun", ["D1:9"], subject="Sounds"),  # subject
        _row("f4", "lives_in", "Ann lives in Rome", ["D1:3"], current=False),  # ended: no coverage
        _row("f5", "attended", "Max attended a gig", ["D1:4", "D1:5"], subject="Max"),
    ]
    labels = labels_index(
        [
            {
                "conversation": "c1",
                "dia_id": "D1:1",
                "predicate": "lives_in",
                "statement": "ann  lives in oslo",
                "label": "correct",
            },
            {
                "conversation": "c1",
                "dia_id": "D1:5",
                "predicate": "attended",
                "statement": "Max attended a gig",
                "label": "vague",
            },
            {
                "conversation": "c1",
                "dia_id": "D1:2",
                "predicate": "likes",
                "statement": "other",
                "label": "wrong",
            },
        ]
    )
    result = score([_conv(rows)], labels)
    assert (result["facts"], result["turns"], result["observation_turns"]) == (5, 10, 4)
    assert result["facts_per_turn"] == 0.5
    assert result["coverage"] == 0.75  # D1:1, D1:2 (malformed facts count) and D1:4; D1:3 ended
    assert result["malformed"] == {"pronoun": 1, "subject": 1} and result["malformed_rate"] == 0.4
    assert result["labelled"] == {"n": 2, "correct": 1, "wrong": 0, "vague": 1} and result["precision"] == 0.5
    assert result["by_family"]["place_work"]["coverage"] == 0.25
    assert result["by_family"]["preference"]["malformed_rate"] == 1.0
    assert result["by_conversation"]["c1"]["facts"] == 5 and result["labels_total"] == 3
    # place_work: 2 facts, precision 1.0; event: 1 fact, 0.0; preference has no labelled fact
    assert result["precision_weighted"] == round(2 / 3, 4)


def test_coverage_counts_every_observed_turn_a_current_fact_cites() -> None:
    rows = [
        _row("f1", "likes", "Ann likes tea", ["D1:2", "D1:3"]),
        _row("f2", "likes", "Ann likes jam", ["D1:1"]),
    ]
    assert score([_conv(rows)], {})["coverage"] == 0.75


def test_an_unknown_label_is_refused() -> None:
    with pytest.raises(ValueError, match="label must be one of"):
        labels_index(
            [{"conversation": "c", "dia_id": "D1:1", "predicate": "p", "statement": "s", "label": "ok"}]
        )


def test_the_labelling_sample_is_deterministic_and_stratified_by_family_and_conversation() -> None:
    rows = [
        {**_row(f"o{i}", "puts_on", f"s{i}", ["D1:1"]), "conversation": f"c{i % 3}"} for i in range(200)
    ] + [{**_row(f"e{i}", "attended", f"e{i}", ["D1:1"]), "conversation": f"c{i % 2}"} for i in range(6)]
    first = stratified_sample(rows, 50)
    assert [r["id"] for r in first] == [r["id"] for r in stratified_sample(rows, 50)]
    events = [r for r in first if r["predicate"] == "attended"]
    assert len(events) == 6  # a small family is taken whole (min(10, size))
    opens = [r for r in first if r["predicate"] == "puts_on"]
    assert 45 <= len(opens) <= 50
    per_conv = {c: sum(1 for r in opens if r["conversation"] == c) for c in ("c0", "c1", "c2")}
    assert max(per_conv.values()) - min(per_conv.values()) <= 1


def test_observation_ids_read_single_ids_lists_and_joined_strings() -> None:
    sample = {
        "observation": {
            "session_1_observation": {"Ann": [["Ann likes tea.", "D1:2"], ["x", ["D1:3", "D1:4"]]]},
            "session_2_observation": {"Bo": [["y", "D2:1; D2:2"], ["bad"], "junk"]},
        }
    }
    assert observation_ids(sample) == ["D1:2", "D1:3", "D1:4", "D2:1", "D2:2"]
    assert observation_ids({}) == []


def test_committed_labels_are_keys_and_labels_only_and_load() -> None:
    """The hand labels hold no LoCoMo text beyond the fact's own statement (the data is CC BY-NC)."""
    path = Path(__file__).resolve().parents[2] / "eval" / "data" / "facts_labels_dev.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 300
    assert all(set(r) == {"conversation", "dia_id", "predicate", "statement", "label"} for r in rows)
    assert all(len(r["statement"]) <= 200 for r in rows)
    assert len(labels_index(rows)) == len(rows)  # no duplicate keys, every label known
    assert {r["conversation"] for r in rows} <= {
        "conv-26",
        "conv-30",
        "conv-41",
        "conv-42",
        "conv-43",
        "conv-44",
    }
