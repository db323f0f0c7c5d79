"""English temporal statements: a sixth bank, of episode *structures* rather than phrasings.

The first five banks vary how one change is said; this one varies how an episode (or a run of
episodes) is put together, with plain phrasings, over subjects (the speaker, a named person) x
predicates (``lives_in``, ``works_at``, ``job_title``) x value pools (one-word and several-word
names) x every ingestion order of the episodes:

- several changes in a row, across episodes (undated and dated, the dated ones told out of order)
  and in one message ("... in 2024, and then ... last month"); a move back to the first value;
- a value re-stated after the change ("I live in B.", "I live in B still."), a state told twice;
- chatter sentences around and between, a chatter-only episode, a relative's value (distractor);
- corrections of a time in the same breath ("in 2019, no wait, 2018"), of a change ("moved to W
  last month, no wait, to B"), and a later correction of a changed value;
- "since" and durations beside an earlier state ("I've lived in B since March", "for a month
  now"); "until" closing a state ("I worked at A until last month");
- past-perfect and past spans closed by the change ("I'd been in A for five years when I moved
  to B", "I lived in A for three years before moving to B"): the duration dates the old span, not
  the move;
- ends that name no value ("I quit last week.", "Sam moved out") and ends told then a new value;
- a value introduced in one sentence and taken up in the next ("I got an offer from B. I took
  it.", "I visited B last year. I moved there last month.", "Sam lived in A. He moved to B.");
- plans, a "used to" told after the change, which must change nothing.

The resolver is run as ingestion runs it (claims carry their episode and span, so an episode's
value and its end are ordered as ``temporal.chain`` orders them), without Neo4j.
"""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime

import pytest

from graphmem.temporal.chain import Run, resolve_slot
from graphmem.temporal.claims import Claim
from graphmem.temporal.normalize import value_key
from tests.unit.en_temporal_kit import _extract, article

SPEAKER = "Dana"
T = (
    datetime(2023, 3, 10, 10, tzinfo=UTC),
    datetime(2024, 6, 15, 10, tzinfo=UTC),
    datetime(2024, 11, 2, 10, tzinfo=UTC),
    datetime(2025, 4, 20, 10, tzinfo=UTC),
)
POOLS = {
    "lives_in": (
        ("Leeds", "Denver", "Osaka"),
        ("Cape Town", "New York", "Mexico City"),
        ("Bristol", "San Francisco", "Lisbon"),
        ("Buenos Aires", "Toronto", "Zurich"),
    ),
    "works_at": (
        ("Globex", "Initech", "Hooli"),
        ("Bank of America", "Massive Dynamic", "Acme Corp"),
        ("Stark Industries", "Pied Piper", "Umbrella"),
        ("Goldman Sachs", "Wayne Enterprises", "Siemens"),
    ),
    "job_title": (
        ("nurse", "accountant", "architect"),
        ("graphic designer", "software engineer", "sales manager"),
        ("teacher", "data analyst", "chef"),
        ("pharmacist", "product manager", "project manager"),
    ),
}
STATE = {
    "lives_in": "<I|{S}> <live|lives> in {A}.",
    "works_at": "<I|{S}> <work|works> at {A}.",
    "job_title": "<I|{S}> <work|works> as {aA} {A}.",
}
MOVE = {
    "lives_in": "<I|{S}> moved to {X}",
    "works_at": "<I|{S}> joined {X}",
    "job_title": "<I|{S}> became {aX} {X}",
}
PLAN = {
    "lives_in": "<I|{S}> might move to {C} next year.",
    "works_at": "<I'm|{S} is> thinking about applying to {C}.",
    "job_title": "<I'd|{S} would> love to become {aC} {C} one day.",
}
DISTRACTOR = {
    "lives_in": "My cousin Priya lives in {C}.",
    "works_at": "My cousin Priya works at {C}.",
    "job_title": "My cousin Priya is {aC} {C}.",
}
USED_TO = {
    "lives_in": "<I|{S}> used to live in {A}.",
    "works_at": "<I|{S}> used to work at {A}.",
    "job_title": "<I|{S}> used to be {aA} {A}.",
}
NO_LONGER = {
    "lives_in": "<I|{S}> no longer <live|lives> in {A}.",
    "works_at": "<I|{S}> no longer <work|works> at {A}.",
    "job_title": "<I'm|{S} is> no longer {aA} {A}.",
}
PREDICATES = ("lives_in", "works_at", "job_title")
Episodes = tuple[tuple[str, int], ...]  # (template, index into T)
Structure = tuple[str, str, Episodes, str, str, tuple[tuple[datetime, str], ...]]


def _d(year: int, month: int, day: int = 15) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def _move(predicate: str, key: str) -> str:
    return MOVE[predicate].replace("{X}", "{" + key + "}").replace("{aX}", "{a" + key + "}")


def _state_of(predicate: str, key: str, tail: str = ".") -> str:
    return STATE[predicate].replace("{A}", "{" + key + "}").replace("{aA}", "{a" + key + "}")[:-1] + tail


def _structures() -> list[Structure]:
    """(class, predicate, episodes, current, history, checks): values as keys A, B, C; a check
    (when, key) asks which value held then."""
    out: list[Structure] = []

    def add(
        cls: str, p: str, eps: Episodes, cur: str, hist: str, checks: tuple[tuple[datetime, str], ...] = ()
    ) -> None:
        out.append((cls, p, eps, cur, hist, checks))

    for p in PREDICATES:
        st, m = STATE[p], (lambda k, p=p: _move(p, k))
        add(
            "chain of three, dated",
            p,
            ((st, 0), (m("B") + " last month.", 1), (m("C") + " last month.", 2)),
            "C",
            "ABC",
            ((_d(2024, 8), "B"),),
        )
        add(
            "chain of three, undated",
            p,
            ((st, 0), (m("B") + ".", 1), (m("C") + ".", 2)),
            "C",
            "ABC",
            ((_d(2024, 8), "B"),),
        )
        add(
            "chain dated, told out of order",
            p,
            ((st, 0), (m("C") + " two weeks ago.", 3), (m("B") + " last month.", 1)),
            "C",
            "ABC",
        )
        add(
            "re-stated after the change",
            p,
            ((st, 0), (m("B") + " last month.", 1), (_state_of(p, "B"), 2)),
            "B",
            "AB",
        )
        add(
            "re-stated with still",
            p,
            ((st, 0), (m("B") + ".", 1), (_state_of(p, "B", " still."), 2)),
            "B",
            "AB",
        )
        add("state told twice", p, ((st, 0), (st, 1), (m("B") + ".", 2)), "B", "AB")
        chatty = "Long week, honestly. I made pasta for dinner. Anyway, " + m("B")[:1].lower() + m("B")[1:]
        add(
            "chatter around the change",
            p,
            ((st, 0), (chatty + " last month. How was your weekend?", 1)),
            "B",
            "AB",
        )
        add(
            "chatter-only episode between",
            p,
            ((st, 0), ("The weather has been lovely this week.", 1), (m("B") + ".", 2)),
            "B",
            "AB",
        )
        add(
            "a relative's value between",
            p,
            ((st, 0), (DISTRACTOR[p], 1), (m("B") + " last week.", 2)),
            "B",
            "AB",
        )
        two = m("B") + " in 2024, and then " + m("C").split("> ", 1)[1] + " last month."
        add("two changes in one message", p, ((st, 0), (two, 2)), "C", "ABC", ((_d(2024, 5), "B"),))
        add(
            "a past state, then the change",
            p,
            (
                (
                    st.replace("<live|lives>", "lived").replace("<work|works>", "worked")
                    + " Last month "
                    + m("B")
                    + ".",
                    1,
                ),
            ),
            "B",
            "AB",
        )
        add("a plan after the change", p, ((st, 0), (m("B") + ".", 1), (PLAN[p], 2)), "B", "AB")
        add("used to, told after the change", p, ((st, 0), (m("B") + ".", 1), (USED_TO[p], 2)), "B", "AB")
        add(
            "an end, then a new value",
            p,
            ((st, 0), (NO_LONGER[p], 1), (_state_of(p, "B", " now."), 2)),
            "B",
            "AB",
        )
    back = {
        "lives_in": "<I|{S}> moved back to {A}.",
        "works_at": "<I|{S}> went back to {A}.",
        "job_title": "",
    }
    for p in ("lives_in", "works_at"):
        add("back to the first value", p, ((STATE[p], 0), (_move(p, "B") + ".", 1), (back[p], 2)), "A", "ABA")
    L, W, J = PREDICATES
    add(
        "a time repaired in the same breath",
        L,
        (("<I|{S}> moved to {B} in 2019, no wait, 2018.", 1),),
        "B",
        "B",
        ((_d(2018, 6), "B"),),
    )
    add(
        "a time repaired in the same breath",
        W,
        (("<I|{S}> joined {B} in 2019, no, 2018.", 1),),
        "B",
        "B",
        ((_d(2018, 6), "B"),),
    )
    add(
        "a change repaired in the same breath",
        L,
        ((STATE[L], 0), ("<I|{S}> moved to {C} last month, no wait, to {B}.", 1)),
        "B",
        "AB",
    )
    add(
        "a change repaired in the next sentence",
        W,
        ((STATE[W], 0), ("<I|{S}> joined {C} last month. Sorry, I meant {B}.", 1)),
        "B",
        "AB",
    )
    add(
        "until, then now",
        L,
        (("<I|{S}> lived in {A} until 2022, and now <I|{s}> <live|lives> in {B}.", 1),),
        "B",
        "AB",
    )
    add("until closes the state", W, ((STATE[W], 0), ("<I|{S}> worked at {A} until last month.", 1)), "", "A")
    add("until closes the state", L, ((STATE[L], 0), ("<I|{S}> lived in {A} until last month.", 1)), "", "A")
    add(
        "since, beside an earlier state",
        L,
        ((STATE[L], 0), ("<I've|{S} has> lived in {B} since March.", 1)),
        "B",
        "AB",
        ((_d(2024, 4), "B"), (_d(2024, 2), "A")),
    )
    add(
        "since, beside an earlier state",
        W,
        ((STATE[W], 0), ("<I've|{S} has> been at {B} since 2024.", 2)),
        "B",
        "AB",
    )
    add(
        "since, beside an earlier state",
        J,
        ((STATE[J], 0), ("<I've|{S} has> been {aB} {B} since March.", 1)),
        "B",
        "AB",
    )
    add(
        "a duration, beside an earlier state",
        L,
        ((STATE[L], 0), ("<I've|{S} has> been in {B} for a month now.", 1)),
        "B",
        "AB",
        ((_d(2024, 6, 1), "B"), (_d(2024, 4), "A")),
    )
    add(
        "a span, then the dated move",
        L,
        (("<I|{S}> lived in {A} for three years before moving to {B} last month.", 1),),
        "B",
        "AB",
    )
    add(
        "a span, then the dated move",
        W,
        (("<I|{S}> worked at {A} for five years before joining {B} last month.", 1),),
        "B",
        "AB",
    )
    add(
        "a span, then the change",
        J,
        (("<I|{S}> worked as {aA} {A} for a couple of years, and then <I|{s}> became {aB} {B}.", 1),),
        "B",
        "AB",
    )
    add(
        "past perfect span before the move",
        L,
        (("Before moving to {B}, <I|{S}> had lived in {A} for years.", 1),),
        "B",
        "AB",
    )
    add(
        "past perfect span before the move",
        W,
        (("<I|{S}> had worked at {A} before <I|{s}> joined {B}.", 1),),
        "B",
        "AB",
    )
    add(
        "past perfect span before the move",
        J,
        (("<I|{S}> had been {aA} {A} for years before <I|{s}> became {aB} {B}.", 1),),
        "B",
        "AB",
    )
    add(
        "past perfect span with a duration",
        L,
        ((STATE[L], 0), ("<I|{S}> had lived in {A} for five years before <I|{s}> moved to {B}.", 1)),
        "B",
        "AB",
    )
    add(
        "past perfect span with a duration",
        W,
        ((STATE[W], 0), ("<I|{S}> had worked at {A} for three years before <I|{s}> joined {B}.", 1)),
        "B",
        "AB",
    )
    add(
        "past perfect span closed by when",
        L,
        (("<I'd|{S} had> been in {A} for five years when <I|{s}> moved to {B}.", 1),),
        "B",
        "AB",
    )
    add(
        "past perfect span closed by when",
        W,
        (("<I'd|{S} had> been at {A} for years when <I|{s}> joined {B}.", 1),),
        "B",
        "AB",
    )
    add(
        "a span closed by until",
        L,
        (("<I|{S}> lived in {A} for years until <I|{s}> moved to {B}.", 1),),
        "B",
        "AB",
    )
    add("an end naming no value", W, ((STATE[W], 0), ("<I|{S}> quit last week.", 1)), "", "A")
    add("an end naming no value", W, ((STATE[W], 0), ("<I|{S}> quit <my|his> job.", 1)), "", "A")
    add("an end naming no value", W, ((STATE[W], 0), ("<I|{S}> got laid off last month.", 1)), "", "A")
    add(
        "an end naming no value",
        L,
        ((STATE[L], 0), ("<I|{S}> moved out last month, not sure where <I'll|{s}'ll> end up.", 1)),
        "",
        "A",
    )
    add(
        "an end naming no value, then a new one",
        W,
        ((STATE[W], 0), ("<I|{S}> quit last month.", 1), ("<I|{S}> started at {B} this week.", 2)),
        "B",
        "AB",
    )
    add(
        "an end, then a new one",
        L,
        ((STATE[L], 0), ("<I|{S}> left {A} last month.", 1), ("Now <I'm|{S} is> living in {B}.", 2)),
        "B",
        "AB",
    )
    add("an end of the named value", W, ((STATE[W], 0), ("<I|{S}> left {A} last month.", 1)), "", "A")
    add("a home left, named only", L, ((STATE[L], 0), ("<I|{S}> left {A} last month.", 1)), "", "A")
    add(
        "an offer taken in the next sentence",
        W,
        ((STATE[W], 0), ("<I|{S}> got an offer from {B}. <I|{S}> took it.", 1)),
        "B",
        "AB",
    )
    add(
        "an offer taken in the same sentence",
        W,
        ((STATE[W], 0), ("{B} made <me|{S}> an offer and <I|{s}> accepted.", 1)),
        "B",
        "AB",
    )
    add(
        "an offer turned down",
        W,
        ((STATE[W], 0), ("<I|{S}> got an offer from {B}. <I|{S}> turned it down.", 1)),
        "A",
        "A",
    )
    add(
        "a place named, then moved there",
        L,
        ((STATE[L], 0), ("<I|{S}> visited {B} last year and loved it. <I|{S}> moved there last month.", 1)),
        "B",
        "AB",
    )
    add(
        "a pronoun taking up the person",
        L,
        (("<I|{S}> lived in {A}. <I|He> moved to {B} last month.", 1),),
        "B",
        "AB",
    )
    add(
        "a pronoun taking up the person",
        W,
        (("<I|{S}> worked at {A}. <I|He> joined {B} last week.", 1),),
        "B",
        "AB",
    )
    add(
        "a pronoun after then",
        J,
        (("<I was|{S} was> {aA} {A} for years. Then <I|he> became {aB} {B}.", 1),),
        "B",
        "AB",
    )
    add(
        "the old value named only in the change",
        L,
        (("<I|{S}> moved from {A} to {B} last month.", 1), ("<I|{S}> moved to {C}.", 2)),
        "C",
        "ABC",
    )
    add(
        "the old value named only in the change",
        W,
        (("<I|{S}> left {A} for {B} last month.", 1), ("<I|{S}> joined {C}.", 2)),
        "C",
        "ABC",
    )
    return out


STRUCTURES = _structures()

# structures that fail and are not fixed here (design notes, eighth session), by class and person
KNOWN = {
    # a later correction with no subject of its own, about a named person's value: the extractor
    # reads it as the speaker's (only the store knows whose value the mistake was)
    ("a later correction of the changed value", False),
    # "Bristol" / "Buenos Aires" after "left" with nothing else to tell: the recogniser's reading
    ("a home left, named only", True),
    ("a home left, named only", False),
}
LATER_CORRECTION = "a later correction of the changed value"
for _p in PREDICATES:
    _fix = "Sorry, I meant {aC} {C}, not {aB} {B}." if _p == "job_title" else "Sorry, I meant {C}, not {B}."
    STRUCTURES.append(
        (LATER_CORRECTION, _p, ((STATE[_p], 0), (_move(_p, "B") + ".", 1), (_fix, 2)), "C", "AC", ())
    )

_ALT = re.compile(r"<([^<>|]*)\|([^<>]*)>")


def _render(template: str, values: dict[str, str], first: bool) -> str:
    text = _ALT.sub(lambda m: m.group(1) if first else m.group(2), template)
    slots = {**values, "S": "Sam", "s": "he"}
    slots.update({"a" + k: article(v) for k, v in values.items()})
    return text.format(**slots)


def _claims(episodes: list[tuple[str, datetime]], predicate: str, subject: str) -> list[Claim]:
    claims = []
    for n, (text, at) in enumerate(episodes):
        for k, f in enumerate(_extract(text, at, SPEAKER).facts):
            if f.subject != subject or f.predicate != predicate:
                continue
            claims.append(
                Claim(
                    ref=f"e{n}-{k}",
                    kind=f.claim,
                    value=f.literal,
                    value_key=value_key(f.literal),
                    at=f.valid_from or at,
                    source_kind=f.source_kind,
                    recorded_at=T[3],
                    until=f.valid_to,
                    replaces=value_key(f.replaces) if f.replaces else None,
                    guessed=f.guessed or None,
                    episode_id=f"ep{n}",
                    start=f.start,
                    end=f.end,
                )
            )
    return claims


def timeline(
    episodes: list[tuple[str, datetime]], predicate: str, subject: str
) -> tuple[list[str], list[str], list[Run]]:
    """(current values, history along SUPERSEDES, runs) of one slot, read as ``eval/temporal_score`` reads them."""
    runs = resolve_slot([], _claims(episodes, predicate, subject), functional=True).runs
    current: list[str] = []
    for tier in ("stated", "inferred"):
        current = [r.value for r in runs if r.tier == tier and r.valid_to is None]
        if current:
            break
    stated = [r for r in runs if r.tier == "stated"]
    superseded = {id(r.previous) for r in stated if r.previous is not None}
    heads = [r for r in stated if id(r) not in superseded]
    head = ([r for r in heads if r.valid_to is None] or heads or [None])[-1]
    history: list[str] = []
    while head is not None:
        history.append(head.value)
        head = head.previous
    return current, history[::-1], runs


def _held(runs: list[Run], when: datetime) -> list[str]:
    for tier in ("stated", "inferred"):
        held = [
            r.value
            for r in runs
            if r.tier == tier
            and (r.valid_from is None or r.valid_from <= when)
            and (r.valid_to is None or when < r.valid_to)
        ]
        if held:
            return held
    return []


def outcomes(structure: Structure, first: bool) -> list[tuple[object, ...]]:
    """What goes wrong for one structure over every pool and every ingestion order."""
    cls, predicate, episodes, cur, hist, checks = structure
    bad: list[tuple[object, ...]] = []
    for pool in POOLS[predicate]:
        values = dict(zip("ABC", pool, strict=True))
        said = [(_render(t, values, first), T[i]) for t, i in episodes]
        want = ([values[k] for k in cur], [values[k] for k in hist])
        for order in itertools.permutations(said):
            current, history, runs = timeline(list(order), predicate, SPEAKER if first else "Sam")
            wrong_at = [(w, _held(runs, w)) for w, k in checks if _held(runs, w) != [values[k]]]
            if (current, history) != want or wrong_at:
                bad.append((cls, " / ".join(t for t, _ in order), current, history, want, wrong_at))
            if not first and timeline(list(order), predicate, SPEAKER)[:2] != ([], []):
                bad.append((cls, "the speaker's slot took Sam's value", " / ".join(t for t, _ in order)))
    return bad


def test_the_bank_covers_every_structure_class_for_both_subjects() -> None:
    classes = {s[0] for s in STRUCTURES}
    assert len(STRUCTURES) >= 80 and len(classes) >= 40
    assert {cls for cls, _ in KNOWN} <= classes


@pytest.mark.parametrize("first", [True, False], ids=["speaker", "named person"])
@pytest.mark.parametrize("predicate", PREDICATES)
def test_the_sixth_bank_gives_each_structures_current_value_history_and_times(
    predicate: str, first: bool
) -> None:
    bad = [
        o for s in STRUCTURES if s[1] == predicate and (s[0], first) not in KNOWN for o in outcomes(s, first)
    ]
    assert bad == []


def test_the_known_structures_still_fail() -> None:
    """The classes left open stay listed only while they fail (a fix removes them from KNOWN)."""
    for cls, first in sorted(KNOWN):
        assert any(outcomes(s, first) for s in STRUCTURES if s[0] == cls), (cls, first)
