"""Chinese phrasings outside the token frames (``rules_zh_frames``): (regex over the clause after
its subject, builder) pairs for owns, relationship_status, prefers/likes/dislikes, has_pet and
name, whose objects are free noun phrases (吃火锅, 一只猫) rather than names.

The first rule whose pattern matches and whose builder finds a usable object wins; prefers
(更喜欢) before likes. ``clean`` trims objects (trailing 了/的/现在, 去/住 after places).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from graphmem.models.extraction import ClaimKind
from graphmem.providers.extractors.rules_base import Claim

# --------------------------------------------------------------------------- objects

_TRAIL = re.compile(
    r"(?:了|啦|呢|哦|呀|吧|啊|嘛|喔|哈|哈哈|哟|咯|嘞|呗|噢|的|现在|目前|最近|一下|很久|好久|好几年|多年)+$"
)
_PLACE_TRAIL = re.compile(r"(?:去|来|住|生活|定居|发展|工作)+$")
_EMPTY = frozenset(
    "你 您 他 她 它 这 那 这里 那里 这儿 那儿 家 家里 它们 他们 她们 你们 我 我们 自己".split()
)
_JOBS = tuple(
    "工程师 老师 教师 医生 护士 设计师 程序员 经理 律师 学生 作家 会计 "
    "厨师 记者 警察 司机 演员 歌手 研究员 科学家 教授 研究生 博士生 "
    "大学生 销售 画家 摄影师 翻译 公务员 分析师 顾问 建筑师 药剂师 "
    "咨询师 主管 总监 创业者 实习生 编辑 产品经理 运营 老板".split()
)
_PETS = tuple("小猫 小狗 猫咪 狗狗 猫 狗 兔子 仓鼠 鹦鹉 金鱼 鱼 乌龟 鸟 马 宠物 小兔".split())


def clean(text: str, *, place: bool = False) -> str | None:
    text = text.strip(" ，,。！!？?：:\"'“”")
    for _ in range(2):
        text = _TRAIL.sub("", text)
        if place:
            text = _PLACE_TRAIL.sub("", text)
    if not text or text in _EMPTY or len(text) > 30:
        return None
    return text


def _is_job(title: str) -> bool:
    return title.endswith(_JOBS)


# --------------------------------------------------------------------------- phrasing rules

Build = Callable[[re.Match[str]], list[Claim]]


def _simple(predicate: str, kind: ClaimKind = "assert", *, place: bool = False) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        obj = clean(m.group("obj"), place=place)
        return [] if obj is None else [Claim(predicate, obj, kind=kind)]

    return build


def _job(check: bool) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        title = clean(m.group("obj"))
        if title is None or (check and not _is_job(title)):
            return []
        org, _, job = title.rpartition("的")
        claims = [Claim("job_title", job or title)]
        if org and 1 < len(org) <= 12:
            claims.append(Claim("studies_at" if job.endswith("学生") else "works_at", org))
        return claims

    return build


def _status(status: str) -> Build:
    def build(m: re.Match[str]) -> list[Claim]:
        claims = [Claim("relationship_status", status)]
        partner = m.groupdict().get("p")
        if partner and status == "married":
            claims.append(Claim("married_to", partner, object_kind="person"))
        return claims

    return build


def _pet(m: re.Match[str]) -> list[Claim]:
    name = m.groupdict().get("name")
    return [Claim("has_pet", f"{m.group('pet')}叫{name}" if name else m.group("pet"))]


def _bought(m: re.Match[str]) -> list[Claim]:
    obj = clean(m.group("obj"))
    if obj is None:
        return []
    pet = next((p for p in _PETS if obj.endswith(p)), None)
    return [Claim("has_pet", pet)] if pet else [Claim("owns", obj)]


def _prefers(m: re.Match[str]) -> list[Claim]:
    parts = re.split(r"而不是|而非|胜过", m.group("obj"), maxsplit=1)
    obj = clean(parts[0])
    alt = clean(parts[1]) if len(parts) > 1 else None
    if obj is None:
        return []
    return [Claim("prefers", obj, qualifier=" vs ".join(sorted((obj, alt))) if alt else "")]


def _favourite(m: re.Match[str]) -> list[Claim]:
    obj = clean(m.group("obj"))
    return [] if obj is None else [Claim("prefers", obj, qualifier=m.group("topic"))]


_PET = "|".join(_PETS)
_RULE_TABLE: tuple[tuple[str, Build], ...] = (
    (r"卖掉?了(?:我的)?(?P<obj>.+)", _simple("owns", "end")),
    # relationship_status
    (r"(?:和|跟)(?P<p>.+?)结婚了", _status("married")),
    (r"(?:结婚了|已婚)", _status("married")),
    (r"(?:是)?单身", _status("single")),
    (r"离婚了", _status("divorced")),
    (r"订婚了", _status("engaged")),
    (r"(?:和.+?)?分手了", _status("single")),
    # prefers before likes
    (r"更(?:喜欢|爱|倾向于?|偏爱)(?P<obj>.+)", _prefers),
    (r"(?:很|非常|特别|超级|超|最)?(?:讨厌|厌恶|受不了)(?P<obj>.+)", _simple("dislikes")),
    (r"(?:很|非常|特别|超级|超|最)?(?:喜欢|热爱|爱(?!人))(?:上了)?(?P<obj>.+)", _simple("likes")),
    # has_pet / owns
    (
        rf"(?:养了|养着|养|有)(?:一|两|三|几|\d)?(?:只|条|匹|头|个)?(?P<pet>{_PET})(?:叫|名叫|名字叫)?"
        r"(?P<name>[\u4e00-\u9fffA-Za-z]{1,6})?$",
        _pet,
    ),
    (
        r"买了(?:一辆|一台|一个|一套|一部|一件|一双|一块|一只|一条|个|辆|台|套|部|只)?(?:新的?)?(?P<obj>.+)",
        _bought,
    ),
    # name (explicit 我 only)
    (r"(?:叫|名叫)(?P<obj>.+)", _simple("name")),
)
RULES = tuple((re.compile(p), build) for p, build in _RULE_TABLE)
IMPLICIT = tuple(
    (re.compile(p), build)
    for p, build in (
        (r"^我的名字(?:是|叫)(?P<obj>.+)", _simple("name")),
        (r"^我的工作是(?P<obj>.+)", _job(False)),
        (r"^我(?:最喜欢|最爱)的(?P<topic>.+?)是(?P<obj>.+)", _favourite),
    )
)


def match(rules: tuple[tuple[re.Pattern[str], Build], ...], text: str) -> list[Claim]:
    for pattern, build in rules:
        m = pattern.match(text)
        if m is not None:
            claims = build(m)
            if claims:
                return claims
    return []
