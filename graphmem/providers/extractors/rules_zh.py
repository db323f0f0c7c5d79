"""Chinese phrasings for the rules extractor: one sentence in, claims out.

``parse_zh(sentence)`` expects time phrases already removed. It skips questions (吗, 哪里, 什么...)
and hypotheticals (如果, 假如...), notes hedges (可能, 我觉得...) and corrections (其实/我说错了 ...
，不是Y), splits clauses on "，", finds the subject (我, 我们, 我的朋友张伟, or a jieba ``nr`` name)
and matches ``_RULES``. jieba is loaded lazily, on the first Chinese sentence.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from types import ModuleType

from graphmem.models.extraction import ClaimKind
from graphmem.providers.extractors.rules_base import SPEAKER, Claim, ParsedSentence

_lock = threading.Lock()
_posseg: ModuleType | None = None


def posseg() -> ModuleType:
    """``jieba.posseg``, imported and quietened on first use."""
    global _posseg
    with _lock:
        if _posseg is None:
            import jieba
            import jieba.posseg

            jieba.setLogLevel(60)
            _posseg = jieba.posseg
        return _posseg


_ZH_KINDS = {"nr": "person", "nrfg": "person", "ns": "place", "nt": "organization"}


def zh_entities(text: str) -> list[tuple[str, str]]:
    """(name, kind) for person/place/organization words that jieba tags in ``text``."""
    found = []
    for pair in posseg().cut(text):
        kind = _ZH_KINDS.get(pair.flag)
        if kind is not None and len(pair.word) >= 2:
            found.append((pair.word, kind))
    return found


# --------------------------------------------------------------------------- sentence level

_QUESTION = re.compile(
    r"[吗嘛呢][\s。！!]*$|哪里|哪儿|哪个|哪家|什么|谁|怎么|为什么|为何|几时|多少|是不是|有没有|是否"
)
_HYPOTHETICAL = re.compile(r"如果|假如|要是|假设|万一|的话|假使|倘若|想象|希望|但愿")
_HEDGE = re.compile(r"我觉得|我猜|我认为|听说|好像|可能|也许|大概|估计|或许|似乎|应该")
_MARK = re.compile(
    r"^(?:(?:其实|实际上|我说错了|说错了|更正一下|更正|纠正一下|纠正|不对|抱歉|对不起|不好意思)"
    r"[，,：:！!。\s]*)+"
)
_EXPLICIT = re.compile(r"说错|更正|纠正")
_NOT_TAIL = re.compile(r"[，,]\s*(?:而)?不是(?:在|住在)?(?P<wrong>[^，,。！？]+?)[。！!\s]*$")
_COMPARE = re.compile(
    r"^(?:比起|相比于|相比起|相比|与其)(?P<other>[^，,]+?)(?:来说|而言)?[，,]\s*(?P<rest>.*)$"
)
_CLAUSE = re.compile(r"[，,；;、]")


def parse_zh(sentence: str) -> ParsedSentence:
    """Claims made by one Chinese sentence (time phrases already removed)."""
    text = re.sub(r"\s+", "", sentence).rstrip("。！!？?…~～")
    if not text or sentence.rstrip().endswith(("？", "?")) or _QUESTION.search(text):
        return ParsedSentence()
    if _HYPOTHETICAL.search(text):
        return ParsedSentence()
    parsed = ParsedSentence()
    text, hedges = _HEDGE.subn("", text)
    parsed.hedged = hedges > 0
    mark = _MARK.match(text)
    if mark is not None:
        parsed.correction = bool(_EXPLICIT.search(mark.group(0)))
        text = text[mark.end() :]
    tail = _NOT_TAIL.search(text)
    if tail is not None:
        parsed.replaces = clean(tail.group("wrong"), place=True)
        parsed.correction = parsed.correction or parsed.replaces is not None
        text = text[: tail.start()]
    other = None
    compare = _COMPARE.match(text)
    if compare is not None:
        other, text = clean(compare.group("other")), compare.group("rest")
    parsed.claims = _parse_clauses(text)
    for claim in parsed.claims:
        if claim.predicate == "prefers" and other and not claim.qualifier:
            claim.qualifier = " vs ".join(sorted((claim.obj, other)))
    return parsed


# --------------------------------------------------------------------------- clause level

_REL = (
    r"朋友|好朋友|姐姐|妹妹|哥哥|弟弟|妻子|老婆|丈夫|老公|男朋友|女朋友|同事|老板|爸爸|妈妈|父亲|母亲|"
    r"儿子|女儿|表姐|表妹|表哥|表弟|室友|邻居|同学|领导"
)
_SUBJECT = re.compile(
    rf"^(?:(?P<we>我们|咱们)|我的?(?P<rel>{_REL})(?P<relname>[\u4e00-\u9fff]{{2,3}}?)(?=[在住是叫去搬加入离从喜爱讨养买有当打计准已不])"
    r"|(?P<first>我)(?!的)|(?P<other>你们|您|你|他们|她们|他|她|它|这|那))"
)
_ADV = re.compile(
    r"^(?:现在|目前|一直|已经|就|也|还是|还|都|刚刚|刚|最近|终于|又|仍然|依然|真的|其实|开始)+"
)
_END_PARTICLE = re.compile(r"了[啊呀啦哦吧]*$")
_WE_OK = frozenset({"lives_in", "relationship_status", "located_at", "has_pet", "owns", "plans"})


def _parse_clauses(text: str) -> list[Claim]:
    claims: list[Claim] = []
    subject: tuple[str, str | None] | None = None
    for clause in _CLAUSE.split(text):
        if not clause:
            continue
        implicit = _match(_IMPLICIT, clause)
        if implicit:
            claims.extend(implicit)
            subject = ("first", SPEAKER)
            continue
        found = _subject(clause)
        explicit = found is not None
        if found is not None:
            subject, rest, extra = found
            claims.extend(extra)
        elif subject is not None:
            rest = clause
        else:
            continue
        if subject[0] == "other":
            continue
        for claim in _predicate(_ADV.sub("", rest)):
            if subject[0] == "we" and claim.predicate not in _WE_OK:
                continue
            if claim.predicate == "name" and (subject[0] != "first" or not explicit):
                continue
            claim.subject = subject[1]
            claims.append(claim)
    return claims


def _subject(clause: str) -> tuple[tuple[str, str | None], str, list[Claim]] | None:
    m = _SUBJECT.match(clause)
    if m is not None:
        rest = clause[m.end() :]
        if m.group("we"):
            return ("we", SPEAKER), rest, []
        if m.group("first"):
            return ("first", SPEAKER), rest, []
        if m.group("other"):
            return ("other", None), rest, []
        name = m.group("relname")
        knows = Claim("knows", name, qualifier=m.group("rel"), object_kind="person")
        return ("name", name), rest, [knows]
    first = next(iter(posseg().cut(clause)), None)
    if first is not None and first.flag in ("nr", "nrfg") and len(first.word) >= 2:
        return ("name", first.word), clause[len(first.word) :], []
    return None


def _predicate(rest: str) -> list[Claim]:
    """Negation ("不再", "不...了", "不") first, then the phrasing rules."""
    kind: ClaimKind = "assert"
    negated = False
    if rest.startswith("不再"):
        kind, rest = "end", rest[2:]
    elif rest.startswith("不") and not rest.startswith("不是"):
        rest = rest[1:]
        if _END_PARTICLE.search(rest):
            kind = "end"
        else:
            negated = True
    elif rest.startswith(("没", "别")):
        return []
    claims = _match(_RULES, rest)
    if negated:
        return [_dislike(c) for c in claims if c.predicate == "likes"]
    for claim in claims:
        claim.kind = "end" if kind == "end" and claim.kind == "assert" else claim.kind
    return claims


def _dislike(claim: Claim) -> Claim:
    claim.predicate = "dislikes"
    return claim


# --------------------------------------------------------------------------- objects

_TRAIL = re.compile(
    r"(?:了|啦|呢|哦|呀|吧|啊|嘛|喔|的|现在|目前|最近|一下|很久|好久|好几年|多年)+$"
)
_PLACE_TRAIL = re.compile(r"(?:去|来|住|生活|定居|发展|工作)+$")
_EMPTY = frozenset(
    "你 您 他 她 它 这 那 这里 那里 这儿 那儿 家 家里 它们 他们 她们 你们 我 我们 自己".split()
)
_JOBS = (
    "工程师",
    "老师",
    "教师",
    "医生",
    "护士",
    "设计师",
    "程序员",
    "经理",
    "律师",
    "学生",
    "作家",
    "会计",
    "厨师",
    "记者",
    "警察",
    "司机",
    "演员",
    "歌手",
    "研究员",
    "科学家",
    "教授",
    "研究生",
    "博士生",
    "大学生",
    "销售",
    "画家",
    "摄影师",
    "翻译",
    "公务员",
    "分析师",
    "顾问",
    "建筑师",
    "药剂师",
    "咨询师",
    "主管",
    "总监",
    "创业者",
    "实习生",
    "编辑",
    "产品经理",
    "运营",
    "老板",
)
_PETS = (
    "小猫",
    "小狗",
    "猫咪",
    "狗狗",
    "猫",
    "狗",
    "兔子",
    "仓鼠",
    "鹦鹉",
    "金鱼",
    "鱼",
    "乌龟",
    "鸟",
    "马",
    "宠物",
    "小兔",
)


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


def _work_as(m: re.Match[str]) -> list[Claim]:
    org, job = clean(m.group("obj")), clean(m.group("job"))
    claims = [Claim("works_at", org)] if org else []
    return claims + ([Claim("job_title", job)] if job else [])


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


def _plans(m: re.Match[str]) -> list[Claim]:
    obj = clean(m.group("obj"))
    return [] if obj is None else [Claim("plans", obj, keeps_time=True)]


def _favourite(m: re.Match[str]) -> list[Claim]:
    obj = clean(m.group("obj"))
    return [] if obj is None else [Claim("prefers", obj, qualifier=m.group("topic"))]


_PET = "|".join(_PETS)
_RULE_TABLE: tuple[tuple[str, Build], ...] = (
    # ends expressed by the verb itself
    (r"离开了?(?P<obj>.+)", _simple("works_at", "end")),
    (r"从(?P<obj>.+?)(?:辞职|离职|退休)", _simple("works_at", "end")),
    (r"从(?P<obj>.+?)(?:毕业|退学)", _simple("studies_at", "end")),
    (r"(?:搬离|搬出)了?(?P<obj>.+)", _simple("lives_in", "end", place=True)),
    (r"从(?P<obj>.+?)回来", _simple("located_at", "end")),
    (r"卖掉?了(?:我的)?(?P<obj>.+)", _simple("owns", "end")),
    # lives_in
    (r"住在(?P<obj>.+)", _simple("lives_in", place=True)),
    (
        r"(?:搬到|搬去|搬进|迁到|移居到?|定居在|定居于|定居)了?(?P<obj>.+)",
        _simple("lives_in", place=True),
    ),
    (r"家(?:住)?在(?P<obj>.+)", _simple("lives_in", place=True)),
    # studies_at before works_at: both are "在X<verb>"
    (
        r"(?:正)?在(?P<obj>.+?)(?:读书|上学|学习|念书|读大学|上大学|读研究生|读研|读博|读本科|留学)",
        _simple("studies_at"),
    ),
    (r"考上了?(?P<obj>.+)", _simple("studies_at")),
    (r"(?:正)?在(?P<obj>.+?)(?:出差|旅游|旅行|度假|玩|开会)", _simple("located_at")),
    (r"(?:去了?|到)(?P<obj>.+?)(?:旅游|出差|旅行|度假|玩)", _simple("located_at")),
    (r"(?:到了|抵达了?)(?P<obj>.+)", _simple("located_at", place=True)),
    (r"在(?P<obj>.+?)(?:当|做|担任)(?P<job>.+)", _work_as),
    (r"在(?P<obj>.+?)(?:工作|上班|任职|实习)", _simple("works_at")),
    (r"(?:加入了?|入职了?|就职于|供职于|任职于)(?P<obj>.+)", _simple("works_at")),
    # job_title
    (r"(?:被)?(?:升职|提拔|晋升|提升)(?:为|成|成为)了?(?P<obj>.+)", _job(False)),
    (r"是(?:一名|一位|一个|一|名|个)?(?P<obj>.+)", _job(True)),
    (r"(?:当了?|做了?|担任)(?:一名|一个)?(?P<obj>.+)", _job(True)),
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
    # plans
    (r"(?:打算|计划|准备|决定)(?P<obj>.+)", _plans),
    # name (explicit 我 only)
    (r"(?:叫|名叫)(?P<obj>.+)", _simple("name")),
)
_RULES = tuple((re.compile(p), build) for p, build in _RULE_TABLE)
_IMPLICIT = tuple(
    (re.compile(p), build)
    for p, build in (
        (r"^我的名字(?:是|叫)(?P<obj>.+)", _simple("name")),
        (r"^我的工作是(?P<obj>.+)", _job(False)),
        (r"^我(?:最喜欢|最爱)的(?P<topic>.+?)是(?P<obj>.+)", _favourite),
    )
)


def _match(rules: tuple[tuple[re.Pattern[str], Build], ...], text: str) -> list[Claim]:
    for pattern, build in rules:
        m = pattern.match(text)
        if m is not None:
            claims = build(m)
            if claims:
                return claims
    return []
