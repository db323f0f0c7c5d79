"""English temporal statements, one test per class of phrasing and predicate (``en_temporal_kit``).

Each class is a bank of paraphrases written for these tests, from scratch, composed with values,
chatter around the statement and time phrases; a class passes when every composed message gives the
right current value and the right history through the supersession chain:

- a change that names both the old and the new value, in one message;
- a change told later, with another verb of the class (join, be hired by, sign with, ...);
- an end (negation, "no longer", "not since", leaving verbs) with nothing in its place;
- a correction in the same message as the mistake (the wrong value never enters the history);
- plans and hopes, which leave the current value alone;
- tense and aspect ("used to", a past state, present perfect with a duration);
- another person's statement, a question, or a quote in the same message.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from tests.unit.en_temporal_kit import T0, T1, Said, compose, timeline

# --------------------------------------------------------------------------- change naming both

CHANGE_BOTH = {
    "lives_in": [
        "I swapped {A} for {B}{when}.",
        "I left {A} and settled in {B}.",
        "I relocated from {A} to {B}{when}.",
        "{A} is behind me, I'm in {B} now.",
        "We ended up in {B} after years in {A}.",
        "After six years in {A}, I moved to {B}.",
        "I moved to {B} from {A}{when}.",
        "I traded {A} for {B}.",
        "I packed up my life in {A} and moved to {B}.",
        "I moved away from {A} to {B}.",
        "I left {A} behind and now live in {B}.",
        "I used to live in {A}, but now I live in {B}.",
        "I said goodbye to {A} and moved to {B}{when}.",
        "We gave up our flat in {A} and moved to {B}.",
        "I moved out of {A} and into a place in {B}.",
        "Moved from {A} to {B}{when}!",
        "So we finally left {A} \u2014 we live in {B} now.",
        "I've traded life in {A} for a quieter one in {B}.",
        "i moved out of {A} and now i live in {B}.",
        "I'm living in {B} these days, not {A} anymore.",
        "{B} is where I live now, I left {A}{when}.",
        "I've moved from {A} to {B}.",
        "We left {A} for {B} in the spring.",
        "I live in {B} now instead of {A}.",
    ],
    "works_at": [
        "I left {A} for {B}{when}.",
        "I quit {A} and joined {B}.",
        "I switched from {A} to {B}{when}.",
        "After five years at {A}, I joined {B}.",
        "I left {A} to join {B}.",
        "I'm at {B} now after leaving {A}.",
        "I moved from {A} to {B}{when}.",
        "I gave notice at {A} and started at {B}.",
        "I used to work at {A}, but now I work at {B}.",
        "I jumped from {A} to {B}.",
        "I traded {A} for {B}.",
        "I resigned from {A} and signed with {B}.",
        "I no longer work at {A}; I work at {B} now.",
        "I was laid off by {A} and got hired by {B}.",
        "I left {A} and I'm now working at {B}.",
        "After three years with {A}, I accepted a job at {B}.",
        "So I quit {A}{when}. Now I work for {B}!",
        "I moved over to {B} after leaving {A}.",
        "I'm now employed by {B}; I left {A}{when}.",
        "i quit {A} and started working at {B}.",
        "I switched jobs from {A} to {B}{when}.",
        "I resigned from {A}{when} and joined {B} the following week.",
        "{B} hired me away from {A}.",
        "I'm working for {B} now instead of {A}.",
        "I went from {A} to {B}{when}.",
        "I've moved from {A} over to {B}.",
        "I left my job at {A} and joined {B}.",
        "I quit my job at {A} to work for {B}.",
        "I ditched {A} for {B}.",
    ],
    "job_title": [
        "I went from {A} to {B}{when}.",
        "I switched from {A} to {B}.",
        "I was promoted from {A} to {B}{when}.",
        "I'm no longer {aA} {A}; I'm {aB} {B} now.",
        "I used to be {aA} {A}, but now I'm {aB} {B}.",
        "After years as {aA} {A}, I became {aB} {B}.",
        "I stopped working as {aA} {A} and became {aB} {B}.",
        "I moved from {A} to {B}.",
        "I quit being {aA} {A} and now work as {aB} {B}.",
        "I retrained from {A} to {B}.",
        "I was {aA} {A}, but now I'm {aB} {B}.",
        "I switched careers from {A} to {B}{when}.",
        "I've gone from {A} to {B}.",
        "I'm {aB} {B} now, after years as {aA} {A}.",
        "I left my job as {aA} {A} and became {aB} {B}.",
        "I got promoted from {A} to {B}{when}.",
        "I went from being {aA} {A} to being {aB} {B}.",
        "I'm {aB} {B} now instead of {aA} {A}.",
        "I was {aA} {A} until last year; now I'm {aB} {B}.",
        "I got promoted from {A} to {B}.",
    ],
}


def bad_change_both(predicate: str) -> list[tuple[object, ...]]:
    bad = []
    for n, template in enumerate(CHANGE_BOTH[predicate]):
        text, v = compose(template, predicate, n, when=" last month" if n % 2 else "", chatter=n)
        got = timeline([Said(text, T1)], predicate)
        if got.current != [v["B"]] or got.history != [v["A"], v["B"]]:
            bad.append((text, got.current, got.history))
    return bad


@pytest.mark.parametrize("predicate", sorted(CHANGE_BOTH))
def test_a_change_naming_both_values_gives_old_then_new(predicate: str) -> None:
    """A change naming both values in one message: the old value is history, the new one current."""
    assert bad_change_both(predicate) == []


# --------------------------------------------------------------------------- change told later

STATE = {
    "lives_in": "I live in {A}.",
    "works_at": "I work at {A}.",
    "job_title": "I work as {aA} {A}.",
}
CHANGE_LATER = {
    "lives_in": [
        "I moved to {B}{when}.",
        "We finally settled in {B}.",
        "I've relocated to {B}.",
        "I'm living in {B} now.",
        "I call {B} home these days.",
        "We bought a house in {B} and moved in{when}.",
        "I made the move to {B}{when}.",
        "I've been in {B} since March.",
        "Home is {B} now.",
        "We ended up in {B}.",
        "I just got settled into a flat in {B}.",
        "I'm a {B} resident now.",
        "We moved into a new apartment in {B}{when}.",
        "I've been living in {B} since the spring.",
        "Just moved to {B}!",
        "These days I live in {B}.",
        "We're now based in {B}.",
        "I finally made {B} my home.",
        "I relocated over to {B}{when}.",
        "I got an apartment in {B} and moved there{when}.",
        "I now reside in {B}.",
        "My home is in {B} now.",
    ],
    "works_at": [
        "I joined {B}{when}.",
        "I was hired by {B}{when}.",
        "I signed with {B}.",
        "I started at {B}{when}.",
        "I took a job with {B}.",
        "I'm now on the payroll of {B}.",
        "I got a job at {B}{when}.",
        "I accepted an offer from {B}.",
        "{B} hired me{when}.",
        "I began working for {B}{when}.",
        "I'm with {B} now.",
        "I came on board at {B}{when}.",
        "I landed a job at {B}{when}.",
        "Started a new position at {B}{when}.",
        "I now work for {B}.",
        "I got hired at {B}{when}.",
        "I was recruited by {B}{when}.",
        "I've joined the team at {B}.",
        "I just signed on with {B}.",
        "I'm currently employed at {B}.",
        "I accepted a position with {B}{when}.",
        "These days I work at {B}.",
    ],
    "job_title": [
        "I got promoted to {B}{when}.",
        "I became {aB} {B}{when}.",
        "I'm {aB} {B} now.",
        "I took a job as {aB} {B}.",
        "They made me {B}{when}.",
        "I started working as {aB} {B}{when}.",
        "I was hired as {aB} {B}.",
        "I now work as {aB} {B}.",
        "I've been {aB} {B} since March.",
        "I retrained as {aB} {B}.",
        "I was promoted to {B}{when}.",
        "I'm now working as {aB} {B}.",
        "I got a new role as {aB} {B}.",
        "My new title is {B}.",
        "I've become {aB} {B}.",
        "I started a new job as {aB} {B}{when}.",
        "I work as {aB} {B} now.",
        "I accepted a position as {aB} {B}.",
    ],
}


def bad_change_later(predicate: str) -> list[tuple[object, ...]]:
    bad = []
    for n, template in enumerate(CHANGE_LATER[predicate]):
        first, v = compose(STATE[predicate], predicate, n)
        text, _ = compose(template, predicate, n, when=" two weeks ago" if n % 2 else "", chatter=n)
        for order in ([Said(first, T0), Said(text, T1)], [Said(text, T1), Said(first, T0)]):
            got = timeline(order, predicate)
            if got.current != [v["B"]] or got.history != [v["A"], v["B"]]:
                bad.append((text, got.current, got.history))
                break
    return bad


@pytest.mark.parametrize("predicate", sorted(CHANGE_LATER))
def test_a_later_change_with_any_verb_of_the_class_supersedes(predicate: str) -> None:
    """A value told in a later message, with any verb of the class, replaces the earlier value."""
    assert bad_change_later(predicate) == []


# --------------------------------------------------------------------------- ends

ENDS = {
    "lives_in": [
        "I no longer live in {A}.",
        "I don't live in {A} anymore.",
        "I moved out of {A}{when}.",
        "I left {A}{when}.",
        "I'm not in {A} anymore.",
        "I haven't lived in {A} since March.",
        "I'm no longer based in {A}.",
        "We moved away from {A}{when}.",
        "I stopped living in {A}.",
        "I've moved away from {A}.",
        "I no longer call {A} home.",
        "We're not living in {A} anymore.",
        "I left {A} for good{when}.",
        "i don't live in {A} anymore.",
        "We moved out of {A} and we're staying with friends for now.",
        "I'm no longer living in {A}.",
        "I'm out of {A} now.",
        "I finally got out of {A}{when}.",
        "We sold our house in {A} and left.",
    ],
    "works_at": [
        "I no longer work at {A}.",
        "I'm not with {A} anymore.",
        "I quit {A}{when}.",
        "I got let go from {A}{when}.",
        "I handed in my notice at {A}.",
        "I retired from {A}{when}.",
        "I was laid off from {A}.",
        "I resigned from {A}{when}.",
        "I left {A}{when}.",
        "I stopped working for {A}.",
        "I'm done with {A}.",
        "I don't work for {A} anymore.",
        "I've left {A}.",
        "I'm no longer with {A}.",
        "I got fired from {A}{when}.",
        "{A} let me go{when}.",
        "I was let go by {A}.",
        "I stepped down from {A}{when}.",
        "I parted ways with {A}{when}.",
        "I don't work at {A} anymore.",
        "i'm not working at {A} anymore.",
        "I walked away from {A}{when}.",
        "I finished at {A}{when}.",
        "My last day at {A} was Friday.",
        "I no longer have a job at {A}.",
        "I've stopped working at {A}.",
        "I'm done working for {A}.",
        "I quit my job at {A}.",
        "I was fired by {A}{when}.",
    ],
    "job_title": [
        "I'm not {aA} {A} anymore.",
        "I no longer work as {aA} {A}.",
        "I quit being {aA} {A}.",
        "I stopped working as {aA} {A}.",
        "I gave up being {aA} {A}{when}.",
        "I'm no longer {aA} {A}.",
        "I retired as {aA} {A}{when}.",
        "I don't work as {aA} {A} anymore.",
        "I left my job as {aA} {A}.",
        "I stepped down as {A}.",
        "I'm no longer working as {aA} {A}.",
        "I stopped being {aA} {A}{when}.",
        "I'm not working as {aA} {A} anymore.",
        "I quit my job as {aA} {A}{when}.",
        "I resigned as {A}{when}.",
        "I don't work as {aA} {A} these days.",
        "I quit my {A} job.",
        "I'm done being {aA} {A}.",
        "I gave up my job as {aA} {A}.",
    ],
}


def bad_after_a_state(
    templates: list[str],
    predicate: str,
    expect: Callable[[dict[str, str]], tuple[list[str], list[str]]],
    *,
    when: str = "",
) -> list[tuple[object, ...]]:
    """Each template told after the speaker's state ``A``: the messages whose current value and
    history are not ``expect(values)``; ``when`` is added to every other message."""
    bad = []
    for n, template in enumerate(templates):
        first, v = compose(STATE[predicate], predicate, n)
        text, _ = compose(template, predicate, n, when=when if n % 2 else "", chatter=n)
        got = timeline([Said(first, T0), Said(text, T1)], predicate)
        if (got.current, got.history) != expect(v):
            bad.append((text, got.current, got.history))
    return bad


def bad_ends(predicate: str) -> list[tuple[object, ...]]:
    return bad_after_a_state(ENDS[predicate], predicate, lambda v: ([], [v["A"]]), when=" last month")


@pytest.mark.parametrize("predicate", sorted(ENDS))
def test_an_end_closes_the_value_without_a_successor(predicate: str) -> None:
    """A negation or a leaving verb ends the value: nothing current, the old value in the history."""
    assert bad_ends(predicate) == []


# --------------------------------------------------------------------------- same-message corrections

CORRECTIONS = {
    "lives_in": [
        "I live in {W} \u2014 sorry, I mean {B}.",
        "I live in {W} \u2014 not {W}, {B}.",
        "I live in {W}. No wait, {B}.",
        "I live in {W}, scratch that, {B}.",
        "I live in {W}... well, actually {B}.",
        "I moved to {W}{when}, or rather {B}.",
        "I live in {B}, not {W}.",
        "I live in {W}, my mistake, {B}.",
        "I'm based in {W} \u2014 make that {B}.",
        "I live in {W}. Sorry, I meant {B}.",
        "I live in {W}. Not {W}, {B}.",
        "I moved to {W}, no sorry, {B}{when}.",
        "I live in {W}, oops, {B}.",
        "I live in {W} \u2014 wait, no, {B}.",
        "I'm living in {W}, sorry, I meant {B}.",
        "I moved to {W}{when}... I mean {B}.",
        "I live in {W}. Correction: {B}.",
        "I live in {W}, er, {B}.",
        "I live in {W}. Actually, make that {B}.",
        "I live in {W}, rather {B}.",
        "I live in {W}... no, sorry, {B}!",
        "I live in {W}. Wait, I mean {B}.",
        "We live in {W}, I mean {B}.",
    ],
    "works_at": [
        "I work at {W} \u2014 sorry, I mean {B}.",
        "I work for {W}, or rather {B}.",
        "I work at {W}. Scratch that, {B}.",
        "I joined {W}{when}, well, actually {B}.",
        "I work at {B}, not {W}.",
        "I work at {W}, my bad, {B}.",
        "I'm with {W} \u2014 correction, {B}.",
        "I joined {W}, no wait, {B}{when}.",
        "I work at {W}. Sorry, I meant {B}.",
        "I started at {W}, um, {B}.",
        "I work at {W}, oops, {B}.",
        "I work for {W} \u2014 wait, no, {B}.",
        "I'm working at {W}, sorry, I meant {B}.",
        "I work at {W}. Correction: {B}.",
        "I work at {W}, er, {B}.",
        "I joined {W}{when}, I mean {B}.",
        "I work at {W} \u2014 not {W}, {B}.",
        "I work at {W}. Wait, I mean {B}.",
        "I work at {W}... no, sorry, {B}!",
        "I got hired by {W}, sorry, {B}{when}.",
        "I work for {W}, my bad, it's {B}.",
    ],
    "job_title": [
        "I'm {aW} {W}, sorry, I mean {aB} {B}.",
        "I work as {aW} {W}, or rather {aB} {B}.",
        "I'm {aW} {W} \u2014 scratch that, {aB} {B}.",
        "I'm {aB} {B}, not {aW} {W}.",
        "I work as {aW} {W}. Sorry, I meant {aB} {B}.",
        "I'm {aW} {W}, well, actually {aB} {B}.",
        "I work as {aW} {W}, my mistake, {aB} {B}.",
        "I got promoted to {W}, I mean {B}{when}.",
        "I'm {aW} {W}, no wait, {aB} {B}.",
        "I became {aW} {W}, um, {aB} {B}{when}.",
        "I'm {aW} {W}, oops, {aB} {B}.",
        "I work as {aW} {W} \u2014 wait, no, {aB} {B}.",
        "I'm {aW} {W}. Correction: {aB} {B}.",
        "I'm {aW} {W}, er, {aB} {B}.",
        "I'm {aW} {W}, I mean {aB} {B}.",
        "I'm working as {aW} {W}, sorry, I meant {aB} {B}.",
        "I'm {aW} {W}. Wait, I mean {aB} {B}.",
        "I'm {aW} {W}... no, sorry, {aB} {B}!",
        "I work as {aW} {W}, my bad, {aB} {B}.",
    ],
}


def bad_corrections(predicate: str) -> list[tuple[object, ...]]:
    bad = []
    for n, template in enumerate(CORRECTIONS[predicate]):
        text, v = compose(template, predicate, n, when=" last week" if n % 2 else "", chatter=n)
        got = timeline([Said(text, T1)], predicate)
        if got.current != [v["B"]] or got.history != [v["B"]]:
            bad.append((text, got.current, got.history))
    return bad


@pytest.mark.parametrize("predicate", sorted(CORRECTIONS))
def test_a_correction_in_the_same_message_leaves_only_the_right_value(predicate: str) -> None:
    """The wrong value said and repaired in one message is no fact: the history has the right one."""
    assert bad_corrections(predicate) == []


# --------------------------------------------------------------------------- plans and hopes

PLANS = {
    "lives_in": [
        "I'll be moving to {B} next month.",
        "I'm thinking of moving to {B}.",
        "We plan to relocate to {B} next year.",
        "I'm going to move to {B} in the spring.",
        "I hope to settle in {B} someday.",
        "I might move to {B}.",
        "I'd love to live in {B}.",
        "We're considering a move to {B}.",
        "If the job works out, I'll move to {B}.",
        "Should I move to {B}?",
        "I'm about to move to {B}.",
        "We're planning a move to {B}.",
        "I want to move to {B} eventually.",
        "Maybe I'll relocate to {B} next year.",
        "We hope to move to {B} soon.",
        "I'm looking at apartments in {B}.",
        "Thinking about moving to {B}!",
        "I would love to live in {B}.",
        "I'm moving to {B} in two weeks.",
        "We'll relocate to {B} after the wedding.",
        "I'm supposed to move to {B} next year.",
        "I may end up in {B}.",
        "Do you think I should move to {B}?",
    ],
    "works_at": [
        "I'm interviewing at {B} next week.",
        "I'll be joining {B} in June.",
        "I applied to {B}.",
        "I'm hoping to get a job at {B}.",
        "I might join {B}.",
        "I'm going to start at {B} next month.",
        "I'd love to work for {B} someday.",
        "Should I take the offer from {B}?",
        "I'm thinking about applying to {B}.",
        "I have an interview with {B} tomorrow.",
        "I'm planning to join {B}.",
        "I hope to work at {B} one day.",
        "I'm going to apply at {B}.",
        "I'd like to join {B}.",
        "I'm waiting to hear back from {B}.",
        "Maybe I'll join {B} next year.",
        "I got an interview at {B}!",
        "I start at {B} next Monday.",
        "I'm supposed to join {B} in the fall.",
        "I'm in talks with {B}.",
        "I might take the job at {B}.",
    ],
    "job_title": [
        "I'm hoping to become {aB} {B}.",
        "I want to be {aB} {B} one day.",
        "I'm studying to become {aB} {B}.",
        "I'll be {aB} {B} after the training.",
        "I might apply to be {aB} {B}.",
        "I'm going to train as {aB} {B}.",
        "I dream of working as {aB} {B}.",
        "Would I make a good {B}?",
        "I'm applying for {aB} {B} role.",
        "I'm thinking about becoming {aB} {B}.",
        "I plan to become {aB} {B}.",
        "I'd like to work as {aB} {B}.",
        "I'm training to be {aB} {B}.",
        "Maybe I'll become {aB} {B} someday.",
        "I'm hoping for a promotion to {B}.",
        "I'll be promoted to {B} next year.",
        "I'm up for a promotion to {B}.",
        "I'm in training to become {aB} {B}.",
    ],
}


def bad_plans(predicate: str) -> list[tuple[object, ...]]:
    return bad_after_a_state(PLANS[predicate], predicate, lambda v: ([v["A"]], [v["A"]]))


@pytest.mark.parametrize("predicate", sorted(PLANS))
def test_a_plan_or_hope_leaves_the_current_value(predicate: str) -> None:
    """Plans, hopes, questions and hypotheticals about a new value change nothing that holds."""
    assert bad_plans(predicate) == []


# --------------------------------------------------------------------------- tense and aspect

PAST_ONLY = {
    "lives_in": [
        "I used to live in {A}.",
        "I lived in {A} for a while.",
        "Back in {year}, I lived in {A}.",
        "I was living in {A} at the time.",
        "I grew up in {A}.",
        "I lived in {A} as a kid.",
        "Years ago I lived in {A}.",
        "I spent my childhood in {A}.",
        "We were living in {A} back then.",
    ],
    "works_at": [
        "I used to work at {A}.",
        "I worked at {A} back in {year}.",
        "I interned at {A} in college.",
        "I was working for {A} at the time.",
        "I worked for {A} years ago.",
        "Back then I was working at {A}.",
        "I did an internship at {A} in 2015.",
        "I spent two years at {A} after college.",
    ],
    "job_title": [
        "I used to be {aA} {A}.",
        "I was {aA} {A} back in {year}.",
        "I worked as {aA} {A} in my twenties.",
        "I worked as {aA} {A} years ago.",
        "I was {aA} {A} before the kids were born.",
        "Back then I was working as {aA} {A}.",
    ],
}


def bad_past_only(predicate: str) -> list[tuple[object, ...]]:
    bad = []
    for n, template in enumerate(PAST_ONLY[predicate]):
        text, _ = compose(template, predicate, n, chatter=n)
        got = timeline([Said(text, T1)], predicate)
        if got.current != []:
            bad.append((text, got.current))
    return bad


@pytest.mark.parametrize("predicate", sorted(PAST_ONLY))
def test_a_past_state_alone_holds_nothing_now(predicate: str) -> None:
    """ "used to", the simple past and "at the time" say nothing about now."""
    assert bad_past_only(predicate) == []


DURATIONS = {
    "lives_in": [
        ("I've lived in {A} for three years.", 3 * 365),
        ("I have been living in {A} for two years now.", 2 * 365),
        ("I moved to {A} two months ago.", 60),
        ("I've been in {A} since {year}.", None),
        ("Back in {year}, I moved to {A}, and I'm still here.", None),
        ("I settled in {A} last spring.", None),
    ],
    "works_at": [
        ("I've worked at {A} for three years.", 3 * 365),
        ("I joined {A} two months ago.", 60),
        ("I've been with {A} since {year}.", None),
        ("I started at {A} back in {year}.", None),
        ("I've been at {A} for five years.", 5 * 365),
    ],
    "job_title": [
        ("I've been {aA} {A} for three years.", 3 * 365),
        ("I've worked as {aA} {A} since {year}.", None),
        ("I became {aA} {A} two months ago.", 60),
    ],
}


def bad_durations(predicate: str) -> list[tuple[object, ...]]:
    bad = []
    for n, (template, days) in enumerate(DURATIONS[predicate]):
        text, v = compose(template, predicate, n)
        got = timeline([Said(text, T1)], predicate)
        start = got.runs[0].valid_from if got.runs else None
        if got.current != [v["A"]] or start is None or start >= T1 - timedelta(days=20):
            bad.append((text, got.current, start))
        elif days is not None and abs((T1 - start).days - days) > 40:
            bad.append((text, got.current, start))
    return bad


@pytest.mark.parametrize("predicate", sorted(DURATIONS))
def test_a_time_phrase_dates_the_start(predicate: str) -> None:
    """A duration, "since", "ago" or a past year dates when the value began holding."""
    assert bad_durations(predicate) == []


# --------------------------------------------------------------------------- other people, questions

NOT_THE_SPEAKER = {
    "lives_in": [
        "My sister lives in {B}.",
        "My brother just moved to {B}, and I'm still here.",
        "Do you live in {B}?",
        "My boss keeps saying, 'I moved to {B}.'",
        "Tom relocated to {B}.",
        "Have you ever lived in {B}?",
        "My parents retired to {B}.",
        "You moved to {B}, right?",
        "My best friend Maria lives in {B}.",
        "My roommate is moving to {B}.",
        "Did you move to {B}?",
        "Where do you live, {B}?",
        "My parents live in {B}, and I visit them often.",
        "Our neighbours just moved to {B}.",
        "My daughter moved to {B} for college.",
        "Everyone keeps telling me to move to {B}.",
        "My friend from {B} is visiting.",
        "I'm flying to {B} next week for a conference.",
        "I visited {B} last month.",
    ],
    "works_at": [
        "My husband works at {B}.",
        "My friend just joined {B}.",
        "Do you work at {B}?",
        "Sam got hired by {B}.",
        "She said, 'I quit {A}.'",
        "My cousin left {A} for {B}.",
        "Are you still with {A}?",
        "My wife just joined {B}.",
        "My brother quit {A}{when}.",
        "Is {B} hiring?",
        "Do you still work at {A}?",
        "My friend got a job at {B}.",
        "Ben said he left {A}.",
        "My neighbour was hired by {B}.",
        "I met someone from {B} at the party.",
        "I have a meeting with {B} tomorrow.",
        "My sister left {A} and joined {B}.",
    ],
    "job_title": [
        "My sister is {aB} {B}.",
        "My dad got promoted to {B}.",
        "Are you {aB} {B}?",
        "Jo became {aB} {B}.",
        "My friend quit being {aA} {A}.",
        "My mom is {aB} {B}.",
        "My brother became {aB} {B}.",
        "Is it hard being {aB} {B}?",
        "My friend works as {aB} {B}.",
        "My friend was promoted to {B}.",
        "I met {aB} {B} yesterday.",
        "My boss is {aB} {B}.",
    ],
}


def bad_not_the_speaker(predicate: str) -> list[tuple[object, ...]]:
    return bad_after_a_state(NOT_THE_SPEAKER[predicate], predicate, lambda v: ([v["A"]], [v["A"]]))


@pytest.mark.parametrize("predicate", sorted(NOT_THE_SPEAKER))
def test_someone_elses_value_or_a_question_leaves_the_speakers(predicate: str) -> None:
    """Another person's statement, a question or a quote is not the speaker's fact."""
    assert bad_not_the_speaker(predicate) == []
