"""English temporal statements: classes the fifth bank (``test_en_temporal_fifth_bank``) found
failing, one test per class, several phrasings each (written for these tests):

- "I'm at Hooli now" / "I'm no longer at Netflix": being "at" a name the recogniser reads as a
  town, with a change word, is an employer (one lives "in" a town);
- "Correction: I'm in Bristol, not Seattle" / "I'm at Globex, not Umbrella": a correction said with
  a bare "be in / at" corrects a home or an employer (the mistake's slot), not a visit;
- "moved into a product manager role": a title, not a home;
- "we'd have moved to X if ...", "I could have joined X": a modal perfect did not happen;
- an offer had is no job ("I got an offer from X, still deciding"); an offer taken is, owned by
  the firm ("accepted X's offer", "said yes to X's offer"), not a person's ("Tom's offer");
- nominal ends and changes: "my contract with X ended", "my title changed to X";
- "I stopped being a nurse": the title ended ("I used to be a nurse." alone states nothing);
- "I was made redundant at X"; "transitioned to X" (a firm);
- a fronted denial with no verb before the new value: "Not in Leeds anymore, I moved to Denver";
- "call X home" said in the perfect ("I've called X home since ..."), with the name tagged as a
  verb ("Sam calls Leeds home"); "put down roots in X"; "on the X payroll";
- a dash before a repair marker ("a nurse - scratch that, a chef") reads as the comma form;
- "New job at X!" with no verb (not "A new job at X would be nice");
- "I think I said X earlier, it's Y": the hedge is on the saying, the correction is stated;
- "We're still in A, but moving to B next month": a move under way (a progressive with no aux of
  its own beside a state) is not done;
- "I'm a Stark Industries employee now", "part of the Globex team", "we closed on a house in X", "Been at X since 2024.";
- "Oh wait, it's B, not A": an interjection before a correction mark;
- names of several words where a frame took one ("made Buenos Aires my home", "on the Massive
  Dynamic payroll", "part of the Bank of America team"), and "made the jump to Siemens" (a firm);
- "Wait, did I say Siemens? I meant Stripe.": the question names the mistake the next sentence
  corrects (else the correction borrowed the predicate of the chatter before it).
"""

from __future__ import annotations

import pytest

from tests.unit.en_temporal_kit import SPEAKER, T0, T1, Said, _extract, facts, timeline


def _slot(texts: list[str], predicate: str, subject: str | None = None) -> tuple[list[str], list[str]]:
    """Current and history after the first text at T0 and the second at T1, in both orders."""
    episodes = [Said(texts[0], T0)] + ([Said(texts[1], T1)] if len(texts) > 1 else [])
    kw = {"subject": subject} if subject else {}
    got = timeline(episodes, predicate, **kw)
    back = timeline(episodes[::-1], predicate, **kw)
    assert (got.current, got.history) == (back.current, back.history), texts
    return got.current, got.history


@pytest.mark.parametrize(
    ("later", "want"),
    [
        ("I'm at Hooli now.", (["Hooli"], ["Globex", "Hooli"])),
        ("Well, I'm at Netflix now.", (["Netflix"], ["Globex", "Netflix"])),
        ("I'm at Shopify now, and I love it.", (["Shopify"], ["Globex", "Shopify"])),
        ("I'm no longer at Globex.", ([], ["Globex"])),
        ("I'm at Hooli right now, just for a meeting.", (["Globex"], ["Globex"])),
    ],
)
def test_being_at_a_name_read_as_a_town_is_an_employer(later: str, want: tuple[list[str], list[str]]) -> None:
    assert _slot(["I work at Globex.", later], "works_at") == want


@pytest.mark.parametrize(
    ("first", "correction", "predicate", "value"),
    [
        ("I live in Seattle.", "Correction: I'm in Bristol, not Seattle.", "lives_in", "Bristol"),
        ("I live in Osaka.", "Sorry, I'm in Lisbon, not Osaka!", "lives_in", "Lisbon"),
        ("I work at Umbrella.", "Correction: I'm at Globex, not Umbrella.", "works_at", "Globex"),
        ("I work at Initech.", "Oops, I'm at Hooli, not Initech.", "works_at", "Hooli"),
    ],
)
def test_a_correction_said_with_being_in_or_at(
    first: str, correction: str, predicate: str, value: str
) -> None:
    assert _slot([first, correction], predicate) == ([value], [value])
    other = "works_at" if predicate == "lives_in" else "lives_in"
    assert _slot([first, correction], other)[0] == []


def test_a_stay_with_a_purpose_stays_a_stay() -> None:
    got = facts("I'm in Bristol for a conference, not Seattle.")
    assert not [f for f in got if f[0] in ("lives_in", "works_at")]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("I moved into a product manager role.", "product manager"),
        ("I transitioned into an architect role in March.", "architect"),
        ("I took on a data analyst role.", "data analyst"),
    ],
)
def test_moving_into_a_role_is_a_title(text: str, title: str) -> None:
    got = facts(text)
    assert ("job_title", title, "assert") in got
    assert not [f for f in got if f[0] == "lives_in"]


@pytest.mark.parametrize(
    "text",
    [
        "We'd have moved to Bristol if the house had sold.",
        "I would have joined Globex, but they never called.",
        "I could have moved to Leeds.",
        "I should have stayed at Initech.",
    ],
)
def test_a_modal_perfect_did_not_happen(text: str) -> None:
    assert facts(text) == []


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I got an offer from Globex, still deciding.", None),
        ("I got an offer from Globex.", None),
        ("I have an offer from Initech.", None),
        ("I got a job offer from Hooli and accepted it.", "Hooli"),
        ("I accepted Globex's offer.", "Globex"),
        ("I took Initech's offer last month.", "Initech"),
        ("I said yes to Hooli's offer.", "Hooli"),
        ("I accepted Wayne Enterprises's offer.", "Wayne Enterprises"),
        ("I accepted Tom's offer.", None),
        ("I accepted Sam's offer to help.", None),
    ],
)
def test_an_offer_had_is_no_job_an_offer_taken_is(text: str, employer: str | None) -> None:
    got = [v for p, v, k in facts(text) if p == "works_at" and k == "assert"]
    assert got == ([employer] if employer else [])


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("My contract with Globex ended.", [("works_at", "Globex", "end")]),
        ("My job at Hooli ended last month.", [("works_at", "Hooli", "end")]),
        ("My contract with Globex never ended.", []),
        ("My title changed to pharmacist.", [("job_title", "pharmacist", "assert")]),
        ("My title will change to manager.", []),
        ("My new job at Hooli is going great.", [("works_at", "Hooli", "assert")]),
    ],
)
def test_nominal_ends_and_title_changes(text: str, want: list[tuple[str, str, str]]) -> None:
    assert facts(text) == want


def test_a_role_change_naming_both_titles() -> None:
    cur, hist = _slot(
        ["I work as an analyst.", "My role changed from analyst to product manager in May."], "job_title"
    )
    assert (cur, hist) == (["product manager"], ["analyst", "product manager"])


@pytest.mark.parametrize(
    "text",
    [
        "I stopped being an accountant.",
        "Honestly, I stopped being an accountant last year.",
    ],
)
def test_a_title_that_used_to_hold_ended(text: str) -> None:
    assert _slot(["I work as an accountant.", text], "job_title") == ([], ["accountant"])


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I was made redundant at Umbrella.", ("works_at", "Umbrella", "end")),
        ("I was made redundant by Globex last month.", ("works_at", "Globex", "end")),
        ("I transitioned to Hooli last month.", ("works_at", "Hooli", "assert")),
        ("I defected to Initech.", ("works_at", "Initech", "assert")),
    ],
)
def test_redundancy_and_transitions(text: str, want: tuple[str, str, str]) -> None:
    assert want in facts(text)


@pytest.mark.parametrize(
    ("first", "later", "predicate", "want"),
    [
        (
            "I live in Nairobi.",
            "Not in Nairobi anymore, I moved to Denver.",
            "lives_in",
            ["Nairobi", "Denver"],
        ),
        (
            "I live in Leeds.",
            "No longer in Leeds, we moved to Osaka last year.",
            "lives_in",
            ["Leeds", "Osaka"],
        ),
        ("I work at Globex.", "Not at Globex anymore, I joined Hooli.", "works_at", ["Globex", "Hooli"]),
    ],
)
def test_a_fronted_denial_before_the_new_value(
    first: str, later: str, predicate: str, want: list[str]
) -> None:
    assert _slot([first, later], predicate) == (want[-1:], want)


@pytest.mark.parametrize(
    ("text", "subject", "want"),
    [
        ("I've called Denver home since February.", "Dana", ("lives_in", "Denver")),
        ("I have called Osaka home for a year.", "Dana", ("lives_in", "Osaka")),
        ("Sam calls Leeds home now.", "Sam", ("lives_in", "Leeds")),
        ("We've put down roots in Lisbon.", "Dana", ("lives_in", "Lisbon")),
        ("I'm on the Initech payroll now.", "Dana", ("works_at", "Initech")),
        ("Sam's on the Globex payroll now.", "Sam", ("works_at", "Globex")),
    ],
)
def test_home_and_payroll_idioms(text: str, subject: str, want: tuple[str, str]) -> None:
    got = timeline([Said(text, T1)], want[0], subject)
    assert got.current == [want[1]]


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I work as a nurse - scratch that, a data analyst.", "job_title", "data analyst"),
        ("I live in Leeds \u2014 sorry, Bristol.", "lives_in", "Bristol"),
        ("I work at Globex - I mean Hooli.", "works_at", "Hooli"),
    ],
)
def test_a_dash_before_a_repair_marker(text: str, predicate: str, value: str) -> None:
    assert _slot([text], predicate) == ([value], [value])


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("New job at Hooli, starting today!", "Hooli"),
        ("New gig with Initech!", "Initech"),
        ("A new job at Globex would be nice.", None),
        ("New job at Globex would be nice.", None),
    ],
)
def test_a_new_job_said_without_a_verb(text: str, employer: str | None) -> None:
    got = [v for p, v, k in facts(text) if p == "works_at"]
    assert got == ([employer] if employer else [])


def test_a_hedged_saying_before_a_correction() -> None:
    texts = ["I live in Nairobi.", "I think I said Nairobi earlier, it's actually Denver."]
    assert _slot(texts, "lives_in") == (["Denver"], ["Denver"])
    hedged = _extract("I think I live in Denver.", T1, SPEAKER).facts
    assert [f.source_kind for f in hedged if f.predicate == "lives_in"] == ["inferred"]


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("I moved to Leeds in the spring.", (2024, 3, 1)),
        ("In the spring I started at Globex.", (2024, 3, 1)),
        ("We moved in spring.", (2024, 3, 1)),
        ("I moved to Leeds in the winter.", (2023, 12, 1)),
        ("Sam joined Hooli in the summer.", (2024, 6, 1)),
        ("I start at Initech in the fall.", None),
        ("We plan to move in the spring.", None),
        ("If it works out, I'll move in the summer.", None),
    ],
)
def test_a_bare_season_with_a_past_verb_is_the_last_one(text: str, when: tuple[int, int, int] | None) -> None:
    from graphmem.providers.extractors.timeparse import find_times

    got = [m.when.date().timetuple()[:3] for m in find_times(text, T1) if m.when is not None]
    assert got == ([when] if when else [])


def test_a_move_in_the_spring_dates_the_change() -> None:
    got = timeline([Said("I live in Leeds.", T0), Said("I moved to Bristol in the spring.", T1)], "lives_in")
    from datetime import UTC, datetime

    assert got.at(datetime(2024, 4, 1, tzinfo=UTC)) == ["Bristol"]
    assert got.at(datetime(2024, 2, 1, tzinfo=UTC)) == ["Leeds"]


@pytest.mark.parametrize(
    ("first", "later", "predicate", "want"),
    [
        (
            "I live in Lisbon.",
            "We're still in Lisbon, but moving to Melbourne next month.",
            "lives_in",
            ["Lisbon"],
        ),
        ("I live in Leeds.", "I'm still in Leeds but relocating to Osaka soon.", "lives_in", ["Leeds"]),
        (
            "I work at Acme Corp.",
            "I'm a Stark Industries employee now.",
            "works_at",
            ["Acme Corp", "Stark Industries"],
        ),
        ("I live in Lisbon.", "We closed on a house in Melbourne.", "lives_in", ["Lisbon", "Melbourne"]),
        ("I work at Globex.", "Been at Hooli since 2024.", "works_at", ["Globex", "Hooli"]),
        ("I work at Umbrella.", "I'm part of the Globex team now.", "works_at", ["Umbrella", "Globex"]),
        ("I work at Initech.", "I'm a member of the Hooli staff.", "works_at", ["Initech", "Hooli"]),
    ],
)
def test_moves_under_way_employees_houses_and_verbless_perfects(
    first: str, later: str, predicate: str, want: list[str]
) -> None:
    assert _slot([first, later], predicate) == (want[-1:], want)


@pytest.mark.parametrize(
    ("first", "later", "predicate", "value"),
    [
        ("I live in Seattle.", "Oh wait, it's Bristol, not Seattle.", "lives_in", "Bristol"),
        ("I work at Globex.", "Oh wait, it's Acme Corp, not Globex.", "works_at", "Acme Corp"),
        ("I work at Initech.", "Ah, sorry, it's Hooli, not Initech.", "works_at", "Hooli"),
    ],
)
def test_an_interjection_before_a_correction(first: str, later: str, predicate: str, value: str) -> None:
    assert _slot([first, later], predicate) == ([value], [value])


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I've made Buenos Aires my home.", ("lives_in", "Buenos Aires")),
        ("I'm on the Massive Dynamic payroll now.", ("works_at", "Massive Dynamic")),
        ("I'm part of the Bank of America team now.", ("works_at", "Bank of America")),
        ("I'm a Stark Industries employee now.", ("works_at", "Stark Industries")),
        ("I made the jump to Siemens in March.", ("works_at", "Siemens")),
        ("We made the jump to Denver.", ("lives_in", "Denver")),
    ],
)
def test_names_of_several_words_and_jumps(text: str, want: tuple[str, str]) -> None:
    got = [(p, v) for p, v, k in facts(text) if k == "assert"]
    assert got == [want]


@pytest.mark.parametrize(
    ("first", "later", "predicate", "value"),
    [
        (
            "I work at Siemens.",
            "I made pasta for dinner. Wait, did I say Siemens? I meant Stripe.",
            "works_at",
            "Stripe",
        ),
        (
            "I live in Cape Town.",
            "I made pasta for dinner. Did I say Cape Town? I meant Mexico City.",
            "lives_in",
            "Mexico City",
        ),
        ("I work at Globex.", "Hmm, did I just say Globex? Sorry, I meant Hooli.", "works_at", "Hooli"),
    ],
)
def test_a_question_naming_the_mistake_before_the_correction(
    first: str, later: str, predicate: str, value: str
) -> None:
    assert _slot([first, later], predicate) == ([value], [value])
