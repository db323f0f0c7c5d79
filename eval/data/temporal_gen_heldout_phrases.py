"""Held-out phrasing families for the generated temporal benchmark (``temporal_gen.py --heldout``).

Every family here is a test family (split ``heldout``). They were written after the extractor
work on issue 14 had started, and measured against a snapshot of the code taken before they were
written, so no extractor change could have seen them. Once committed they are visible like the
others: a measurement on a later commit no longer counts as held out, and a new round needs new
families. Same template syntax as ``temporal_gen_phrases``.
"""

from __future__ import annotations

from temporal_gen_phrases import Family, Forms

EN_LIVES_IN: Forms = {
    "state": (
        ("resident", ("<I'm|{S} is> a resident of {A}.", "<My|{S}'s> address is in {A}.")),
        (
            "roommates",
            (
                "<I|{S}> <share|shares> an apartment in {A} with two roommates.",
                "<I've|{S} has> lived over in {A} for {dur}.",
            ),
        ),
    ),
    "change": (
        ("move_done", ("<My|{S}'s> move to {B} is done.", "<I'm|{S} is> officially a {B} resident now.")),
        (
            "left_for",
            ("<I|{S}> left {A} for {B}{when}.", "<I|{S}> moved away from {A}, <I'm|{S} is> in {B} now."),
        ),
        (
            "lease",
            (
                "<I|{S}> finished unpacking at <my|the> new place in {B}{when}.",
                "<I|{S}> signed a lease in {B} and moved{when}.",
            ),
        ),
    ),
    "neg": (
        (
            "between_homes",
            (
                "<I|{S}> moved away from {A}{when} and <am|is> between homes.",
                "<I'm|{S} is> no longer a resident of {A}.",
            ),
        ),
    ),
    "corr_same": (
        (
            "make_that",
            ("<I|{S}> <live|lives> in {W}, make that {B}.", "<I|{S}> moved to {W}{when}, er, {B} I mean."),
        ),
    ),
    "corr_later": (
        (
            "record_straight",
            (
                "What I told you earlier was wrong: <I|{S}> <live|lives> in {B}, not {A}.",
                "To set the record straight, <I'm|{S} is> in {B}.",
            ),
        ),
    ),
    "plan": (
        (
            "next_spring",
            ("<I|{S}> <plan|plans> to move to {B} next spring.", "<We're|{S} is> looking at houses in {B}."),
        ),
    ),
}

EN_WORKS_AT: Forms = {
    "state": (
        ("clock_in", ("<I clock|{S} clocks> in at {A} every morning.", "<I'm|{S} is> an employee of {A}.")),
        ("payroll", ("<I'm|{S} is> on the payroll at {A}.", "<I'm|{S} is> part of the team at {A}.")),
    ),
    "change": (
        (
            "new_gig",
            ("<I|{S}> started a new gig at {B}{when}.", "<I|{S}> switched employers and now <am|is> at {B}."),
        ),
        (
            "changed_jobs",
            (
                "<I|{S}> changed jobs{when}, <I'm|{S} is> at {B} now.",
                "<I|{S}> left {A} for a role at {B}{when}.",
            ),
        ),
        (
            "first_week",
            ("This is <my|{S}'s> first week at {B}.", "<I|{S}> just finished orientation at {B}."),
        ),
    ),
    "neg": (
        (
            "between_jobs",
            ("<I|{S}> quit {A}{when} and <am|is> between jobs.", "<I|{S}> got fired from {A}{when}."),
        ),
    ),
    "corr_same": (
        (
            "make_that",
            ("<I|{S}> <work|works> at {W}, make that {B}.", "<I|{S}> joined {W}{when}, er, {B} I mean."),
        ),
    ),
    "corr_later": (
        (
            "record_straight",
            (
                "What I told you earlier was wrong: <I|{S}> <work|works> at {B}, not {A}.",
                "To set the record straight, <I'm|{S} is> with {B}.",
            ),
        ),
    ),
    "plan": (
        (
            "next_spring",
            (
                "<I|{S}> <plan|plans> to apply to {B} next spring.",
                "<I've|{S} has> got a second interview at {B}.",
            ),
        ),
    ),
}

EN_JOB_TITLE: Forms = {
    "state": (
        ("serve_as", ("<I|{S}> <serve|serves> as {aA} {A}.", "<My|{S}'s> current role is {A}.")),
        (
            "full_time",
            ("<I|{S}> <work|works> full-time as {aA} {A}.", "<I've|{S} has> had the title of {A} for {dur}."),
        ),
    ),
    "change": (
        ("took_over", ("<I|{S}> took over as {B}{when}.", "<I|{S}> earned a promotion to {B}{when}.")),
        (
            "switched_careers",
            (
                "<I|{S}> switched careers{when}, <I'm|{S} is> {aB} {B} now.",
                "After years as {aA} {A}, <I|{S}> became {aB} {B}{when}.",
            ),
        ),
        ("new_title", ("<My|{S}'s> new title is {B}.", "<I|{S}> moved up from {A} to {B}{when}.")),
    ),
    "neg": (
        ("retired", ("<I|{S}> retired as {aA} {A}{when}.", "<I've|{S} has> given up working as {aA} {A}.")),
    ),
    "corr_same": (
        (
            "make_that",
            ("<I'm|{S} is> {aW} {W}, make that {aB} {B}.", "<My|{S}'s> title is {W}, er, {B} I mean."),
        ),
    ),
    "corr_later": (
        (
            "record_straight",
            (
                "What I told you earlier was wrong: <I'm|{S} is> {aB} {B}, not {aA} {A}.",
                "To set the record straight, <my|{S}'s> title is {B}.",
            ),
        ),
    ),
    "plan": (
        (
            "next_spring",
            (
                "<I|{S}> <plan|plans> to become {aB} {B} next spring.",
                "<I'm|{S} is> studying to become {aB} {B}.",
            ),
        ),
    ),
}

ZH_LIVES_IN: Forms = {
    "state": (
        ("anton", ("{S}现在在{A}安顿下来了。", "{S}长期住在{A}。")),
        ("you_fang", ("{S}在{A}有套房子，平时住那儿。", "{S}在{A}住惯了，住了{dur}。")),
    ),
    "change": (
        ("qian_hukou", ("{S}{when}把户口迁到了{B}，人也搬过去了。", "{S}{when}搬到{B}去住了。")),
        ("lai_dao", ("{S}{when}离开了{A}，来到{B}生活。", "{S}{when}从{A}来到了{B}，在这边住下了。")),
        ("xin_jia", ("{S}的新家在{B}。", "{S}{when}在{B}买了房，住进去了。")),
    ),
    "neg": (("zou_le", ("{S}{when}离开{A}了，暂时没有固定住处。", "{S}早就不在{A}住了。")),),
    "corr_same": (("kou_wu", ("{S}住在{W}，呃，应该说是{B}。", "{S}{when}搬到了{W}，口误，是{B}。")),),
    "corr_later": (("cheng_qing", ("我之前讲错了，{S}住{B}，不住{A}。", "澄清一下，{S}住在{B}。")),),
    "plan": (("ji_hua", ("{S}计划明年搬去{B}。", "{S}正在{B}看房子，想搬过去。")),),
}

ZH_WORKS_AT: Forms = {
    "state": (
        ("da_ka", ("{S}每天去{A}打卡。", "{S}在{A}领工资。")),
        ("dan_wei", ("{S}的单位是{A}。", "{S}在{A}做事。")),
    ),
    "change": (
        ("huan_gongzuo", ("{S}{when}换工作了，现在在{B}。", "{S}{when}从{A}出来，进了{B}。")),
        ("jia_meng", ("{S}{when}进了{B}。", "{S}{when}成功加盟{B}。")),
        ("xin_gongsi", ("{S}的新公司是{B}。", "{S}{when}去{B}上了第一天班。")),
    ),
    "neg": (("dai_ye", ("{S}{when}被{A}开除了。", "{S}{when}离开{A}以后一直在家待业。")),),
    "corr_same": (("kou_wu", ("{S}在{W}工作，呃，应该说是{B}。", "{S}{when}进了{W}，口误，是{B}。")),),
    "corr_later": (("cheng_qing", ("我之前讲错了，{S}在{B}上班，不在{A}。", "澄清一下，{S}的单位是{B}。")),),
    "plan": (("ji_hua", ("{S}计划明年去{B}工作。", "{S}正在准备{B}的面试。")),),
}

ZH_JOB_TITLE: Forms = {
    "state": (
        ("zhi_ye", ("{S}的职业是{A}。", "{S}干{A}这一行{dur}了。")),
        ("yi_wei", ("{S}是一位{A}。", "{S}在公司当{A}。")),
    ),
    "change": (
        ("zhuan_zheng", ("{S}{when}转正成了{B}。", "{S}{when}升级成{B}了。")),
        ("gai_zuo", ("{S}{when}不做{A}了，改做{B}。", "{S}{when}从{A}转成了{B}。")),
        ("tou_xian", ("{S}现在的头衔是{B}。", "{S}{when}被提升为{B}。")),
    ),
    "neg": (("tui_xia", ("{S}{when}从{A}的岗位上退下来了。", "{S}现在不当{A}了，也没找别的工作。")),),
    "corr_same": (("kou_wu", ("{S}是{W}，呃，应该说是{B}。", "{S}的职业是{W}，口误，是{B}。")),),
    "corr_later": (("cheng_qing", ("我之前讲错了，{S}是{B}，不是{A}。", "澄清一下，{S}的职业是{B}。")),),
    "plan": (("ji_hua", ("{S}计划明年去当{B}。", "{S}正在考{B}的证。")),),
}

FAMILIES: dict[tuple[str, str], Forms] = {
    ("en", "lives_in"): EN_LIVES_IN,
    ("en", "works_at"): EN_WORKS_AT,
    ("en", "job_title"): EN_JOB_TITLE,
    ("zh", "lives_in"): ZH_LIVES_IN,
    ("zh", "works_at"): ZH_WORKS_AT,
    ("zh", "job_title"): ZH_JOB_TITLE,
}
__all__ = ["FAMILIES", "Family"]
