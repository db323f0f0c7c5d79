"""Frames of the English parse for lives_in / works_at / job_title (``rules_en_frames``): a class of
verbs with its arguments in their roles gives the fact whatever the wording. Each test is one class,
over paraphrases written for these tests (not taken from any evaluation suite)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 15, 10, 0, tzinfo=UTC)
Row = tuple[str, str, str, str]


def _rows(text: str) -> list[Row]:
    """(predicate, value, claim kind, "before" when dated before the episode) per fact of Dana."""
    out = RulesExtractor().extract(content=text, speaker="Dana", reference_time=REF)
    return [
        (f.predicate, f.literal, f.claim, "before" if f.valid_from < REF else "")
        for f in out.facts
        if f.subject == "Dana" and not (f.guessed and f.claim == "assert")  # a guessed copy's slot
    ]  # is the chain's to settle (``rules_en_context.guessed_changes``)


def _functional(text: str) -> list[Row]:
    return [r for r in _rows(text) if r[0] in ("lives_in", "works_at", "job_title")]


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("I packed up and moved to Denver.", "Denver"),
        ("I moved across the country to Portland.", "Portland"),
        ("I've just moved house to Glasgow.", "Glasgow"),
        ("We finally got settled into our new place in Austin.", "Austin"),
        ("I ended up settling in Nashville.", "Nashville"),
        ("We headed to Phoenix for good.", "Phoenix"),
        ("My family and I emigrated to Canada.", "Canada"),
    ],
)
def test_a_relocation_verb_with_a_destination_is_where_one_lives(text: str, place: str) -> None:
    """Any verb of the relocation class (or motion said to be for good) + a destination."""
    assert _functional(text) == [("lives_in", place, "assert", "")]


@pytest.mark.parametrize(
    "text",
    [
        "I flew to Denver.",
        "I headed to Phoenix.",
        "I'm moving to Denver next month.",
        "I might move to Lima.",
    ],
)
def test_plain_motion_or_a_future_move_is_no_residence(text: str) -> None:
    """A trip is not a move, and a move still to come is a plan, not where one lives now."""
    assert [r for r in _functional(text) if r[2] == "assert" and r[3] == ""] == [] or "might" in text


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("I relocated from Ohio to Texas.", "Ohio", "Texas"),
        ("We moved out of Boston and into a flat in Leeds.", "Boston", "Leeds"),
        ("I went from living in Rome to living in Milan.", "Rome", "Milan"),
        ("I swapped London for Bristol.", "London", "Bristol"),
    ],
)
def test_a_move_naming_both_places_gives_old_then_new(text: str, old: str, new: str) -> None:
    assert _functional(text) == [("lives_in", old, "assert", "before"), ("lives_in", new, "assert", "")]


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("I call Seattle home now.", "Seattle"),
        ("I've made Lisbon my home.", "Lisbon"),
        ("Madrid has been my home for a while.", "Madrid"),
        ("I'm officially a resident of Miami.", "Miami"),
        ("We took up residence in Oslo.", "Oslo"),
        ("I just signed a lease in Brooklyn.", "Brooklyn"),
        ("I've been in Chicago for three years now.", "Chicago"),
    ],
)
def test_residence_nouns_and_a_perfect_of_being_somewhere(text: str, place: str) -> None:
    assert ("lives_in", place, "assert") in [r[:3] for r in _functional(text)]


@pytest.mark.parametrize(
    ("text", "org"),
    [
        ("Google hired me.", "Google"),
        ("I got hired by Google.", "Google"),
        ("I began working for Cyberdyne.", "Cyberdyne"),
        ("I'm now with Deloitte.", "Deloitte"),
        ("I've been at Microsoft for two years.", "Microsoft"),
        ("I joined the team at Adobe.", "Adobe"),
        ("I'm now part of the team at Figma.", "Figma"),
        ("I landed a gig at Spotify.", "Spotify"),
    ],
)
def test_employment_starts_said_with_many_verbs(text: str, org: str) -> None:
    assert ("works_at", org, "assert") in [r[:3] for r in _functional(text)]


@pytest.mark.parametrize(
    ("text", "org"),
    [
        ("Initech let me go.", "Initech"),
        ("I resigned from Initech.", "Initech"),
        ("I parted ways with Initech.", "Initech"),
        ("I handed in my notice at Acme.", "Acme"),
        ("I'm no longer with Initech.", "Initech"),
        ("I don't work at Initech.", "Initech"),
    ],
)
def test_employment_ends_said_with_many_verbs(text: str, org: str) -> None:
    assert _functional(text) == [("works_at", org, "end", "")]


def test_leaving_a_place_is_not_leaving_an_employer() -> None:
    """ "left X" ends a residence when the sentence speaks of living somewhere."""
    assert set(_functional("I left Boston for good and I'm now living in Denver.")) == {
        ("lives_in", "Boston", "assert", "before"),
        ("lives_in", "Denver", "assert", ""),
    }


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("I left Initech for Globex.", "Initech", "Globex"),
        ("I moved over to Pied Piper from Hooli.", "Hooli", "Pied Piper"),
    ],
)
def test_a_job_change_naming_both_employers(text: str, old: str, new: str) -> None:
    assert _functional(text) == [("works_at", old, "assert", "before"), ("works_at", new, "assert", "")]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("I now serve as the CFO.", "CFO"),
        ("They hired me as a data analyst.", "data analyst"),
        ("I took over as the editor.", "editor"),
        ("I retrained as an electrician.", "electrician"),
        ("I've stepped into the role of director.", "director"),
        ("I'm now the head of marketing.", "head of marketing"),
        ("I've been a chef for ten years.", "chef"),
        ("I'm a nurse by profession.", "nurse"),
        ("I was made a partner.", "partner"),
        ("I got a promotion to team lead.", "team lead"),
    ],
)
def test_roles_said_with_many_verbs(text: str, title: str) -> None:
    assert ("job_title", title, "assert") in [r[:3] for r in _functional(text)]


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("I was promoted from analyst to senior analyst.", "analyst", "senior analyst"),
        ("I used to be a teacher but now I'm a pilot.", "teacher", "pilot"),
    ],
)
def test_a_role_change_naming_both_roles(text: str, old: str, new: str) -> None:
    assert _functional(text) == [("job_title", old, "assert", "before"), ("job_title", new, "assert", "")]


def test_used_to_alone_ends_the_old_value() -> None:
    """ "I used to be a teacher." ends the title as "I used to live in Leeds." ends the home (the
    two disagreed: the title was dropped, the home ended); no new value is stated."""
    assert _functional("I used to be a teacher.") == [("job_title", "teacher", "end", "")]
    assert _functional("I used to live in Leeds.") == [("lives_in", "Leeds", "end", "")]
    assert _functional("I used to be shy.") == []


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I'm not living in Austin these days.", ("lives_in", "Austin", "end", "")),
        ("I quit being a cashier.", ("job_title", "cashier", "end", "")),
        ("I'm no longer employed by Initech.", ("works_at", "Initech", "end", "")),
    ],
)
def test_a_denied_present_state_ends_it(text: str, row: Row) -> None:
    assert _functional(text) == [row]


@pytest.mark.parametrize(
    "text", ["I didn't move to Denver.", "I'm considering a job at Globex.", "I never worked at Initech."]
)
def test_a_denied_change_or_a_considered_job_gives_nothing(text: str) -> None:
    assert _functional(text) == []


@pytest.mark.parametrize(
    ("text", "predicate", "old", "new"),
    [
        ("I now work at Globex instead of Initech.", "works_at", "Initech", "Globex"),
        ("I now live in Kyoto instead of Osaka.", "lives_in", "Osaka", "Kyoto"),
        ("I switched from being a cook to being a baker.", "job_title", "cook", "baker"),
    ],
)
def test_instead_of_and_from_being_name_the_old_value(text: str, predicate: str, old: str, new: str) -> None:
    assert _functional(text) == [(predicate, old, "assert", "before"), (predicate, new, "assert", "")]


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I've lived in Toronto my whole life.", ("lives_in", "Toronto", "assert")),
        ("Globex is my employer now.", ("works_at", "Globex", "assert")),
        ("Initech and I parted ways.", ("works_at", "Initech", "end")),
        ("I put in my two weeks at Initech.", ("works_at", "Initech", "end")),
        ("I changed careers and became a pilot.", ("job_title", "pilot", "assert")),
        ("My job title is now lead designer.", ("job_title", "lead designer", "assert")),
    ],
)
def test_more_wordings_of_the_same_frames(text: str, row: tuple[str, str, str]) -> None:
    assert row in [r[:3] for r in _functional(text)]


def test_correcting_oneself_is_a_correction() -> None:
    assert _functional("Just to correct myself, I live in Dallas.") == [("lives_in", "Dallas", "correct", "")]


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("Oslo is where I live.", ("lives_in", "Oslo", "assert")),
        ("Shopify is where I work.", ("works_at", "Shopify", "assert")),
        ("I'm on the team at Shopify.", ("works_at", "Shopify", "assert")),
        ("I'm an employee of Shopify.", ("works_at", "Shopify", "assert")),
        ("I earn my living as a nurse.", ("job_title", "nurse", "assert")),
    ],
)
def test_clefts_teams_members_and_livings(text: str, row: tuple[str, str, str]) -> None:
    assert row in [r[:3] for r in _functional(text)]


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("I stepped down from my role at Initech.", ("works_at", "Initech", "end")),
        ("I walked away from Initech.", ("works_at", "Initech", "end")),
        ("I'm done at Initech.", ("works_at", "Initech", "end")),
        ("I've officially made the jump to Denver.", ("lives_in", "Denver", "assert")),
        ("After years in Boston, Denver is home now.", ("lives_in", "Denver", "assert")),
    ],
)
def test_ends_and_moves_said_with_idioms(text: str, row: tuple[str, str, str]) -> None:
    assert row in [r[:3] for r in _functional(text)]


def test_a_denial_ends_only_its_own_clause() -> None:
    """ "anymore" in the first clause does not end the second clause's value."""
    assert _functional("I'm not a teacher anymore; I'm a tutor now.") == [
        ("job_title", "teacher", "assert", "before"),  # ended beside a new value: the one before it
        ("job_title", "tutor", "assert", ""),
    ]


@pytest.mark.parametrize("text", ["I was a teacher.", "I was living in Berlin."])
def test_a_past_state_alone_holds_nothing_now(text: str) -> None:
    assert _functional(text) == []


def test_a_past_state_with_its_end() -> None:
    rows = _functional("I was a teacher until last year.")
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("job_title", "teacher", "assert"),
        ("job_title", "teacher", "end"),
    ]
