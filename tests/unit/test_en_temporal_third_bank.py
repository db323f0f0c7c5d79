"""English temporal statements: a third paraphrase bank (``en_temporal_kit``), written from
scratch by class, with shapes the first two banks do not have:

- a pronoun or an ellipsis standing for a value an earlier sentence of the same message named
  ("I joined {A} in 2015. I left it in {year}.", "I lived in {A}. I lived there until {year}.",
  "There since {year}.", "{A} was home until {year}. Now it's {B}.");
- values said in passing, in a noun phrase or a subordinate clause ("my ex-employer {A}", "my
  former company {A}", "my old place in {A}", "back when I lived in {A}", "home used to be {A}
  (now it's {B})", "I sold our house in {A} and bought one in {B}");
- "I'm at {B}" with "these days" or "now" after an employer was named: the employer, not a visit;
- an undated end ("I used to work at {A}.") beside a dated new value: the value before it.

Regression: each template here gave no fact, a located_at visit, or the old value after the new
one before ``rules_en_context`` (EnContext, passing values, undated ends).
"""

from __future__ import annotations

import zlib

import pytest

from tests.unit.en_temporal_kit import SPEAKER, T0, T1, Said, Timeline, compose, timeline
from tests.unit.test_en_temporal_paraphrases import STATE

CHANGE: dict[str, list[str]] = {
    "lives_in": [
        "Home used to be {A} (now it's {B}).",
        "{A} was home until {year}. Now it's {B}.",
        "I sold our house in {A} and bought one in {B}.",
        "Back when I lived in {A}, rent was cheap. Now I'm in {B}.",
        "My old place in {A} was bigger; I live in {B} now.",
        "I lived in {A} for ages. I lived there until {year}. I live in {B} now.",
    ],
    "works_at": [
        "My ex-employer {A} was awful; I'm at {B} now.",
        "My former company {A} was fine, but I've been with {B} since {year}.",
        "I joined {A} in 2015. I left it in {year}. Now I'm at {B}.",
        "I used to work at {A}. I came on board at {B}{when}.",
        "I got laid off from {A}. These days I'm at {B}.",
        "I worked at {A} for years. I worked there until {year}, then {B} hired me.",
    ],
}

ENDS: dict[str, list[str]] = {
    "lives_in": [
        "Back when I lived in {A}, I cycled everywhere.",
        "My old place in {A} was huge.",
        "{A} was home until last month.",
        "My home used to be {A}.",
    ],
    "works_at": [
        "My ex-employer {A} still emails me.",
        "My former company {A} is hiring again.",
        "Back when I worked at {A}, I had a long commute.",
        "I was at {A} for years. I left it{when}.",
    ],
}

DURATION: dict[str, list[str]] = {
    "lives_in": [
        "I moved to {A} in {year}. There since then, honestly.",
        "I live in {A}. There since {year}.",
    ],
    "works_at": ["I started at {A} in {year}. Still there.", "I joined {A} in the spring of {year}."],
}


def _draw(template: str) -> int:
    return zlib.crc32(template.encode()) % 997


def _told(
    templates: list[str], predicate: str, *, after_state: bool
) -> list[tuple[str, list[Timeline], dict]]:
    out = []
    for template in templates:
        n = _draw(template)
        text, v = compose(template, predicate, n, when=" last month" if n % 2 else "", chatter=n)
        if after_state:
            first, _ = compose(STATE[predicate], predicate, n)
            orders = [[Said(first, T0), Said(text, T1)], [Said(text, T1), Said(first, T0)]]
        else:
            orders = [[Said(text, T1)]]
        out.append((text, [timeline(o, predicate) for o in orders], v))
    return out


def _bad(results: list[tuple[str, list[Timeline], dict]], expect: object) -> list[object]:
    return [
        (text, g.current, g.history)
        for text, got, v in results
        for g in got[:1] + [g for g in got[1:] if (g.current, g.history) != expect(v)]  # type: ignore[operator]
        if (g.current, g.history) != expect(v)  # type: ignore[operator]
    ]


@pytest.mark.parametrize("predicate", sorted(CHANGE))
def test_a_change_told_with_pronouns_and_passing_values_gives_old_then_new(predicate: str) -> None:
    got = _told(CHANGE[predicate], predicate, after_state=False)
    assert _bad(got, lambda v: ([v["B"]], [v["A"], v["B"]])) == []


@pytest.mark.parametrize("predicate", sorted(ENDS))
def test_a_value_said_in_passing_as_former_ends_it(predicate: str) -> None:
    got = _told(ENDS[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([], [v["A"]])) == []


@pytest.mark.parametrize("predicate", sorted(DURATION))
def test_an_ellipsis_after_a_dated_start_keeps_the_value(predicate: str) -> None:
    got = _told(DURATION[predicate], predicate, after_state=False)
    bad = [
        (t, g[0].current) for t, g, v in got if g[0].current != [v["A"]] or g[0].runs[0].valid_from is None
    ]
    assert bad == []
    assert all(g[0].runs[0].valid_from.year == 2019 for _, g, _ in got)  # type: ignore[union-attr]


CORR_LATER: dict[str, list[str]] = {
    "lives_in": [
        "Actually it's {B}, not {A}.",
        "Correction: {B}.",
        "I meant {B}.",
        "Sorry, {B}, not {A}.",
        "Wait, I meant {B}, not {A}.",
    ],
    "works_at": [
        "Actually it's {B}, not {A}.",
        "Sorry, {B}, not {A}.",
        "My mistake: {B}, not {A}.",
        "Oops, I meant {B}, not {A}.",
    ],
}


@pytest.mark.parametrize("predicate", sorted(CORR_LATER))
def test_a_later_correction_by_name_alone_replaces_the_mistake(predicate: str) -> None:
    """A later message naming the right value (and maybe the mistake) with no verb: the slot where
    the mistake held takes it, in either ingestion order; the other slot gets nothing."""
    got = _told(CORR_LATER[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([v["B"]], [v["B"]])) == []
    other = "works_at" if predicate == "lives_in" else "lives_in"
    for template in CORR_LATER[predicate]:
        n = _draw(template)
        text, _ = compose(template, predicate, n)
        first, _ = compose(STATE[predicate], predicate, n)
        wrong_slot = timeline([Said(first, T0), Said(text, T1)], other)
        assert (wrong_slot.current, wrong_slot.history) == ([], []), text


def test_a_guessed_correction_applies_only_where_its_mistake_held() -> None:
    """``Claim.guessed``: expired on an empty fact where the mistake never held, so the mistake
    told later (out of order) still meets it."""
    from graphmem.temporal.chain import resolve_slot
    from graphmem.temporal.claims import Claim

    fix = Claim("c", "correct", "Initech", "initech", T1, "user_stated", T1, replaces="globex", guessed=True)
    said = Claim("s", "assert", "Globex", "globex", T0, "user_stated", T1)
    alone = resolve_slot([], [fix], functional=True)
    assert alone.runs == [] and [r.value for r in alone.expired_runs] == ["Initech"]
    both = resolve_slot([], [fix, said], functional=True)
    assert [(r.value, r.valid_from) for r in both.runs] == [("Initech", T0)]


UNNAMED_ENDS: dict[str, list[str]] = {
    "lives_in": [
        "We moved out{when}.",
        "I lived there until last month.",
        "I moved away{when}, finally.",
        "So I left the city{when}.",
    ],
    "works_at": [
        "I quit{when}.",
        "I got laid off{when}, which stung.",
        "I handed in my notice{when}.",
        "I left it last month.",
        "I worked there until last month.",
        "Well, I was let go{when}.",
        "I retired{when}.",
    ],
}

NOT_ENDS = [
    "I quit smoking{when}.",
    "I might quit.",
    "I didn't quit.",
    "If I quit, I will travel.",
    "I lived there.",
]


@pytest.mark.parametrize("predicate", sorted(UNNAMED_ENDS))
def test_an_end_naming_no_value_in_a_later_message_ends_what_held(predicate: str) -> None:
    """ "I quit." / "We moved out." / "I lived there until ...": the value of an earlier message
    ends (``WHATEVER_HOLDS``), in either ingestion order."""
    got = _told(UNNAMED_ENDS[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([], [v["A"]])) == []


@pytest.mark.parametrize("predicate", ["lives_in", "works_at"])
def test_no_end_without_a_leaving(predicate: str) -> None:
    got = _told(NOT_ENDS, predicate, after_state=True)
    assert _bad(got, lambda v: ([v["A"]], [v["A"]])) == []


NOT_THERE_ENDS: dict[str, list[str]] = {
    "lives_in": ["I don't live there anymore.", "I no longer live there."],
    "works_at": [
        "I don't work there anymore.",
        "I no longer work there, thankfully.",
        "I was at {A} until last month.",
    ],
}


@pytest.mark.parametrize("predicate", sorted(NOT_THERE_ENDS))
def test_a_denied_there_in_a_later_message_ends_what_held(predicate: str) -> None:
    """ "I don't work there anymore" with no value named in the message: what held ends."""
    got = _told(NOT_THERE_ENDS[predicate], predicate, after_state=True)
    assert _bad(got, lambda v: ([], [v["A"]])) == []


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("I left Initech for Pied Piper last month.", "works_at"),
        ("I left Siemens for Microsoft.", "works_at"),
        ("I left Goldman Sachs for Salesforce in 2022.", "works_at"),
        ("I left Leeds for Bristol.", "lives_in"),
        ("We left London for Lisbon last year.", "lives_in"),
        ("I left Osaka for Seattle.", "lives_in"),
    ],
)
def test_left_a_for_b_reads_two_employers_when_neither_is_a_place(text: str, predicate: str) -> None:
    """ "I left X for Y" read both names as places whatever they were; two names that read as no
    place where an employer is expected are employers."""
    from tests.unit.en_temporal_kit import _extract

    # a guessed copy in the other slot ("Bristol" reads as a firm) is the chain's to settle
    got = [f.predicate for f in _extract(text, T1, SPEAKER).facts if f.subject == SPEAKER and not f.guessed]
    assert got == [predicate, predicate]


THEIRS: dict[str, list[str]] = {
    "lives_in": [
        "My sister Priya lived in {A} for years. She moved to {B}{when}.",
        "My friend Priya moved to {A} in 2015. She left it in {year}, and she lives in {B} now.",
        "Priya lived in {A}. She lived there until {year}. She lives in {B} now.",
    ],
    "works_at": [
        "Priya joined {A} in 2015. She left it in {year}. She works at {B} now.",
        "My colleague Priya worked at {A}. She quit{when} and joined {B}.",
    ],
}


@pytest.mark.parametrize("predicate", sorted(THEIRS))
def test_a_pronoun_opening_a_sentence_is_the_person_named_before(predicate: str) -> None:
    """ "She" / "He" opening a sentence is the person the episode was last about, and "it" /
    "there" that person's value; the speaker's own slot gets nothing."""
    for template in THEIRS[predicate]:
        text, v = compose(template, predicate, _draw(template))
        theirs = timeline([Said(text, T1)], predicate, "Priya")
        assert (theirs.current, theirs.history) == ([v["B"]], [v["A"], v["B"]]), text
        mine = timeline([Said(text, T1)], predicate)
        assert (mine.current, mine.history) == ([], []), text
