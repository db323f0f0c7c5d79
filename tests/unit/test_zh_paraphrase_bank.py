"""Chinese temporal statements composed from dimensions: a paraphrase bank per failure class.

Each class below crosses its own phrasing templates (written for these tests, none taken from an
eval suite) with subjects (我, 我们家, a named person, a relative with a name, a relative without
one), values (names jieba knows and unseen 2-4 character names ending 市/区/县/镇/科技/集团/银行/
大学) and, where the class has them, time words, aspect markers and surrounding chatter. A
sentence is checked through the timeline it implies for (subject, predicate): the current value
and the values held in order, the way the temporal suite scores an episode, so a class passes
whatever claim shape (an old value ``before`` its successor, or an ``end``) carries it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from tests.unit.zh_support import facts

SPEAKER = "小明"


@dataclass(frozen=True)
class Subject:
    text: str  # how the sentence says it
    who: str | None  # whom the facts are about (None: someone unnamed, no fact at all)
    household: bool = False  # 我们家: lives_in only


SUBJECTS = (
    Subject("我", SPEAKER),
    Subject("罗兰", "罗兰"),
    Subject("我老婆王丽", "王丽"),
    Subject("我们家", SPEAKER, household=True),
)
OTHERS = (Subject("我妹妹", None), Subject("我老婆", None), Subject("他", None), Subject("我同事", None))
PLACES = (("南京", "苏州"), ("蔚湾市", "青溪镇"), ("岚山区", "洛川县"), ("合肥", "临沂"))
ORGS = (("腾讯", "华为"), ("鹿鸣科技", "星汉集团"), ("瑞丰银行", "北辰大学"), ("小米", "青禾集团"))

Timeline = dict[tuple[str, str], tuple[str | None, list[str]]]
FUNCTIONAL = ("lives_in", "works_at", "job_title")


def timeline(text: str) -> Timeline:
    """(subject, predicate) → (current value, values held in order) as the sentence tells them."""
    out: dict[tuple[str, str], tuple[str | None, list[str]]] = {}
    for fact in sorted(facts(text), key=lambda f: (f.valid_from is None, f.valid_from)):
        if fact.predicate not in FUNCTIONAL or fact.source_kind == "inferred":
            continue
        key = (fact.subject, fact.predicate)
        current, history = out.get(key, (None, []))
        value = fact.literal
        if fact.claim == "end":
            if value not in history:
                history = [value, *history]
            current = None if current in (value, None) else current
        elif fact.claim == "correct":
            history = [v for v in history if v != fact.replaces]
            if value not in history:
                history.append(value)
            current = value
        else:
            if not history or history[-1] != value:
                history = [*[v for v in history if v != value], value]
            current = value
        out[key] = (current, history)
    return out


def plans_of(text: str) -> list[str]:
    return [f.subject for f in facts(text) if f.predicate == "plans" and f.source_kind == "inferred"]


def expect(subject: Subject, predicate: str, current: str | None, history: list[str]) -> Timeline:
    if subject.who is None or (subject.household and predicate != "lives_in"):
        return {}
    return {(subject.who, predicate): (current, history)}


Case = tuple[str, Timeline]


def _cases(templates: list[tuple[str, str, str]], subjects: tuple[Subject, ...], pairs) -> list[Case]:
    """templates: (sentence with {s} {a} {b}, predicate, shape): shape 'a' (a current), 'ab' (a then
    b, b current), 'end' (a held, now nothing), 'b' (only b, a the mistake). Each template is said
    by every subject, with the value pairs in rotation (known names and unseen ones alike)."""
    out: list[Case] = []
    for (n, (template, predicate, shape)), (m, subject) in itertools.product(
        enumerate(templates), enumerate(subjects)
    ):
        a, b = pairs[(n + m) % len(pairs)]  # each template meets every subject, values rotate
        text = template.format(s=subject.text, a=a, b=b)
        want = {
            "a": (a, [a]),
            "ab": (b, [a, b]),
            "end": (None, [a]),
            "b": (b, [b]),
        }[shape]
        out.append((text, expect(subject, predicate, *want)))
    return out


def _ids(cases: list[Case]) -> list[str]:
    return [text for text, _ in cases]


# --------------------------------------------------------------------------- durations and adverbs

DURATION_LIVE = [
    ("{s}在{a}已经住了三年。", "lives_in", "a"),
    ("{s}在{a}都住了五年了。", "lives_in", "a"),
    ("{s}在{a}都五年了。", "lives_in", "a"),
    ("{s}在{a}已经三年多了。", "lives_in", "a"),
    ("{s}在{a}待了好久。", "lives_in", "a"),
    ("{s}在{a}一直住到现在。", "lives_in", "a"),
    ("{s}在{a}生活了快十年了。", "lives_in", "a"),
    ("{s}住在{a}已经两年了。", "lives_in", "a"),
    ("{s}在{a}还住着呢。", "lives_in", "a"),
    ("{s}在{a}一住就是八年。", "lives_in", "a"),
    ("{s}从2019年起就在{a}生活。", "lives_in", "a"),
    ("{s}在{a}定居好几年了。", "lives_in", "a"),
    ("{s}在{a}已有五年。", "lives_in", "a"),
    ("{s}来{a}快三年了。", "lives_in", "a"),
    ("{s}来{a}将近两年了。", "lives_in", "a"),
    ("{s}搬到{a}已经一年了。", "lives_in", "a"),
]
DURATION_WORK = [
    ("{s}在{a}干了两年多。", "works_at", "a"),
    ("{s}在{a}已经工作三年了。", "works_at", "a"),
    ("{s}在{a}都干了五年了。", "works_at", "a"),
    ("{s}在{a}上了三年班。", "works_at", "a"),
    ("{s}在{a}一直上班。", "works_at", "a"),
    ("{s}在{a}任职已经两年。", "works_at", "a"),
    ("{s}从2020年开始在{a}上班。", "works_at", "a"),
    ("{s}在{a}工作快一年了。", "works_at", "a"),
    ("{s}任职于{a}。", "works_at", "a"),
    ("{s}就职于{a}，已经三年了。", "works_at", "a"),
    ("{s}目前供职于{a}。", "works_at", "a"),
    ("{s}现在还在{a}上班。", "works_at", "a"),
    ("{s}在{a}都五年了。", "works_at", "a"),
    ("{s}入职{a}已经两年了。", "works_at", "a"),
    ("{s}在{a}工作至今已有三年。", "works_at", "a"),
]
DURATION_CASES = _cases(DURATION_LIVE, SUBJECTS, PLACES) + _cases(DURATION_WORK, SUBJECTS[:3], ORGS)


@pytest.mark.parametrize(("text", "want"), DURATION_CASES, ids=_ids(DURATION_CASES))
def test_a_duration_or_adverb_after_the_name_ends_the_name(text: str, want: Timeline) -> None:
    """Regression: a duration or an adverb after the place (在南京已经住了三年, 在杭州都五年了)
    stuck to it (南京已经) or the clause gave nothing; 任职于X lost X to jieba's 于X."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- moves with both places

MOVES = [
    ("{s}从{a}搬到了{b}。", "lives_in", "ab"),
    ("{s}去年从{a}搬去了{b}。", "lives_in", "ab"),
    ("{s}从{a}迁居到{b}。", "lives_in", "ab"),
    ("{s}从{a}来到了{b}。", "lives_in", "ab"),
    ("{s}三年前从{a}搬家到{b}。", "lives_in", "ab"),
    ("{s}离开{a}去了{b}。", "lives_in", "ab"),
    ("{s}离开了{a}，搬到了{b}。", "lives_in", "ab"),
    ("{s}离开{a}来到{b}定居。", "lives_in", "ab"),
    ("{s}离开了{a}，来到了{b}。", "lives_in", "ab"),
    ("{s}以前住在{a}，现在住在{b}。", "lives_in", "ab"),
    ("{s}原来在{a}生活，后来搬到了{b}。", "lives_in", "ab"),
    ("{s}从{a}搬走了，现在住在{b}。", "lives_in", "ab"),
    ("{s}不在{a}住了，搬去了{b}。", "lives_in", "ab"),
    ("{s}原本在{a}住，上个月搬去了{b}。", "lives_in", "ab"),
    ("{s}本来住在{a}，后来搬到了{b}。", "lives_in", "ab"),
]
MOVE_CASES = _cases(MOVES, SUBJECTS, PLACES)


@pytest.mark.parametrize(("text", "want"), MOVE_CASES, ids=_ids(MOVE_CASES))
def test_a_move_naming_the_old_and_the_new_place(text: str, want: Timeline) -> None:
    """Regression: 离开X去了Y (no comma) lost Y, 离开X来到Y read "X来到Y" as one place, and
    从X来到了Y gave nothing."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- employment changes

JOBS = [
    ("{s}入职了{a}。", "works_at", "a"),
    ("{s}上个月加入了{a}。", "works_at", "a"),
    ("{s}跳槽到了{a}。", "works_at", "a"),
    ("{s}被{a}录用了。", "works_at", "a"),
    ("{s}去{a}上班了。", "works_at", "a"),
    ("{s}正式入职{a}了。", "works_at", "a"),
    ("{s}从{a}跳槽到了{b}。", "works_at", "ab"),
    ("{s}离开了{a}，加入了{b}。", "works_at", "ab"),
    ("{s}从{a}离职后加入了{b}。", "works_at", "ab"),
    ("{s}从{a}辞职，去了{b}。", "works_at", "ab"),
    ("{s}辞掉了{a}的工作，去了{b}。", "works_at", "ab"),
    ("{s}离开{a}去了{b}上班。", "works_at", "ab"),
    ("{s}以前在{a}上班，现在在{b}上班。", "works_at", "ab"),
    ("{s}从{a}离职了。", "works_at", "end"),
    ("{s}被{a}裁员了。", "works_at", "end"),
    ("{s}从{a}退休了。", "works_at", "end"),
    ("{s}已经不在{a}上班了。", "works_at", "end"),
    ("{s}早就不在{a}干了。", "works_at", "end"),
]
JOB_CASES = _cases(JOBS, SUBJECTS[:3], ORGS)


@pytest.mark.parametrize(("text", "want"), JOB_CASES, ids=_ids(JOB_CASES))
def test_employment_changes_said_with_many_verbs(text: str, want: Timeline) -> None:
    """Regression: a job change said with another verb (被X录用, 离开X去了Y上班) lost a value."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- negation

NEGATIONS = [
    ("{s}不住在{a}了。", "lives_in", "end"),
    ("{s}已经不住{a}了。", "lives_in", "end"),
    ("{s}早就不在{a}了。", "lives_in", "end"),
    ("{s}已经不在{a}住了。", "lives_in", "end"),
    ("{s}不再住在{a}了。", "lives_in", "end"),
    ("{s}搬离了{a}。", "lives_in", "end"),
    ("{s}早就离开{a}了。", "lives_in", "end"),
    ("{s}现在不在{a}生活了。", "lives_in", "end"),
    ("{s}没有在{a}住了。", "lives_in", "end"),
    ("{s}已经从{a}搬走了。", "lives_in", "end"),
    ("{s}没有再住在{a}。", "lives_in", "end"),
    ("{s}已经没在{a}住了。", "lives_in", "end"),
    ("{s}搬出了{a}。", "lives_in", "end"),
]
NEG_CASES = _cases(NEGATIONS, SUBJECTS, PLACES)


@pytest.mark.parametrize(("text", "want"), NEG_CASES, ids=_ids(NEG_CASES))
def test_a_negated_state_ends_it(text: str, want: Timeline) -> None:
    """A negation over the clause (不再, 已经不在, 早就不在X了) ends the value, it never asserts it."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- corrections

CORRECTIONS = [
    ("{s}住在{a}，不对，是{b}。", "lives_in", "b"),
    ("{s}住在{a}，哦不对，是在{b}。", "lives_in", "b"),
    ("{s}住在{a}，说错了，应该是{b}。", "lives_in", "b"),
    ("{s}住在{a}，更正一下，住在{b}。", "lives_in", "b"),
    ("{s}在{a}住，不是，是在{b}住。", "lives_in", "b"),
    ("{s}住的不是{a}，是{b}。", "lives_in", "b"),
    ("{s}不是住在{a}，而是住在{b}。", "lives_in", "b"),
    ("{s}住在{b}，不是{a}。", "lives_in", "b"),
    ("{s}住在{a}……不对，是{b}才对。", "lives_in", "b"),
    ("{s}住在{a}，我是说{b}。", "lives_in", "b"),
    ("{s}在{a}生活，抱歉说错了，是{b}。", "lives_in", "b"),
    ("{s}住在{b}而不是{a}。", "lives_in", "b"),
    ("{s}住在{b}而非{a}。", "lives_in", "b"),
    ("{s}住在{a}，哦，不是，{b}。", "lives_in", "b"),
    ("{s}住在{a}，错了，是{b}。", "lives_in", "b"),
    ("{s}住在{a} 不对 是{b}。", "lives_in", "b"),
    ("{s}住在{a}不对是{b}。", "lives_in", "b"),
    ("{s}住在{a}，不不不，是{b}。", "lives_in", "b"),
]
CORRECTIONS_WORK = [
    ("{s}在{a}工作，不对，是在{b}。", "works_at", "b"),
    ("{s}在{a}上班，说错了，是{b}。", "works_at", "b"),
    ("{s}不是在{a}工作，是在{b}。", "works_at", "b"),
    ("{s}在{b}工作，不是{a}。", "works_at", "b"),
    ("{s}在{a}工作，更正一下，是{b}。", "works_at", "b"),
    ("{s}在{a}上班，我是说{b}。", "works_at", "b"),
    ("{s}入职了{a}，哦不对，是{b}。", "works_at", "b"),
    ("{s}在{a}工作，不是，是在{b}工作。", "works_at", "b"),
    ("{s}工作的地方不是{a}，是{b}。", "works_at", "b"),
    ("{s}跳槽到了{a}，不对，是{b}。", "works_at", "b"),
    ("{s}在{a}上班我是说{b}。", "works_at", "b"),
    ("{s}在{a}上班说错了是{b}。", "works_at", "b"),
]
CORRECTION_CASES = _cases(CORRECTIONS, SUBJECTS[:3], PLACES) + _cases(CORRECTIONS_WORK, SUBJECTS[:3], ORGS)


@pytest.mark.parametrize(("text", "want"), CORRECTION_CASES, ids=_ids(CORRECTION_CASES))
def test_a_correction_in_the_same_message_keeps_only_the_right_value(text: str, want: Timeline) -> None:
    """A correction marker (不对, 说错了, 更正一下, 我是说, 不是X是Y) splits the sentence: the value
    before it is the mistake, never held; the value after it is the only one."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- plans and hedges

PLANS = [
    ("{s}打算搬到{a}。", PLACES),
    ("{s}准备明年搬去{a}。", PLACES),
    ("{s}想搬到{a}去。", PLACES),
    ("{s}计划下个月搬去{a}。", PLACES),
    ("{s}可能会搬到{a}。", PLACES),
    ("{s}考虑搬到{a}。", PLACES),
    ("{s}打算从{b}搬到{a}。", PLACES),
    ("{s}希望能去{a}生活。", PLACES),
    ("{s}明年要搬去{a}。", PLACES),
    ("{s}下个月准备去{a}定居。", PLACES),
    ("{s}打算跳槽到{a}。", ORGS),
    ("{s}想去{a}上班。", ORGS),
    ("{s}准备入职{a}。", ORGS),
    ("{s}有可能跳槽去{a}。", ORGS),
]
PLAN_CASES = [
    (t.format(s=s.text, a=a, b=b), s)
    for (t, values), s in itertools.product(PLANS, SUBJECTS[:3])
    for a, b in values[:2]
]


@pytest.mark.parametrize(("text", "subject"), PLAN_CASES, ids=[t for t, _ in PLAN_CASES])
def test_a_plan_or_hedge_is_inferred_never_current(text: str, subject: Subject) -> None:
    """A plan (打算/准备/想/计划/考虑/要) or a hedge (可能) is a ``plans`` claim, inferred; the state
    it names is no current value."""
    assert timeline(text) == {}
    assert subject.who in plans_of(text)


# --------------------------------------------------------------------------- other people, chatter

CHATTER = [
    ("{o}住在{a}。", {}),
    ("{o}在{a}工作。", {}),
    ("{o}搬到了{a}。", {}),
    ("你住在{a}吗？", {}),
    ("{a}怎么样？", {}),
    ("我住在{b}，{o}住在{a}。", {(SPEAKER, "lives_in"): ("{b}", ["{b}"])}),
    ("{o}在{a}上班，我在{b}上班。", {(SPEAKER, "works_at"): ("{b}", ["{b}"])}),
    ("你还住在{a}吗？我搬到{b}了。", {(SPEAKER, "lives_in"): ("{b}", ["{b}"])}),
    ("天气真好，我在{b}住得挺开心的。", {(SPEAKER, "lives_in"): ("{b}", ["{b}"])}),
    ("如果我搬到{a}就好了。", {}),
    ("我住在{b}，离公司很近，{o}也想来。", {(SPEAKER, "lives_in"): ("{b}", ["{b}"])}),
    ("{o}说我应该搬到{a}。", {}),
]


def _fill(want: Timeline, a: str, b: str) -> Timeline:
    return {
        k: (c.format(a=a, b=b) if c else c, [h.format(a=a, b=b) for h in hs]) for k, (c, hs) in want.items()
    }


CHATTER_CASES = [
    (t.format(o=o.text, a=a, b=b), _fill(w, a, b))
    for (n, (t, w)), (m, o) in itertools.product(enumerate(CHATTER), enumerate(OTHERS))
    for a, b in [PLACES[(n + m) % len(PLACES)]]
]


@pytest.mark.parametrize(("text", "want"), CHATTER_CASES, ids=_ids(CHATTER_CASES))
def test_other_peoples_facts_questions_and_chatter_are_not_the_speakers(text: str, want: Timeline) -> None:
    """Another person's fact (我妹妹住在X), a question or a hypothetical is no fact of the speaker;
    the speaker's own clause beside them still is."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- other verbs and noun forms

FORMS = [
    ("{s}在{a}安了家。", "lives_in", "a", PLACES),
    ("{s}现在落脚在{a}。", "lives_in", "a", PLACES),
    ("{s}居住于{a}。", "lives_in", "a", PLACES),
    ("{s}在{a}安顿下来了。", "lives_in", "a", PLACES),
    ("{s}已经来{a}两年了。", "lives_in", "a", PLACES),
    ("{s}换了个城市生活，现在在{a}。", "lives_in", "a", PLACES),
    ("{s}的家在{a}。", "lives_in", "a", PLACES),
    ("{s}给{a}打工。", "works_at", "a", ORGS),
    ("{s}为{a}效力。", "works_at", "a", ORGS),
    ("{s}是{a}的员工。", "works_at", "a", ORGS),
    ("{s}在{a}找了份工作。", "works_at", "a", ORGS),
    ("{s}到{a}报到了。", "works_at", "a", ORGS),
    ("{s}半年前在{a}入职。", "works_at", "a", ORGS),
    ("{s}进了{a}。", "works_at", "a", ORGS),
    ("{s}被{a}聘用了。", "works_at", "a", ORGS),
    ("{s}换工作了，去了{a}。", "works_at", "a", ORGS),
    ("{s}换了工作，现在在{a}上班。", "works_at", "a", ORGS),
]
TITLES = ("产品总监", "高级会计", "首席设计师")
TITLE_FORMS = [
    ("{s}担任{a}。", "a"),
    ("{s}升任{a}。", "a"),
    ("{s}被任命为{a}。", "a"),
    ("{s}成为了一名{a}。", "a"),
    ("{s}晋升为{a}了。", "a"),
    ("{s}的头衔变成了{a}。", "a"),
    ("{s}现在做{a}。", "a"),
    ("{s}的职位是{a}。", "a"),
    ("{s}不再担任{a}了。", "end"),
    ("{s}卸任了{a}。", "end"),
    ("{s}不做{a}了。", "end"),
]
FORM_CASES = [
    case
    for template, predicate, shape, pairs in FORMS
    for case in _cases([(template, predicate, shape)], SUBJECTS[:3], pairs)
] + _cases(
    [(t, "job_title", shape) for t, shape in TITLE_FORMS],
    (SUBJECTS[0], SUBJECTS[1]),
    [(t, t) for t in TITLES],
)


@pytest.mark.parametrize(("text", "want"), FORM_CASES, ids=_ids(FORM_CASES))
def test_homes_employers_and_titles_said_with_other_verbs_and_nouns(text: str, want: Timeline) -> None:
    """Regression: 到X报到 (jieba: X报/到), 在X入职, 在X找了份工作, 已经来X(两年)了, 换了个城市生活，
    现在在X and 的头衔变成了Y gave nothing."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- later corrections

# a bare right value with no predicate said takes its kind from its own name (集团, 银行)
NAMED_KIND = (("鹿鸣科技", "星汉集团"), ("小米", "青禾集团"), ("华为", "瑞丰银行"))
EMPLOYERS = tuple(pair for pair in ORGS if not pair[1].endswith("大学"))  # a bare 大学 is a school
LATER = [
    ("其实{s}是在{b}工作，不是{a}。", "works_at", EMPLOYERS),
    ("{s}之前说的{a}不对，应该是{b}。", "works_at", NAMED_KIND),
    ("{s}上次说在{a}工作，其实是{b}。", "works_at", EMPLOYERS),
    ("之前说错了，{s}在{b}工作。", "works_at", EMPLOYERS),
    ("{s}说的{a}不对，是{b}。", "works_at", NAMED_KIND),
    ("更正一下我上次说的：{s}住在{b}。", "lives_in", PLACES),
    ("{s}之前说的{a}是错的，是{b}。", "lives_in", PLACES),
    ("不好意思，{s}记错了，{s}住在{b}。", "lives_in", PLACES),
    ("纠正一下，{s}住在{b}，不是{a}。", "lives_in", PLACES),
    ("我得更正一下，{s}住在{b}。", "lives_in", PLACES),
    ("我要纠正一下，{s}在{b}上班。", "works_at", EMPLOYERS),
    ("上次我说错了，{s}其实住在{b}。", "lives_in", PLACES),
    ("我之前记错了，{s}在{b}上班。", "works_at", EMPLOYERS),
]


def _later_cases() -> list[tuple[str, str, str, str]]:
    out = []
    for template, predicate, pairs in LATER:
        for a, b in pairs:
            out.append((template.format(s="我", a=a, b=b), predicate, a, b))
    return out


LATER_CASES = _later_cases()


@pytest.mark.parametrize(
    ("text", "predicate", "wrong", "right"), LATER_CASES, ids=[c[0] for c in LATER_CASES]
)
def test_a_later_correction_names_the_right_value_and_what_it_replaces(
    text: str, predicate: str, wrong: str, right: str
) -> None:
    """A correction of an earlier message (其实/之前说的X不对/更正一下) is a ``correct`` claim of the
    right value; where the sentence names the mistaken one, it is what the claim replaces."""
    found = [f for f in facts(text) if f.predicate == predicate]
    assert [(f.literal, f.claim) for f in found] == [(right, "correct")]
    assert found[0].replaces in (None, wrong)
    if wrong in text:
        assert found[0].replaces == wrong


# --------------------------------------------------------------------------- time expressions

TIMES = [
    ("{s}三年前搬到了{a}。", "lives_in", (2021, 6, 12)),
    ("{s}前年春天搬去了{a}。", "lives_in", (2022, 3, 1)),
    ("{s}2019年起在{a}生活。", "lives_in", (2019, 1, 1)),
    ("{s}自2018年以来一直住在{a}。", "lives_in", (2018, 1, 1)),
    ("{s}在{a}都五年了。", "lives_in", (2019, 6, 12)),
    ("{s}在{a}住了一年半了。", "lives_in", (2022, 12, 12)),
    ("{s}今年年初搬到了{a}。", "lives_in", (2024, 1, 1)),
    ("{s}从2020年开始在{b}上班。", "works_at", (2020, 1, 1)),
    ("{s}上个月入职了{b}。", "works_at", (2024, 5, 12)),
    ("{s}从去年开始在{b}工作。", "works_at", (2023, 6, 12)),
    ("{s}2021年3月加入了{b}。", "works_at", (2021, 3, 1)),
    ("{s}去年年底跳槽到了{b}。", "works_at", (2023, 12, 1)),
    ("{s}在{b}工作了八个月。", "works_at", (2023, 10, 12)),
]
TIME_CASES = [
    (t.format(s=s.text, a=a, b=b), s.who, predicate, date)
    for (t, predicate, date), s, (a, _), (b, _) in itertools.product(
        TIMES, SUBJECTS[:2], PLACES[:2], ORGS[:2]
    )
]


@pytest.mark.parametrize(("text", "who", "predicate", "date"), TIME_CASES, ids=[c[0] for c in TIME_CASES])
def test_the_time_expression_dates_the_value(
    text: str, who: str, predicate: str, date: tuple[int, int, int]
) -> None:
    """去年/三年前/前年春天/2019年起/自…以来/从…开始 and a duration (住了一年半) set valid_from."""
    (fact,) = [f for f in facts(text) if f.predicate == predicate]
    assert (fact.subject, fact.claim) == (who, "assert")
    assert fact.valid_from is not None
    assert (fact.valid_from.year, fact.valid_from.month, fact.valid_from.day) == date


# --------------------------------------------------------------------------- episodes with chatter

EPISODES = [
    ("最近工作有点累。{s}从{a}搬到了{b}。周末去爬山了。", "lives_in", "ab"),
    ("好久不见！{s}上个月搬去了{b}，你呢？", "lives_in", "b"),
    ("今天下雨了。{s}在{b}已经住了两年。我妹妹住在{a}。", "lives_in", "b"),
    ("{s}住在{a}。哦不对，是{b}。", "lives_in", "b"),
    ("{s}住在{a}，不过下个月打算搬到{b}。", "lives_in", "a"),
    ("你去过{a}吗？{s}现在住在{b}。", "lives_in", "b"),
    ("{s}离开了{a}，现在住在{b}。挺好的。", "lives_in", "ab"),
    ("吃饭了吗？{s}以前住在{a}，后来搬到了{b}。", "lives_in", "ab"),
    ("{s}在{a}住了三年，去年搬到了{b}。", "lives_in", "ab"),
    ("{s}住在{b}。我老婆想搬到{a}。", "lives_in", "b"),
]


def _episode_cases() -> list[Case]:
    out: list[Case] = []
    for (n, (template, predicate, shape)), (m, subject) in itertools.product(
        enumerate(EPISODES), enumerate(SUBJECTS[:3])
    ):
        a, b = PLACES[(n + m) % len(PLACES)]
        want = {"ab": (b, [a, b]), "b": (b, [b]), "a": (a, [a])}[shape]
        out.append((template.format(s=subject.text, a=a, b=b), expect(subject, predicate, *want)))
    return out


EPISODE_CASES = _episode_cases()


@pytest.mark.parametrize(("text", "want"), EPISODE_CASES, ids=_ids(EPISODE_CASES))
def test_a_statement_among_chatter_in_one_episode(text: str, want: Timeline) -> None:
    """The speaker's statement keeps its timeline when greetings, questions, other people's facts
    and plans stand in the same episode."""
    assert timeline(text) == want


# --------------------------------------------------------------------------- names of people

NAMED = (
    Subject("小李", "小李"),
    Subject("老王", "老王"),
    Subject("司马青云", "司马青云"),
    Subject("阿强", "阿强"),
)
NAMED_TEMPLATES = [
    ("{s}住在{a}。", "lives_in", "a"),
    ("{s}从{a}搬到了{b}。", "lives_in", "ab"),
    ("{s}在{a}已经住了三年。", "lives_in", "a"),
    ("{s}离开{a}去了{b}。", "lives_in", "ab"),
    ("{s}不住在{a}了。", "lives_in", "end"),
]
NAMED_WORK = [
    ("{s}在{a}上班。", "works_at", "a"),
    ("{s}从{a}跳槽到了{b}。", "works_at", "ab"),
    ("{s}被{a}录用了。", "works_at", "a"),
]
NAMED_CASES = _cases(NAMED_TEMPLATES, NAMED, PLACES) + _cases(NAMED_WORK, NAMED, ORGS)


@pytest.mark.parametrize(("text", "want"), NAMED_CASES, ids=_ids(NAMED_CASES))
def test_people_named_with_a_prefix_or_a_compound_surname(text: str, want: Timeline) -> None:
    """Regression: 小李 (jieba: 小/a 李/nr) and 司马青云 (司马/nr 青云/ns) were no subject."""
    assert timeline(text) == want


ORDERED = [
    ("我现在是一名{b}，以前是{a}。", "job_title"),
    ("我以前是{a}，现在是{b}。", "job_title"),
    ("我现在住在{b}，以前住在{a}。", "lives_in"),
    ("我以前住在{a}，现在住在{b}。", "lives_in"),
    ("我现在在{b}上班，之前在{a}上班。", "works_at"),
]
ORDER_VALUES = {
    "job_title": ("老师", "会计"),
    "lives_in": ("南京", "蔚湾市"),
    "works_at": ("腾讯", "鹿鸣科技"),
}


@pytest.mark.parametrize(("template", "predicate"), ORDERED, ids=[t for t, _ in ORDERED])
def test_a_past_value_told_after_the_present_one_is_still_the_past(template: str, predicate: str) -> None:
    """Regression: 我现在是一名会计，以前是老师 made 会计 the old value (the later clause was taken
    as the newer one although 以前 marks it as the past)."""
    a, b = ORDER_VALUES[predicate]
    assert timeline(template.format(a=a, b=b)) == {(SPEAKER, predicate): (b, [a, b])}


REPORTED = [
    ("罗兰告诉我她搬到了{a}。", ("罗兰", "lives_in", "{a}")),
    ("罗兰说她住在{a}。", ("罗兰", "lives_in", "{a}")),
    ("张伟跟我说他在{b}上班。", ("张伟", "works_at", "{b}")),
    ("张伟说他跳槽到了{b}。", ("张伟", "works_at", "{b}")),
    ("王丽对我说她已经在{a}住了两年。", ("王丽", "lives_in", "{a}")),
    ("陈静提到她入职了{b}。", ("陈静", "works_at", "{b}")),
]
REPORTED_CASES = [
    (t.format(a=a, b=b), (who, predicate, value.format(a=a, b=b)))
    for (t, (who, predicate, value)), (a, _), (b, _) in zip(
        REPORTED, PLACES + PLACES[:2], ORGS + ORGS[:2], strict=True
    )
]


@pytest.mark.parametrize(("text", "want"), REPORTED_CASES, ids=[t for t, _ in REPORTED_CASES])
def test_what_a_named_person_says_of_themself_is_their_fact(text: str, want: tuple[str, str, str]) -> None:
    """Regression: 罗兰告诉我她搬到了X / 张伟说他在X上班 gave nothing (the verb of saying hid the
    predicate); the pronoun after it names the same person."""
    who, predicate, value = want
    assert timeline(text) == {(who, predicate): (value, [value])}


NO_LONGER = [
    ("{s}现在不是{a}了，是{b}。", "job_title", ("老师", "会计")),
    ("{s}已经不是{a}了，现在是{b}。", "job_title", ("护士", "医生")),
    ("{s}不是在{a}上班了，是在{b}。", "works_at", ("腾讯", "鹿鸣科技")),
    ("{s}不住在{a}了，住在{b}。", "lives_in", ("南京", "蔚湾市")),
]
NO_LONGER_CASES = [
    (t.format(s=s.text, a=a, b=b), expect(s, predicate, b, [a, b]))
    for (t, predicate, (a, b)), s in itertools.product(NO_LONGER, SUBJECTS[:3])
]


@pytest.mark.parametrize(("text", "want"), NO_LONGER_CASES, ids=_ids(NO_LONGER_CASES))
def test_no_longer_x_now_y_is_a_change_not_a_correction(text: str, want: Timeline) -> None:
    """Regression: 我现在不是老师了，是会计 was read as a correction (老师 never held); 不是X了 says X
    no longer holds, so X stays in the history before Y."""
    assert timeline(text) == want


AROUND = [
    ("{s}住在{a}附近。", "lives_in"),
    ("{s}在{a}郊区住。", "lives_in"),
    ("{s}搬到了{a}那边。", "lives_in"),
    ("{s}住在{a}市区。", "lives_in"),
    ("{s}在{b}那边上班。", "works_at"),
]
AROUND_CASES = [
    (t.format(s=s.text, a=a, b=b), expect(s, predicate, *((a, [a]) if predicate == "lives_in" else (b, [b]))))
    for (t, predicate), s, ((a, _), (b, _)) in zip(
        AROUND, itertools.cycle(SUBJECTS[:3]), zip(itertools.cycle(PLACES), ORGS + ORGS[:1])
    )
]


@pytest.mark.parametrize(("text", "want"), AROUND_CASES, ids=_ids(AROUND_CASES))
def test_a_place_word_after_the_name_is_no_part_of_it(text: str, want: Timeline) -> None:
    """Regression: 住在X附近 gave "X附近", 在X那边上班 gave nothing: 附近/郊区/那边 say where around
    the name, and end it."""
    assert timeline(text) == want
