"""Chinese chat phrasings by class, written from scratch for these tests (no eval suite's wording).

Each class crosses its own phrasings with subjects (the speaker, a named person, a relative with a
name) and with values jieba knows and unseen ones, and checks the timeline a sentence implies for
(subject, predicate): the current value and the values held in order (``timeline`` of the
paraphrase bank), so a class passes whatever claim shape carries it.
"""

from __future__ import annotations

import itertools

import pytest

from graphmem.models.extraction import WHATEVER_HOLDS
from graphmem.providers.extractors.rules_zh import ZhContext, parse_zh
from tests.unit.test_zh_paraphrase_bank import timeline
from tests.unit.zh_support import rows

SUBJECTS = (("我", "小明"), ("小王", "小王"), ("我表哥陈静", "陈静"))
PLACES = (("南京", "苏州"), ("绵阳", "德阳"), ("蔚湾市", "青溪镇"), ("合肥", "临沂"))
ORGS = (("百度", "快手"), ("鹿鸣科技", "星汉集团"), ("腾讯", "华为"), ("瑞丰银行", "青禾集团"))

Case = tuple[str, str, str, str | None, list[str]]  # (sentence, who, predicate, current, history)


def _cross(templates: list[tuple[str, str, str]], pairs: tuple[tuple[str, str], ...]) -> list[Case]:
    """templates: (sentence with {s} {a} {b}, predicate, shape); shape 'a' (a now), 'ab' (a then b),
    'end' (a held, now nothing), 'b' (only b: a was the mistake)."""
    out: list[Case] = []
    for (n, (template, predicate, shape)), (m, (said, who)) in itertools.product(
        enumerate(templates), enumerate(SUBJECTS)
    ):
        a, b = pairs[(n + m) % len(pairs)]
        want = {"a": (a, [a]), "ab": (b, [a, b]), "end": (None, [a]), "b": (b, [b])}[shape]
        out.append((template.format(s=said, a=a, b=b), who, predicate, *want))
    return out


def _check(case: Case) -> None:
    text, who, predicate, current, history = case
    got = timeline(text).get((who, predicate))
    assert got == (current, history), (text, got)


# --------------------------------------------------------------------------- a state ended unnamed

UNNAMED_END = _cross(
    [
        ("{s}在{a}干了三年，上周辞职了。", "works_at", "end"),
        ("{s}在{a}上班，不过已经离职了。", "works_at", "end"),
        ("{s}之前在{a}工作，后来被裁了。", "works_at", "end"),
        ("{s}在{a}干了好几年，去年被公司优化了。", "works_at", "end"),
        ("{s}在{a}工作了一辈子，今年退休了。", "works_at", "end"),
    ],
    ORGS,
) + _cross(
    [
        ("{s}在{a}住了五年，上个月搬走了。", "lives_in", "end"),
        ("{s}在{a}生活过一阵子，后来搬走了。", "lives_in", "end"),
    ],
    PLACES,
)


@pytest.mark.parametrize("case", UNNAMED_END, ids=[c[0] for c in UNNAMED_END])
def test_a_quit_or_move_without_object_ends_the_value_told_before_it(case: Case) -> None:
    """Regression: 我在百度干了三年，上周辞职了 kept 百度 current (辞职 names no employer, so it
    ended nothing)."""
    _check(case)


def test_an_unnamed_quit_ends_employer_and_title_on_retirement() -> None:
    got = timeline("我在协和医院当护士，去年退休了。")
    assert got[("小明", "works_at")] == (None, ["协和医院"])
    assert got[("小明", "job_title")] == (None, ["护士"])


def test_an_unnamed_quit_alone_asserts_nothing() -> None:
    """It ends whatever employer the graph holds (WHATEVER_HOLDS), and asserts none."""
    got = [r for r in rows("我辞职了，想休息一阵。") if r[1] == "works_at"]
    assert got == [("小明", "works_at", WHATEVER_HOLDS, "end")]


# --------------------------------------------------------------------------- 现在在X / 本来在X

NOW_AT = _cross(
    [
        ("{s}现在在{a}。", "lives_in", "a"),
        ("{s}目前人在{a}，挺好的。", "lives_in", "a"),
        ("{s}本来在{a}，去年搬到了{b}。", "lives_in", "ab"),
        ("{s}原来在{a}，后来搬去了{b}。", "lives_in", "ab"),
    ],
    PLACES,
) + _cross(
    [("{s}目前在{a}。", "works_at", "a"), ("{s}如今在{a}，干得还行。", "works_at", "a")],
    ORGS[1:2] + ORGS[3:],
)


@pytest.mark.parametrize("case", NOW_AT, ids=[c[0] for c in NOW_AT])
def test_a_bare_zai_said_of_now_or_of_the_past_is_a_state(case: Case) -> None:
    """Regression: 我现在在重庆 / 我本来在绵阳，去年搬到了德阳 gave no 重庆 / no 绵阳 (a 在X with no
    verb after it was read only after 还 or a duration)."""
    _check(case)


@pytest.mark.parametrize(
    "text", ["我现在在开会。", "我现在在路上。", "我现在在地铁上。", "我现在在吃饭呢。", "我现在在家。"]
)
def test_a_bare_zai_of_an_activity_or_a_spot_is_no_state(text: str) -> None:
    assert [r for r in rows(text) if r[1] in ("lives_in", "works_at")] == []


# --------------------------------------------------------------------------- 是…的 with the object after 的

SHI_DE = _cross(
    [
        ("{s}三年前搬来的{a}。", "lives_in", "a"),
        ("{s}是前年搬到的{a}。", "lives_in", "a"),
        ("{s}是去年离开{a}去的{b}。", "lives_in", "ab"),
    ],
    PLACES,
) + _cross(
    [("{s}是去年入职的{a}。", "works_at", "a"), ("{s}是前年加入的{a}。", "works_at", "a")],
    ORGS,
)


@pytest.mark.parametrize("case", SHI_DE, ids=[c[0] for c in SHI_DE])
def test_shi_de_with_the_value_after_de(case: Case) -> None:
    """Regression: 我是去年离开天津去的大连 gave the value 的大连; 搬来的德阳 gave nothing."""
    _check(case)


# --------------------------------------------------------------------------- corrections

CORRECTIONS = _cross(
    [
        ("其实{s}住的是{b}，不是{a}。", "lives_in", "b"),
        ("{s}上次说错了，住的是{b}不是{a}。", "lives_in", "b"),
        ("{s}住在{b}，不是{a}哈。", "lives_in", "b"),
        ("{s}住在{b}不是{a}。", "lives_in", "b"),
    ],
    PLACES,
) + _cross(
    [("{s}在{b}上班不是{a}。", "works_at", "b"), ("{s}在{b}工作，不是在{a}啦。", "works_at", "b")],
    ORGS,
)


@pytest.mark.parametrize("case", CORRECTIONS, ids=[c[0] for c in CORRECTIONS])
def test_right_value_then_the_mistaken_one(case: Case) -> None:
    """Regression: 我住的是德阳不是绵阳 gave the value 德阳不是绵阳, 我住的是苏州 nothing, and
    不是绵阳哈 named 绵阳哈 as the mistake."""
    _check(case)


def test_zhu_de_shi_names_a_place_only() -> None:
    assert [r for r in rows("我住的是老房子。") if r[1] == "lives_in"] == []


# --------------------------------------------------------------------------- moves and transfers

MOVES = _cross(
    [
        ("{s}由{a}搬到了{b}。", "lives_in", "ab"),
        ("{s}由{a}调到了{b}。", "lives_in", "ab"),
        ("公司把{s}从{a}调到了{b}。", "lives_in", "ab"),
        ("{s}被公司从{a}调到了{b}。", "lives_in", "ab"),
        ("{s}在{a}待腻了，就去了{b}。", "lives_in", "ab"),
        ("{s}在{a}住够了，后来搬到了{b}。", "lives_in", "ab"),
        ("{s}先去了{a}，后来搬到了{b}。", "lives_in", "ab"),
    ],
    PLACES,
) + _cross(
    [
        ("{s}去年去了{a}，今年又跳槽到{b}了。", "works_at", "ab"),
        ("{s}在{a}干够了，跳槽去了{b}。", "works_at", "ab"),
    ],
    ORGS,
)


@pytest.mark.parametrize("case", MOVES, ids=[c[0] for c in MOVES])
def test_moves_naming_both_values(case: Case) -> None:
    """Regression: 由X调到Y and 公司把我从X调到Y gave nothing; 在X待腻了，就去了Y kept X; a bare
    去了X before a change (今年又跳槽到Y) was lost."""
    _check(case)


@pytest.mark.parametrize("text", ["我去了趟北京，然后搬到了天津。", "我去了一趟北京，后来搬到了天津。"])
def test_a_trip_before_a_move_is_no_home(text: str) -> None:
    assert timeline(text)[("小明", "lives_in")] == ("天津", ["天津"])


# --------------------------------------------------------------------------- job titles

TITLES = [
    ("我被公司提拔成了主管。", "主管"),
    ("我现在是公司的主管。", "主管"),
    ("我职位是高级工程师。", "高级工程师"),
    ("我现在职务是副经理。", "副经理"),
]


@pytest.mark.parametrize(("text", "title"), TITLES, ids=[t for t, _ in TITLES])
def test_title_forms(text: str, title: str) -> None:
    """Regression: 提拔成了Y, 是公司的Y and 职位是Y (no 的) gave no title."""
    assert timeline(text)[("小明", "job_title")] == (title, [title])


# --------------------------------------------------------------------------- until


def test_dao_weizhi_ends_the_state_at_its_time() -> None:
    """Regression: 到去年为止我一直住在绵阳 left 为止 before the subject and gave nothing."""
    got = [f for f in rows("到去年为止我一直住在绵阳。") if f[1] == "lives_in"]
    assert ("小明", "lives_in", "绵阳", "end") in got


# --------------------------------------------------------------------------- a start with no object

UNNAMED_START = _cross(
    [
        ("{s}拿到了{a}的offer，已经入职了。", "works_at", "a"),
        ("{s}收到了{a}的录用通知，上周就去报到了。", "works_at", "a"),
    ],
    ORGS,
) + _cross(
    [
        ("{s}去年在{a}买了房，就搬过去了。", "lives_in", "a"),
        ("{s}在{a}租了套房子，已经搬进去了。", "lives_in", "a"),
    ],
    PLACES,
)


@pytest.mark.parametrize("case", UNNAMED_START, ids=[c[0] for c in UNNAMED_START])
def test_a_start_verb_without_object_starts_the_value_named_before_it(case: Case) -> None:
    """Regression: 拿到了X的offer，已经入职了 and 在X买了房，就搬过去了 gave nothing (入职 and 搬过去
    name no value of their own)."""
    _check(case)


@pytest.mark.parametrize(
    "text",
    [
        "我拿到了京东的offer，但是没去。",
        "我在昆山租了套房子，下个月搬过去。",
        "我拿到了京东的offer，打算入职。",
    ],
)
def test_a_start_not_yet_made_starts_nothing(text: str) -> None:
    assert [r for r in rows(text) if r[1] in ("lives_in", "works_at") and r[3] == "assert"] == []


EMPLOYER_FORMS = [
    ("我新工作在阿里巴巴。", "works_at", ("阿里巴巴", ["阿里巴巴"])),
    ("我跟阿里巴巴解约了。", "works_at", (None, ["阿里巴巴"])),
    ("我在公司当工程师。", "job_title", ("工程师", ["工程师"])),
    ("我乔迁到了扬州。", "lives_in", ("扬州", ["扬州"])),
]


@pytest.mark.parametrize(("text", "predicate", "want"), EMPLOYER_FORMS, ids=[t for t, _, _ in EMPLOYER_FORMS])
def test_more_state_forms(text: str, predicate: str, want: tuple[str | None, list[str]]) -> None:
    """Regression: 新工作在X (no 的), 跟X解约了, 在公司当Y (the employer unnamed) and 乔迁到X gave
    nothing."""
    assert timeline(text).get(("小明", predicate)) == want


def test_working_with_a_person_is_no_employer() -> None:
    assert [r for r in rows("我跟张伟一起工作。") if r[1] == "works_at"] == []


MORE_FORMS = [
    ("我现在常驻南京。", "lives_in", ("南京", ["南京"])),
    ("自从搬到南京，我就没回过苏州。", "lives_in", ("南京", ["南京"])),
    ("苏州那边我已经不住了。", "lives_in", (None, ["苏州"])),
    ("我2020年加入腾讯，2023年离开了。", "works_at", (None, ["腾讯"])),
    ("我在南京住了三年，去年离开了。", "lives_in", (None, ["南京"])),
    ("我2020年进的腾讯。", "works_at", ("腾讯", ["腾讯"])),
    ("我是2020年进鹿鸣科技的。", "works_at", ("鹿鸣科技", ["鹿鸣科技"])),
    ("我进腾讯快一年了。", "works_at", ("腾讯", ["腾讯"])),
]


@pytest.mark.parametrize(("text", "predicate", "want"), MORE_FORMS, ids=[t for t, _, _ in MORE_FORMS])
def test_here_topics_enter_and_an_unnamed_leave(
    text: str, predicate: str, want: tuple[str | None, list[str]]
) -> None:
    """Regression: 常驻X, 自从搬到X, X那边我不住了, a bare 离开 after the value and 进X gave
    nothing."""
    assert timeline(text).get(("小明", predicate)) == want


def test_entering_a_town_is_no_employer() -> None:
    assert [r for r in rows("我进城了。") if r[1] == "works_at"] == []


# --------------------------------------------------------------------------- across sentences

ACROSS = [
    (["我表哥陈静住在南宁", "他搬到了桂林"], ("陈静", "lives_in", "桂林", "assert")),
    (["小王在腾讯上班", "她跳槽到阿里了"], ("小王", "works_at", "阿里", "assert")),
    (["我有个朋友叫马克", "他住在深圳"], ("马克", "lives_in", "深圳", "assert")),
    (["我在百度干了三年", "辞职了"], (None, "works_at", "百度", "end")),
    (["我在南京住了五年", "搬走了"], (None, "lives_in", "南京", "end")),
]


@pytest.mark.parametrize(("sentences", "want"), ACROSS, ids=["。".join(s) for s, _ in ACROSS])
def test_the_episode_context_carries_the_person_and_the_states(
    sentences: list[str], want: tuple[str | None, str, str, str]
) -> None:
    """The known gap of a subject carried across sentences (他/她 opening the next sentence) and of
    a quit naming no value in a later sentence: a ``ZhContext`` handed from sentence to sentence
    of one episode (time phrases already cut, as the extractor passes them)."""
    context = ZhContext()
    claims = [parse_zh(s, context).claims for s in sentences][-1]
    assert want in [(c.subject, c.predicate, c.obj, c.kind) for c in claims]


@pytest.mark.parametrize(
    "sentences",
    [
        ["我老婆在厦门工作", "她后来去了福州"],
        ["小王在腾讯上班", "我辞职了"],
        ["我表哥陈静住在南宁", "他搬到了桂林"],
    ],
)
def test_without_a_context_a_sentence_stands_alone(sentences: list[str]) -> None:
    last = parse_zh(sentences[-1]).claims
    assert [c for c in last if c.predicate in ("lives_in", "works_at") and c.subject not in (None,)] == []


# --------------------------------------------------------------------------- named subjects, job threads

NAMED = [
    ("小王职位是总监。", ("小王", "job_title"), ("总监", ["总监"])),
    ("李娜她现在住在上海。", ("李娜", "lives_in"), ("上海", ["上海"])),
    ("李娜呢，现在住在青溪镇。", ("李娜", "lives_in"), ("青溪镇", ["青溪镇"])),
    ("我今年换工作了，从腾讯去了阿里。", ("小明", "works_at"), ("阿里", ["腾讯", "阿里"])),
    ("我在鹿鸣科技干了半年，又回星汉了。", ("小明", "works_at"), ("星汉", ["鹿鸣科技", "星汉"])),
    ("我辞职了，然后去了拼多多。", ("小明", "works_at"), ("拼多多", ["拼多多"])),
]


@pytest.mark.parametrize(("text", "key", "want"), NAMED, ids=[t for t, _, _ in NAMED])
def test_named_topics_and_a_job_thread(
    text: str, key: tuple[str, str], want: tuple[str | None, list[str]]
) -> None:
    """Regression: 小王职位是Y and 李娜她… lost the name; 李娜呢， was read as a question and the
    speaker took the fact; 从腾讯去了阿里 after 换工作 was a move; 又回X after a job was a stay; 辞职了，
    然后去了Y gave nothing."""
    assert timeline(text).get(key) == want


def test_hearsay_of_a_named_person_is_inferred() -> None:
    found = [r for r in rows("听李娜说她搬到了上海。") if r[1] == "lives_in"]
    assert found == [("李娜", "lives_in", "上海", "assert")]
    assert timeline("听李娜说她搬到了上海。") == {}  # inferred: no stated timeline


@pytest.mark.parametrize("text", ["我在腾讯上班，上周回了趟老家。", "我在腾讯上班，周末回了南京。"])
def test_a_trip_after_a_job_is_no_employer(text: str) -> None:
    assert timeline(text)[("小明", "works_at")] == ("腾讯", ["腾讯"])


# --------------------------------------------------------------------------- the mistake owned after the right value

LATE_MISTAKE = _cross(
    [
        ("之前说的{a}是口误，{s}住在{b}。", "lives_in", "b"),
        ("{s}住的城市是{b}，不是{a}，之前说错了。", "lives_in", "b"),
        ("{s}住在{b}，刚才写成{a}了。", "lives_in", "b"),
        ("{s}在{b}住，之前说成{a}了。", "lives_in", "b"),
    ],
    PLACES,
)


@pytest.mark.parametrize("case", LATE_MISTAKE, ids=[c[0] for c in LATE_MISTAKE])
def test_the_mistake_named_after_the_right_value(case: Case) -> None:
    """Regression: …，之前说错了 / …，刚才写成X了 after the right value, and 之前说的X是口误, left the
    mistaken value standing (no correction)."""
    text, who, predicate, current, _ = case
    found = [r for r in rows(text) if r[1] == predicate and r[0] == who]
    assert found == [(who, predicate, current, "correct")], text


@pytest.mark.parametrize("text", ["我纠正一下之前的话，我住在泰州。", "刚才打错字了，是泰州。"])
def test_correction_openers(text: str) -> None:
    """Regression: 之前的话 was read as the conditional 的话 (the sentence dropped); 打错字了 opened
    no correction."""
    assert [r for r in rows(text) if r[1] == "lives_in"] == [("小明", "lives_in", "泰州", "correct")]


@pytest.mark.parametrize("text", ["我上周刚入职京东，还在熟悉。", "我搬到扬州了，还在适应呢。"])
def test_still_doing_is_no_value(text: str) -> None:
    """Regression: 还在熟悉 / 还在适应 (still getting used to it) became the value 熟悉 / 适应."""
    values = {r[2] for r in rows(text) if r[1] in ("lives_in", "works_at")}
    assert values <= {"京东", "扬州"}


STATE_FORMS = _cross(
    [
        ("{s}的住址在{a}。", "lives_in", "a"),
        ("{a}是{s}现在住的地方。", "lives_in", "a"),
        ("{s}所在的城市是{a}。", "lives_in", "a"),
    ],
    PLACES,
)
WORK_FORMS = [
    ("我是京东员工。", "京东"),
    ("京东是我的东家。", "京东"),
    ("鹿鸣科技是我现在工作的地方。", "鹿鸣科技"),
    ("我所在的公司是星汉集团。", "星汉集团"),
]


@pytest.mark.parametrize(
    ("text", "value"),
    [(t, c) for t, w, p, c, _ in STATE_FORMS if w == "小明"] + [(t, v) for t, v in WORK_FORMS],
)
def test_inverse_and_noun_state_forms(text: str, value: str) -> None:
    """Regression: X是我现在住的地方 / X是我的东家 (the value first), 我的住址在X, 我所在的公司是X and
    是京东员工 (no 的) gave nothing."""
    found = [r for r in rows(text) if r[1] in ("lives_in", "works_at")]
    assert [r[2] for r in found] == [value], (text, found)


def test_doing_things_at_a_company_is_no_title() -> None:
    assert [r for r in rows("我在京东做事情。") if r[1] == "job_title"] == []


@pytest.mark.parametrize("text", ["我在复旦读书，明年毕业。", "我在百度上班，下个月辞职。"])
def test_an_unnamed_end_not_yet_made_ends_nothing(text: str) -> None:
    """Regression: 明年毕业 (its time cut) ended the school as the value 明年复旦."""
    assert [r for r in rows(text) if r[3] == "end"] == []


def test_admitted_to_a_school() -> None:
    assert ("小明", "studies_at", "浙江大学", "assert") in rows("我今年考上了浙江大学。")
