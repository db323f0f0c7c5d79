"""English natural-language cases: moves, job changes, titles, negations, preference flips, trips,
corrections, late arrivals, hedges and third persons. Phrasings rotate through lists of the ways
people actually say these things; a variant the extractor does not handle stays in the suite.
"""

from __future__ import annotations

from suite_kit import (
    EN_CITIES,
    EN_ORGS,
    EN_PEOPLE,
    EN_SCHOOLS,
    EN_TOPICS,
    EN_TRIPS,
    Case,
    Pools,
    after,
    between,
    later,
)


def article(noun: str) -> str:
    return "an" if noun[0] in "aeiou" else "a"


LIVE = (
    "I live in {A}.",
    "I've been living in {A} for a few years now.",
    "My apartment is in {A}.",
    "We're based in {A}.",
    "I'm living in {A} at the moment.",
    "These days I live in {A} with my partner.",
    "Home for me is {A}.",
    "I reside in {A}.",
)
MOVE = (
    "I just moved to {B}.",
    "We relocated to {B} last week.",
    "I moved to {B} last month.",
    "Big news: I've moved to {B}!",
    "Finally settled in {B} after the move.",
    "I'm living in {B} now.",
    "We packed up everything and moved to {B} two weeks ago.",
    "I've just moved into a flat in {B}.",
    "I'm now living in {B}.",
    "We finally moved to {B}, the new place is great.",
)
JOB = (
    "I work at {O}.",
    "I've been working at {O} for three years.",
    "I'm an engineer at {O}.",
    "I work for {O} as an analyst.",
    "I'm employed by {O}.",
    "My job is at {O}.",
    "I have worked at {O} since college.",
)
SWITCH = (
    "I joined {O} last month.",
    "I started a new job at {O}.",
    "I got a job at {O}!",
    "I left {P} and joined {O}.",
    "I accepted an offer from {O}.",
    "Today was my first day at {O}.",
    "I switched to {O} two weeks ago.",
    "I'm working at {O} now.",
    "I was hired by {O} last week.",
    "I quit {P} and now I work at {O}.",
)
TITLES = (
    ("junior designer", "senior designer"),
    ("software engineer", "engineering manager"),
    ("staff nurse", "head nurse"),
    ("data analyst", "senior data analyst"),
    ("accountant", "finance director"),
    ("barista", "store manager"),
    ("research assistant", "lead researcher"),
)
TITLE_START = (
    "I work as {a} {t}.",
    "I'm {a} {t} at {O}.",
    "My job title is {t}.",
    "I am working as {a} {t} at {O}.",
)
PROMOTED = (
    "I got promoted to {t}.",
    "I was promoted to {t} last month.",
    "I'm now {a} {t}.",
    "Good news, I got promoted to {t} two weeks ago!",
    "They made me {t}.",
)


def moves(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        a, b, c = p.pick(EN_CITIES, 3)
        case = Case(f"en-move-{i + 1:03d}", "move", "en", p.one(EN_PEOPLE)).shuffled(i % 3 == 2)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, LIVE[i % len(LIVE)].format(A=a)).say(t2, MOVE[i % len(MOVE)].format(B=b))
        values = [a, b]
        if i % 4 == 3:
            t3 = later(p, t2)
            case.say(t3, MOVE[(i + 3) % len(MOVE)].format(B=c))
            values.append(c)
            case.at(between(t2, t3), "lives_in", b)
        case.now("lives_in", values[-1]).at(between(t1, t2), "lives_in", a).history("lives_in", values)
        if i % 3 == 0:
            case.none("studies_at")
        cases.append(case)
    return cases


def jobs(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        o1, o2 = p.pick(EN_ORGS, 2)
        case = Case(f"en-job-{i + 1:03d}", "job_change", "en", p.one(EN_PEOPLE)).shuffled(i % 3 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, JOB[i % len(JOB)].format(O=o1)).say(t2, SWITCH[i % len(SWITCH)].format(O=o2, P=o1))
        case.now("works_at", o2).at(between(t1, t2), "works_at", o1).history("works_at", [o1, o2])
        if i % 3 == 2:
            case.none("has_pet")
        cases.append(case)
    return cases


def titles(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        t1_name, t2_name = TITLES[i % len(TITLES)]
        org = p.one(EN_ORGS)
        case = Case(f"en-title-{i + 1:03d}", "job_title", "en", p.one(EN_PEOPLE)).shuffled(i % 3 == 2)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, TITLE_START[i % len(TITLE_START)].format(t=t1_name, a=article(t1_name), O=org))
        case.say(t2, PROMOTED[i % len(PROMOTED)].format(t=t2_name, a=article(t2_name)))
        case.now("job_title", t2_name).at(between(t1, t2), "job_title", t1_name)
        case.history("job_title", [t1_name, t2_name])
        cases.append(case)
    return cases


NEGATIONS = (
    ("works_at", "O", "I work at {O}.", "I no longer work at {O}."),
    ("works_at", "O", "I'm working for {O}.", "I don't work for {O} anymore."),
    ("works_at", "O", "I joined {O}.", "I quit my job at {O} last week."),
    ("works_at", "O", "I work at {O}.", "I was laid off from {O} last month."),
    ("lives_in", "A", "I live in {A}.", "I don't live in {A} anymore."),
    ("lives_in", "A", "I live in {A}.", "I moved out of {A} last month."),
    ("studies_at", "S", "I study at {S}.", "I graduated from {S} last year."),
    ("studies_at", "S", "I'm studying economics at {S}.", "I dropped out of {S}."),
    ("job_title", "T", "I'm a teacher.", "I'm not a teacher anymore."),
    ("works_at", "O", "I work at {O}.", "I left {O} two weeks ago."),
    ("works_at", "O", "I work at {O}.", "I'm not working at {O} anymore."),
    ("lives_in", "A", "I'm living in {A}.", "I no longer live in {A}."),
)


def negations(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        predicate, slot, first, second = NEGATIONS[i % len(NEGATIONS)]
        names = {"O": p.one(EN_ORGS), "A": p.one(EN_CITIES), "S": p.one(EN_SCHOOLS), "T": "teacher"}
        value = names[slot]
        case = Case(f"en-neg-{i + 1:03d}", "negation", "en", p.one(EN_PEOPLE)).shuffled(i % 4 == 3)
        t1 = p.start()
        t2 = later(p, t1, 500, 700)
        case.say(t1, first.format(**names)).say(t2, second.format(**names))
        case.now(predicate, None).at(after(t1, 30), predicate, value).history(predicate, [value])
        cases.append(case)
    return cases


PREFS = (
    ("I love {X}.", "I don't like {X} anymore.", False),
    ("I really enjoy {X}.", "I stopped enjoying {X}.", False),
    ("I'm a big fan of {X}.", "I'm not into {X} anymore.", False),
    ("I like {X}.", "I can't stand {X} anymore.", True),
    ("I adore {X}.", "These days I hate {X}.", True),
    ("I'm really into {X}.", "I no longer like {X}.", False),
    ("I love {X}.", "Honestly, I've started to dislike {X}.", True),
)


def preferences(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        first, second, flips = PREFS[i % len(PREFS)]
        topic = p.one(EN_TOPICS)
        case = Case(f"en-pref-{i + 1:03d}", "preference", "en", p.one(EN_PEOPLE)).shuffled(i % 3 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, first.format(X=topic)).say(t2, second.format(X=topic))
        case.now("likes", None).at(between(t1, t2), "likes", topic)
        if flips:
            case.now("dislikes", topic).at(between(t1, t2), "dislikes", None)
        cases.append(case)
    return cases


TRIPS = (
    ("I'm on a business trip to {T} this week.", "I'm back from {T}."),
    ("I'm visiting {T} for a few days.", "I got back from {T} yesterday."),
    ("I'm in {T} for a conference.", "I flew back home from {T}."),
    ("I'm traveling in {T} this month.", None),
    ("I'm staying in {T} for two weeks.", "I returned from {T} last night."),
    ("Currently on vacation in {T}!", "Back home from {T} now."),
    ("I'm on vacation in {T} right now.", None),
)


def trips(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        away, back = TRIPS[i % len(TRIPS)]
        home, place = p.one(EN_CITIES), p.one(EN_TRIPS)
        case = Case(f"en-trip-{i + 1:03d}", "trip", "en", p.one(EN_PEOPLE)).shuffled(i % 3 == 2)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, f"I live in {home}.").say(t2, away.format(T=place))
        if back is not None:
            case.say(after(t2, 6).replace(hour=10), back.format(T=place))
        during = after(t2, 2)
        case.now("lives_in", home).at(during, "lives_in", home).at(during, "located_at", place)
        case.now("located_at", None if back is not None else place).history("lives_in", [home])
        cases.append(case)
    return cases


def corrections(p: Pools, n: int) -> list[Case]:
    designs = (
        _corr_meant,
        _corr_actually,
        _corr_oops_job,
        _corr_my_bad,
        _corr_plain,
        _corr_wait,
        _corr_title,
    )
    return [
        designs[i % len(designs)](p, Case(f"en-corr-{i + 1:03d}", "correction", "en", p.one(EN_PEOPLE)))
        for i in range(n)
    ]


def _corr_meant(p: Pools, case: Case) -> Case:
    a, b, c = p.pick(EN_CITIES, 3)
    t1 = p.start()
    t2, t3 = later(p, t1), None
    t3 = after(t2, 3).replace(hour=10)
    case.say(t1, f"I live in {a}.").say(t2, f"I moved to {b}.").say(t3, f"Sorry, I meant {c}, not {b}.")
    return case.now("lives_in", c).at(after(t2, 1), "lives_in", c).history("lives_in", [a, c])


def _corr_actually(p: Pools, case: Case) -> Case:
    b, c = p.pick(EN_CITIES, 2)
    t1 = p.start()
    t2 = later(p, t1, 20, 60)
    case.say(t1, f"I live in {b}.").say(t2, f"Actually, I live in {c}, not {b}.")
    return case.now("lives_in", c).at(between(t1, t2), "lives_in", c).history("lives_in", [c])


def _corr_oops_job(p: Pools, case: Case) -> Case:
    o1, o2 = p.pick(EN_ORGS, 2)
    t1 = p.start()
    t2 = later(p, t1, 20, 60)
    case.say(t1, f"I work at {o1}.").say(t2, f"Oops, I work at {o2}, not {o1}.")
    return case.now("works_at", o2).at(between(t1, t2), "works_at", o2).history("works_at", [o2])


def _corr_my_bad(p: Pools, case: Case) -> Case:
    o0, o1, o2 = p.pick(EN_ORGS, 3)
    t1 = p.start()
    t2 = later(p, t1)
    t3 = after(t2, 2).replace(hour=10)
    case.say(t1, f"I work at {o0}.").say(t2, f"I joined {o1}.").say(t3, f"My bad, I joined {o2}, not {o1}.")
    return (
        case.shuffled().now("works_at", o2).at(between(t1, t2), "works_at", o0).history("works_at", [o0, o2])
    )


def _corr_plain(p: Pools, case: Case) -> Case:
    b, c = p.pick(EN_CITIES, 2)
    t1 = p.start()
    t2 = later(p, t1, 5, 20)
    case.say(t1, f"I live in {b}.").say(t2, f"Correction: I live in {c}.")
    return case.now("lives_in", c).at(between(t1, t2), "lives_in", c).history("lives_in", [c])


def _corr_wait(p: Pools, case: Case) -> Case:
    o1, o2 = p.pick(EN_ORGS, 2)
    t1 = p.start()
    t2 = later(p, t1, 1, 10)
    case.say(t1, f"I work at {o1}.").say(t2, f"Wait, I mean I work at {o2}, not {o1}.")
    return case.now("works_at", o2).at(between(t1, t2), "works_at", o2)


def _corr_title(p: Pools, case: Case) -> Case:
    t1 = p.start()
    t2 = later(p, t1, 1, 10)
    case.say(t1, "I'm a teacher.").say(t2, "Sorry, I'm a nurse, not a teacher.")
    return case.now("job_title", "nurse").at(between(t1, t2), "job_title", "nurse")


def late_arrivals(p: Pools, n: int) -> list[Case]:
    """Episodes listed newest first: every older one arrives late and must be slotted into the past."""
    cases = []
    for i in range(n):
        case = Case(f"en-late-{i + 1:03d}", "out_of_order", "en", p.one(EN_PEOPLE))
        t1 = p.start(2019, 2020)
        t2 = later(p, t1)
        t3 = later(p, t2)
        if i % 2 == 0:
            a, b, c = p.pick(EN_CITIES, 3)
            case.say(t3, f"We moved to {c} last week.").say(t1, f"I live in {a}.")
            case.say(t2, f"I just moved to {b}.")
            predicate, values = "lives_in", [a, b, c]
        else:
            a, b, c = p.pick(EN_ORGS, 3)
            case.say(t2, f"I joined {b}.").say(t3, f"I started a new job at {c}.")
            case.say(t1, f"I work at {a}.")
            predicate, values = "works_at", [a, b, c]
        case.now(predicate, c).at(between(t1, t2), predicate, a).at(between(t2, t3), predicate, b)
        cases.append(case.history(predicate, values))
    return cases


HEDGES = (
    ("I think {P} works at {O1}.", "{P} works at {O2}.", "works_at", "O2", "O1"),
    ("{P} lives in {A1}.", "{P} probably lives in {A2} now.", "lives_in", "A1", None),
    ("I heard {P} moved to {A2}.", "{P} lives in {A1}.", "lives_in", "A1", None),
    ("{P} works at {O1}.", "Maybe {P} works at {O2} these days.", "works_at", "O1", None),
)
SELF_HEDGES = (
    ("I live in {A1}.", "Maybe I'll move to {A2} next year.", "lives_in", "A1"),
    ("I work at {O1}.", "I might be joining {O2} soon.", "works_at", "O1"),
    ("I live in {A1}.", "I'm thinking about moving to {A2}.", "lives_in", "A1"),
)


def hedges(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        names = dict(zip(("A1", "A2"), p.pick(EN_CITIES, 2), strict=True))
        names.update(zip(("O1", "O2"), p.pick(EN_ORGS, 2), strict=True))
        speaker, other = p.pick(EN_PEOPLE, 2)
        names["P"] = other
        case = Case(f"en-hedge-{i + 1:03d}", "hedged", "en", speaker).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        if i % 7 < 4:
            first, second, predicate, slot, _ = HEDGES[i % 7]
            who = other
        else:
            first, second, predicate, slot = SELF_HEDGES[i % 7 - 4]
            who = speaker
        case.say(t1, first.format(**names)).say(t2, second.format(**names))
        case.now(predicate, names[slot], subject=who).history(predicate, [names[slot]], subject=who)
        cases.append(case)
    return cases


def third_persons(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        speaker, other = p.pick(EN_PEOPLE, 2)
        case = Case(f"en-third-{i + 1:03d}", "third_person", "en", speaker).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        if i % 2 == 0:
            a, b = p.pick(EN_CITIES, 2)
            rel = ("sister", "brother", "friend")[i % 3]
            case.say(t1, f"My {rel} {other} lives in {a}.").say(t2, f"{other} moved to {b} last month.")
            predicate, values = "lives_in", [a, b]
        else:
            a, b = p.pick(EN_ORGS, 2)
            case.say(t1, f"My colleague {other} works at {a}.")
            case.say(t2, f"{other} left {a} and joined {b}.")
            predicate, values = "works_at", [a, b]
        case.now(predicate, values[1], subject=other).at(between(t1, t2), predicate, values[0], subject=other)
        case.history(predicate, values, subject=other).none(predicate)
        cases.append(case)
    return cases


def relationships(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        case = Case(f"en-rel-{i + 1:03d}", "relationship", "en", p.one(EN_PEOPLE)).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        if i % 2 == 0:
            t3 = later(p, t2)
            case.say(t1, "I'm single.").say(t2, "I got engaged last month!").say(t3, "We got married!")
            values = ["single", "engaged", "married"]
            case.at(between(t2, t3), "relationship_status", "engaged")
        else:
            case.say(t1, "I'm in a relationship.").say(t2, "We broke up two weeks ago.")
            values = ["in a relationship", "single"]
        case.now("relationship_status", values[-1]).history("relationship_status", values)
        cases.append(case.at(between(t1, t2), "relationship_status", values[0]))
    return cases


def no_answers(p: Pools, n: int) -> list[Case]:
    """Hypotheticals, questions and other people's facts: nothing true about the speaker follows."""
    lines = (
        "If I got a job at {O}, I'd move to {A}.",
        "Do you think I should move to {A}?",
        "My brother works at {O} and lives in {A}.",
        "I'd love to live in {A} someday.",
        "I wish I worked at {O}.",
        "Should I apply to {O} or stay put?",
    )
    cases = []
    for i in range(n):
        names = {"O": p.one(EN_ORGS), "A": p.one(EN_CITIES)}
        case = Case(f"en-none-{i + 1:03d}", "no_answer", "en", p.one(EN_PEOPLE))
        case.say(p.start(), lines[i % len(lines)].format(**names))
        cases.append(case.none("works_at").none("lives_in").none("studies_at"))
    return cases
