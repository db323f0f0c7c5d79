"""Chinese predicate frames over the token sequence (``rules_zh_tokens``): where someone lives,
works, studies or stays, and their job title.

``frame_claims(toks, i)`` reads the predicate phrase that starts at ``toks[i]`` (after the subject,
its adverbs, negation and modal words) and returns its claims, all ``assert``; the caller turns
them into ends (negation), plans or hedges. Frames, tried in order:

- 从X<verb>Y: 从X搬到(了)Y (X held before, Y now), 从X跳槽到Y, 从X离职/毕业/回来/搬走 (ends);
- 在X … <verb>: 在X(已经)住了三年, 在X工作/上班, 在X读书, 在X出差, 在X当/做Y (works_at + job_title);
- <verb>在X: 住在X, 生活在X, 家住X, 就职于X;
- <move verb>X: 搬到/搬去/移居/定居X; <join verb>X: 入职/加入/跳槽到X;
- 去/来/到X<verb>: 去X上班, 来X定居, 去X旅游;
- 离开X, 搬离X, 辞去X的工作 (ends; 离开 reads the value's kind);
- job titles: 是(一名)Y, 是X的Y, 当上/升职为/被提拔为/升任Y, 当/做/担任Y.
"""

from __future__ import annotations

from collections.abc import Callable

from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_zh_tokens import (
    ADVERBS,
    ARRIVE,
    AS_V,
    DIRECTION,
    DURATION,
    FIRED,
    GRADE,
    GRADUATE,
    HIRED,
    HOME_NOUNS,
    JOB_PROMOTE,
    LEAVE,
    LEAVE_LIVE,
    LIVE_AT,
    LIVE_V,
    LOCATIVE,
    MOVE_TO,
    MOVED_OUT,
    QUIT,
    QUIT_OBJ,
    READ,
    RETURN,
    STUDY_V,
    SWITCH,
    TITLE_END,
    TRANSFER,
    TRIP_V,
    WORK_AT,
    WORK_TO,
    WORK_V,
    Tok,
    at,
    kind_of,
    skip,
    span,
    text_of,
    trim_org,
    well_formed,
)

Frame = Callable[[list[Tok], int], list[Claim]]

_JOBS = tuple(
    "师 员 经理 总监 主管 主任 顾问 会计 医生 护士 律师 作家 记者 警察 司机 演员 歌手 教授 学生 "
    "老板 总裁 总经理 店长 校长 院长 护士长 组长 队长 科长 处长 局长 部长 董事长 厂长 创始人 合伙人 "
    "助理 秘书 专员 代表 编辑 画家 科学家 研究员 工人 农民 模特 导演 主播 博主 翻译 保安 老师 "
    "研究生 博士生 大学生 实习生 公务员 销售 运营 创业者 自由职业者 CEO CTO COO CFO".split()
)
_MEASURE = frozenset("一名 一位 一个 一 名 个 位 一位名 位名".split())
_TITLE_STOP = frozenset({"的"})
_ARRIVE = ARRIVE | frozenset({"到了"})
_SETTLE = frozenset("定居 落户 安家 移居 迁居".split())
_REPORT = frozenset("报到 报道 入职 就职".split())
_LIVE_DIRECT = frozenset("住 常住 长住 居住 久居 住进 住进了 常驻 长驻".split())  # 住杭州: the place follows
_POST = frozenset("职务 职位 岗位 头衔".split())
_STRICT_PROMOTE = frozenset("成为 成为了 变成 变成了 成了".split())
_FOUND_JOB = frozenset("找到 找到了 找了 获得 获得了 得到 得到了 开始 开始了".split())
_STAFF = frozenset("员工 职员 雇员 一员 正式员工 老员工 新员工 人".split())
_FOR = frozenset("为 给 替".split())

_LASTED = frozenset("已经 已 都 快 有 近 将近 差不多 已有 已经有".split())
_LIVE_UNTIL = frozenset("住到 住到了".split())
_COME = frozenset("来 来了 到 到了".split())
_BACK = frozenset("回到 回 回来 返回到 重返".split())


def is_job(title: str) -> bool:
    return title.endswith(_JOBS)


def _value(toks: list[Tok], i: int) -> tuple[str, int, list[str]]:
    """A well-formed value at ``i`` (else ""), the index after it and its tokens' POS tags.

    A generic head before a name is no part of it: 老家长沙, 家乡/武汉 name 长沙, 武汉."""
    value, j = span(toks, i)
    if j - i >= 2 and toks[i].word in HOME_NOUNS:
        i, value = i + 1, value[len(toks[i].word) :]
    around = next((w for w in LOCATIVE if value.endswith(w) and len(value) - len(w) >= 2), "")
    value = value[: len(value) - len(around)]  # 杭州市区/ns, 市郊区/s: the name before the place word
    if not well_formed(value):
        return "", i, []
    return value, j, [t.flag for t in toks[i:j]]


def home_value(toks: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is introduced as home (回到了老家长沙)."""
    i = skip(toks, i, frozenset({"了"}))
    return at(toks, i, HOME_NOUNS)


def _title(toks: list[Tok], i: int) -> tuple[str, int]:
    i = skip(toks, i, _MEASURE | frozenset({"为", "成", "成为", "了", "做", "当"}))
    while i < len(toks) and DURATION.match(toks[i].word):  # 当了三年老师: the duration is no title
        i = skip(toks, i + 1, _MEASURE | frozenset({"的"}))
    title, j = span(toks, i, _TITLE_STOP)
    return (title, j) if well_formed(title) else ("", i)


def _from(toks: list[Tok], i: int) -> list[Claim]:
    if not at(toks, i, frozenset({"从", "自", "由"})):
        return []
    old, j, old_flags = _value(toks, i + 1)
    if not old:
        return []
    k = skip(toks, j, ADVERBS)
    verb = toks[k].word if k < len(toks) else ""
    new, _, new_flags = _value(toks, skip(toks, k + 1, frozenset({"了"})))
    toward = verb in DIRECTION or verb in _ARRIVE
    places = kind_of(old, old_flags) == "place" and kind_of(new, new_flags) == "place"
    if (
        verb in MOVE_TO
        or (toward and kind_of(new, ()) != "organization" and new)
        or (verb in TRANSFER and places)
    ):
        return [Claim("lives_in", old, before=True), Claim("lives_in", new)] if new else []
    if verb in WORK_TO:
        return [Claim("works_at", old, before=True), Claim("works_at", new)] if new else []
    if verb in JOB_PROMOTE:  # 从护士升为护士长
        title, _ = _title(toks, k + 1)
        return [Claim("job_title", old, before=True), Claim("job_title", title)] if title else []
    if verb in QUIT or verb == "跳槽":
        return [Claim("works_at", old, kind="end")]
    if verb in GRADUATE:
        return [Claim("studies_at", old, kind="end")]
    if verb in RETURN:
        return [Claim("located_at", old, kind="end")]
    if verb in MOVED_OUT or verb in LEAVE_LIVE:
        return [Claim("lives_in", old, kind="end")]
    return []


def _zai(toks: list[Tok], i: int) -> list[Claim]:
    if not at(toks, i, frozenset({"在", "于", "正在"})):
        return []
    if at(toks, i + 1, _PROGRESSIVE):
        return []  # 在找新工作 / 在学日语: 在 is the progressive aspect, not a place
    place, j, flags = _value(toks, i + 1)
    if not place and at(toks, i + 1, _OWN_ORG):  # 在公司当工程师: the title, the employer unnamed
        k = skip(toks, i + 2, _BEFORE_VERB)
        title, _ = _title(toks, k + 1) if at(toks, k, AS_V) else ("", k)
        return [Claim("job_title", title)] if title and is_job(title) else []
    if not place:
        return []
    k = skip(toks, j, _BEFORE_VERB)
    verb = toks[k].word if k < len(toks) else ""
    if at(toks, j, frozenset({"找"})) and at(toks, j + 1, frozenset({"了"})):  # 在X找了份工作
        toks = [*toks[:j], Tok("找了", "v"), *toks[j + 2 :]]
    reads = verb in READ and at(toks, k + 1, GRADE)
    if not _zai_verb(verb) and not reads and not at(toks, j, _FOUND_JOB):
        place, j, flags, k = _longer(toks, i + 1, j, place, flags)
        verb = toks[k].word if k < len(toks) else ""
    kind = kind_of(place, flags)
    if verb in _LIVE_UNTIL:  # 在南京一直住到现在
        return [Claim("lives_in", place)]
    if verb in LIVE_V:
        named_org = kind == "organization" or (len(flags) == 1 and flags[0] in ("nt", "nz", "nr", "nrt"))
        return [Claim("works_at" if named_org and verb in ("待", "呆") else "lives_in", place)]
    if verb in WORK_V or verb in _REPORT:  # 在X工作 / 在X入职
        return [Claim("works_at", place)]
    if verb in STUDY_V or (verb in READ and at(toks, k + 1, GRADE)):  # 在浙大念大三 / 在北大读博
        city = reads and kind == "place" and not place.endswith(_SCHOOL_END)  # 在北京上大学: a city
        return [] if city else [Claim("studies_at", place)]
    if verb in TRIP_V:
        return [Claim("located_at", place)]
    if at(toks, j, _FOUND_JOB) and "工作" in text_of(toks[j + 1 :]):  # 在X找到了/开始了新工作
        return [Claim("works_at", place)]
    if verb in AS_V:
        title, _ = _title(toks, k + 1)
        claims = [Claim("works_at", place)]
        fits = title and title not in _NO_TITLE and (verb != "干" or is_job(title))
        return claims + ([Claim("job_title", title)] if fits else [])
    return []


# activity verbs after 在 mark the progressive (在找工作, 在学日语, 在看房子), never a place's start
_PROGRESSIVE = frozenset(
    "找 学 看 等 写 读 吃 玩 练 追 忙 听 画 打 聊 逛 跑 考 搞 弄 修 忙着 找着 准备 筹备 申请".split()
)
_BEFORE_VERB = ADVERBS | LOCATIVE | frozenset({"一"})  # 在成都一住就是十年, 在腾讯那边上班


def _zai_verb(word: str) -> bool:
    return (
        word in LIVE_V
        or word in WORK_V
        or word in STUDY_V
        or word in TRIP_V
        or word in AS_V
        or word in _REPORT
    )


def _longer(toks: list[Tok], i: int, j: int, value: str, flags: list[str]) -> tuple[str, int, list[str], int]:
    """在X<verb> where the value ended early at a word that can also be part of a name (蔚/来 上班):
    the value runs on to the frame verb when only name material (no adverb, particle, pronoun or
    punctuation) stands between; else it stays as it was."""
    for end in range(j + 1, min(j + 3, len(toks)) + 1):
        if end < len(toks) and _zai_verb(toks[end].word) and end > j:
            between = toks[j:end]
            if all(
                not t.punct and t.word not in ADVERBS and t.flag not in ("ul", "uj", "r", "d", "m")
                for t in between
            ):
                longer = text_of(toks[i:end])
                if well_formed(longer):
                    return longer, end, [t.flag for t in toks[i:end]], end
            break
    return value, j, flags, skip(toks, j, _BEFORE_VERB)


def bare_zai(toks: list[Tok], i: int) -> list[Claim]:
    """在X with no verb after it, for 我已经不在X了: lives_in for a place, else works_at."""
    if not at(toks, i, frozenset({"在"})):
        return []
    value, j, flags = _value(toks, i + 1)
    if not value or skip(toks, j, ADVERBS) < len(toks):
        return []
    return [Claim("lives_in" if kind_of(value, flags) == "place" else "works_at", value)]


def _verb_at(toks: list[Tok], i: int) -> list[Claim]:
    if at(toks, i, LIVE_AT) or at(toks, i, _LIVE_DIRECT):
        place, _, _ = _value(toks, skip(toks, i + 1, frozenset({"在", "于"})))
        return [Claim("lives_in", place)] if place else []
    if at(toks, i, WORK_AT):
        org, _, _ = _value(toks, i + 1)
        return [Claim("works_at", org)] if org else []
    return []


def _move(toks: list[Tok], i: int) -> list[Claim]:
    if at(toks, i, TRANSFER):  # 调到深圳 moves the person, 调到销售部 / 进入华为 changes the job
        value, j, flags = _value(toks, skip(toks, i + 1, frozenset({"了", "到"})))
        if not value:
            return []
        after = toks[skip(toks, j, ADVERBS)].word if skip(toks, j, ADVERBS) < len(toks) else ""
        if after in LIVE_V or after in _SETTLE:
            return [Claim("lives_in", value)]
        moved = kind_of(value, flags) == "place" and after not in WORK_V
        return [Claim("lives_in", value)] if moved else [Claim("works_at", trim_org(value))]
    if at(toks, i, _BACK):  # 回到了老家长沙 (home), 回到北京工作 (the job), 回到北京 (a stay)
        value, j, flags = _value(toks, skip(toks, i + 1, frozenset({"了", "到", "趟", "一趟"})))
        if not value:
            return []
        after = toks[skip(toks, j, ADVERBS)].word if skip(toks, j, ADVERBS) < len(toks) else ""
        if after in WORK_V and kind_of(value, flags) != "place":
            return [Claim("works_at", value)]
        settled = after in WORK_V or home_value(toks, i + 1) or after in LIVE_V or after in _SETTLE
        return [Claim("lives_in" if settled else "located_at", value)]
    if at(toks, i, MOVE_TO) or at(toks, i, _SETTLE):
        place, _, _ = _value(toks, skip(toks, i + 1, frozenset({"了", "在", "于", "到"})))
        return [Claim("lives_in", place)] if place else []
    if at(toks, i, WORK_TO):
        org, _, _ = _value(toks, skip(toks, i + 1, frozenset({"了"})))
        return [Claim("works_at", trim_org(org))] if org else []
    if at(toks, i, _ADMITTED):  # 考上了浙江大学: a school
        school, _, _ = _value(toks, skip(toks, i + 1, frozenset({"了"})))
        return [Claim("studies_at", school)] if school else []
    if at(toks, i, _ENTER):  # 进腾讯 / 2020年进的腾讯: an employer (进城 / 进山 are no job)
        org, _, flags = _value(toks, skip(toks, i + 1, frozenset({"了", "的"})))
        employer = org and len(org) >= 2 and kind_of(org, flags) in ("organization", "")
        return [Claim("works_at", trim_org(org))] if employer and "ns" not in flags else []
    if at(toks, i, _ARRIVE):  # 来到X定居 (the verb after X says what), else a stay
        place, _, _ = _value(toks, skip(toks, i + 1, frozenset({"了"})))
        return _go(toks, i) or ([Claim("located_at", place)] if place else [])
    return []


def _go(toks: list[Tok], i: int) -> list[Claim]:
    if not (at(toks, i, DIRECTION) or at(toks, i, SWITCH) or at(toks, i, ARRIVE)):
        return []
    place, j, flags = _value(toks, skip(toks, i + 1, frozenset({"了"})))
    if not place:
        return []
    k = skip(toks, j, ADVERBS)
    verb = toks[k].word if k < len(toks) else ""
    if verb in WORK_V or verb in _REPORT:
        return [Claim("works_at", place)]
    if verb in LIVE_V or verb in _SETTLE:
        return [Claim("lives_in", place)]
    if verb in STUDY_V:
        return [Claim("studies_at", place)]
    if verb in TRIP_V:
        return [Claim("located_at", place)]
    if toks[i].word in _COME and k < len(toks) and DURATION.match(verb):  # 我来南京已经半年了
        return [Claim("lives_in", place)]
    lasted = any(t.word in _LASTED for t in toks[:k])  # 已经来X(两年)了 / 来X将近(两年)了
    if toks[i].word in _COME and lasted and (k >= len(toks) or toks[k].word == "了"):
        return [Claim("lives_in", place)]  # the same with the duration cut as a time (来南京已经…了)
    if toks[i].word in SWITCH and k >= len(toks):  # 我换到美团了: a place is a move, else a job
        return [Claim("lives_in" if kind_of(place, flags) == "place" else "works_at", place)]
    return []


def _passive(toks: list[Tok], i: int) -> list[Claim]:
    """被X录用 (hired: works at X), 被X裁员/开除 (its end); 为X工作 (works for X)."""
    if not (at(toks, i, frozenset({"被"})) or at(toks, i, _FOR) or at(toks, i, _WITH)):
        return []
    if toks[i].word in _WITH:  # 跟X解约了 / 和X解除了合同: the verb ends the span it sits in
        k = next((m for m in range(i + 2, len(toks)) if toks[m].word in _PART_WAYS), 0)
        org = text_of(toks[i + 1 : k]) if k else ""
        return (
            [Claim("works_at", org, kind="end")] if well_formed(org) and k == span(toks, i + 1)[1] - 1 else []
        )
    org, j, _ = _value(toks, i + 1)
    if not org:
        return []
    verb = toks[j].word if j < len(toks) else ""
    if toks[i].word == "被":
        if verb in HIRED or verb == "录取":
            return [Claim("studies_at" if verb == "录取" else "works_at", org)]
        return [Claim("works_at", org, kind="end")] if verb in FIRED else []
    return [Claim("works_at", org)] if verb in WORK_V else []


def _leave(toks: list[Tok], i: int) -> list[Claim]:
    if at(toks, i, LEAVE_LIVE):
        place, _, _ = _value(toks, skip(toks, i + 1, frozenset({"了"})))
        return [Claim("lives_in", place, kind="end")] if place else []
    if at(toks, i, QUIT_OBJ) and at(toks, skip(toks, i + 1, frozenset({"了"})), frozenset({"在"})):
        org, _, _ = _value(toks, skip(toks, i + 1, frozenset({"了"})) + 1)  # 辞掉了在X的工作
        return [Claim("works_at", org, kind="end")] if org else []
    if at(toks, i, LEAVE) or at(toks, i, QUIT_OBJ):
        value, j, flags = _value(toks, skip(toks, i + 1, frozenset({"了"})))
        if not value:
            return []
        post = at(toks, j, frozenset({"的"})) and at(
            toks, j + 1, _POST | frozenset({"工作"}) if is_job(value) else _POST
        )
        if at(toks, j, frozenset({"一职"})) or post:
            return [Claim("job_title", value, kind="end")]  # 辞去了经理的职务 / 经理一职 / 律师的工作
        is_place = at(toks, i, LEAVE) and kind_of(value, flags) == "place"
        return [Claim("lives_in" if is_place else "works_at", value, kind="end")]
    return []


def _job(toks: list[Tok], i: int) -> list[Claim]:
    if at(toks, i, TITLE_END):
        title, _ = _title(toks, i + 1)
        return [Claim("job_title", title, kind="end")] if title else []
    if at(toks, i, _STRICT_PROMOTE):  # 成为了X的员工 / 成了一名律师: a job title or an employer
        return _is(toks, i + 1)
    if at(toks, i, frozenset({"被"})):  # 被(公司)提拔为Y
        _, j = span(toks, i + 1)
        if at(toks, j, JOB_PROMOTE) and not at(toks, j, _STRICT_PROMOTE):
            return _job(toks, j)
        return []
    if at(toks, i, JOB_PROMOTE):
        title, _ = _title(toks, i + 1)
        if toks[i].word == "从事":  # 从事会计工作
            title = title.removesuffix("工作").removesuffix("行业") if title else title
        return [Claim("job_title", title)] if title else []
    if at(toks, i, frozenset({"是"})):
        return _is(toks, i + 1)
    if at(toks, i, AS_V) and at(toks, i + 1, frozenset({"的"})) and at(toks, i + 2, frozenset({"是"})):
        title, _ = _title(toks, i + 3)  # 我干的是软件工程师
        return [Claim("job_title", title)] if title and is_job(title) else []
    if at(toks, i, AS_V):
        title, _ = _title(toks, i + 1)
        return [Claim("job_title", title)] if title and is_job(title) else []
    return []


def _is(toks: list[Tok], i: int) -> list[Claim]:
    """是(一名)Y (Y a job title) or 是X的Y (works at / studies at X as Y); 是公司的Y is the title."""
    if at(toks, i, _OWN_ORG) and at(toks, i + 1, frozenset({"的"})):
        job, _ = _title(toks, i + 2)
        return [Claim("job_title", job)] if job and is_job(job) else []
    title, j = _title(toks, i)
    if not title:
        return []
    staff = next((w for w in ("员工", "职员", "雇员") if title.endswith(w) and len(title) > len(w) + 1), "")
    if staff and not at(toks, j, frozenset({"的"})):  # 是京东员工: the employer
        return [Claim("works_at", title[: -len(staff)])]
    if at(toks, j, frozenset({"的"})):
        job, _ = _title(toks, j + 1)
        if job in _STAFF:  # 是华为的员工: the employer only
            return [Claim("works_at", title)]
        if job and is_job(job):
            employer = "studies_at" if job.endswith("学生") else "works_at"
            return [Claim("job_title", job), Claim(employer, title)]
        return []
    return [Claim("job_title", title)] if is_job(title) else []


def title_claims(toks: list[Tok], i: int) -> list[Claim]:
    """For 的职位是Y / 的工作是Y: any title."""
    title, _ = _title(toks, i)
    return [Claim("job_title", title)] if title else []


def _by(toks: list[Tok], i: int) -> list[Claim]:
    """被(公司)调到了深圳 / 被派到X: the agent is skipped, the move or job frame reads the rest."""
    if not at(toks, i, frozenset({"被"})):
        return []
    for j in (i + 1, span(toks, i + 1)[1]):
        if at(toks, j, TRANSFER) or at(toks, j, MOVE_TO) or at(toks, j, WORK_TO):
            return _move(toks, j)
        if at(toks, j, frozenset({"从", "由"})):  # 被公司从宁波调到了温州
            return _from(toks, j)
    return []


FRAMES: tuple[Frame, ...] = (_from, _zai, _verb_at, _move, _go, _passive, _leave, _job, _by)


def frame_claims(toks: list[Tok], i: int) -> list[Claim]:
    """Claims of the first frame that matches at ``toks[i]`` (是…的 is read without 是)."""
    for frame in FRAMES:
        claims = frame(toks, i)
        if claims:
            return claims
    if at(toks, i, frozenset({"是"})):  # 是…(的) stresses when or how: 我是在上海住的
        return frame_claims(toks[:-1] if toks[-1].word == "的" else toks, i + 1)
    if at(toks, i, _SHI_DE_VERBS) and at(toks, i + 1, frozenset({"的"})) and i + 2 < len(toks):
        return frame_claims([*toks[: i + 1], *toks[i + 2 :]], i)  # (是)三年前搬来的德阳: 搬来德阳
    if at(toks, i, _SERIAL) and i + 1 < len(toks):  # 辞职离开了阿里 / 搬家去了X: the second verb says where
        return frame_claims(toks, skip(toks, i + 1, frozenset({"了", "后", "以后", "之后"})))
    return []


_SCHOOL_END = ("大", "大学", "学院", "学校", "中学", "一中", "二中", "小学", "高中", "职高", "技校")
_WITH = frozenset("跟 和 与 同".split())
_NO_TITLE = frozenset("事 事情 事儿 生意 工作 项目 东西 买卖 活 活儿".split())
_ENTER = frozenset({"进"})
_ADMITTED = frozenset("考上 考进 考入 考取 考到".split())
_PART_WAYS = frozenset("解约 解除合同 解除劳动合同 解除了 终止合同 终止了合同 分道扬镳".split())
_OWN_ORG = frozenset("公司 单位 我们公司 我们单位 部门 我们部门 团队 我们团队 学校 医院".split())
_SERIAL = QUIT | MOVED_OUT | GRADUATE
_SHI_DE_VERBS = MOVE_TO | WORK_TO | DIRECTION | ARRIVE | TRANSFER | _SETTLE | _BACK | JOB_PROMOTE | _ENTER
