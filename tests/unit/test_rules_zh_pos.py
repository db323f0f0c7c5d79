"""The Chinese rules extractor over jieba's token sequence, one test per class of phrasing.

The phrasings and names here are written for these tests (not taken from an eval suite); several
names are ones jieba does not tag or cuts into pieces tagged as verbs (蔚来汽车, 拼多多, 米哈游,
得物, 景德镇), which must still come out whole. The speaker is 小明; the reference time is a Wednesday.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.providers.extractors.rules_zh import parse_zh, tokens
from graphmem.providers.extractors.rules_zh_tokens import span
from tests.unit.zh_support import REF, Row, facts, me, rows

WHOLE_VALUES: list[tuple[str, list[Row]]] = [
    ("我入职了蔚来汽车。", [me("works_at", "蔚来汽车")]),
    ("我跳槽到米哈游了。", [me("works_at", "米哈游")]),
    ("我在拼多多上班。", [me("works_at", "拼多多")]),
    ("我现在在得物上班。", [me("works_at", "得物")]),
    ("我在快手工作。", [me("works_at", "快手")]),
    ("我在商汤科技上班。", [me("works_at", "商汤科技")]),
    ("我搬到了景德镇。", [me("lives_in", "景德镇")]),
    ("我在家乐福上班。", [me("works_at", "家乐福")]),
]


@pytest.mark.parametrize(("text", "expected"), WHOLE_VALUES)
def test_values_jieba_does_not_tag_come_out_whole(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


AFTER_THE_VALUE: list[tuple[str, list[Row]]] = [
    ("我在南京已经住了三年。", [me("lives_in", "南京")]),
    ("我住在广州快五年了。", [me("lives_in", "广州")]),
    ("我搬到深圳已经两年了。", [me("lives_in", "深圳")]),
    ("我在厦门生活了三年多。", [me("lives_in", "厦门")]),
    ("我在比亚迪已经干了两年了。", [me("works_at", "比亚迪")]),
    ("我搬到乌鲁木齐快一年了。", [me("lives_in", "乌鲁木齐")]),
    ("我来南京已经半年了。", [me("lives_in", "南京")]),
    ("我最近搬去了北京住。", [me("lives_in", "北京")]),
    ("我搬到杭州去了。", [me("lives_in", "杭州")]),
]


@pytest.mark.parametrize(("text", "expected"), AFTER_THE_VALUE)
def test_durations_and_adverbs_after_the_value_stay_out_of_it(text: str, expected: list[Row]) -> None:
    """Regression: 在南京已经住了三年 gave the place 南京已经."""
    assert rows(text) == expected


def test_a_move_naming_both_places_dates_the_old_one_just_before_the_new() -> None:
    """Regression: 从X搬到了Y gave nothing (or one value) instead of X, then Y."""
    old, new = facts("我上个月从鄂尔多斯搬到了景德镇。")
    assert (old.literal, new.literal) == ("鄂尔多斯", "景德镇")
    assert (old.predicate, new.predicate) == ("lives_in", "lives_in")
    assert new.valid_from == datetime(2024, 5, 12, tzinfo=UTC)
    assert old.valid_from == new.valid_from - timedelta(seconds=1)


BOTH_VALUES: list[tuple[str, list[Row]]] = [
    ("我从成都搬到了重庆。", [me("lives_in", "成都"), me("lives_in", "重庆")]),
    ("我们从北京搬去了上海。", [me("lives_in", "北京"), me("lives_in", "上海")]),
    ("我从滴滴跳槽到了快手。", [me("works_at", "滴滴"), me("works_at", "快手")]),
    ("我从护士升为了护士长。", [me("job_title", "护士"), me("job_title", "护士长")]),
    ("我以前是厨师，现在是司机。", [me("job_title", "厨师"), me("job_title", "司机")]),
]


@pytest.mark.parametrize(("text", "expected"), BOTH_VALUES)
def test_two_values_in_one_sentence_keep_their_order(text: str, expected: list[Row]) -> None:
    found = facts(text)
    assert [(f.subject, f.predicate, f.literal, f.claim) for f in found] == expected
    assert found[0].valid_from < found[1].valid_from


JOB_CHANGES: list[tuple[str, list[Row]]] = [
    ("我最近正式入职携程。", [me("works_at", "携程")]),
    ("我就职于招商银行。", [me("works_at", "招商银行")]),
    ("我转到了美团工作。", [me("works_at", "美团")]),
    ("我换工作了，现在在网易上班。", [me("works_at", "网易")]),
    ("我从百度离职，加入了京东。", [me("works_at", "百度", "end"), me("works_at", "京东")]),
    ("我离开了华为，去了小米。", [me("works_at", "华为", "end"), me("works_at", "小米")]),
    ("我辞去了腾讯的工作。", [me("works_at", "腾讯", "end")]),
    ("我从小米辞职了。", [me("works_at", "小米", "end")]),
    ("我在医院当护士。", [me("works_at", "医院"), me("job_title", "护士")]),
    ("我被提拔为了经理。", [me("job_title", "经理")]),
    ("我目前担任产品经理。", [me("job_title", "产品经理")]),
    ("我的职业是医生。", [me("job_title", "医生")]),
    ("李娜当上了总监。", [("李娜", "job_title", "总监", "assert")]),
]


@pytest.mark.parametrize(("text", "expected"), JOB_CHANGES)
def test_job_changes_said_with_other_verbs(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


NEGATIONS: list[tuple[str, Row]] = [
    ("我不再住在张家界了。", me("lives_in", "张家界", "end")),
    ("我已经不在字节跳动工作了。", me("works_at", "字节跳动", "end")),
    ("我现在不住北京了。", me("lives_in", "北京", "end")),
    ("我早就不住在天津了。", me("lives_in", "天津", "end")),
    ("我没在腾讯工作了。", me("works_at", "腾讯", "end")),
    ("我已经从武汉搬走了。", me("lives_in", "武汉", "end")),
    ("我不再做销售了。", me("job_title", "销售", "end")),
    ("我已经不是老师了。", me("job_title", "老师", "end")),
    ("我辞去了经理的职务。", me("job_title", "经理", "end")),
]


@pytest.mark.parametrize(("text", "expected"), NEGATIONS)
def test_negations_end_the_fact(text: str, expected: Row) -> None:
    assert rows(text) == [expected]


def test_plans_are_inferred_plans_not_the_fact() -> None:
    (plan,) = facts("我打算下个月搬到成都。")
    assert (plan.predicate, plan.literal, plan.source_kind) == ("plans", "下个月搬到成都", "inferred")
    (want,) = facts("我想去华为工作。")
    assert (want.predicate, want.source_kind) == ("plans", "inferred")
    (maybe,) = facts("我可能会搬到黔东南。")  # a hedged future: a plan, never lives_in
    assert (maybe.predicate, maybe.literal, maybe.source_kind) == ("plans", "搬到黔东南", "inferred")
    (will,) = facts("我明年会搬到上海。")
    assert (will.predicate, will.literal, will.valid_from) == ("plans", "明年搬到上海", REF)
    assert [f.source_kind for f in facts("听说张伟搬到了上海。")] == ["inferred"]


def test_a_dated_future_move_starts_on_its_date() -> None:
    (fact,) = facts("我下周一入职字节跳动。")
    assert (fact.predicate, fact.literal, fact.valid_from) == (
        "works_at",
        "字节跳动",
        datetime(2024, 6, 17, tzinfo=UTC),
    )


SAME_SENTENCE_CORRECTIONS: list[tuple[str, Row, str]] = [
    ("我住在杭州，不对，是苏州。", me("lives_in", "苏州", "correct"), "杭州"),
    ("我住在南宁，哦不，是桂林。", me("lives_in", "桂林", "correct"), "南宁"),
    ("赵六在网易上班，哦不对，是在腾讯。", ("赵六", "works_at", "腾讯", "correct"), "网易"),
    ("我的职位是会计，不对，是数据分析师。", me("job_title", "数据分析师", "correct"), "会计"),
    ("我搬到了大理，我是说丽江。", me("lives_in", "丽江", "correct"), "大理"),
    ("我不是住在北京，而是住在天津。", me("lives_in", "天津", "correct"), "北京"),
    ("我住的不是上海，是苏州。", me("lives_in", "苏州", "correct"), "上海"),
    ("我是在上海住，不是北京。", me("lives_in", "上海", "correct"), "北京"),
]


@pytest.mark.parametrize(("text", "expected", "wrong"), SAME_SENTENCE_CORRECTIONS)
def test_a_correction_in_the_same_sentence_replaces_the_wrong_value(
    text: str, expected: Row, wrong: str
) -> None:
    """Regression: 郑爽住在成都，哦不对，是合肥 kept 成都 and dropped 合肥."""
    found = facts(text)
    assert [(f.subject, f.predicate, f.literal, f.claim) for f in found] == [expected]
    assert found[0].replaces == wrong


def test_a_correction_in_the_next_sentence_borrows_the_predicate() -> None:
    (claim,) = parse_zh("哦不对，我说错了，是在网易。").claims
    assert (claim.obj, claim.kind, claim.from_context) == ("网易", "correct", True)
    found = facts("我在腾讯工作。哦不对，我说错了，是在网易。")
    assert (found[-1].predicate, found[-1].literal) == ("works_at", "网易")
    assert all(f.claim == "correct" or f.literal != "腾讯" for f in found[1:])


def test_a_correction_without_the_wrong_value_corrects_the_sentence() -> None:
    """Regression: 我之前说错了，我住在广州 was a plain assertion, so the old value stayed in history."""
    assert rows("我之前说错了，我住在广州。") == [me("lives_in", "广州", "correct")]
    assert rows("口误，我住在宁波。") == [me("lives_in", "宁波", "correct")]


NO_FACTS = [
    "我在吃饭。",  # 在 + verb is progressive, not a place
    "我在想搬家的事。",
    "我在一家公司上班。",  # indefinite: not a name
    "我搬到新家了。",
    "我住在他家。",  # a pronoun inside the value
    "今天天气真好。",
    "最近在追一部新剧。",
    "他住在北京。",
    "你在哪里上班？",
    "我下周去网易面试。",
    "如果我搬到上海，我会很开心。",
]


@pytest.mark.parametrize("text", NO_FACTS)
def test_quality_gates_refuse_chatter_pronouns_and_indefinites(text: str) -> None:
    assert facts(text) == []


def test_third_persons_and_relatives_are_resolved_subjects() -> None:
    assert rows("我朋友王磊跳槽到了阿里。") == [
        ("小明", "knows", "王磊", "assert"),
        ("王磊", "works_at", "阿里", "assert"),
    ]
    assert rows("林娜前几天搬去武汉了。") == [("林娜", "lives_in", "武汉", "assert")]


def test_vague_recent_days_resolve() -> None:
    (fact,) = facts("林娜前几天搬去武汉了。")
    assert fact.valid_from == datetime(2024, 6, 9, tzinfo=UTC)
    (later,) = facts("我前阵子跳槽去了得物。")
    assert later.valid_from == datetime(2024, 5, 29, tzinfo=UTC)


def test_duplicates_in_one_episode_are_merged() -> None:
    assert rows("我住在上海，我住在上海。") == [me("lives_in", "上海")]


def test_a_preposition_glued_to_the_value_is_split_or_read_as_an_adverb() -> None:
    """jieba reads 从小米 as 从小/米 and 从小住在北京 as 从小 ("since childhood")/住在/北京."""
    assert rows("我从小米辞职了。") == [me("works_at", "小米", "end")]
    assert rows("我从小住在北京。") == [me("lives_in", "北京")]


def test_compounds_are_joined_and_names_left_alone() -> None:
    words = [t.word for t in tokens("我从北京搬到了上海")]
    assert words == ["我", "从", "北京", "搬到", "了", "上海"]
    toks = tokens("我入职了蔚来汽车")
    assert span(toks, 3)[0] == "蔚来汽车"


def test_a_later_correction_about_someone_else_is_a_whole_clause() -> None:
    """Regression: after 我之前记错了 the clause 林娜在美团上班 was read as one bare corrected value
    (predicate unknown, so dropped) instead of a clause with its own subject and frame."""
    assert rows("你周末过得怎么样？我之前记错了，林娜在美团上班。") == [
        ("林娜", "works_at", "美团", "correct")
    ]
    assert rows("我说错了，张伟住在杭州。") == [("张伟", "lives_in", "杭州", "correct")]


def test_a_hedged_change_not_yet_done_is_a_plan() -> None:
    """有可能搬去X (may move) is a plan; 好像跳槽到X了 (seems to have moved) a hedged, inferred fact."""
    (maybe,) = facts("林娜有可能搬去成都。")
    assert (maybe.subject, maybe.predicate, maybe.source_kind) == ("林娜", "plans", "inferred")
    (seems,) = facts("林娜好像跳槽到美团了。")
    assert (seems.predicate, seems.literal, seems.source_kind) == ("works_at", "美团", "inferred")


def test_an_adverb_the_hmm_glued_to_a_name_is_split_off() -> None:
    """Regression: 林娜正打算辞职 gave the subject 林娜正."""
    assert [f.subject for f in facts("林娜正打算辞职。")] == ["林娜"]
