"""Chinese phrasings by (predicate, form): state, change, negation, correction in the same sentence,
later correction, plan, and chatter that must give nothing, for lives_in, works_at and job_title.

Written for these tests as a spread of everyday phrasings (none is taken from an eval suite), so a
change to the Chinese extractor is checked against phrasings it was not tuned on one by one.
``"*"`` stands for a plan's free-text value. The speaker is 小明.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)
EXTRACTOR = RulesExtractor()
Row = tuple[str, str, str, str]  # (subject, predicate, value or "*" for plans, claim)

PHRASINGS: list[tuple[str, list[Row]]] = [
    # lives_in state
    ("我定居在杭州。", [("小明", "lives_in", "杭州", "assert")]),
    ("我生活在成都。", [("小明", "lives_in", "成都", "assert")]),
    ("我现居上海。", [("小明", "lives_in", "上海", "assert")]),
    ("我目前居住在南京。", [("小明", "lives_in", "南京", "assert")]),
    ("我人在深圳，住在南山。", [("小明", "lives_in", "南山", "assert")]),
    ("我的家在武汉。", [("小明", "lives_in", "武汉", "assert")]),
    ("我住在西安已经三年了。", [("小明", "lives_in", "西安", "assert")]),
    ("王芳在重庆住了五年了。", [("王芳", "lives_in", "重庆", "assert")]),
    ("我在苏州已经生活了两年。", [("小明", "lives_in", "苏州", "assert")]),
    ("我一直住在厦门。", [("小明", "lives_in", "厦门", "assert")]),
    ("李明现在在青岛定居。", [("李明", "lives_in", "青岛", "assert")]),
    ("我家现在在大连。", [("小明", "lives_in", "大连", "assert")]),
    ("我们一家住在长沙。", [("小明", "lives_in", "长沙", "assert")]),
    # lives_in change
    ("我搬家了，搬到了昆明。", [("小明", "lives_in", "昆明", "assert")]),
    ("我上个月搬到天津去了。", [("小明", "lives_in", "天津", "assert")]),
    ("我已经搬来郑州了。", [("小明", "lives_in", "郑州", "assert")]),
    ("我两周前移居到了合肥。", [("小明", "lives_in", "合肥", "assert")]),
    ("我去年迁居宁波。", [("小明", "lives_in", "宁波", "assert")]),
    ("我最近在北京定居了。", [("小明", "lives_in", "北京", "assert")]),
    (
        "我从上海搬到了广州。",
        [("小明", "lives_in", "上海", "assert"), ("小明", "lives_in", "广州", "assert")],
    ),
    (
        "张伟从深圳搬去了杭州。",
        [("张伟", "lives_in", "深圳", "assert"), ("张伟", "lives_in", "杭州", "assert")],
    ),
    ("我现在住在成都了。", [("小明", "lives_in", "成都", "assert")]),
    (
        "我离开了武汉，搬到了西安。",
        [("小明", "lives_in", "武汉", "end"), ("小明", "lives_in", "西安", "assert")],
    ),
    ("我三个月前搬回了南京。", [("小明", "lives_in", "南京", "assert")]),
    ("我换了城市，现在住在苏州。", [("小明", "lives_in", "苏州", "assert")]),
    ("我前几天刚搬进了厦门的新家。", [("小明", "lives_in", "厦门", "assert")]),
    ("我到青岛定居了。", [("小明", "lives_in", "青岛", "assert")]),
    ("我去大连生活了。", [("小明", "lives_in", "大连", "assert")]),
    ("我已经在长沙安顿下来了。", [("小明", "lives_in", "长沙", "assert")]),
    ("我落户昆明了。", [("小明", "lives_in", "昆明", "assert")]),
    # lives_in neg
    ("我搬离了天津。", [("小明", "lives_in", "天津", "end")]),
    ("我不住在郑州了。", [("小明", "lives_in", "郑州", "end")]),
    ("我不再住宁波了。", [("小明", "lives_in", "宁波", "end")]),
    ("我早就搬出北京了。", [("小明", "lives_in", "北京", "end")]),
    ("我现在已经不在上海住了。", [("小明", "lives_in", "上海", "end")]),
    ("我已经不在广州生活了。", [("小明", "lives_in", "广州", "end")]),
    # lives_in corr same
    ("我住在深圳，不对，我说错了，是杭州。", [("小明", "lives_in", "杭州", "correct")]),
    ("我搬到了成都——不对，是重庆。", [("小明", "lives_in", "重庆", "correct")]),
    ("我住在南京，哦不是，是苏州。", [("小明", "lives_in", "苏州", "correct")]),
    ("我住在武汉，更正一下，是西安。", [("小明", "lives_in", "西安", "correct")]),
    ("我住在厦门，啊不，应该是青岛。", [("小明", "lives_in", "青岛", "correct")]),
    ("我上个月搬到了大连，说错了，是长沙。", [("小明", "lives_in", "长沙", "correct")]),
    # lives_in corr later
    ("更正一下，我住在昆明，不是天津。", [("小明", "lives_in", "昆明", "correct")]),
    ("我上次说错了，我其实住在郑州。", [("小明", "lives_in", "郑州", "correct")]),
    ("纠正一下：我住在合肥。", [("小明", "lives_in", "合肥", "correct")]),
    ("不好意思，之前记错了，我住在宁波。", [("小明", "lives_in", "宁波", "correct")]),
    ("我其实一直住在北京，不是上海。", [("小明", "lives_in", "北京", "correct")]),
    ("实际上我住在广州，而不是深圳。", [("小明", "lives_in", "广州", "correct")]),
    # lives_in plan
    ("我计划明年搬到杭州。", [("小明", "plans", "*", "assert")]),
    ("我想搬去成都。", [("小明", "plans", "*", "assert")]),
    ("我准备下个月搬家到重庆。", [("小明", "plans", "*", "assert")]),
    ("我考虑搬到南京。", [("小明", "plans", "*", "assert")]),
    ("我也许会搬去苏州。", [("小明", "plans", "*", "assert")]),
    ("我们以后可能会搬到武汉。", [("小明", "plans", "*", "assert")]),
    ("我有搬到西安的打算。", [("小明", "plans", "*", "assert")]),
    # works_at state
    ("我在腾讯上班。", [("小明", "works_at", "腾讯", "assert")]),
    ("我就职于阿里巴巴。", [("小明", "works_at", "阿里巴巴", "assert")]),
    ("我供职于字节跳动。", [("小明", "works_at", "字节跳动", "assert")]),
    ("我是华为的员工。", [("小明", "works_at", "华为", "assert")]),
    (
        "我在百度做产品经理。",
        [("小明", "works_at", "百度", "assert"), ("小明", "job_title", "产品经理", "assert")],
    ),
    ("我的公司是美团。", [("小明", "works_at", "美团", "assert")]),
    ("我在京东已经工作三年了。", [("小明", "works_at", "京东", "assert")]),
    ("我任职于小米。", [("小明", "works_at", "小米", "assert")]),
    ("我现在在网易工作。", [("小明", "works_at", "网易", "assert")]),
    ("我为拼多多工作。", [("小明", "works_at", "拼多多", "assert")]),
    (
        "我在滴滴当工程师。",
        [("小明", "works_at", "滴滴", "assert"), ("小明", "job_title", "工程师", "assert")],
    ),
    # works_at change
    ("我跳槽去了快手。", [("小明", "works_at", "快手", "assert")]),
    ("我换工作了，去了招商银行。", [("小明", "works_at", "招商银行", "assert")]),
    ("我上周入职了比亚迪。", [("小明", "works_at", "比亚迪", "assert")]),
    ("我加入了大疆。", [("小明", "works_at", "大疆", "assert")]),
    ("我被携程录用了。", [("小明", "works_at", "携程", "assert")]),
    ("我开始在腾讯上班了。", [("小明", "works_at", "腾讯", "assert")]),
    ("我现在去阿里巴巴上班了。", [("小明", "works_at", "阿里巴巴", "assert")]),
    (
        "我从字节跳动跳槽到了华为。",
        [("小明", "works_at", "字节跳动", "assert"), ("小明", "works_at", "华为", "assert")],
    ),
    ("我换到了百度工作。", [("小明", "works_at", "百度", "assert")]),
    ("我已经到美团上班了。", [("小明", "works_at", "美团", "assert")]),
    ("我两周前正式加盟了京东。", [("小明", "works_at", "京东", "assert")]),
    ("我已经转去网易了。", [("小明", "works_at", "网易", "assert")]),
    # works_at neg
    ("我从拼多多辞职了。", [("小明", "works_at", "拼多多", "end")]),
    ("我离开了滴滴。", [("小明", "works_at", "滴滴", "end")]),
    ("我已经不在快手上班了。", [("小明", "works_at", "快手", "end")]),
    ("我不在招商银行工作了。", [("小明", "works_at", "招商银行", "end")]),
    ("我辞掉了比亚迪的工作。", [("小明", "works_at", "比亚迪", "end")]),
    ("我上个月从大疆离职了。", [("小明", "works_at", "大疆", "end")]),
    ("我被携程裁员了。", [("小明", "works_at", "携程", "end")]),
    ("我不再为腾讯工作了。", [("小明", "works_at", "腾讯", "end")]),
    # works_at corr same
    ("我在阿里巴巴工作，不对，是字节跳动。", [("小明", "works_at", "字节跳动", "correct")]),
    ("我入职了华为，哦不对，是百度。", [("小明", "works_at", "百度", "correct")]),
    ("我在美团上班，我是说京东。", [("小明", "works_at", "京东", "correct")]),
    ("我跳槽到了小米，说错了，应该是网易。", [("小明", "works_at", "网易", "correct")]),
    # works_at corr later
    ("我之前说错了，我在拼多多工作。", [("小明", "works_at", "拼多多", "correct")]),
    ("更正一下，我在滴滴上班，不是快手。", [("小明", "works_at", "滴滴", "correct")]),
    ("其实我是在招商银行工作，不是比亚迪。", [("小明", "works_at", "招商银行", "correct")]),
    ("纠正一下，我的公司是大疆。", [("小明", "works_at", "大疆", "correct")]),
    # works_at plan
    ("我打算跳槽到携程。", [("小明", "plans", "*", "assert")]),
    ("我想去腾讯上班。", [("小明", "plans", "*", "assert")]),
    ("我准备明年入职阿里巴巴。", [("小明", "plans", "*", "assert")]),
    ("我在考虑去字节跳动工作。", [("小明", "plans", "*", "assert")]),
    ("我可能会去华为。", []),
    ("我下周去百度面试。", []),
    ("我投了美团的简历。", []),
    # job_title state
    ("我是一位医生。", [("小明", "job_title", "医生", "assert")]),
    ("我的职位是产品经理。", [("小明", "job_title", "产品经理", "assert")]),
    ("我的工作是会计。", [("小明", "job_title", "会计", "assert")]),
    ("我是做律师的。", [("小明", "job_title", "律师", "assert")]),
    ("我担任项目经理。", [("小明", "job_title", "项目经理", "assert")]),
    ("我目前的职务是销售经理。", [("小明", "job_title", "销售经理", "assert")]),
    ("我当护士已经五年了。", [("小明", "job_title", "护士", "assert")]),
    ("我的职业是厨师。", [("小明", "job_title", "厨师", "assert")]),
    ("我现在做数据分析师。", [("小明", "job_title", "数据分析师", "assert")]),
    ("我干的是软件工程师。", [("小明", "job_title", "软件工程师", "assert")]),
    ("我是个老师。", [("小明", "job_title", "老师", "assert")]),
    # job_title change
    ("我升职了，现在是项目经理。", [("小明", "job_title", "项目经理", "assert")]),
    ("我晋升为销售经理了。", [("小明", "job_title", "销售经理", "assert")]),
    ("我被任命为产品经理。", [("小明", "job_title", "产品经理", "assert")]),
    ("我转岗做了数据分析师。", [("小明", "job_title", "数据分析师", "assert")]),
    ("我改行当了厨师。", [("小明", "job_title", "厨师", "assert")]),
    ("我成为了一名律师。", [("小明", "job_title", "律师", "assert")]),
    ("我上个月升为了会计主管。", [("小明", "job_title", "会计主管", "assert")]),
    ("我现在改做老师了。", [("小明", "job_title", "老师", "assert")]),
    ("我被提升为软件工程师。", [("小明", "job_title", "软件工程师", "assert")]),
    # job_title neg
    ("我不当护士了。", [("小明", "job_title", "护士", "end")]),
    ("我已经不干厨师了。", [("小明", "job_title", "厨师", "end")]),
    ("我不再是律师了。", [("小明", "job_title", "律师", "end")]),
    ("我辞去了项目经理的职位。", [("小明", "job_title", "项目经理", "end")]),
    # job_title corr
    ("我是会计，不对，是律师。", [("小明", "job_title", "律师", "correct")]),
    ("我的职位是医生，哦不对，是护士。", [("小明", "job_title", "护士", "correct")]),
    ("我之前说错了，我是厨师。", [("小明", "job_title", "厨师", "correct")]),
    ("其实我是软件工程师，不是产品经理。", [("小明", "job_title", "软件工程师", "correct")]),
    ("更正一下，我的职位是销售经理。", [("小明", "job_title", "销售经理", "correct")]),
    # job_title plan
    ("我希望以后能当上项目经理。", [("小明", "plans", "*", "assert")]),
    ("我打算转行做律师。", [("小明", "plans", "*", "assert")]),
    ("我想成为一名医生。", [("小明", "plans", "*", "assert")]),
    # chatter
    ("今天天气真不错。", []),
    ("最近工作有点累。", []),
    ("我晚饭吃了面条。", []),
    ("谢谢你的关心！", []),
    ("你周末过得怎么样？", []),
    ("哈哈，你说得对。", []),
    ("好久不见！", []),
    ("我周末在家看书。", []),
    ("我今天在公司加班。", []),
    ("我最终定居在了杭州。", [("小明", "lives_in", "杭州", "assert")]),
    ("所以我搬到了杭州。", [("小明", "lives_in", "杭州", "assert")]),
    ("我彻底搬到了杭州。", [("小明", "lives_in", "杭州", "assert")]),
    ("我果断跳槽到了腾讯。", [("小明", "works_at", "腾讯", "assert")]),
    ("后来张伟跳槽到了腾讯。", [("张伟", "works_at", "腾讯", "assert")]),
    ("对了我搬到杭州了。", [("小明", "lives_in", "杭州", "assert")]),
    (
        "我从会计转成了律师。",
        [("小明", "job_title", "会计", "assert"), ("小明", "job_title", "律师", "assert")],
    ),
    ("我上个月换了新工作，在阿里巴巴。", [("小明", "works_at", "阿里巴巴", "assert")]),
    ("公司让我当项目经理了。", [("小明", "job_title", "项目经理", "assert")]),
    ("领导任命我为销售经理。", [("小明", "job_title", "销售经理", "assert")]),
    ("公司提拔张伟做了总监。", [("张伟", "job_title", "总监", "assert")]),
    ("林娜的新东家是美团。", [("林娜", "works_at", "美团", "assert")]),
    ("我的新公司是京东。", [("小明", "works_at", "京东", "assert")]),
    (
        "张伟从腾讯辞职了，现在在百度上班。",
        [("张伟", "works_at", "腾讯", "end"), ("张伟", "works_at", "百度", "assert")],
    ),
    ("我的新职位是项目经理。", [("小明", "job_title", "项目经理", "assert")]),
    ("我的新工作在腾讯。", [("小明", "works_at", "腾讯", "assert")]),
    ("我换了东家，去了美团。", [("小明", "works_at", "美团", "assert")]),
    ("我换了个城市，现在在成都。", [("小明", "lives_in", "成都", "assert")]),
    ("我过几天搬去杭州。", [("小明", "plans", "*", "assert")]),
    ("我把家搬到了苏州。", [("小明", "lives_in", "苏州", "assert")]),
    ("我们举家迁往厦门。", [("小明", "lives_in", "厦门", "assert")]),
    ("我被腾讯挖走了。", [("小明", "works_at", "腾讯", "assert")]),
    ("我加入了腾讯团队。", [("小明", "works_at", "腾讯", "assert")]),
    ("我荣升项目经理。", [("小明", "job_title", "项目经理", "assert")]),
    ("我开始为华为效力。", [("小明", "works_at", "华为", "assert")]),
    ("我搬家了，来到了上海。", [("小明", "lives_in", "上海", "assert")]),
    ("我辞掉了在美团的工作。", [("小明", "works_at", "美团", "end")]),
    ("我辞去了律师的工作。", [("小明", "job_title", "律师", "end")]),
    ("我换到美团了。", [("小明", "works_at", "美团", "assert")]),
    ("我在京东开始了新工作。", [("小明", "works_at", "京东", "assert")]),
    ("我住到了成都。", [("小明", "lives_in", "成都", "assert")]),
    ("我落脚杭州了。", [("小明", "lives_in", "杭州", "assert")]),
    ("成都是我现在的家。", [("小明", "lives_in", "成都", "assert")]),
    ("我在做律师。", [("小明", "job_title", "律师", "assert")]),
    ("我被公司提拔为项目经理。", [("小明", "job_title", "项目经理", "assert")]),
    ("我调岗成了产品经理。", [("小明", "job_title", "产品经理", "assert")]),
    ("我上周末搬到了南京。", [("小明", "lives_in", "南京", "assert")]),
    ("我搞错了，我住在苏州，不在杭州。", [("小明", "lives_in", "苏州", "correct")]),
    ("我转投了腾讯。", [("小明", "works_at", "腾讯", "assert")]),
    ("我正在云南旅行。", [("小明", "located_at", "云南", "assert")]),
    ("我从事会计工作。", [("小明", "job_title", "会计", "assert")]),
    ("我卸任了总监一职。", [("小明", "job_title", "总监", "end")]),
    ("我辞去了经理一职。", [("小明", "job_title", "经理", "end")]),
    ("我在腾讯找到了一份新工作。", [("小明", "works_at", "腾讯", "assert")]),
    ("我成了阿里巴巴的员工。", [("小明", "works_at", "阿里巴巴", "assert")]),
    ("我明年会搬到上海。", [("小明", "plans", "*", "assert")]),
    ("我住在厦门，呃，应该是青岛。", [("小明", "lives_in", "青岛", "correct")]),
    ("我上次说的不对，我住在宁波。", [("小明", "lives_in", "宁波", "correct")]),
    ("我的身份是律师。", [("小明", "job_title", "律师", "assert")]),
    ("我离开了北京。", [("小明", "lives_in", "北京", "end")]),
    ("我离开了美团。", [("小明", "works_at", "美团", "end")]),
    ("我最近在学做饭。", []),
    ("我在健身房锻炼。", []),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS)
def test_chinese_phrasing(text: str, expected: list[Row]) -> None:
    found = EXTRACTOR.extract(content=text, speaker="小明", reference_time=REF).facts
    got = [
        (f.subject, f.predicate, "*" if f.predicate == "plans" else f.literal, f.claim)
        for f in found
        if f.predicate != "knows"
    ]
    assert sorted(got) == sorted(expected)
