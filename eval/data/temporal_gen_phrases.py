"""Phrasing families for the generated temporal benchmark (``temporal_gen.py``), English and Chinese.

A *family* is one way of saying one kind of thing about one functional predicate: a name and two or
three templates that vary tense, aspect and where a time expression or duration goes. Families are
grouped by *form*:

- ``state``: the first value is stated (``{A}``);
- ``change``: the value changes from ``{A}`` to ``{B}`` (some templates name both);
- ``neg``: the value ``{A}`` stops holding, nothing replaces it;
- ``corr_same``: a wrong value ``{W}`` and its correction ``{B}`` in the same message;
- ``corr_later``: a later message corrects ``{A}`` to ``{B}`` (``{A}`` was never true);
- ``plan``: a plan or hope about ``{B}`` while ``{A}`` still holds.

The split is fixed by position: within each (language, predicate, form) list, families at even
positions (0, 2, 4...) are DEVELOPMENT families and families at odd positions are TEST families.
Never tune an extractor on a test family; ``temporal_gen.py`` writes the two splits to separate files.

Template syntax: ``<first|third>`` picks the first-person text when the speaker talks about
themselves and the third-person text when the speaker talks about someone named ``{S}``;
``{S}`` is that name (Chinese templates use ``{S}`` alone: 我 or the name). ``{when}`` is a time
expression (English: with its leading space, or empty), ``{dur}`` a duration, ``{year}`` a past year,
``{aA}``/``{aB}``/``{aW}`` the article for the value, ``{O}`` an unrelated organisation.
"""

from __future__ import annotations

Family = tuple[str, tuple[str, ...]]
Forms = dict[str, tuple[Family, ...]]

FORMS = ("state", "change", "neg", "corr_same", "corr_later", "plan")

EN_LIVES_IN: Forms = {
    "state": (
        ("live", ("<I|{S}> <live|lives> in {A}.", "<I'm|{S} is> living in {A} these days.")),
        ("based", ("<I'm|{S} is> based in {A}.", "<I've|{S} has> been based in {A} for {dur} now.")),
        ("home", ("Home for <me|{S}> is {A}.", "<My|{S}'s> apartment is in {A}.")),
        (
            "been_in",
            ("<I've|{S} has> lived in {A} for {dur}.", "<I've|{S} has> been living in {A} since {year}."),
        ),
    ),
    "change": (
        ("moved_to", ("<I|{S}> moved to {B}{when}.", "<I've|{S} has> just moved to {B}.")),
        (
            "moved_from_to",
            ("<I|{S}> moved from {A} to {B}{when}.", "<I|{S}> left {A} and moved to {B}{when}."),
        ),
        ("relocated", ("<I|{S}> relocated to {B}{when}.", "<I|{S}> relocated from {A} to {B}{when}.")),
        ("settled", ("<I've|{S} has> settled in {B} after the move.", "<I'm|{S} is> now living in {B}.")),
        (
            "made_the_move",
            ("<I|{S}> made the move from {A} to {B}{when}.", "<I|{S}> packed up and moved to {B}{when}."),
        ),
        ("swapped", ("<I|{S}> swapped {A} for {B}{when}.", "<I|{S}> finally moved over to {B}{when}.")),
    ),
    "neg": (
        (
            "no_longer",
            ("<I|{S}> no longer <live|lives> in {A}.", "<I|{S}> <don't|doesn't> live in {A} anymore."),
        ),
        ("moved_out", ("<I|{S}> moved out of {A}{when}.", "<I|{S}> left {A} for good{when}.")),
    ),
    "corr_same": (
        (
            "sorry_i_mean",
            (
                "<I|{S}> <live|lives> in {W}, sorry, I mean {B}.",
                "<I|{S}> moved to {W}{when}, oops, I meant {B}.",
            ),
        ),
        (
            "no_wait",
            (
                "<I|{S}> <live|lives> in {W}... no wait, {B}, not {W}.",
                "<I'm|{S} is> living in {W}, well, actually in {B}.",
            ),
        ),
    ),
    "corr_later": (
        (
            "actually",
            (
                "Actually, <I|{S}> <live|lives> in {B}, not {A}.",
                "Sorry, I got that wrong: <I|{S}> <live|lives> in {B}.",
            ),
        ),
        (
            "misspoke",
            (
                "I misspoke earlier, <I|{S}> <live|lives> in {B}, not {A}.",
                "Correction: <I'm|{S} is> based in {B}, not {A}.",
            ),
        ),
    ),
    "plan": (
        (
            "thinking",
            ("<I'm|{S} is> thinking about moving to {B} next year.", "<I|{S}> might move to {B} someday."),
        ),
        (
            "hoping",
            (
                "<I'm|{S} is> hoping to relocate to {B} eventually.",
                "<I'd|{S} would> love to live in {B} one day.",
            ),
        ),
    ),
}

EN_WORKS_AT: Forms = {
    "state": (
        ("work_at", ("<I|{S}> <work|works> at {A}.", "<I've|{S} has> been working at {A} for {dur}.")),
        ("employed", ("<I'm|{S} is> employed by {A}.", "<I|{S}> <work|works> for {A} as an analyst.")),
        ("role_at", ("<I'm|{S} is> an engineer at {A}.", "<My|{S}'s> job is at {A}.")),
        (
            "with_since",
            ("<I've|{S} has> been with {A} since {year}.", "<I'm|{S} is> on the design team at {A}."),
        ),
    ),
    "change": (
        ("joined", ("<I|{S}> joined {B}{when}.", "<I|{S}> started a new job at {B}{when}.")),
        (
            "left_and_joined",
            ("<I|{S}> left {A} and joined {B}{when}.", "<I|{S}> traded {A} for a job at {B}{when}."),
        ),
        (
            "quit_now",
            ("<I|{S}> quit {A} and now <work|works> at {B}.", "<I|{S}> jumped ship from {A} to {B}{when}."),
        ),
        ("hired", ("<I|{S}> got hired by {B}{when}.", "<I|{S}> accepted an offer from {B}{when}.")),
        ("now_at", ("<I'm|{S} is> working at {B} now.", "<My|{S}'s> new employer is {B}.")),
        ("signed_on", ("<I|{S}> signed on with {B}{when}.", "<I|{S}> took a position at {B}{when}.")),
    ),
    "neg": (
        ("no_longer", ("<I|{S}> no longer <work|works> at {A}.", "<I|{S}> quit <my|the> job at {A}{when}.")),
        ("laid_off", ("<I was|{S} was> laid off from {A}{when}.", "<I|{S}> resigned from {A}{when}.")),
    ),
    "corr_same": (
        (
            "sorry_i_mean",
            (
                "<I|{S}> <work|works> at {W}, sorry, I mean {B}.",
                "<I|{S}> joined {W}{when}, oops, I meant {B}.",
            ),
        ),
        (
            "no_wait",
            (
                "<I|{S}> <work|works> for {W}... no wait, {B}.",
                "<I'm|{S} is> at {W}, well, actually at {B}, not {W}.",
            ),
        ),
    ),
    "corr_later": (
        (
            "actually",
            (
                "Actually, <I|{S}> <work|works> at {B}, not {A}.",
                "Sorry, I got that wrong: <I|{S}> <work|works> for {B}.",
            ),
        ),
        (
            "misspoke",
            (
                "I misspoke earlier: <I'm|{S} is> employed by {B}, not {A}.",
                "Correction: <I|{S}> <work|works> at {B}, not {A}.",
            ),
        ),
    ),
    "plan": (
        ("interviewing", ("<I'm|{S} is> interviewing with {B} next week.", "<I|{S}> might apply to {B}.")),
        (
            "hoping",
            ("<I'm|{S} is> hoping to join {B} next year.", "<I'd|{S} would> love to work at {B} someday."),
        ),
    ),
}

EN_JOB_TITLE: Forms = {
    "state": (
        ("work_as", ("<I|{S}> <work|works> as {aA} {A}.", "<I've|{S} has> worked as {aA} {A} for {dur}.")),
        ("am_a", ("<I'm|{S} is> {aA} {A}.", "<I'm|{S} is> {aA} {A} at {O}.")),
        ("title_is", ("<My|{S}'s> job title is {A}.", "<My|{S}'s> role at {O} is {A}.")),
        (
            "been_a",
            ("<I've|{S} has> been {aA} {A} for {dur} now.", "<I|{S}> <make|makes> a living as {aA} {A}."),
        ),
    ),
    "change": (
        ("promoted", ("<I|{S}> got promoted to {B}{when}.", "<I was|{S} was> promoted to {B}{when}.")),
        ("now_a", ("<I'm|{S} is> now {aB} {B}.", "<I|{S}> started working as {aB} {B}{when}.")),
        ("from_to", ("<I|{S}> switched from {A} to {B}{when}.", "<I|{S}> became {aB} {B}{when}.")),
        ("went_from", ("<I|{S}> went from {A} to {B}{when}.", "<I|{S}> got a new role as {aB} {B}{when}.")),
        ("made_me", ("They made <me|{S}> {B}{when}.", "<I|{S}> took a job as {aB} {B}{when}.")),
        (
            "moved_up",
            ("<I've|{S} has> moved up to {B}.", "<I|{S}> changed careers and <am|is> now {aB} {B}."),
        ),
    ),
    "neg": (
        (
            "not_anymore",
            ("<I'm|{S} is> not {aA} {A} anymore.", "<I|{S}> no longer <work|works> as {aA} {A}."),
        ),
        ("quit_being", ("<I|{S}> quit being {aA} {A}{when}.", "<I|{S}> stopped working as {aA} {A}{when}.")),
    ),
    "corr_same": (
        (
            "sorry_i_mean",
            (
                "<I'm|{S} is> {aW} {W}, sorry, I mean {aB} {B}.",
                "<I|{S}> <work|works> as {aW} {W}, oops, I meant {aB} {B}.",
            ),
        ),
        (
            "no_wait",
            (
                "<I|{S}> <work|works> as {aW} {W}... no wait, as {aB} {B}.",
                "<My|{S}'s> job title is {W}, well, actually {B}.",
            ),
        ),
    ),
    "corr_later": (
        (
            "actually",
            (
                "Actually, <I'm|{S} is> {aB} {B}, not {aA} {A}.",
                "Sorry, I got that wrong: <I|{S}> <work|works> as {aB} {B}.",
            ),
        ),
        (
            "misspoke",
            (
                "I misspoke earlier: <my|{S}'s> job title is {B}, not {A}.",
                "Correction: <I'm|{S} is> {aB} {B}, not {aA} {A}.",
            ),
        ),
    ),
    "plan": (
        (
            "hoping",
            ("<I'm|{S} is> hoping to become {aB} {B} next year.", "<I|{S}> might apply to be {aB} {B}."),
        ),
        (
            "dream",
            (
                "<I'd|{S} would> love to be {aB} {B} one day.",
                "<I'm|{S} is> thinking about retraining as {aB} {B}.",
            ),
        ),
    ),
}

ZH_LIVES_IN: Forms = {
    "state": (
        ("zhu_zai", ("{S}住在{A}。", "{S}现在住在{A}。")),
        ("yijing_zhule", ("{S}在{A}已经住了{dur}了。", "{S}在{A}住了{dur}。")),
        ("jia_zai", ("{S}家在{A}。", "{S}目前在{A}生活。")),
        ("shenghuo", ("{S}在{A}生活了{dur}。", "{S}一直住在{A}。")),
    ),
    "change": (
        ("ban_dao", ("{S}{when}搬到了{B}。", "{S}已经搬到{B}了。")),
        ("cong_ban_dao", ("{S}{when}从{A}搬到了{B}。", "{S}从{A}搬去了{B}。")),
        ("ban_qu", ("{S}{when}搬去{B}了。", "{S}{when}搬去了{B}住。")),
        ("likai_ban", ("{S}{when}离开{A}，搬到了{B}。", "{S}{when}从{A}搬家到{B}了。")),
        ("anjia", ("{S}{when}在{B}安家了。", "{S}现在住在{B}了。")),
        ("yiju", ("{S}{when}移居{B}了。", "{S}{when}把家搬到了{B}。")),
    ),
    "neg": (
        ("bu_zhu_le", ("{S}已经不住在{A}了。", "{S}不在{A}住了。")),
        ("ban_li", ("{S}{when}搬离了{A}。", "{S}{when}离开了{A}，还没定下来住哪。")),
    ),
    "corr_same": (
        ("bu_dui", ("{S}住在{W}，哦不对，是{B}。", "{S}{when}搬到了{W}，不对，是{B}。")),
        ("shuo_cuo", ("{S}住在{W}——说错了，是住在{B}。", "{S}住在{W}，啊不是，是{B}，不是{W}。")),
    ),
    "corr_later": (
        ("qishi", ("其实{S}住在{B}，不是{A}。", "我之前说错了，{S}住在{B}。")),
        ("gengzheng", ("更正一下：{S}住在{B}，不是{A}。", "纠正一下，{S}家在{B}，不在{A}。")),
    ),
    "plan": (
        ("dasuan", ("{S}打算明年搬到{B}。", "{S}可能会搬去{B}。")),
        ("xiang", ("{S}很想以后去{B}生活。", "{S}在考虑要不要搬到{B}。")),
    ),
}

ZH_WORKS_AT: Forms = {
    "state": (
        ("zai_gongzuo", ("{S}在{A}工作。", "{S}在{A}上班。")),
        ("gongzuo_dur", ("{S}在{A}工作{dur}了。", "{S}在{A}已经干了{dur}了。")),
        ("shi_de", ("{S}是{A}的工程师。", "{S}在{A}当产品经理。")),
        ("jiuzhi", ("{S}一直在{A}上班。", "{S}目前就职于{A}。")),
    ),
    "change": (
        ("tiaocao", ("{S}{when}跳槽到了{B}。", "{S}跳槽去了{B}。")),
        ("cong_tiaocao", ("{S}{when}从{A}跳槽到{B}了。", "{S}{when}离开了{A}，加入了{B}。")),
        ("ruzhi", ("{S}{when}入职了{B}。", "{S}{when}正式入职{B}。")),
        ("lizhi_qu", ("{S}{when}从{A}离职，去了{B}。", "{S}辞掉了{A}的工作，现在在{B}上班。")),
        ("jiaru", ("{S}{when}加入了{B}。", "{S}现在在{B}上班了。")),
        ("luyong", ("{S}{when}被{B}录用了。", "{S}{when}换到{B}工作了。")),
    ),
    "neg": (
        ("lizhi", ("{S}{when}从{A}离职了。", "{S}已经不在{A}工作了。")),
        ("cizhi", ("{S}{when}从{A}辞职了。", "{S}{when}离开了{A}，现在还没找新工作。")),
    ),
    "corr_same": (
        ("bu_dui", ("{S}在{W}工作，哦不对，是在{B}。", "{S}{when}入职了{W}，不对，是{B}。")),
        ("shuo_cuo", ("{S}在{W}上班——说错了，是在{B}上班。", "{S}在{W}工作，啊不是，是{B}，不是{W}。")),
    ),
    "corr_later": (
        ("qishi", ("其实{S}在{B}工作，不是{A}。", "我之前说错了，{S}在{B}上班。")),
        ("gengzheng", ("更正一下：{S}在{B}工作，不在{A}。", "纠正一下，{S}的公司是{B}，不是{A}。")),
    ),
    "plan": (
        ("dasuan", ("{S}打算明年跳槽去{B}。", "{S}下周去{B}面试。")),
        ("xiang", ("{S}很想去{B}工作。", "{S}在考虑要不要投{B}的简历。")),
    ),
}

ZH_JOB_TITLE: Forms = {
    "state": (
        ("shi_yiming", ("{S}是一名{A}。", "{S}现在是{A}。")),
        ("zai_dang", ("{S}在{O}当{A}。", "{S}在{O}做{A}。")),
        ("zhiwei", ("{S}的工作是{A}。", "{S}的职位是{A}。")),
        ("dang_dur", ("{S}当{A}已经{dur}了。", "{S}做{A}做了{dur}。")),
    ),
    "change": (
        ("shengzhi", ("{S}{when}升职成了{B}。", "{S}{when}被提拔为{B}了。")),
        ("jinsheng", ("{S}{when}晋升为{B}。", "{S}{when}从{A}升到了{B}。")),
        ("dangshang", ("{S}现在是{B}了。", "{S}{when}当上了{B}。")),
        ("zhuanhang", ("{S}{when}转行做{B}了。", "{S}{when}从{A}转岗成了{B}。")),
        ("renming", ("{S}{when}被任命为{B}。", "{S}{when}升任{B}。")),
        ("gaihang", ("{S}{when}改行当了{B}。", "{S}{when}换了工作，现在做{B}。")),
    ),
    "neg": (
        ("buzai", ("{S}不再当{A}了。", "{S}已经不做{A}了。")),
        ("ciqu", ("{S}{when}辞去了{A}的职位。", "{S}{when}不干{A}了。")),
    ),
    "corr_same": (
        ("bu_dui", ("{S}是{W}，哦不对，是{B}。", "{S}的职位是{W}，不对，是{B}。")),
        ("shuo_cuo", ("{S}是{W}——说错了，是{B}。", "{S}在做{W}，啊不是，是{B}，不是{W}。")),
    ),
    "corr_later": (
        ("qishi", ("其实{S}是{B}，不是{A}。", "我之前说错了，{S}的职位是{B}。")),
        ("gengzheng", ("更正一下：{S}的职位是{B}，不是{A}。", "纠正一下，{S}是{B}，不是{A}。")),
    ),
    "plan": (
        ("xiwang", ("{S}希望明年能当上{B}。", "{S}打算以后转行做{B}。")),
        ("xiang", ("{S}很想成为{B}。", "{S}在考虑要不要去当{B}。")),
    ),
}

FAMILIES: dict[tuple[str, str], Forms] = {
    ("en", "lives_in"): EN_LIVES_IN,
    ("en", "works_at"): EN_WORKS_AT,
    ("en", "job_title"): EN_JOB_TITLE,
    ("zh", "lives_in"): ZH_LIVES_IN,
    ("zh", "works_at"): ZH_WORKS_AT,
    ("zh", "job_title"): ZH_JOB_TITLE,
}

EN_TITLES = (
    "software engineer",
    "product manager",
    "data analyst",
    "nurse",
    "accountant",
    "teacher",
    "graphic designer",
    "sales manager",
    "project manager",
    "chef",
    "pharmacist",
    "architect",
)
ZH_TITLES = "软件工程师 产品经理 设计师 会计 护士 销售经理 数据分析师 项目经理 老师 厨师 律师 医生".split()

EN_WHEN = (" last week", " yesterday", " two weeks ago", " last month", " a few days ago", " recently", "")
ZH_WHEN = ("上周", "昨天", "两周前", "上个月", "前几天", "最近", "")
EN_DUR = ("three years", "a couple of years", "five years", "about a year", "a long time")
ZH_DUR = ("三年", "两年", "五年多", "一年半", "好几年")

EN_CHATTER = (
    "The weather has been lovely this week.",
    "Haha, that's so true.",
    "How was your weekend?",
    "I'm a bit tired today.",
    "Thanks for asking!",
    "I made pasta for dinner.",
    "Long time no see!",
    "Did you catch the game last night?",
)
ZH_CHATTER = (
    "今天天气真不错。",
    "哈哈，你说得对。",
    "最近工作有点累。",
    "谢谢你的关心！",
    "我晚饭吃了面条。",
    "好久不见！",
    "最近在追一部新剧。",
    "你周末过得怎么样？",
)
# Another person's value for the same predicate, said by the same speaker (a subject distractor).
EN_DISTRACTOR = {
    "lives_in": "My cousin {X} lives in {D}.",
    "works_at": "My cousin {X} works at {D}.",
    "job_title": "My cousin {X} is {aD} {D}.",
}
ZH_DISTRACTOR = {
    "lives_in": "我表哥{X}住在{D}。",
    "works_at": "我表哥{X}在{D}工作。",
    "job_title": "我表哥{X}是{D}。",
}
