"""Chinese phrasings for the rules extractor: one sentence in, claims out.

``parse_zh(sentence)`` expects time phrases already removed. It skips questions (吗, 哪里, 什么...)
and hypotheticals (如果, 假如...), notes hedges (可能, 我觉得...) and corrections (其实/我说错了 ...
，不是Y), splits clauses on "，", finds the subject (我, 我们, 我的朋友张伟, or a jieba ``nr`` name),
skips adverbs and 全家/一家 after it, reads 是…的 as a plain statement and matches the phrasings in
``rules_zh_table``. jieba is loaded lazily, on the first Chinese
sentence.
"""

from __future__ import annotations

import functools
import re
import threading
from types import ModuleType

from graphmem.models.extraction import ClaimKind
from graphmem.providers.extractors.rules_base import SPEAKER, Claim, ParsedSentence
from graphmem.providers.extractors.rules_zh_table import IMPLICIT, RULES, clean, match

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
_SINGLE_HAN = re.compile(r"^[\u4e00-\u9fff]$")
_MAX_RUN = 12
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕"
    "丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严"
    "覃武戴莫孔向汤欧阳司上官诸葛小老阿"
)
_MAX_HMM_RUNS = 16


@functools.lru_cache(maxsize=256)
def tag(text: str) -> tuple[tuple[str, str], ...]:
    """jieba (word, POS) pairs for ``text``, the same as ``posseg.cut`` where it matters, faster.

    Dictionary words are tagged without the HMM; the HMM (slow, ~1 ms per run; it finds names
    missing from the dictionary, such as 张伟) runs only on runs of single characters that hold a
    common surname, which is where such names hide, and at most ``_MAX_HMM_RUNS`` times.
    Cached: the extractor tags a sentence once for its subject and again for its entities."""
    pairs = [(p.word, p.flag) for p in posseg().cut(text, HMM=False)]
    tagged: list[tuple[str, str]] = []
    budget = _MAX_HMM_RUNS
    i = 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and _SINGLE_HAN.match(pairs[j][0]):
            j += 1
        if j == i:
            tagged.append(pairs[i])
            i += 1
            continue
        run = "".join(word for word, _ in pairs[i:j])
        if budget and 2 <= len(run) <= _MAX_RUN and any(ch in _SURNAMES for ch in run[:-1]):
            budget -= 1
            tagged.extend((p.word, p.flag) for p in posseg().cut(run))
        else:
            tagged.extend(pairs[i:j])
        i = j
    return tuple(tagged)


def zh_entities(text: str) -> list[tuple[str, str]]:
    """(name, kind) for the person/place/organization words jieba tags in ``text``."""
    return [(word, _ZH_KINDS[flag]) for word, flag in tag(text) if flag in _ZH_KINDS and len(word) >= 2]


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
    parsed.claims = _parse_clauses(text, sentence.strip())
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
    r"^(?:现在|目前|一直|已经|就|也|还是|还|都|刚刚|刚|最近|终于|又|仍然|依然|真的|其实|开始|"
    r"全家人?|一家人?|一家子|俩|两个人?|两口子|夫妻俩|一起)+"
)
# 是…的 puts the stress on when or how: 我是2024年8月跳槽到滴滴的 = 我2024年8月跳槽到了滴滴
_SHI_DE = re.compile(r"^是(?P<inner>.+)的$")
_END_PARTICLE = re.compile(r"了[啊呀啦哦吧]*$")
_WE_OK = frozenset({"lives_in", "relationship_status", "located_at", "has_pet", "owns", "plans"})


def _parse_clauses(text: str, sentence: str) -> list[Claim]:
    claims: list[Claim] = []
    subject: tuple[str, str | None] | None = None
    for clause in _CLAUSE.split(text):
        if not clause:
            continue
        implicit = match(IMPLICIT, clause)
        if implicit:
            claims.extend(implicit)
            subject = ("first", SPEAKER)
            continue
        found = _subject(clause, sentence)
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


def _subject(clause: str, sentence: str) -> tuple[tuple[str, str | None], str, list[Claim]] | None:
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
    names = [w for w, flag in tag(sentence) if flag in ("nr", "nrfg") and clause.startswith(w)]
    name = max(names, key=len, default="")
    if len(name) >= 2:
        return ("name", name), clause[len(name) :], []
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
    shi_de = _SHI_DE.match(rest)
    claims = match(RULES, shi_de.group("inner")) if shi_de is not None else []
    claims = claims or match(RULES, rest)
    if negated:
        return [_dislike(c) for c in claims if c.predicate == "likes"]
    for claim in claims:
        claim.kind = "end" if kind == "end" and claim.kind == "assert" else claim.kind
    return claims


def _dislike(claim: Claim) -> Claim:
    claim.predicate = "dislikes"
    return claim
