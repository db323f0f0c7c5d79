"""English temporal: the classes the sixth bank (``test_en_temporal_sixth_bank``) found, each with
near misses. Regression tests: each docstring names what went wrong before the fix."""

from __future__ import annotations

import pytest

from tests.unit.en_temporal_kit import T0, T1, Said, _extract, facts, timeline

REF = T1  # 2024-06-15


def _rows(text: str) -> list[tuple[str, str, str, str, str]]:
    """(subject, predicate, value, kind, start day) of the slot facts of every subject."""
    return [
        (f.subject, f.predicate, f.literal, f.claim, f.valid_from.date().isoformat() if f.valid_from else "")
        for f in _extract(text, REF, "Dana").facts
        if f.predicate in ("lives_in", "works_at", "job_title")
    ]


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("I had lived in {A} for five years before I moved to {B}.", "lives_in"),
        ("I had worked at {A} for three years before I joined {B}.", "works_at"),
        ("I'd lived in {A} for a long time before I moved to {B}.", "lives_in"),
    ],
)
def test_a_duration_under_the_past_perfect_dates_no_start(text: str, predicate: str) -> None:
    """ "for five years" reached back from the reference time and dated the move (2019) before the
    state told in 2023, so the old value came back as current."""
    a, b = ("Leeds", "Denver") if predicate == "lives_in" else ("Globex", "Initech")
    state = "I live in {A}." if predicate == "lives_in" else "I work at {A}."
    said = [Said(state.format(A=a), T0), Said(text.format(A=a, B=b), T1)]
    for order in (said, said[::-1]):
        got = timeline(order, predicate)
        assert (got.current, got.history) == ([b], [a, b])
    # the present perfect still dates its start
    assert facts("I've lived in Leeds for five years.") == [("lives_in", "Leeds", "assert")]
    assert _rows("I've lived in Leeds for five years.")[0][4] == "2019-06-15"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I'd been in Leeds for five years when I moved to Denver.", ["Leeds", "Denver"]),
        ("I'd been at Globex for years when I joined Initech.", ["Globex", "Initech"]),
        ("Sam had lived in Lisbon for years when he moved to Osaka.", ["Lisbon", "Osaka"]),
        ("I lived in Leeds for years until I moved to Denver.", ["Leeds", "Denver"]),
    ],
)
def test_a_span_closed_by_when_or_until_and_the_change(text: str, want: list[str]) -> None:
    """The "when" / "until" clause was parsed as a time and its move dropped: nothing at all."""
    assert [r[2] for r in _rows(text)] == want


def test_when_without_a_span_before_it_is_left_alone() -> None:
    assert _rows("I worked at Globex when I lived in Leeds.") == [
        ("Dana", "lives_in", "Leeds", "end", "2024-06-15")
    ]


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I moved to Denver in 2019, no wait, 2018.", ("Dana", "lives_in", "Denver", "assert", "2018-01-01")),
        (
            "I moved to Denver in 2019, sorry, I mean 2018.",
            ("Dana", "lives_in", "Denver", "assert", "2018-01-01"),
        ),
        ("I joined Initech in March, no, April.", ("Dana", "works_at", "Initech", "assert", "2024-04-01")),
        (
            "I moved to Cape Town in 2019 - sorry, 2018.",
            ("Dana", "lives_in", "Cape Town", "assert", "2018-01-01"),
        ),
        (
            "I moved to Denver two years ago, no wait, three years ago.",
            ("Dana", "lives_in", "Denver", "assert", "2021-06-15"),
        ),
    ],
)
def test_a_time_repaired_in_the_same_breath(text: str, row: tuple[str, ...]) -> None:
    """The mistaken time dated the value ("in 2019"), or the repaired month became the employer
    ("I joined Initech in March, no, April" gave works_at April)."""
    assert _rows(text) == [row]


def test_a_value_repaired_after_a_time_is_still_a_value_repair() -> None:
    assert [r[2] for r in _rows("I moved to Denver in 2019, no wait, to Osaka.")] == ["Osaka"]
    assert [r[2] for r in _rows("I live in Leeds, sorry, Denver.")] == ["Denver"]


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("Sam quit last week.", "works_at"),
        ("Sam quit his job.", "works_at"),
        ("My friend Sam got laid off last month.", "works_at"),
        ("Sam moved out last month.", "lives_in"),
    ],
)
def test_an_unnamed_end_of_a_named_person_in_an_episode_of_its_own(text: str, predicate: str) -> None:
    """Only the speaker's "I quit." ended what held; Sam's value stayed current."""
    state = "Sam works at Globex." if predicate == "works_at" else "Sam lives in Leeds."
    value = "Globex" if predicate == "works_at" else "Leeds"
    for order in ([Said(state, T0), Said(text, T1)], [Said(text, T1), Said(state, T0)]):
        got = timeline(order, predicate, "Sam")
        assert (got.current, got.history) == ([], [value])
        assert timeline(order, predicate).history == []


def test_we_and_sentence_openers_are_no_named_person() -> None:
    assert [r[:4] for r in _rows("We moved out last month.")] == [("Dana", "lives_in", "(current)", "end")]
    assert [r[:4] for r in _rows("So I quit.")] == [("Dana", "works_at", "(current)", "end")]
    assert _rows("Sam quit smoking.") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I went back to Globex.", "Globex"),
        ("Sam went back to Initech last month.", "Initech"),
        ("I rejoined Hooli.", "Hooli"),
        ("I went back to work at Pied Piper.", "Pied Piper"),
        ("I returned to Acme Corp as a lead.", "Acme Corp"),
        ("I went back to Starbucks for a coffee.", None),
        ("I went back to Leeds.", None),
        ("I went back to sleep.", None),
    ],
)
def test_a_return_to_a_former_employer(text: str, value: str | None) -> None:
    """ "went back to X" gave an open "goes_at", "rejoined X" an open "rejoins": the employer
    stayed the one in between."""
    got = [r[2] for r in _rows(text) if r[1] == "works_at"]
    assert got == ([value] if value else [])


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I got an offer from Initech. I took it.", "Initech"),
        ("I got an offer from Bank of America. I accepted.", "Bank of America"),
        ("Initech made me an offer. And I said yes.", "Initech"),
        ("Initech made me an offer and I accepted.", "Initech"),
        ("I got an offer from Initech. I turned it down.", None),
        ("I got an offer from Initech, still deciding.", None),
        ("I took it.", None),
    ],
)
def test_an_offer_taken_in_the_next_sentence(text: str, value: str | None) -> None:
    """An offer is no job (fifth session), and the "I took it" after it said nothing."""
    got = [r[2] for r in _rows(text) if r[1] == "works_at"]
    assert got == ([value] if value else [])


def test_an_offer_taken_by_a_named_person() -> None:
    assert [r[:3] for r in _rows("Sam got an offer from Hooli. Sam took it.")] == [
        ("Sam", "works_at", "Hooli")
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I visited Denver last year and loved it. I moved there last month.", "Denver"),
        ("I visited Cape Town last year. We moved there in March.", "Cape Town"),
        ("I moved there last month.", None),
    ],
)
def test_moved_there_after_a_place_named(text: str, value: str | None) -> None:
    got = [r[2] for r in _rows(text) if r[1] == "lives_in"]
    assert got == ([value] if value else [])


def test_a_past_title_is_the_value_before_the_next_sentences_new_one() -> None:
    """ "I worked as a nurse. Last month I became an accountant.": the past title was dropped (only
    homes and employers were kept as the value before), so the history lost the nurse."""
    assert [r[2:4] for r in _rows("I worked as a nurse. Last month I became an accountant.")] == [
        ("nurse", "assert"),
        ("accountant", "assert"),
    ]
    assert _rows("I was a nurse. Anyway, how are you?") == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Sam was a teacher for years. Then he became a chef.", ["teacher", "chef"]),
        ("Sam lived in Leeds for years. Then he moved to Denver.", ["Leeds", "Denver"]),
        ("Sam is a teacher. He became a chef last month.", ["teacher", "chef"]),
    ],
)
def test_a_pronoun_after_then_takes_up_the_person(text: str, want: list[str]) -> None:
    rows = _rows(text)
    assert [r[2] for r in rows] == want and {r[0] for r in rows} == {"Sam"}


def test_used_to_be_ends_the_title_as_used_to_live_ends_the_home() -> None:
    assert facts("I used to be a nurse.") == [("job_title", "nurse", "end")]
    assert facts("I used to live in Leeds.") == [("lives_in", "Leeds", "end")]
    assert facts("I used to be a nurse, but now I'm a chef.") == [
        ("job_title", "nurse", "assert"),
        ("job_title", "chef", "assert"),
    ]
    assert facts("I used to want to be a nurse.") == []
    assert facts("I used to be shy.") == []
    said = [Said("I work as a nurse.", T0), Said("I used to be a nurse.", T1)]
    for order in (said, said[::-1]):
        got = timeline(order, "job_title")
        assert (got.current, got.history) == ([], ["nurse"])


def test_a_correction_naming_no_mistake_borrows_only_a_slot() -> None:
    """ "I made pasta for dinner. Sorry, I meant Initech.": the correction borrowed the chatter's
    predicate (makes Initech) when no slot fact came after the value it corrects."""
    rows = _rows("I work at Globex. I made pasta for dinner. Sorry, I meant Initech.")
    assert [r[1:3] for r in rows] == [("works_at", "Initech")]
    rows = _rows("I live in Leeds. I love pasta. Oops, I meant Denver.")
    assert [r[1:3] for r in rows] == [("lives_in", "Denver")]


def test_a_named_correction_still_borrows_the_predicate_it_names() -> None:
    out = _extract("I love cats. Sorry, I meant dogs, not cats.", REF, "Dana")
    assert ("likes", "dogs") in [(f.predicate, f.literal) for f in out.facts]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I switched from data analyst to chef.", ["data analyst", "chef"]),
        ("Sam switched from teacher to chef.", ["teacher", "chef"]),
        ("I went from nurse to chef.", ["nurse", "chef"]),
    ],
)
def test_a_title_change_whose_to_the_parser_reads_as_an_infinitive(text: str, want: list[str]) -> None:
    """ "... to chef." at the end of the sentence: "to" parsed as an infinitive marker and "chef" as
    its clause, so the change gave an open "switches_from" and no title."""
    assert [r[2] for r in _rows(text) if r[1] == "job_title"] == want
    assert facts("I want to cook.") == []


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I was promoted from chef to nurse last week.", [("job_title", "chef"), ("job_title", "nurse")]),
        (
            "I was promoted from teacher to nurse recently.",
            [("job_title", "teacher"), ("job_title", "nurse")],
        ),
        ("Sam handed in his notice at Acme Corp last week.", [("works_at", "Acme Corp")]),
    ],
)
def test_a_to_title_tagged_a_verb_and_a_notice_handed_in_by_a_named_person(
    text: str, row: list[tuple[str, str]]
) -> None:
    """ "to nurse" parsed as an infinitive verb gave "is_promoted_from"; "handed in his notice"
    (not "my") parsed "in" as a preposition and gave "hands_at"."""
    assert [r[1:3] for r in _rows(text)] == row
    assert facts("I want to nurse my cold.") == []


def test_a_named_persons_correction_said_with_be_in_is_no_visit() -> None:
    """ "To be clear, Sam is in Mexico City, not San Francisco.": a located_at correction that
    never met Sam's home; the speaker's was already read as a home or an employer."""
    said = [
        Said("Sam lives in San Francisco.", T0),
        Said("To be clear, Sam is in Mexico City, not San Francisco.", T1),
    ]
    for order in (said, said[::-1]):
        got = timeline(order, "lives_in", "Sam")
        assert (got.current, got.history) == (["Mexico City"], ["Mexico City"])
    assert [r[1] for r in _rows("Sam is in Leeds for a conference, not Denver.")] == []


@pytest.mark.parametrize(
    ("state", "change", "old", "new"),
    [
        ("I work at Globex.", "I left Globex for Hooli yesterday.", "Globex", "Hooli"),
        ("I've been with Initech for three years.", "I left Initech for Hooli recently.", "Initech", "Hooli"),
        ("I work at Initech.", "I left Initech for Netflix.", "Initech", "Netflix"),
    ],
)
def test_a_change_to_a_firm_read_as_a_town_in_the_slot_where_the_old_value_was_told(
    state: str, change: str, old: str, new: str
) -> None:
    """ "I left Globex for Hooli" read Hooli as a town, so the pair went to lives_in only and the
    employer stayed Globex; a guessed copy now goes to works_at, kept where the value left is told."""
    said = [Said(state, T0), Said(change, T1)]
    for order in (said, said[::-1]):
        got = timeline(order, "works_at")
        assert (got.current, got.history) == ([new], [old, new])


def test_a_guessed_change_waits_in_a_slot_where_nothing_it_names_was_told() -> None:
    said = [Said("I live in Leeds.", T0), Said("I moved from Copenhagen to Denver.", T1)]
    for order in (said, said[::-1]):
        assert timeline(order, "works_at").history == []
        assert timeline(order, "lives_in").current == ["Denver"]
    both_towns = [f for f in facts("I moved from Leeds to Denver.") if f[0] == "works_at"]
    assert both_towns == []
