"""English temporal statements: a fourth bank of composed episodes (``en_temporal_kit``), written
from scratch for the classes the first three banks leave out:

- other verbs for a change: employment ("signed with", "got hired by", "onboarded at", "joined
  the team at", "I'm with X now", "contracting for", "went to work for", "jumped ship to", "X
  brought me on") and moves ("relocated", "settled in", "ended up in", "we're based in", "home is
  X these days", "I'm in X now", "bought a house in X and moved in", "I call X home now");
- spans and times: "Eight months in X now!", "since March", "a couple of months back", "in the
  spring", "right after graduating";
- near misses and non-changes that must keep the old value: "I almost joined X", "I nearly
  moved to Y", "I was going to move to Z but didn't", "I had an offer from X but turned it
  down", a visit ("I'm in X for a conference"), a relative's or a friend's value ("My wife works
  at X", "Sam took a job at X"), a plan ("I might move to X next year");
- same-breath repairs ("I live in W, sorry, A", "W, well, A actually"), later corrections (in both
  orders: the correction may be ingested before the fact it corrects) and ends ("I quit X",
  "We left X in May");
- chatter around the statement and a tag question after it ("..., can you believe it?");
- the same told about a named person ("Sam relocated to X", "X hired Sam", "Sam's been in X").

Each episode is a list of messages (the first at T0, the second at T1) with the expected current
value and history of one slot of the speaker's, checked in both ingestion orders.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import pytest

from tests.unit.en_temporal_kit import T0, T1, Said, compose, timeline

STATE = {"lives_in": "I live in {A}.", "works_at": "I work at {A}.", "job_title": "I work as {aA} {A}."}
SCHOOLS = ("MIT", "Stanford", "Imperial College", "the University of Leeds")


@dataclass(frozen=True)
class Case:
    predicate: str
    messages: tuple[str, ...]  # templates; STATE[predicate] is prepended when ``after_state``
    expect: str  # "new": ([B], [A, B]); "keep": ([A], [A]); "end": ([], [A]); "fixed": ([A], [A]);
    # "corrected": ([B], [B]) (a later correction of the first message's value)
    after_state: bool = True


def _c(predicate: str, expect: str, *messages: str, after_state: bool = True) -> Case:
    return Case(predicate, messages, expect, after_state)


LIVES = [
    _c("lives_in", "new", "I relocated to {B} last month."),
    _c("lives_in", "new", "We finally settled in {B}."),
    _c("lives_in", "new", "Long story, but I ended up in {B}."),
    _c("lives_in", "new", "We're based in {B} now."),
    _c("lives_in", "new", "Home is {B} these days."),
    _c("lives_in", "new", "I'm in {B} now."),
    _c("lives_in", "new", "Eight months in {B} now!"),
    _c("lives_in", "new", "I've been living in {B} since March."),
    _c("lives_in", "new", "In the spring I moved to {B}."),
    _c("lives_in", "new", "A couple of months back we moved to {B}."),
    _c("lives_in", "new", "We bought a house in {B} and moved in."),
    _c("lives_in", "new", "Right after graduating I moved to {B}."),
    _c("lives_in", "new", "I moved to {B} last month, can you believe it?"),
    _c("lives_in", "new", "Ugh, traffic today. Anyway, I moved to {B} in April."),
    _c("lives_in", "new", "I traded {A} for {B} this spring."),
    _c("lives_in", "new", "I've just moved into a flat in {B}."),
    _c("lives_in", "new", "My partner and I moved to {B} in May."),
    _c("lives_in", "new", "We now live in {B}."),
    _c("lives_in", "new", "I moved to {W}, no wait, to {B}, last month."),
    _c("lives_in", "new", "I said {W} before, but I actually moved to {B}."),
    _c("lives_in", "keep", "I almost moved to {B} last year."),
    _c("lives_in", "keep", "I nearly relocated to {B}."),
    _c("lives_in", "keep", "I was going to move to {B} but didn't."),
    _c("lives_in", "keep", "We thought about moving to {B}, but we're staying."),
    _c("lives_in", "keep", "I visited {B} last week."),
    _c("lives_in", "keep", "I'm in {B} for a conference."),
    _c("lives_in", "keep", "I'm in {B} right now, just for the weekend."),
    _c("lives_in", "keep", "My sister moved to {B}."),
    _c("lives_in", "keep", "My brother Tom lives in {B}."),
    _c("lives_in", "keep", "I might move to {B} next year."),
    _c("lives_in", "keep", "If I moved to {B}, I'd miss my friends."),
    _c("lives_in", "end", "I moved out of {A} last month."),
    _c("lives_in", "end", "I don't live in {A} anymore."),
    _c("lives_in", "end", "We left {A} in May."),
    _c("lives_in", "fixed", "I live in {W}, sorry, {A}.", after_state=False),
    _c("lives_in", "fixed", "I live in {W} - I mean {A}.", after_state=False),
    _c("lives_in", "fixed", "I live in {W}, well, {A} actually.", after_state=False),
    _c("lives_in", "corrected", "Correction: I live in {B}, not {A}."),
    _c("lives_in", "corrected", "Oops, I got that wrong earlier. I live in {B}, not {A}."),
    _c("lives_in", "new", "My wife and I moved to {B} over the summer."),
    _c("lives_in", "new", "Two years in {A}, and now I'm in {B}."),
]

WORKS = [
    _c("works_at", "new", "I signed with {B} last month."),
    _c("works_at", "new", "I got hired by {B} in March."),
    _c("works_at", "new", "I started at {B} last month."),
    _c("works_at", "new", "I onboarded at {B} last month."),
    _c("works_at", "new", "I joined the team at {B}."),
    _c("works_at", "new", "I'm with {B} now."),
    _c("works_at", "new", "I'm contracting for {B} now."),
    _c("works_at", "new", "I left {A} for {B}."),
    _c("works_at", "new", "I accepted an offer from {B}."),
    _c("works_at", "new", "I switched to {B} in March."),
    _c("works_at", "new", "I now work for {B}."),
    _c("works_at", "new", "I took a position with {B}."),
    _c("works_at", "new", "I'm employed by {B} now."),
    _c("works_at", "new", "Six months at {B} now!"),
    _c("works_at", "new", "I landed a job at {B}."),
    _c("works_at", "new", "{B} brought me on last month."),
    _c("works_at", "new", "I'm freelancing for {B} these days."),
    _c("works_at", "new", "I jumped ship to {B} last month."),
    _c("works_at", "new", "I went to work for {B} in May."),
    _c("works_at", "new", "{B} offered me a job and I took it."),
    _c("works_at", "new", "Started at {B} last month, loving it so far."),
    _c("works_at", "new", "I moved over to {B} from {A}."),
    _c("works_at", "new", "I quit {A} and joined {B} in May.", after_state=False),
    _c("works_at", "keep", "I almost joined {B}."),
    _c("works_at", "keep", "I nearly took a job at {B}."),
    _c("works_at", "keep", "I had an offer from {B} but turned it down."),
    _c("works_at", "keep", "I interviewed at {B}, but I'm staying put."),
    _c("works_at", "keep", "I was going to join {B}, but it fell through."),
    _c("works_at", "keep", "My wife works at {B}."),
    _c("works_at", "keep", "Sam took a job at {B}."),
    _c("works_at", "keep", "I might join {B} next year."),
    _c("works_at", "keep", "I applied to {B} last week."),
    _c("works_at", "end", "I quit {A} last month."),
    _c("works_at", "end", "I got laid off from {A}."),
    _c("works_at", "end", "I left {A} in May."),
    _c("works_at", "fixed", "I work at {W}, sorry, {A}.", after_state=False),
    _c("works_at", "fixed", "I work at {W} - I mean {A}.", after_state=False),
    _c("works_at", "corrected", "Sorry, I misspoke: I work at {B}, not {A}."),
    _c("works_at", "corrected", "Actually it's {B}, not {A}."),
    _c("works_at", "new", "I've been at {B} since March, and I love it."),
    _c("works_at", "keep", "My friend Sam just joined {B}."),
]

TITLES = [
    _c("job_title", "new", "I'm {aB} {B} now."),
    _c("job_title", "new", "I became {aB} {B} last year."),
    _c("job_title", "new", "I retrained as {aB} {B}."),
    _c("job_title", "new", "These days I work as {aB} {B}."),
    _c("job_title", "keep", "I almost became {aB} {B}."),
    _c("job_title", "keep", "I want to be {aB} {B} someday."),
    _c("job_title", "fixed", "I work as {aW} {W}, sorry, {aA} {A}.", after_state=False),
]

BANK = LIVES + WORKS + TITLES


def _expected(expect: str, v: dict[str, str]) -> tuple[list[str], list[str]]:
    return {
        "new": ([v["B"]], [v["A"], v["B"]]),
        "keep": ([v["A"]], [v["A"]]),
        "end": ([], [v["A"]]),
        "fixed": ([v["A"]], [v["A"]]),
        "corrected": ([v["B"]], [v["B"]]),
    }[expect]


def _episodes(case: Case) -> tuple[list[list[Said]], dict[str, str]]:
    n = zlib.crc32("|".join(case.messages).encode()) % 997
    texts = []
    v: dict[str, str] = {}
    for k, template in enumerate(case.messages):
        text, v = compose(template, case.predicate, n, chatter=(n + k) % 9 if "{W}" not in template else 0)
        texts.append(text)
    said = [Said(t, T1) for t in texts]
    if case.after_state:
        first, _ = compose(STATE[case.predicate], case.predicate, n)
        said = [Said(first, T0), *said]
    orders = [said] if len(said) == 1 else [said, said[::-1]]
    return orders, v


def _outcome(case: Case) -> list[tuple[str, list[str], list[str], tuple[list[str], list[str]]]]:
    orders, v = _episodes(case)
    want = _expected(case.expect, v)
    out = []
    for said in orders:
        got = timeline(said, case.predicate)
        if (got.current, got.history) != want:
            out.append((" / ".join(s.text for s in said), got.current, got.history, want))
    return out


def test_the_bank_is_large_enough() -> None:
    assert len(BANK) + len(THEIRS) >= 120
    assert len({c.messages for c in BANK}) == len(BANK)


@pytest.mark.parametrize("predicate", ["lives_in", "works_at", "job_title"])
def test_the_bank_gives_each_episodes_current_value_and_history(predicate: str) -> None:
    bad = [o for case in BANK if case.predicate == predicate for o in _outcome(case)]
    assert bad == []


@pytest.mark.parametrize(
    ("text", "school"),
    [
        ("I study at {S}.", True),
        ("I enrolled at {S} last fall.", True),
        ("I'm doing my PhD at {S}.", True),
        ("I'm at {S} for my master's.", True),
    ],
)
def test_studies_said_with_other_words(text: str, school: bool) -> None:
    for name in SCHOOLS:
        got = timeline([Said(text.format(S=name), T1)], "studies_at")
        assert got.current == ([name[4:] if name.startswith("the ") else name] if school else []), (name, got)


# the same classes told about a named person (Sam), whose values the questions ask about too
THEIRS_STATE = {"lives_in": "Sam lives in {A}.", "works_at": "Sam works at {A}."}
THEIRS = [
    ("lives_in", "new", "Sam relocated to {B} last month."),
    ("lives_in", "new", "Sam finally settled in {B}."),
    ("lives_in", "new", "Sam ended up in {B}."),
    ("lives_in", "new", "Sam is based in {B} now."),
    ("lives_in", "new", "Sam's home is {B} these days."),
    ("lives_in", "new", "Sam is in {B} now."),
    ("lives_in", "new", "Sam's apartment is in {B} now."),
    ("lives_in", "new", "Sam has been living in {B} since March."),
    ("lives_in", "new", "Sam moved to {B} in the spring."),
    ("lives_in", "new", "Sam bought a house in {B} and moved in."),
    ("lives_in", "new", "My cousin Sam moved to {B} last month."),
    ("lives_in", "new", "Sam, my old roommate, now lives in {B}."),
    ("lives_in", "new", "Sam's been in {B} for six months now."),
    ("lives_in", "new", "Sam packed up and moved to {B}."),
    ("lives_in", "keep", "Sam almost moved to {B}."),
    ("lives_in", "keep", "Sam was going to move to {B} but didn't."),
    ("lives_in", "keep", "Sam is visiting {B} this week."),
    ("lives_in", "keep", "Sam might move to {B}."),
    ("lives_in", "end", "Sam moved out of {A}."),
    ("lives_in", "end", "Sam doesn't live in {A} anymore."),
    ("lives_in", "end", "Sam left {A} in May."),
    ("works_at", "new", "Sam signed with {B}."),
    ("works_at", "new", "Sam got hired by {B}."),
    ("works_at", "new", "Sam started at {B} last month."),
    ("works_at", "new", "Sam joined the team at {B}."),
    ("works_at", "new", "Sam is with {B} now."),
    ("works_at", "new", "Sam left {A} for {B}."),
    ("works_at", "new", "Sam accepted an offer from {B}."),
    ("works_at", "new", "Sam switched to {B}."),
    ("works_at", "new", "Sam now works for {B}."),
    ("works_at", "new", "{B} hired Sam last month."),
    ("works_at", "new", "Sam took a job at {B}."),
    ("works_at", "new", "Sam is contracting for {B} now."),
    ("works_at", "new", "Sam went to work for {B}."),
    ("works_at", "new", "{B} offered Sam a job and he took it."),
    ("works_at", "new", "Sam's new job is at {B}."),
    ("works_at", "new", "Sam has been at {B} since March."),
    ("works_at", "new", "My brother Sam works at {B} now."),
    ("works_at", "new", "Sam onboarded at {B} last week."),
    ("works_at", "keep", "Sam almost joined {B}."),
    ("works_at", "keep", "Sam interviewed at {B}."),
    ("works_at", "end", "Sam quit {A}."),
    ("works_at", "end", "Sam got laid off from {A}."),
    ("works_at", "end", "Sam left {A} last month."),
    ("works_at", "end", "Sam no longer works at {A}."),
]


def third_person_outcomes(
    theirs: list[tuple[str, str, str]], state: dict[str, str], predicate: str
) -> list[tuple[object, ...]]:
    """What goes wrong when ``theirs``' episodes about Sam follow Sam's ``state`` (both orders):
    Sam's slot must take the change, the speaker's own slot nothing."""
    bad: list[tuple[object, ...]] = []
    for pred, expect, template in theirs:
        if pred != predicate:
            continue
        n = zlib.crc32(template.encode()) % 997
        text, v = compose(template, pred, n)
        first, _ = compose(state[pred], pred, n)
        for said in ([Said(first, T0), Said(text, T1)], [Said(text, T1), Said(first, T0)]):
            got = timeline(said, pred, "Sam")
            if (got.current, got.history) != _expected(expect, v):
                bad.append((text, got.current, got.history))
            mine = timeline(said, pred)
            if (mine.current, mine.history) != ([], []):
                bad.append(("speaker", text, mine.current))
    return bad


@pytest.mark.parametrize("predicate", ["lives_in", "works_at"])
def test_the_bank_told_about_a_named_person(predicate: str) -> None:
    """Sam's slot takes the change (both orders); the speaker's own slot gets nothing."""
    assert third_person_outcomes(THEIRS, THEIRS_STATE, predicate) == []
