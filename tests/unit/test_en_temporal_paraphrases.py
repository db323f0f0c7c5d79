"""English temporal statements: a second paraphrase bank, one test per class (``en_temporal_kit``).

Written from scratch for these tests, apart from any benchmark file, by dependency shape rather
than by string: participle phrases that share their host's subject ("Since relocating to {B}",
"before joining {B}", "Having left {A}"); nominals ("my move from {A} to {B}", "my switch from
{A} to {B}", "my new job at {B}", "my exit from {A}", "my time at {A} ended"); a then-and-now
contrast of two copulas ("I was in {A} until last year, and now I'm in {B}"); past perfect
("I'd been living in {A} for years, but ..."); the frame typing its value ("moved to Bristol" is a
place whatever the entity recogniser says; "Hooli hired me" an employer); corrections said later
("I said {A} earlier, but ...", "When I said {A}, I meant {B}", "Scratch what I said before",
"...; I misspoke earlier", "I mixed things up: ..."), and in the same breath ("..., uh, I mean
{B}", "... sorry, to {B}", "Actually, no, ..."); plans in nominal and participle form; durations
("It's been three years since ..."); another person named through an apposition and a pronoun.

Each class passes when every composed message (values, chatter and a time phrase varied by
``compose``) gives the right current value and history through the supersession chain, in both
ingestion orders where two messages are told.
"""

from __future__ import annotations

import zlib
from datetime import timedelta

import pytest

from tests.unit.en_temporal_kit import T0, T1, Said, Timeline, compose, timeline

STATE = {"lives_in": "I live in {A}.", "works_at": "I work at {A}.", "job_title": "I work as {aA} {A}."}
NAMES = ("Priya", "Marcus", "Elena", "Tomas", "Keiko")

CHANGE: dict[str, list[str]] = {
    "lives_in": [
        "I was in {A} until last year, and now I'm in {B}.",
        "My move from {A} to {B} went smoothly.",
        "Having moved from {A} to {B}{when}, I finally have a garden.",
        "The move from {A} to {B} was exhausting, but I love it here.",
        "I lived in {A} until {year}; these days I'm in {B}.",
        "I spent years in {A} before moving to {B}.",
        "I'm based in {B} now, I left {A}{when}.",
        "After leaving {A}, I ended up in {B}.",
        "{A} was home for a decade; now I live in {B}.",
        "I've been living in {B} ever since I left {A}.",
        "Our relocation from {A} to {B} is finally done.",
        "I lived in {A} for years, but I've been in {B} since {year}.",
        "I was living in {A} until the spring, and now I live in {B}.",
        "I left {A} behind{when} and I'm renting in {B}.",
        "After a decade in {A}, we finally relocated to {B}.",
        "I'd been living in {A} for years, but I moved to {B}{when}.",
        "I packed my bags, left {A}, and now I'm settled in {B}.",
        "My family and I relocated from {A} to {B}{when}.",
        "I lived in {A}; now I live in {B}.",
        "We moved out of {A} and into a flat in {B}{when}.",
        "I made the move from {A} to {B}{when}.",
        "I'm living in {B} now after years in {A}.",
        "Following my relocation from {A}, I now live in {B}.",
    ],
    "works_at": [
        "I was at {A} until last year, and now I'm at {B}.",
        "Since joining {B} from {A}, I've learned a lot.",
        "Having left {A}{when}, I now work at {B}.",
        "I worked at {A} until {year}; these days I'm with {B}.",
        "I spent four years at {A} before joining {B}.",
        "{A} was my employer for years; now I work for {B}.",
        "I handed in my notice at {A} and took a job with {B}.",
        "I was employed by {A} until last spring; now I'm employed by {B}.",
        "I left {A} in {year} and have been at {B} ever since.",
        "My switch from {A} to {B} happened{when}.",
        "I worked for {A} until the spring, and now I work for {B}.",
        "After {A} let me go, {B} hired me.",
        "I've been working at {B} ever since I left {A}.",
        "After a decade at {A}, I finally moved on to {B}.",
        "I'd been working at {A} for years, but I joined {B}{when}.",
        "Since my move to {B} from {A}, I've been much happier.",
        "I quit {A}, and now I'm working for {B}.",
        "I was with {A} until the spring; now I'm with {B}.",
        "Having resigned from {A}, I started at {B}{when}.",
        "I worked for {A}; now I work for {B}.",
        "Following my exit from {A}, I joined {B}.",
        "I'm working at {B} now after years at {A}.",
        "{B} poached me from {A}{when}.",
    ],
    "job_title": [
        "I was {aA} {A} until last year, and now I'm {aB} {B}.",
        "My switch from {A} to {B} took a while.",
        "Having worked as {aA} {A} for years, I retrained as {aB} {B}.",
        "I went from being {aA} {A} to being {aB} {B}.",
        "I worked as {aA} {A} until {year}; these days I work as {aB} {B}.",
        "After years as {aA} {A}, I'm now {aB} {B}.",
        "I gave up being {aA} {A} and became {aB} {B}.",
        "I used to be {aA} {A}; I've been {aB} {B} since {year}.",
        "My career change from {A} to {B} is official.",
        "I was working as {aA} {A} until the spring, and now I work as {aB} {B}.",
        "I stopped working as {aA} {A} and became {aB} {B}{when}.",
        "I'm {aB} {B} now; I was {aA} {A} until {year}.",
        "After a decade as {aA} {A}, I finally became {aB} {B}.",
        "I'd been working as {aA} {A} for years, but I became {aB} {B}{when}.",
        "I switched careers from {A} to {B}{when}.",
        "I was {aA} {A}; now I'm {aB} {B}.",
        "I'm working as {aB} {B} now after years as {aA} {A}.",
        "My transition from {A} to {B} is complete.",
    ],
}

LATER: dict[str, list[str]] = {
    "lives_in": [
        "Since relocating to {B}, I've been sleeping better.",
        "My move to {B} went smoothly.",
        "Having moved to {B}{when}, I finally have a garden.",
        "The move to {B} was exhausting, but I love it here.",
        "These days I'm in {B}.",
        "I ended up in {B}{when}.",
        "We bought a house in {B} and moved in{when}.",
        "I'm based in {B} now.",
        "I've been living in {B} since the spring.",
        "Home is {B} now.",
        "We finally made it to {B}, our new home.",
        "Big news, I relocated to {B}{when}!",
        "I'm renting a flat in {B} now.",
        "My new place in {B} is tiny but cosy.",
        "Following my relocation to {B}, I've made new friends.",
        "I'm settled in {B} now.",
        "I've made {B} my home.",
        "After moving to {B}{when}, I bought a bike.",
        "Upon arriving in {B} for good, I found a flat.",
        "My husband and I moved to {B}{when}.",
        "Our move to {B} happened{when}.",
        "Right, so I live in {B} these days.",
    ],
    "works_at": [
        "Since joining {B}, I've learned a lot.",
        "My new job at {B} is going great.",
        "Having joined {B}{when}, I'm still learning the ropes.",
        "These days I'm with {B}.",
        "I took a job with {B}{when}.",
        "I started a new job at {B}{when}.",
        "{B} hired me{when}.",
        "I accepted an offer from {B}{when}.",
        "I now work for {B}.",
        "My first week at {B} went well.",
        "I've been working at {B} since the spring.",
        "I signed my contract with {B}{when}.",
        "I'm on the payroll at {B} now.",
        "Following my move to {B}, I've been busier.",
        "After joining {B}{when}, I got a laptop.",
        "My job at {B} keeps me busy.",
        "I'm employed by {B} now.",
        "I started working for {B}{when}.",
        "{B} brought me on{when}.",
        "I'm with {B} these days.",
        "I accepted a position at {B}{when}.",
    ],
    "job_title": [
        "These days I work as {aB} {B}.",
        "I'm {aB} {B} now.",
        "I got promoted to {B}{when}.",
        "My new role as {aB} {B} is demanding.",
        "I started working as {aB} {B}{when}.",
        "I've been {aB} {B} since the spring.",
        "I took a job as {aB} {B}{when}.",
        "I retrained as {aB} {B}.",
        "Since becoming {aB} {B}, I barely sleep.",
        "My job title is {B} now.",
        "I landed a position as {aB} {B}{when}.",
        "After becoming {aB} {B}{when}, I bought a suit.",
        "I've taken on the role of {B}.",
        "I got a job as {aB} {B}{when}.",
        "I'm now working as {aB} {B}.",
        "I was hired as {aB} {B}{when}.",
        "My current role is {B}.",
    ],
}

ENDS: dict[str, list[str]] = {
    "lives_in": [
        "I don't live in {A} anymore.",
        "I'm no longer based in {A}.",
        "{A} isn't home anymore.",
        "I gave up my flat in {A}{when}.",
        "I haven't lived in {A} since the spring.",
        "I lived in {A} until last month.",
        "I moved out of {A}{when} and I'm between places.",
        "I'm not living in {A} these days.",
        "I left {A}{when}.",
        "I stopped living in {A}{when}.",
        "I moved away from {A}{when}.",
        "I no longer live in {A}.",
        "We left {A} for good{when}.",
        "I'm not based in {A} anymore.",
        "I haven't been living in {A} since the spring.",
    ],
    "works_at": [
        "I'm not at {A} anymore.",
        "I was let go from {A}{when}.",
        "I haven't worked at {A} since the spring.",
        "I worked at {A} until last month.",
        "{A} and I parted ways{when}.",
        "I left my job at {A}{when}.",
        "I walked away from {A}{when}.",
        "I got laid off from {A}{when}.",
        "I no longer work for {A}.",
        "I quit {A}{when}.",
        "{A} fired me{when}.",
        "I resigned from my position at {A}.",
        "I left {A}{when}.",
        "I'm no longer with {A}.",
        "My time at {A} ended{when}.",
        "I stepped down from {A}{when}.",
        "I don't work for {A} anymore.",
        "{A} laid me off{when}.",
    ],
    "job_title": [
        "I'm not {aA} {A} anymore.",
        "I stopped working as {aA} {A}{when}.",
        "I quit my job as {aA} {A}{when}.",
        "I haven't been {aA} {A} since the spring.",
        "I was {aA} {A} until last month.",
        "I gave up being {aA} {A}.",
        "I retired as {aA} {A}{when}.",
        "I no longer work as {aA} {A}.",
        "I left my job as {aA} {A}{when}.",
        "I'm no longer {aA} {A}.",
        "I stepped down as {A}{when}.",
        "I don't work as {aA} {A} anymore.",
        "I quit being {aA} {A}{when}.",
    ],
}

CORR_SAME: dict[str, list[str]] = {
    "lives_in": [
        "I live in {W}, sorry, I meant {B}.",
        "I live in {W}, scratch that, {B}.",
        "I live in {W}... no wait, {B}.",
        "I live in {W}. Sorry, I meant {B}.",
        "I live in {W}, I mean {B}.",
        "I live in {W}, or rather {B}.",
        "I moved to {W}{when}, sorry, to {B}.",
        "I live in {W}. Actually, no, it's {B}.",
        "I've lived in {W} for years, sorry, in {B}.",
        "I live in {W}, correction, {B}.",
        "I'm based in {W}, oops, I mean {B}.",
        "I live in {W}, uh, I mean {B}.",
        "I moved to {W}, or rather {B}{when}.",
        "I'm based in {W}, sorry, {B}.",
        "I live in {W}. Oops, I meant {B}.",
        "I live in {W}, wait, no, {B}.",
    ],
    "works_at": [
        "I work at {W}, sorry, I meant {B}.",
        "I work at {W}, scratch that, {B}.",
        "I work at {W}... no wait, {B}.",
        "I work for {W}. Sorry, I meant {B}.",
        "I work for {W}, I mean {B}.",
        "I work at {W}, or rather {B}.",
        "I joined {W}{when}, sorry, {B}.",
        "I work at {W}. Actually, no, it's {B}.",
        "I work at {W}, correction, {B}.",
        "I'm employed by {W}, oops, I mean {B}.",
        "I got a job at {W}, no, at {B}.",
        "I work at {W}, uh, I mean {B}.",
        "I joined {W}, or rather {B}{when}.",
        "I work for {W}. Oops, I meant {B}.",
        "I work at {W}, wait, no, {B}.",
    ],
    "job_title": [
        "I work as {aW} {W}, sorry, I meant {aB} {B}.",
        "I'm {aW} {W}, scratch that, {aB} {B}.",
        "I work as {aW} {W}. Sorry, I meant {aB} {B}.",
        "I'm {aW} {W}, I mean {aB} {B}.",
        "I'm {aW} {W}, or rather {aB} {B}.",
        "I work as {aW} {W}, correction, {aB} {B}.",
        "I became {aW} {W}{when}, sorry, {aB} {B}.",
        "I'm {aW} {W}. Actually, no, I'm {aB} {B}.",
        "I'm {aW} {W}, uh, I mean {aB} {B}.",
        "I work as {aW} {W}. Oops, I meant {aB} {B}.",
        "I'm {aW} {W}, wait, no, {aB} {B}.",
    ],
}

CORR_LATER: dict[str, list[str]] = {
    "lives_in": [
        "Actually, I live in {B}, not {A}; I misspoke earlier.",
        "Correction: it's {B}, not {A}.",
        "Scratch what I said before, I live in {B}.",
        "I said {A} earlier, but I actually live in {B}.",
        "Oops, I got that wrong: I live in {B}.",
        "My mistake, {B}, not {A}.",
        "Sorry, I meant to say I live in {B}.",
        "Ignore what I said about {A}; I live in {B}.",
        "Let me correct myself: I live in {B}.",
        "I mixed things up: I live in {B}, not {A}.",
        "Just to correct myself, I live in {B}.",
    ],
    "works_at": [
        "Actually, I work at {B}, not {A}; I misspoke earlier.",
        "Correction: it's {B}, not {A}.",
        "Scratch what I said before, I work at {B}.",
        "I said {A} earlier, but I actually work for {B}.",
        "Oops, I got that wrong: I work at {B}.",
        "My mistake, {B}, not {A}.",
        "Sorry, I meant to say I work at {B}.",
        "Ignore what I said about {A}; I work for {B}.",
        "Let me correct myself: I work at {B}.",
        "I mixed things up: I work at {B}, not {A}.",
        "Just to correct myself, I work at {B}.",
    ],
    "job_title": [
        "Actually, I'm {aB} {B}, not {aA} {A}; I misspoke earlier.",
        "Correction: I'm {aB} {B}, not {aA} {A}.",
        "I said {A} earlier, but I'm actually {aB} {B}.",
        "Oops, I got that wrong: I work as {aB} {B}.",
        "My mistake, {B}, not {A}.",
        "Let me correct myself: I'm {aB} {B}.",
        "I mixed things up: I'm {aB} {B}, not {aA} {A}.",
        "Just to correct myself, I'm {aB} {B}.",
    ],
}

PLANS: dict[str, list[str]] = {
    "lives_in": [
        "I'm thinking about moving to {B}.",
        "We might move to {B} next year.",
        "I'd love to live in {B} someday.",
        "I'm hoping to relocate to {B}.",
        "If the offer comes through, I'll move to {B}.",
        "Moving to {B} is on the cards for next year.",
        "My plan is to move to {B} in the spring.",
        "I'm considering a move to {B}.",
        "Maybe I'll end up in {B} one day.",
        "We're looking at flats in {B}.",
        "I've been dreaming of living in {B}.",
        "I'm going to move to {B} next month.",
        "After the wedding we'll move to {B}.",
        "We've talked about relocating to {B}.",
        "I hope to settle in {B} one day.",
        "Relocating to {B} is something I'm considering.",
        "We're planning our move to {B}.",
    ],
    "works_at": [
        "I have an interview at {B} next week.",
        "I applied to {B}{when}.",
        "I'm hoping to join {B}.",
        "{B} might make me an offer.",
        "I'd love to work at {B} someday.",
        "My plan is to join {B} next year.",
        "I'm considering an offer from {B}.",
        "I'm thinking about applying to {B}.",
        "I'll be starting at {B} next month.",
        "I'm in talks with {B} about a job.",
        "After graduation I'll join {B}.",
        "I've talked about joining {B}.",
        "I hope to land a job at {B}.",
        "I'm planning my move to {B}.",
        "My interview with {B} went well.",
    ],
    "job_title": [
        "I'm training to become {aB} {B}.",
        "I want to be {aB} {B} one day.",
        "I'm studying to be {aB} {B}.",
        "I'm thinking of becoming {aB} {B}.",
        "I hope to work as {aB} {B} someday.",
        "Next year I'll start as {aB} {B}.",
        "I'm applying for jobs as {aB} {B}.",
        "I hope to become {aB} {B} one day.",
        "I'm aiming to work as {aB} {B}.",
        "I've talked about becoming {aB} {B}.",
    ],
}

DURATION: dict[str, list[str]] = {
    "lives_in": [
        "I've called {A} home for three years now.",
        "It's been three years since I moved to {A}.",
        "Three years ago I moved to {A}, and I love it.",
        "{A} has been my home since {year}.",
        "I've been based in {A} since {year}.",
        "For the past three years I've lived in {A}.",
        "I've lived in {A} since {year}.",
        "We moved to {A} back in {year} and never left.",
        "I have lived in {A} ever since {year}.",
        "It's been two years since we relocated to {A}.",
        "{A} has been home for three years.",
    ],
    "works_at": [
        "I've been with {A} for three years now.",
        "It's been three years since I joined {A}.",
        "For the past three years I've worked at {A}.",
        "I've been at {A} since {year}.",
        "I joined {A} back in {year} and I'm still there.",
        "I've been employed at {A} since {year}.",
        "I have worked for {A} ever since {year}.",
        "It's been two years since I started at {A}.",
        "I've been employed by {A} for three years.",
    ],
    "job_title": [
        "I've been working as {aA} {A} for three years now.",
        "It's been three years since I became {aA} {A}.",
        "For the past three years I've been {aA} {A}.",
        "I've worked as {aA} {A} since {year}.",
        "I've been {aA} {A} since {year}.",
        "I've served as {aA} {A} since {year}.",
        "It's been two years since I started working as {aA} {A}.",
    ],
}

THIRD_CHANGE: dict[str, list[str]] = {
    "lives_in": [
        "My sister {N} moved from {A} to {B}{when}.",
        "{N} used to live in {A}, but she's in {B} now.",
        "My friend {N} left {A} and settled in {B}.",
        "{N} was in {A} until last year; now she lives in {B}.",
        "My neighbour {N} moved from {A} to {B}{when}.",
        "My sister {N} was in {A} until the spring, but now she's in {B}.",
        "Since relocating from {A} to {B}, my aunt {N} has been happier.",
    ],
    "works_at": [
        "My colleague {N} left {A} and joined {B}.",
        "My friend {N} switched from {A} to {B}{when}.",
        "{N} was at {A} until last year; now she works for {B}.",
        "My friend {N} quit {A} and joined {B}{when}.",
        "{N} was at {A} until the spring, but now she's at {B}.",
    ],
    "job_title": [
        "{N} used to be {aA} {A}, but she's {aB} {B} now.",
        "My friend {N} was {aA} {A} until last year; now she's {aB} {B}.",
        "{N} retrained from {A} to {B}.",
        "My friend {N} was {aA} {A}, but now she's {aB} {B}.",
    ],
}


def _draw(template: str) -> int:
    """The template's own draw of values, chatter and time phrase (stable when the bank changes)."""
    return zlib.crc32(template.encode()) % 997


def _compose(template: str, predicate: str, n: int) -> tuple[str, dict[str, str]]:
    return compose(
        template.replace("{N}", NAMES[n % len(NAMES)]),
        predicate,
        n,
        when=" last month" if n % 2 else "",
        chatter=n,
    )


def _told(
    templates: list[str], predicate: str, *, after_state: bool, subject_of: bool = False
) -> list[tuple[str, Timeline, dict[str, str], list[Timeline]]]:
    out = []
    for template in templates:
        n = _draw(template)
        text, v = _compose(template, predicate, n)
        subject = NAMES[n % len(NAMES)] if subject_of else "Dana"
        if after_state:
            first, _ = compose(STATE[predicate], predicate, n)
            orders = [[Said(first, T0), Said(text, T1)], [Said(text, T1), Said(first, T0)]]
        else:
            orders = [[Said(text, T1)]]
        got = [timeline(o, predicate, subject) for o in orders]
        out.append((text, got[0], v, got))
    return out


def _bad(results: list[tuple[str, Timeline, dict[str, str], list[Timeline]]], expect: object) -> list[object]:
    bad = []
    for text, _, v, got in results:
        want = expect(v)  # type: ignore[operator]
        for g in got:
            if (g.current, g.history) != want:
                bad.append((text, g.current, g.history))
                break
    return bad


@pytest.mark.parametrize("predicate", sorted(CHANGE))
def test_a_change_naming_both_in_any_shape_gives_old_then_new(predicate: str) -> None:
    """Participles, nominals, then-and-now copulas, past perfects: the old value, then the new."""
    got = _told(CHANGE[predicate], predicate, after_state=False)
    assert _bad(got, lambda v: ([v["B"]], [v["A"], v["B"]])) == []


@pytest.mark.parametrize("predicate", sorted(LATER))
def test_a_later_value_in_any_shape_supersedes(predicate: str) -> None:
    """A new value told later as a participle, a nominal or a habitual copula replaces the old."""
    got = _told(LATER[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([v["B"]], [v["A"], v["B"]])) == []


@pytest.mark.parametrize("predicate", sorted(ENDS))
def test_an_end_in_any_shape_closes_the_value(predicate: str) -> None:
    """Denials, leaving verbs, an employer as subject, "my time at X ended": nothing current."""
    got = _told(ENDS[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([], [v["A"]])) == []


@pytest.mark.parametrize("predicate", sorted(CORR_SAME))
def test_a_same_breath_repair_leaves_only_the_right_value(predicate: str) -> None:
    """ "uh, I mean", "or rather", "sorry, to X", "Actually, no, ...": the wrong value is no fact."""
    got = _told(CORR_SAME[predicate], predicate, after_state=False)
    assert _bad(got, lambda v: ([v["B"]], [v["B"]])) == []


@pytest.mark.parametrize("predicate", sorted(CORR_LATER))
def test_a_later_correction_replaces_the_mistake(predicate: str) -> None:
    """A correction in a later message, in either ingestion order: only the right value, ever."""
    got = _told(CORR_LATER[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([v["B"]], [v["B"]])) == []


@pytest.mark.parametrize("predicate", sorted(PLANS))
def test_a_plan_in_any_shape_leaves_the_current_value(predicate: str) -> None:
    """Plans as nominals ("our move to X"), participles after a future, hopes: nothing changes."""
    got = _told(PLANS[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([v["A"]], [v["A"]])) == []


@pytest.mark.parametrize("predicate", sorted(DURATION))
def test_a_duration_in_any_shape_dates_the_start(predicate: str) -> None:
    """ "It's been three years since", "ever since 2019", "for three years now": a start long ago."""
    bad = []
    for text, got, v, _ in _told(DURATION[predicate], predicate, after_state=False):
        start = got.runs[0].valid_from if got.runs else None
        if got.current != [v["A"]] or start is None or start > T1 - timedelta(days=300):
            bad.append((text, got.current, start))
    assert bad == []


@pytest.mark.parametrize("predicate", sorted(THIRD_CHANGE))
def test_another_persons_change_is_theirs(predicate: str) -> None:
    """A person named through an apposition ("my sister Priya") and a pronoun after it."""
    got = _told(THIRD_CHANGE[predicate], predicate, after_state=False, subject_of=True)
    assert _bad(got, lambda v: ([v["B"]], [v["A"], v["B"]])) == []
