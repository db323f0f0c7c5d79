"""English temporal statements, more classes (``en_temporal_kit``; paraphrases written for these tests):

- a dated change ("two months ago", "since April", "back in April") holds from its date: asked
  between the two statements, the old value answers;
- relationship status changes said with idioms and ends ("tied the knot", "broke off the engagement");
- school changes (enrolling, leaving one school for another, graduating, dropping out);
- a correction in a later message, in either ingestion order, leaves only the right value.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.unit.en_temporal_kit import T0, T1, Said, compose, timeline

STATE = {"lives_in": "I live in {A}.", "works_at": "I work at {A}.", "job_title": "I work as {aA} {A}."}
DATED = {
    "lives_in": [
        "I moved to {B} two months ago.",
        "Two months ago, I relocated to {B}.",
        "I've been living in {B} since April.",
        "Back in April we moved to {B}.",
        "I settled in {B} in April.",
    ],
    "works_at": [
        "I joined {B} two months ago.",
        "I started at {B} in April.",
        "Two months ago I was hired by {B}.",
        "I've been working at {B} since April.",
        "Since April I've worked for {B}.",
    ],
    "job_title": [
        "I was promoted to {B} two months ago.",
        "I became {aB} {B} in April.",
        "I've been working as {aB} {B} since April.",
        "Two months ago I got a job as {aB} {B}.",
    ],
}


def bad_dated(predicate: str) -> list[tuple[object, ...]]:
    bad = []
    for n, template in enumerate(DATED[predicate]):
        first, v = compose(STATE[predicate], predicate, n)
        text, _ = compose(template, predicate, n, chatter=n)
        got = timeline([Said(first, T0), Said(text, T1)], predicate)
        month_ago, before = got.at(T1 - timedelta(days=30)), got.at(T1 - timedelta(days=100))
        if (got.current, month_ago, before, got.history) != ([v["B"]], [v["B"]], [v["A"]], [v["A"], v["B"]]):
            bad.append((text, got.current, month_ago, before, got.history))
    return bad


@pytest.mark.parametrize("predicate", sorted(DATED))
def test_a_dated_change_holds_from_its_date(predicate: str) -> None:
    """Asked a month ago, the new value answers; before its date, the old one."""
    assert bad_dated(predicate) == []


# (first message, later message, history, current)
RELATIONSHIP = [
    ("I'm single.", "I got engaged last month!", ["single", "engaged"], "engaged"),
    ("I'm married.", "We got divorced last year.", ["married", "divorced"], "divorced"),
    ("I'm single.", "I'm in a relationship now.", ["single", "in a relationship"], "in a relationship"),
    ("I'm engaged.", "We tied the knot in May!", ["engaged", "married"], "married"),
    ("I'm married.", "My husband and I split up.", ["married", "single"], "single"),
    ("I'm single.", "I got married to Sam in May.", ["single", "married"], "married"),
    ("I'm engaged.", "We broke off the engagement.", ["engaged"], None),
    ("I'm married.", "I'm not married anymore.", ["married"], None),
    ("I'm single.", "I'm married, sorry, I mean engaged.", ["single", "engaged"], "engaged"),
    ("I'm single.", "My sister got married.", ["single"], "single"),
]
SCHOOL = [
    ("I study at Yale.", "I graduated from Yale in May.", ["Yale"], None),
    ("I study at Yale.", "I dropped out of Yale.", ["Yale"], None),
    ("I study at Yale.", "I'm now a student at MIT.", ["Yale", "MIT"], "MIT"),
    ("I study at Yale.", "I enrolled at MIT this fall.", ["Yale", "MIT"], "MIT"),
    ("I study at Yale.", "I left Yale and enrolled at MIT.", ["Yale", "MIT"], "MIT"),
    ("I study at Yale.", "I got into MIT!", ["Yale"], "Yale"),
]


@pytest.mark.parametrize(
    ("predicate", "rows"),
    [("relationship_status", RELATIONSHIP), ("studies_at", SCHOOL)],
    ids=["status", "school"],
)
def test_a_change_of_status_or_school_supersedes(
    predicate: str, rows: list[tuple[str, str, list[str], str | None]]
) -> None:
    """Idioms and leaving verbs change the status or the school; another person's news does not."""
    bad = []
    for first, later, history, current in rows:
        got = timeline([Said(first, T0), Said(later, T1)], predicate)
        if got.current != ([current] if current else []) or got.history != history:
            bad.append((later, got.current, got.history))
    assert bad == []


LATER_CORRECTIONS = [
    ("lives_in", "I live in {A}.", "Actually, I live in {B}, not {A}."),
    ("lives_in", "I live in {A}.", "Sorry, I was wrong earlier: I live in {B}."),
    ("lives_in", "I live in {A}.", "I misspoke before, it's {B}, not {A}."),
    ("works_at", "I work at {A}.", "Correction: I work at {B}."),
    ("works_at", "I work at {A}.", "Oops, I work at {B}, not {A}."),
    ("job_title", "I work as {aA} {A}.", "Actually I'm {aB} {B}, not {aA} {A}."),
    ("job_title", "I work as {aA} {A}.", "To correct myself: I'm {aB} {B}."),
]


def test_a_later_correction_leaves_only_the_right_value_in_any_order() -> None:
    """The corrected value was never true: it is not in the history, whichever message comes first."""
    bad = []
    for n, (predicate, first_template, later_template) in enumerate(LATER_CORRECTIONS):
        first, v = compose(first_template, predicate, n)
        later, _ = compose(later_template, predicate, n)
        for order in ([Said(first, T0), Said(later, T1)], [Said(later, T1), Said(first, T0)]):
            got = timeline(order, predicate)
            if got.current != [v["B"]] or got.history != [v["B"]]:
                bad.append((later, got.current, got.history))
    assert bad == []


# --------------------------------------------------------------------------- third person

THIRD = "Priya"
THIRD_STATE = {
    "lives_in": "{S} lives in {A}.",
    "works_at": "{S} works at {A}.",
    "job_title": "{S} works as {aA} {A}.",
}
# (template, needs the earlier state, expected history as a function of the values)
THIRD_PERSON = {
    "lives_in": [
        ("{S} moved from {A} to {B}{when}.", False, "AB"),
        ("{S} left {A} and settled in {B}.", False, "AB"),
        ("{S} swapped {A} for {B}.", False, "AB"),
        ("After years in {A}, {S} relocated to {B}.", False, "AB"),
        ("{S} used to live in {A}, but now she lives in {B}.", False, "AB"),
        ("{S} isn't in {A} anymore, she lives in {B} now.", False, "AB"),
        ("{S} no longer lives in {A}.", True, "A"),
        ("{S} moved out of {A}{when}.", True, "A"),
        ("{S} has settled in {B}.", True, "AB"),
        ("{S} lives in {W} \u2014 no wait, {B}.", False, "B"),
    ],
    "works_at": [
        ("{S} left {A} for {B}.", False, "AB"),
        ("{S} quit {A} and joined {B}{when}.", False, "AB"),
        ("After five years at {A}, {S} joined {B}.", False, "AB"),
        ("{B} hired {S} away from {A}.", False, "AB"),
        ("{S} got laid off from {A}.", True, "A"),
        ("{A} let {S} go.", True, "A"),
        ("{B} hired {S}{when}.", True, "AB"),
        ("{S} took a job with {B}.", True, "AB"),
        ("{S} joined {W}, I mean {B}{when}.", False, "B"),
    ],
    "job_title": [
        ("{S} was promoted from {A} to {B}{when}.", False, "AB"),
        ("{S} used to be {aA} {A}, but now she's {aB} {B}.", False, "AB"),
        ("{S} is not {aA} {A} anymore.", True, "A"),
        ("{S} became {aB} {B}.", True, "AB"),
        ("{S} works as {aW} {W}, no, {aB} {B}.", False, "B"),
    ],
}


@pytest.mark.parametrize("predicate", sorted(THIRD_PERSON))
def test_a_named_persons_changes_ends_and_repairs(predicate: str) -> None:
    """The same classes said about a person the speaker names ("she" in a later clause is that person)."""
    bad = []
    for n, (template, after_state, expect) in enumerate(THIRD_PERSON[predicate]):
        text, v = compose(
            template.replace("{S}", THIRD), predicate, n, when=" last month" if n % 2 else "", chatter=n
        )
        episodes = [Said(text, T1)]
        if after_state:
            episodes.insert(
                0, Said(compose(THIRD_STATE[predicate].replace("{S}", THIRD), predicate, n)[0], T0)
            )
        history = [v[k] for k in expect]
        got = timeline(episodes, predicate, THIRD)
        current = [] if expect == "A" else [history[-1]]
        if got.current != current or got.history != history:
            bad.append((text, got.current, got.history))
    assert bad == []
