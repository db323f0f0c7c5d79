"""Chinese natural-language cases: 搬家, 换工作, 升职, 否定 (我不在X工作了), 偏好变化, 出差/旅行,
更正, 转述与猜测, and questions with no answer. Relative times and explicit facts live in
``suite_time`` and ``suite_explicit``.
"""

from __future__ import annotations

from suite_kit import (
    ZH_CITIES,
    ZH_ORGS,
    ZH_PEOPLE,
    ZH_SCHOOLS,
    ZH_TOPICS,
    ZH_TRIPS,
    Case,
    Pools,
    after,
    between,
    later,
)

LIVE = ("我住在{A}。", "我现在住在{A}。", "我家在{A}。", "我一直住在{A}。", "我们住在{A}。", "我在{A}生活。")
MOVE = (
    "我搬到了{B}。",
    "我们搬到{B}去了。",
    "我上个月搬去了{B}。",
    "我已经搬到{B}了。",
    "我们全家移居到了{B}。",
    "我在{B}定居了。",
    "我最近搬家到{B}了。",
)
JOB = ("我在{O}工作。", "我在{O}上班。", "我是{O}的工程师。", "我在{O}当产品经理。", "我一直在{O}工作。")
SWITCH = (
    "我加入了{P}。",
    "我入职了{P}。",
    "我现在在{P}上班了。",
    "我离开了{O}，加入了{P}。",
    "我跳槽到{P}了。",
    "我下周一开始去{P}上班，已经从{O}离职了。",
)


def moves(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        a, b = p.pick(ZH_CITIES, 2)
        case = Case(f"zh-move-{i + 1:03d}", "move", "zh", p.one(ZH_PEOPLE)).shuffled(i % 3 == 2)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, LIVE[i % len(LIVE)].format(A=a)).say(t2, MOVE[i % len(MOVE)].format(B=b))
        case.now("lives_in", b).at(between(t1, t2), "lives_in", a).history("lives_in", [a, b])
        if i % 2 == 0:
            case.none("studies_at")
        cases.append(case)
    return cases


def jobs(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        o, q = p.pick(ZH_ORGS, 2)
        case = Case(f"zh-job-{i + 1:03d}", "job_change", "zh", p.one(ZH_PEOPLE)).shuffled(i % 3 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, JOB[i % len(JOB)].format(O=o)).say(t2, SWITCH[i % len(SWITCH)].format(O=o, P=q))
        case.now("works_at", q).at(between(t1, t2), "works_at", o).history("works_at", [o, q])
        cases.append(case)
    return cases


NEGATIONS = (
    ("works_at", "O", "我在{O}工作。", "我不在{O}工作了。"),
    ("works_at", "O", "我在{O}上班。", "我离开了{O}。"),
    ("lives_in", "A", "我住在{A}。", "我已经不住在{A}了。"),
    ("works_at", "O", "我加入了{O}。", "我从{O}辞职了。"),
    ("studies_at", "S", "我在{S}读书。", "我从{S}毕业了。"),
    ("works_at", "O", "我在{O}工作。", "我已经不在{O}上班了。"),
    ("lives_in", "A", "我住在{A}。", "我搬离了{A}。"),
)


def negations(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        predicate, slot, first, second = NEGATIONS[i % len(NEGATIONS)]
        names = {"O": p.one(ZH_ORGS), "A": p.one(ZH_CITIES), "S": p.one(ZH_SCHOOLS)}
        case = Case(f"zh-neg-{i + 1:03d}", "negation", "zh", p.one(ZH_PEOPLE)).shuffled(i % 3 == 2)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, first.format(**names)).say(t2, second.format(**names))
        value = names[slot]
        case.now(predicate, None).at(between(t1, t2), predicate, value).history(predicate, [value])
        cases.append(case)
    return cases


TRIPS = (
    ("我在{T}出差。", "我从{T}回来了。"),
    ("我去{T}旅游了。", None),
    ("我正在{T}旅行。", "我昨天从{T}回来了。"),
    ("我这周在{T}度假。", "我从{T}回来了。"),
    ("我来{T}开会了，住几天。", None),
)


def trips(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        away, back = TRIPS[i % len(TRIPS)]
        home, place = p.one(ZH_CITIES), p.one(ZH_TRIPS)
        case = Case(f"zh-trip-{i + 1:03d}", "trip", "zh", p.one(ZH_PEOPLE)).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, f"我住在{home}。").say(t2, away.format(T=place))
        if back is not None:
            case.say(after(t2, 6).replace(hour=10), back.format(T=place))
        during = after(t2, 2)
        case.now("lives_in", home).at(during, "lives_in", home).at(during, "located_at", place)
        case.now("located_at", None if back is not None else place)
        cases.append(case)
    return cases


def corrections(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        b, c = p.pick(ZH_CITIES, 2)
        o, q = p.pick(ZH_ORGS, 2)
        case = Case(f"zh-corr-{i + 1:03d}", "correction", "zh", p.one(ZH_PEOPLE)).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1, 3, 30)
        if i % 3 == 0:
            case.say(t1, f"我住在{b}。").say(t2, f"其实我住在{c}，不是{b}。")
            predicate, value = "lives_in", c
        elif i % 3 == 1:
            case.say(t1, f"我在{o}工作。").say(t2, f"我说错了，我在{q}工作，不是{o}。")
            predicate, value = "works_at", q
        else:
            case.say(t1, f"我住在{b}。").say(t2, f"不好意思，我说错了，我住在{c}。")
            predicate, value = "lives_in", c
        case.now(predicate, value).at(between(t1, t2), predicate, value).history(predicate, [value])
        cases.append(case)
    return cases


PREFS = (
    ("我喜欢{X}。", "我不再喜欢{X}了。", False),
    ("我很喜欢{X}。", "我现在不喜欢{X}了。", False),
    ("我特别爱{X}。", "我现在讨厌{X}。", True),
    ("我超级喜欢{X}。", "我已经不喜欢{X}了。", False),
)


def preferences(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        first, second, flips = PREFS[i % len(PREFS)]
        topic = p.one(ZH_TOPICS)
        case = Case(f"zh-pref-{i + 1:03d}", "preference", "zh", p.one(ZH_PEOPLE))
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, first.format(X=topic)).say(t2, second.format(X=topic))
        case.now("likes", None).at(between(t1, t2), "likes", topic)
        if flips:
            case.now("dislikes", topic)
        cases.append(case)
    return cases


TITLES = (
    ("我是一名{t}。", "我被提拔为{u}了。", "软件工程师", "高级工程师"),
    ("我在{O}当{t}。", "我升职成了{u}。", "设计师", "设计总监"),
    ("我的工作是{t}。", "我晋升为{u}了。", "销售", "销售经理"),
    ("我是一名{t}。", "我被提拔为{u}了。", "护士", "护士长"),
)


def titles(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        first, second, t, u = TITLES[i % len(TITLES)]
        case = Case(f"zh-title-{i + 1:03d}", "job_title", "zh", p.one(ZH_PEOPLE)).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        case.say(t1, first.format(t=t, O=p.one(ZH_ORGS))).say(t2, second.format(u=u))
        case.now("job_title", u).at(between(t1, t2), "job_title", t).history("job_title", [t, u])
        cases.append(case)
    return cases


def hedges(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        speaker, other = p.pick(ZH_PEOPLE, 2)
        o, q = p.pick(ZH_ORGS, 2)
        a, b = p.pick(ZH_CITIES, 2)
        case = Case(f"zh-hedge-{i + 1:03d}", "hedged", "zh", speaker).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        if i % 3 == 0:
            case.say(t1, f"我觉得{other}可能在{o}工作。").say(t2, f"{other}在{q}工作。")
            predicate, value = "works_at", q
        elif i % 3 == 1:
            case.say(t1, f"{other}住在{a}。").say(t2, f"听说{other}搬到了{b}。")
            predicate, value = "lives_in", a
        else:
            case.say(t1, f"{other}在{o}上班。").say(t2, f"{other}好像去{q}了。")
            predicate, value = "works_at", o
        case.now(predicate, value, subject=other).history(predicate, [value], subject=other)
        cases.append(case.none(predicate))
    return cases


def third_persons(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        speaker, other = p.pick(ZH_PEOPLE, 2)
        a, b = p.pick(ZH_CITIES, 2)
        case = Case(f"zh-third-{i + 1:03d}", "third_person", "zh", speaker)
        t1 = p.start()
        t2 = later(p, t1)
        rel = ("朋友", "同事", "室友")[i % 3]
        case.say(t1, f"我的{rel}{other}住在{a}。").say(t2, f"{other}搬到了{b}。")
        case.now("lives_in", b, subject=other).at(between(t1, t2), "lives_in", a, subject=other)
        cases.append(case.history("lives_in", [a, b], subject=other).none("lives_in"))
    return cases


def no_answers(p: Pools, n: int) -> list[Case]:
    lines = (
        "如果我搬到{A}，我会很开心。",
        "你住在哪里？",
        "我哥哥在{O}工作。",
        "要是能去{O}上班就好了。",
    )
    cases = []
    for i in range(n):
        names = {"O": p.one(ZH_ORGS), "A": p.one(ZH_CITIES)}
        case = Case(f"zh-none-{i + 1:03d}", "no_answer", "zh", p.one(ZH_PEOPLE))
        case.say(p.start(), lines[i % len(lines)].format(**names))
        cases.append(case.none("works_at").none("lives_in").none("studies_at"))
    return cases


def relationships(p: Pools, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        case = Case(f"zh-rel-{i + 1:03d}", "relationship", "zh", p.one(ZH_PEOPLE)).shuffled(i % 2 == 1)
        t1 = p.start()
        t2 = later(p, t1)
        t3 = later(p, t2)
        case.say(t1, "我单身。").say(t2, "我订婚了。").say(t3, "我结婚了。")
        case.now("relationship_status", "married").at(between(t2, t3), "relationship_status", "engaged")
        cases.append(case.history("relationship_status", ["single", "engaged", "married"]))
    return cases
