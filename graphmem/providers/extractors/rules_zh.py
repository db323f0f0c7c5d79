"""Chinese sentences for the rules extractor: one sentence in, claims out, over jieba's tokens.

``parse_zh(sentence)`` expects time phrases already removed. It skips hypotheticals (如果, 要是...)
and question clauses (吗, 哪里, 什么...), splits clauses on "，", and reads each clause as a token
sequence (``tokens``: jieba.posseg plus joined verb compounds, see ``rules_zh_tokens``):

1. the subject: 我 (the speaker), 我们/我家 (the household), 我(的)表哥陈静 (a relative, whom the
   speaker knows), a person's name (jieba ``nr``, or a surname-led word before a predicate), or
   another person (你/他..., skipped); a clause without one keeps the previous clause's subject, and
   a sentence that opens without one (搬到上海了) is the speaker's when a frame reads it;
2. modifiers before the verb: adverbs (已经, 现在), negation (不, 不再, 没 …了: the fact ends),
   plans (打算/计划/想) and the future modals (要/会/将: 我明年会搬到X) give a ``plans`` claim,
   inferred, never the fact itself (a dated change without a modal, 我下周一入职X, is the fact from
   that date); hedges (可能, 听说, 我觉得) make the clause's claims inferred;
3. the predicate frames of ``rules_zh_frames`` (lives_in, works_at, studies_at, located_at,
   job_title), whose values end at the token boundaries ``rules_zh_tokens.span`` finds; other
   predicates (likes, pets, status, owns, name) from the phrase table ``rules_zh_table``.

Corrections: a leading 我说错了/更正/不对 corrects the sentence's claims; "Y，不是X" names X as the
mistaken value; inside one sentence 哦不对/说错了 retracts the claim before it and the next clause
(是Y, 是在Y, or a whole clause) replaces it with the same predicate; 不是X，是Y reads X's frame when it
has one. A bare 是Y with nothing before it in the sentence borrows its predicate from an earlier
sentence of the episode (``from_context``), else from Y's kind (a job title, a school, an
organisation, a place). A mistake owned after the right value (…，之前说错了 / 刚才写成X了) corrects too.

Values a clause does not name: a quit or a move with no object (辞职了, 被裁了, 退休了, 搬走了, a bare
离开) ends the state told before it in the sentence, once done (了 or 已经); a start with no object
(已经入职了, 就搬过去了) starts what the sentence named before it (X的offer, 在X买了房); a bare 去了X
takes the predicate of the change told after it. ``ZhContext`` carries the person and the states
of an episode's earlier sentences to the next (a 他/她 opening it, a 辞职了 in it) when the caller
passes one per episode. jieba is loaded lazily, on the first Chinese sentence.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass, field, replace
from types import ModuleType

from graphmem.models.extraction import WHATEVER_HOLDS, ClaimKind
from graphmem.models.predicates import lookup
from graphmem.providers.extractors.rules_base import SPEAKER, Claim, ParsedSentence
from graphmem.providers.extractors.rules_zh_frames import bare_zai, frame_claims, is_job, title_claims
from graphmem.providers.extractors.rules_zh_hant import original, simplified
from graphmem.providers.extractors.rules_zh_table import IMPLICIT, RULES, clean, match
from graphmem.providers.extractors.rules_zh_tokens import (
    ADVERBS,
    ARRIVE,
    AS_V,
    DIRECTION,
    DURATION,
    FRAME_VERBS,
    FUTURE,
    HEDGE,
    HEDGE_LEAD,
    JOB_PROMOTE,
    LEAVE,
    LEAVE_LIVE,
    LIVE_V,
    LOCATIVE,
    MOVE_TO,
    NEG,
    NUMBER,
    PLAN,
    QUIT,
    QUIT_OBJ,
    STUDY_V,
    SWITCH,
    TRANSFER,
    TRIP_V,
    WORK_TO,
    WORK_V,
    Tok,
    at,
    is_stop,
    join_compounds,
    kind_of,
    skip,
    span,
    text_of,
    well_formed,
)

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
SURNAMES = frozenset(
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
        if budget and 2 <= len(run) <= _MAX_RUN and any(ch in SURNAMES for ch in run[:-1]):
            budget -= 1
            tagged.extend((p.word, p.flag) for p in posseg().cut(run))
        else:
            tagged.extend(pairs[i:j])
        i = j
    return tuple(tagged)


def zh_entities(text: str) -> list[tuple[str, str]]:
    """(name, kind) for the person/place/organization words jieba tags in ``text``."""
    return [(word, _ZH_KINDS[flag]) for word, flag in tag(text) if flag in _ZH_KINDS and len(word) >= 2]


def tokens(text: str) -> list[Tok]:
    """``tag(text)`` as ``Tok``s, with the verb compounds jieba splits joined (``rules_zh_tokens``)."""
    return join_compounds(tag(text))


# --------------------------------------------------------------------------- sentence level

_QUESTION = re.compile(
    r"[吗嘛]$|^[^我]{0,4}呢$|哪里|哪儿|哪个|哪家|什么|谁|怎么|为什么|为何|几时|多少|是不是|有没有|是否|对吧|好吗"
)
_HYPOTHETICAL = re.compile(
    r"如果|假如|要是|假设|万一|(?<!之前)(?<!刚才)(?<!上次)(?<!前面)(?<!说)(?<!说过)的话|假使|倘若|想象|但愿|要不是"
)
_MISTAKE = (
    r"(?:我)?(?:之前|刚才|刚刚|前面|上次|上回|先前|一开始)?(?:我)?(?:说错了|说错|搞错了|记错了|讲错了|打错字了|打错字|打错了|写错字了|写错了|弄错了|口误|笔误|说反了|"
    r"(?:说|讲|写)的(?:不对|有误|错了|不准确)|(?:那条|那句|这条|那个|的)?(?:信息|消息|话)(?:有误|不对|错了|不准确|是错的))"
)
_MARK = re.compile(
    rf"^(?:(?:哎呀|哎哟|哎|唉|呀|其实|实际上|事实上|{_MISTAKE}|(?:我)?(?:得|要|想|需要|必须|来)?(?:更正一下|更正|纠正一下|纠正)|哦不对|噢不对|啊不对|不对|"
    r"抱歉|对不起|不好意思|sorry|准确地说|确切地说|准确来说|应该说|我是说|我的意思是|我想说的是|我说的是|我指的是)"
    r"[，,：:！!。\s]*)+",
    re.IGNORECASE,
)
_THE_ONE = re.compile(r"的(?:地方|城市|公司|单位|学校|职位|工作)?(?:其实|应该)?是")
_SORRY = re.compile(r"抱歉|对不起|不好意思|sorry", re.IGNORECASE)
_EXPLICIT = re.compile(r"错|有误|更正|纠正|不对|口误|准确|确切|应该说|我是说|意思是|想说的是|说的是|指的是")
# a clause that only says the previous one was wrong: 哦不对 / 我说错了 / 不是的
_RETRACT = re.compile(
    rf"^(?:(?:哦|噢|啊|呃|嗯|诶)?(?:抱歉|对不起|不好意思|sorry)?(?:我)?(?:不对|不是的|不{{2,}}|哦不|不是不是|错了|错啦|{_MISTAKE}|更正一下|更正|纠正一下|纠正|应该说|我是说|"
    r"我的意思是|准确地说|确切地说)(?:了)?[，,：:！!\s]*)+"
)
_FILLER = re.compile(r"^(?:呃+|嗯+|额+|啊+|哦+|噢+|唔+|诶+|欸+)$")
# after a claim in the same sentence: 应该是Y / 准确地说是Y / 确切地说是Y
_RETRACT_SHOULD = re.compile(
    r"^(?:呃|嗯|哦|啊)?(?:应该|准确地说|确切地说|更准确地说|准确来说|严格来说)(?=是)"
    r"|^(?:呃|嗯|哦|啊)?(?:抱歉|对不起|不好意思|sorry)(?:了)?$"  # 我住在南京，抱歉，是苏州才对
)
_RETRACT_WHOLE = re.compile(r"^(?:哦|噢|啊|呃|嗯|诶)?(?:不是|不不|不)(?:了)?$")
_BARE = re.compile(
    r"^(?:而|其实|实际上|应该|应当|我是说)?(?:是)?(?:在|住在|去了|搬到了?|入职了?|加入了?|跳槽到了?)?"
    r"(?P<v>[^，,。]+?)(?:才对|才是|哦|啊|啦|吧)?$"
)
_NOT_TAIL = re.compile(
    r"(?:[，,]\s*(?:而|并)?|而(?=不是)|(?<!^)而非)(?:不是|而非|并非|不在|(?<=而非))(?:在|住在)?(?P<wrong>[^，,。！？]+?)(?:工作|上班|住)?[。！!\s]*$"
)
_COMPARE = re.compile(
    r"^(?:比起|相比于|相比起|相比|与其)(?P<other>[^，,]+?)(?:来说|而言)?[，,]\s*(?P<rest>.*)$"
)
# 在一家叫鹿鸣科技的公司上班 / 住在一个叫青溪镇的地方: the name is the value
_CALLED = re.compile(
    r"(?:一|这|那)?(?:家|所|个|座)(?:名)?叫(?:做)?(?P<v>[^，,。的]{2,12}?)的"
    r"(?:小?公司|企业|单位|机构|工作室|店|医院|银行|工厂|厂|集团|学校|大学|学院|城市|小城|小镇|镇子|地方|村子|县城)"
)
_CLAUSE_PUNCT = frozenset("，,；;：:、—…")
_END = "。！!？?…~～"


@dataclass
class _State:
    """What a clause hands to the next one in its sentence."""

    subject: tuple[str, str | None] | None = None
    hedged: bool = False
    correcting: bool = False
    wrong: Claim | None = None
    claims: list[Claim] = field(default_factory=list)
    replaces: str | None = None
    pending: str = ""  # 换工作了 / 搬家了: the predicate a bare 去了Y after it continues
    introduced: str | None = None  # 我有个朋友叫马克: whom a following 他/她 names
    gone: Claim | None = None  # 去年去了腾讯: a bare 去了X, whose predicate a later change names
    named: dict[str, str] = field(default_factory=dict)  # 拿到了X的offer / 在X买了房: X by predicate
    earlier: list[Claim] = field(default_factory=list)  # states told by the episode's earlier sentences
    onward: bool = False  # this clause follows a stay cut off inside its clause (住了三年就/后…)


# what a cut time phrase leaves of 自2018年以来 / 从去年起 / 打2019年开始: the frame words alone
_SINCE_LEFT = re.compile(
    r"(?:自从|打从|自|从|打)(?=以来|起|开始|至今|一直|就|便|已经|都)|以来|(?<=[自从])起|为止|^(?:截|截止)(?=[，,]|$)"
    r"|^(?:自从|自打)(?=搬|来|到|去|入职|加入|住|进)"
)

# 从那以后 / 自那之后 / 从此 / 此后 / 打那以后: "since then", an undated succession word read as 后来
# (its 以后 is no plan: 以后 alone is ahead, 从那以后 behind)
_SINCE_THEN = re.compile(
    r"(?:从|自|打|自从|打从)那(?:以后|之后|往后|以来|时候?起|天起)|从此(?:以后|之后)?|自此|此后"
)


# a correction marker said inside a clause without punctuation around it (我住在南京不对是苏州):
# it is a clause of its own, so the claim before it is the one it retracts
_MARK_INSIDE = re.compile(
    r"(?<=[^，,：:；;！!\s])(?:(?P<m>哦不对|噢不对|啊不对|不对不对|不对)(?=是|应该|在|我)|"
    r"(?P<m2>说错了|搞错了|记错了|口误|更正一下|纠正一下|我是说|我的意思是)(?=[^，,：:；;！!\s]))"
)


@dataclass
class ZhContext:
    """What the earlier sentences of one episode hand to the next (``parse_zh(s, context)``, one
    context per episode, sentences in order): the person they were about, whom a 他/她 opening the
    next sentence names (我表哥陈静住在南宁。他去年搬到了桂林。), and the state claims they told, whose
    value a quit or a move naming none ends (我在百度干了三年。上周辞职了。)."""

    person: str | None = None
    claims: list[Claim] = field(default_factory=list)
    spelled: dict[str, str] = field(default_factory=dict)  # simplified → as a traditional text spells it
    asked: str | None = None  # 你现在住哪？: the slot the next sentence may answer with a bare value


def parse_zh(sentence: str, context: ZhContext | None = None) -> ParsedSentence:
    """Claims made by one Chinese sentence (time phrases already removed); ``context`` carries the
    person and the states of the episode's earlier sentences, and is updated with this one's.
    A sentence in traditional characters is read in simplified ones (``rules_zh_hant``) and its
    values and names are given back as it spells them."""
    simple = simplified(sentence)
    asked, context_asked = _asked(simple), context.asked if context is not None else None
    parsed = _parse_zh(simple, context)
    answer = _answer(simple, context_asked) if context_asked else None
    if answer is not None:
        parsed.claims.insert(0, answer)
    if context is not None:
        context.asked = asked
    parsed.claims = _open_end_with_successor(parsed.claims)
    if context is not None:
        named = [
            c.obj if c.predicate == "knows" else c.subject
            for c in parsed.claims
            if c.subject not in (None, SPEAKER) or (c.predicate == "knows" and c.object_kind == "person")
        ]
        context.person = named[-1] if named else context.person
        context.claims.extend(c for c in parsed.claims if c.predicate in _STATES and c.kind != "end")
    spelled = context.spelled if context is not None else {}
    if simple != sentence or spelled:

        def spell(value: str | None) -> str | None:
            if not value:
                return value
            found = original(value, simple, sentence)
            if found != value:
                spelled[value] = found  # a later sentence may name it again
            return spelled.get(value, found)

        parsed.claims = [
            replace(c, obj=spell(c.obj) or c.obj, subject=spell(c.subject), replaces=spell(c.replaces))
            for c in parsed.claims
        ]
        parsed.replaces = spell(parsed.replaces)
    return parsed


# a question to the listener about where they live or work (你现在住哪？/ 您在哪里上班？), the slot
# a bare value in the next sentence of the same text answers (——杭州，去年搬的。)
_ASKED = (
    (
        re.compile(
            r"^(?:那|请问|对了)?[，,]?(?:你|您)(?:现在|目前|如今|最近)?(?:住|住在|家住|家在)(?:哪|哪里|哪儿|什么地方)"
        ),
        "lives_in",
    ),
    (
        re.compile(
            r"^(?:那|请问|对了)?[，,]?(?:你|您)(?:现在|目前|如今|最近)?在(?:哪|哪里|哪儿|哪家公司|什么公司|哪个公司)"
            r"(?:上班|工作|高就|做事)"
        ),
        "works_at",
    ),
)
_ANSWER_LEAD = re.compile(r"^[—\-－–~～:：「」“”\"'‘’\s]+")
_NAME_FLAGS = frozenset("ns nr nrt nt nz n j".split())


def _asked(sentence: str) -> str | None:
    if not sentence.rstrip().endswith(("？", "?")):
        return None
    return next((pred for pattern, pred in _ASKED if pattern.match(sentence.strip())), None)


def _answer(sentence: str, predicate: str) -> Claim | None:
    """——杭州，去年搬的。after 你现在住哪？(or ——在华为，前年进的。after 你在哪上班？): the bare value
    opening the sentence is the speaker's answer, the question giving its slot; the sentence's time
    (去年…的) is its start. A question back (杭州吗？), a hedge (杭州吧) or a clause with a verb is no
    bare answer."""
    text = _ANSWER_LEAD.sub("", sentence.strip()).rstrip(_END)
    if not text or sentence.rstrip().endswith(("？", "?")):
        return None
    first = re.split(r"[，,、；;。！!]", text, maxsplit=1)[0]
    if predicate == "works_at":
        first = first.removeprefix("在")
    toks = tokens(first)
    if not toks or len(toks) > 3 or any(t.flag not in _NAME_FLAGS for t in toks) or first[-1] in "吧吗呢":
        return None
    value = clean(first, place=True)
    if value is None or not well_formed(value) or _homely(value):
        return None
    return Claim(predicate, value)


def _open_end_with_successor(claims: list[Claim]) -> list[Claim]:
    """An end naming no value (我搬家了 / 我辞职了) followed by the new value in the same sentence
    (…，搬到了昆明 / …，去了搜狐) needs no claim of its own: the new value replaces the old one."""
    return [
        c
        for n, c in enumerate(claims)
        if not (
            c.kind == "end"
            and c.obj == WHATEVER_HOLDS
            and any(
                d.kind != "end" and d.predicate == c.predicate and d.subject == c.subject
                for d in claims[n + 1 :]
            )
        )
    ]


def _parse_zh(sentence: str, context: ZhContext | None) -> ParsedSentence:
    text = _SINCE_LEFT.sub("", _SINCE_THEN.sub("后来", re.sub(r"\s+", "", sentence).rstrip(_END)))
    if not text or _HYPOTHETICAL.search(text):
        return ParsedSentence()
    asks = sentence.rstrip().endswith(("？", "?"))
    state = _State()
    if context is not None:
        state.introduced, state.earlier = context.person, list(context.claims)
    mark = _MARK.match(text)
    explicit = False
    if mark is not None:
        explicit = bool(_EXPLICIT.search(mark.group(0)))
        # 不好意思，我住的是苏州: an apology before "the one I …is Y" sets a record straight
        explicit = explicit or (
            bool(_SORRY.search(mark.group(0))) and bool(_THE_ONE.search(text[mark.end() :]))
        )
        state.correcting = explicit
        text = text[mark.end() :]
    text = _CALLED.sub(r"\g<v>", _glued_not(text))
    late = _LATE_MISTAKE.search(text)  # …，之前说错了 / …，刚才说成扬州了: the mistake owned at the end
    said_as = None
    if late is not None and late.start() > 0:
        named = late.group("as") or late.group("said")  # 刚才写成X了 / 上次说的X是错的: X the mistake
        said_as = clean(named, place=True) if named else None
        explicit = state.correcting = True
        text = text[: late.start()]
    wrong_tail = None
    tail = _NOT_TAIL.search(text)
    if tail is not None:
        wrong_tail = clean(tail.group("wrong"), place=True)
        text = text[: tail.start()]
    wrong_tail = wrong_tail or said_as
    other = None
    compare = _COMPARE.match(text)
    if compare is not None:
        other, text = clean(compare.group("other")), compare.group("rest")
    clauses = _split(_after_breaks(_MARK_INSIDE.sub(lambda m: f"，{m.group(0)}，", text)))
    for n, clause in enumerate(clauses):
        topic = n < len(clauses) - 1 and _named_topic(clause)  # 李娜呢，…: no question
        if (_QUESTION.search(clause) and not topic) or (asks and n == len(clauses) - 1):
            state.subject = ("other", None) if clause.startswith(("你", "您")) else state.subject
            continue
        told = len(state.claims)
        state.onward = clause.startswith(_UNTIMED)
        _clause_claims(clause.lstrip(_UNTIMED), state, last=n == len(clauses) - 1)
        if clause.startswith(_UNTIMED):
            for claim in state.claims[told:]:
                claim.keeps_time = True  # its time is the sentence's moment
    claims = state.claims
    correctable = [
        c for c in claims if c.predicate != "knows" and c.kind in ("assert", "correct") and not c.before
    ]
    if explicit:
        for claim in correctable:
            claim.kind = "correct"
    if wrong_tail and not correctable and clauses:  # 我在网易，不是在腾讯: a bare 在X is the right value
        claims.extend(_bare_right(clauses[0], wrong_tail))
        correctable = claims[-1:]
    if wrong_tail and correctable:
        correctable[-1].kind, correctable[-1].replaces = "correct", wrong_tail
    _narrative_order(claims)
    claims = _told_successor(claims)
    for claim in claims:
        if claim.predicate == "prefers" and other and not claim.qualifier:
            claim.qualifier = " vs ".join(sorted((claim.obj, other)))
    return ParsedSentence(claims=claims, replaces=state.replaces or wrong_tail)


_VALUE_BEFORE = frozenset("是 在 住在 住 工作 上班 当 做".split()) | FRAME_VERBS


def _glued_not(text: str) -> str:
    """我住的是德阳不是绵阳 / 我在快手上班不是滴滴: a value followed by 不是Y with no comma between is
    the right value and the mistaken one; a comma goes before 不是 (a 不是 after an adverb or the
    subject, 我现在不是老师了, is a negation and stays)."""
    toks = tokens(text)
    for n, tok in enumerate(toks):
        if tok.word != "不是" or n < 2 or n + 1 >= len(toks) or toks[n + 1].punct:
            continue
        before = toks[n - 1]
        if (
            before.punct
            or (is_stop(before) and before.word not in LIVE_V | WORK_V | STUDY_V)
            or before.flag in ("t", "d", "r")
            or not any(t.word in _VALUE_BEFORE for t in toks[:n])
            or any(t.punct for t in toks[n + 1 :])
        ):
            continue
        return text_of(toks[:n]) + "，" + text_of(toks[n:])
    return text


_LATE_MISTAKE = re.compile(
    r"[，,]\s*(?:我)?(?:之前|刚才|刚刚|上次|上回|前面|先前)?(?:我)?"
    r"(?:(?:说|写|打|讲|记)成(?:了)?(?P<as>[^，,。！？]{2,12}?)(?:了|啦)?|说错了|记错了|搞错了|写错了|打错了|口误|"
    r"(?:说|讲|写|提到)的(?:那个)?(?P<said>[^，,。！？]{2,12}?)(?:是错的|不对|有误|错了|是口误|是笔误|不准确))"
    r"[啦了哈哦]*$"
)


def _bare_right(clause: str, wrong: str) -> list[Claim]:
    """The claims of a verbless 我在X said with ", 不是Y" (X the right value, its kind the predicate)."""
    toks = tokens(clause)
    found = _subject(toks) if toks else None
    if found is None or found[0][0] not in ("first", "name"):
        return []
    claims = bare_zai(toks, skip(toks, found[1], ADVERBS))
    for claim in claims:
        claim.subject = found[0][1]
    return claims


def _narrative_order(claims: list[Claim]) -> None:
    """Two values of one functional predicate in one sentence are told in order (我以前是厨师，现在
    是司机; 在X住了两年，后来搬到了Y): all but the last held before it."""
    last: dict[tuple[str | None, str], Claim] = {}
    for claim in claims:
        if claim.kind != "assert" or not lookup(claim.predicate).functional:
            continue
        key = (claim.subject, claim.predicate)
        earlier = last.get(key)
        if earlier is not None and earlier.obj != claim.obj and not claim.before:  # 以前是Y: Y was before
            earlier.before = True
        last[key] = claim


def _told_successor(claims: list[Claim]) -> list[Claim]:
    """我以前住在烟台，现在住在威海: the past value's own end is implied by the value told after it
    (the chain closes it there), so only the two values are kept."""
    out = []
    for n, claim in enumerate(claims):
        key = (claim.subject, claim.predicate)
        paired = n > 0 and claims[n - 1].before and claims[n - 1].obj == claim.obj
        if (
            claim.kind == "end"
            and paired
            and any(
                (c.subject, c.predicate) == key and c.kind == "assert" and c.obj != claim.obj
                for c in claims[n + 1 :]
            )
        ):
            continue
        out.append(claim)
    return out


_AFTER = frozenset("后 以后 之后 过后".split())


def _after_breaks(text: str) -> str:
    """张伟从百度辞职后去了腾讯 / 我离开长沙以后去了株洲: 后 after a frame verb or a name ends an
    event, so a clause break goes after it (the next clause continues with the same subject);
    打算以后… is a plan's time, not an event's end."""
    toks = tokens(text)
    out: list[str] = []
    for n, tok in enumerate(toks):
        if _second_verb(toks, n):
            out.append("，")
        elif _end_told_after(toks, n):
            out.append("，" + _UNTIMED)
        out.append(tok.word)
        previous = toks[n - 1] if n else None
        if (
            tok.word in _AFTER
            and n >= 2
            and previous is not None
            and previous.word == "了"
            and toks[n - 2].word in _STAY_V
            and n + 1 < len(toks)
            and not toks[n + 1].punct
        ):  # 在南京住了(三年)后搬到了苏州: the stay, then what came after it, as with 就
            out.append("，" + _UNTIMED)
            continue
        if (
            tok.word in _AFTER
            and previous is not None
            and (previous.flag in _NAME_TAGS or previous.word in FRAME_VERBS or previous.word in QUIT)
            and n + 1 < len(toks)
            and not toks[n + 1].punct
        ):
            out.append("，")
    return "".join(out)


# opens a clause _after_breaks cut from the one before it inside a clause of the text: the time
# the extractor finds around it is the clause before's (在南京住了三年就搬到了苏州), not its own
_UNTIMED = "\u2063"


def _end_told_after(toks: list[Tok], n: int) -> bool:
    """我在南京待了两年就走了 / 在腾讯干了三年又被裁了 / 住了三年就搬到了苏州: 就/便/又/后来 and a
    verb ending a state without naming it, or a move, after the clause naming the state: a clause of
    its own (the end of that value, or the next one)."""
    if n == 0 or toks[n - 1].punct or toks[n].word not in ("就", "便", "又", "后来", "然后", "最后"):
        return False
    opened = max((m + 1 for m in range(n) if toks[m].punct), default=0)
    if not any(t.flag.startswith("v") for t in toks[opened:n]):
        return False  # 我(去年)就搬到苏州了: no stay told before 就 in the clause
    k = n + 1
    while k < len(toks) and toks[k].word in ("已经", "还是", "都", "也"):
        k += 1
    if k >= len(toks):
        return False
    word = toks[k].word
    if word == "被":
        return k + 1 < len(toks) and (toks[k + 1].word in _PASSIVE_END or at(toks, k + 2, _PASSIVE_END))
    if word in MOVE_TO or word in WORK_TO or word in TRANSFER:  # …住了三年就搬到了苏州: the next value
        return True
    if word in _WENT and k + 1 < len(toks) and not toks[k + 1].punct:  # 干了三年就去了华为
        return True
    return word in _UNNAMED_END and any(t.word in ("了",) for t in toks[k + 1 : k + 3])


_LEAVING = LEAVE | LEAVE_LIVE | QUIT_OBJ
_ONWARD = DIRECTION | MOVE_TO | WORK_TO | ARRIVE | SWITCH | TRANSFER


def _second_verb(toks: list[Tok], n: int) -> bool:
    """离开南京去了苏州 / 辞掉腾讯的工作加入了华为: a change verb right after the value of a leaving
    verb opens a clause of its own (the same subject), so the old and the new value are read apart."""
    if n < 2 or toks[n].word not in _ONWARD or (is_stop(toks[n - 1]) and toks[n - 1].word not in _JOB_NOUN):
        return False
    for k in range(n - 1, -1, -1):
        if toks[k].punct:
            return False
        if toks[k].word in _LEAVING:
            return k < n - 1
    return False


_JOB_NOUN = frozenset("工作 职位 职务 岗位".split())


def _split(text: str) -> list[str]:
    parts, cur = [], ""
    for ch in text:
        if ch in _CLAUSE_PUNCT:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p for p in parts if p]


# --------------------------------------------------------------------------- corrections


def _clause_claims(clause: str, state: _State, *, last: bool) -> None:
    """One clause: a retraction (哦不对), the wrong value (不是X), a bare right value (是Y), or claims."""
    for lead in HEDGE_LEAD:
        if clause.startswith(lead) and len(clause) > len(lead):
            state.hedged, clause = True, clause[len(lead) :]
            break
    if _FILLER.match(clause):
        return
    heard = _HEARD.match(clause)
    if heard is not None:  # 听李娜说她搬到了上海: what 李娜 said, as hearsay
        state.hedged, clause = True, clause[1:]
    about = _ABOUT.match(clause)
    if about is not None:  # 说到张伟，他… / 至于王芳，… : the person the next clauses are about
        toks = tokens(about.group("name"))
        if len(toks) == 1 and (
            (_looks_like_name(toks[0]) and toks[0].word[0] in SURNAMES) or toks[0].flag.startswith("nr")
        ):
            state.subject = ("name", toks[0].word)
            state.introduced = toks[0].word
            return
    if _named_topic(clause):
        state.subject = ("name", tokens(clause)[0].word)  # 李娜呢，现在住在上海: the clauses after are hers
        state.introduced = state.subject[1]  # 张伟呢，他住在杭州: 他 is 张伟
        return
    retract = _RETRACT_WHOLE.match(clause) or _RETRACT.match(clause)
    if retract is None and state.claims and not state.correcting:
        retract = _RETRACT_SHOULD.match(clause)
    if retract is not None:
        _retract(state)
        clause = clause[retract.end() :]
        if not clause:
            return
    named = _INTRODUCE.match(clause)
    if named is not None and named.group("rel") in _REL:  # 我有个朋友叫马克: the speaker knows 马克
        name = named.group("name")
        state.introduced = name
        state.claims.append(Claim("knows", name, qualifier=named.group("rel"), object_kind="person"))
        return
    said_wrong = _SAID_WRONG.match(clause)
    if said_wrong is not None and not last:  # 我之前说的X不对，(应该是Y): X is the mistaken value
        value = clean(said_wrong.group("wrong"), place=True)
        if value is not None and well_formed(value):
            state.correcting, state.wrong, state.replaces = True, Claim("", value), value
            return
    said = _SAID.match(clause)
    if said is not None and not last:  # 我上次说我在滴滴工作，(其实是快手): the claim reported is wrong
        inner = _State(subject=state.subject)
        _clause_claims(said.group("inner"), inner, last=True)
        reported = [c for c in inner.claims if c.predicate != "knows" and c.kind == "assert"]
        if reported:
            state.correcting, state.wrong = True, reported[-1]
            state.subject = inner.subject
            return
    negated = _NOT_FIRST.match(clause) if not last else None
    if negated is None and not last:  # 我老婆王丽不是住在X: the subject read from the tokens
        negated = _not_after_subject(clause, state)
    if negated is not None and _NO_LONGER.search(negated.group("rest")):
        negated = None  # 我现在不是老师了(，是会计): no longer so, a change rather than a mistake
    if negated is not None:
        _wrong_value(negated, state)
        return
    if state.correcting and _bare(clause, state):
        return
    clause = _OUT_OF.sub(r"离开了\g<v>", clause)  # 我从腾讯出来了: left it
    clause = _NO_JOB.sub("失业了", clause)  # 我现在没工作了: out of work
    clause = _JOB_QUIT.sub(r"辞掉了\g<v>的工作", clause)  # 我把腾讯的工作辞了
    sent = _SENT.match(clause)
    if sent is not None:  # 公司派驻我到苏州 / 领导派小王去深圳: the one sent is the subject, moved
        clause = f"{sent.group('who') or sent.group('who2')}被派到{sent.group('rest')}"
    clause = _DRIFT.sub(_drifted, clause)  # 我现在在北漂 / 我是沪漂: lives in that city
    made = _MADE.match(clause)
    if made is not None and _made(made, state):  # 公司任命我为Y / 领导让我当Y
        return
    where = _IS_MY_PLACE.match(clause)
    if where is not None and well_formed(where.group("v")):  # 扬州是我现在住的地方 / 京东是我的东家
        subject = state.subject[1] if state.subject else SPEAKER
        predicate = "works_at" if where.group("job") else "lives_in"
        state.claims.append(Claim(predicate, where.group("v"), subject=subject))
        return
    home = _HOME_IS.match(clause)
    if home is not None and well_formed(home.group("v")):  # 成都是我现在的家
        subject = state.subject[1] if state.subject else SPEAKER
        state.claims.append(Claim("lives_in", home.group("v"), subject=subject))
        return
    if _NOUNED.search(clause) and _INTENT.match(clause) is None:
        return  # 搬去苏州的事还在考虑中 / 跳槽到华为的计划取消了: a change talked of, not made
    intent = _INTENT.match(clause)
    if intent is not None:  # 我有搬到西安的打算: a plan
        value = clean(intent.group("what"))
        subject = state.subject[1] if state.subject else SPEAKER
        if value is not None and well_formed(value):
            state.claims.append(Claim("plans", value, subject=subject, keeps_time=True, inferred=True))
        return
    pending = _PENDING.match(clause) or _PENDING.match(_after_subject(clause))
    if pending is not None:  # 我换工作了，去了Y: Y is the new employer
        state.pending = _pending_predicate(pending.group("what"))
    claims = _clause(clause, state)
    if all(c.predicate == "knows" for c in claims):  # 我表姐孙悦辞职了: the relative, then the end
        claims += _continuation(clause, state) or _unnamed_end(clause, state) or _unnamed_start(clause, state)
    _remember_named(clause, state)
    claims = _after_gone(clause, claims, state)
    if state.pending == "lives_in" or _left_home(
        state, clause
    ):  # 我搬家了，来到了上海: the arrival is the move
        for claim in claims:
            claim.predicate = "lives_in" if claim.predicate == "located_at" else claim.predicate
    _employer_thread(claims, state)
    if state.correcting:
        for claim in claims:
            if claim.predicate != "knows" and claim.kind == "assert" and not claim.before:
                claim.kind = "correct"
                wrong = state.wrong
                if wrong is not None and wrong.predicate in ("", claim.predicate):
                    claim.replaces = wrong.obj
    state.claims.extend(claims)


# a verb that ends a state without naming its value (辞职了, 被裁了, 搬走了): the predicates it ends
_UNNAMED_END = {
    **dict.fromkeys(
        "辞职 离职 辞工 裸辞 被裁 被辞退 被开除 被优化 下岗 失业 被炒 跳槽".split(), ("works_at",)
    ),
    **dict.fromkeys("退休 退了休".split(), ("works_at", "job_title")),
    **dict.fromkeys("搬走 搬出来 搬出去 搬家 搬离 搬出 回国 回国了 归国 海归".split(), ("lives_in",)),
    **dict.fromkeys("毕业 退学".split(), ("studies_at",)),
    **dict.fromkeys("离开 离开了 走了 走".split(), ("",)),  # 2020年加入腾讯，2023年离开: what was told
}
_PASSIVE_END = frozenset("裁 裁员 辞退 开除 优化 炒 炒鱿鱼 解雇 劝退".split())


_WENT = frozenset("去 去了 来 来了 到 到了 进 进了 来到 来到了".split())


def _after_gone(clause: str, claims: list[Claim], state: _State) -> list[Claim]:
    """小王去年去了腾讯，今年又跳槽到阿里了 / 我先去了苏州，后来搬到了无锡: a bare 去了X names no
    predicate; the change told after it in the sentence (same subject) does, and X is that
    predicate's earlier value."""
    if not any(c.predicate in _STATES for c in claims):
        toks = tokens(clause)
        found = _subject(toks) if toks else None
        if found is not None and found[0][0] == "other":
            return claims
        i = skip(toks, found[1] if found is not None else 0, ADVERBS)
        while i < len(toks) and (_time_word(toks[i]) or _adverb(toks[i]) or toks[i].word == "先"):
            i = skip(toks, i + 1, ADVERBS)
        if at(toks, i, _WENT):
            k = skip(toks, i + 1, frozenset({"了"}))
            value, j = span(toks, k)
            trip = at(toks, k, frozenset("趟 一趟 次 一次 一下 过".split())) or value[:1] in ("趟", "次")
            if not trip and well_formed(value) and skip(toks, j, frozenset(PARTICLES_END)) >= len(toks):
                subject = found[0][1] if found is not None else (state.subject or ("first", SPEAKER))[1]
                stay = _stay_before(state, subject) if state.onward else None
                if stay is not None:  # 在腾讯干了三年就去了华为: the next value of the stay told
                    return [*claims, Claim(stay.predicate, value, subject=subject)]
                state.gone = Claim("", value, subject=subject)
        return claims
    gone, state.gone = state.gone, None
    if gone is None:
        return claims
    for n, claim in enumerate(claims):
        if (
            claim.kind == "assert"
            and claim.predicate in ("works_at", "lives_in")
            and claim.subject == gone.subject
            and claim.obj != gone.obj
            and not claim.before
        ):
            return [
                *claims[:n],
                Claim(claim.predicate, gone.obj, subject=gone.subject, before=True),
                *claims[n:],
            ]
    return claims


def _stay_before(state: _State, subject: str | None) -> Claim | None:
    """The home or employer told last in the sentence for ``subject``, if it is the last claim."""
    last = next((c for c in reversed(state.claims) if c.predicate != "knows"), None)
    if last is None or last.predicate not in ("works_at", "lives_in") or last.kind != "assert":
        return None
    return last if last.subject == subject or (last.subject is None and subject == SPEAKER) else None


_OFFER = frozenset("offer Offer OFFER 录用通知 录取通知 聘书 工作机会 邀请".split())
_HOUSING = frozenset("房 房子 套房 新房 新房子 公寓 一套房 一套房子".split())
_GOT = frozenset("拿到 收到 接到 得到 获得 拿了 收了 接了".split())
_BOUGHT = frozenset("买 租 买下 租下 找 找到 看好 定下".split())
_UNNAMED_START = {
    **dict.fromkeys("入职 报到 上班 上岗 去上班 过去上班 去报到 去入职 去上岗".split(), "works_at"),
    **dict.fromkeys("搬过去 搬过来 搬进去 搬进来 住进去 住过去 住进来 搬了过去 搬了进去".split(), "lives_in"),
}


def _remember_named(clause: str, state: _State) -> None:
    """What a clause names without a predicate of ours: 拿到了X的offer (an employer to be), 在X买了
    房 / 在X租了套房子 (a home to be), for a start verb told after it with no object."""
    toks = tokens(clause)
    for n, tok in enumerate(toks):
        if tok.word in _GOT:
            k = skip(toks, n + 1, frozenset({"了"}))
            value, j = span(toks, k)
            noun = text_of(toks[j + 1 : j + 3])  # 录用/通知: the noun may come in two words
            offer = at(toks, j + 1, _OFFER) or noun in _OFFER
            if well_formed(value) and at(toks, j, frozenset({"的"})) and offer:
                state.named["works_at"] = value
        if tok.word == "在" and n + 1 < len(toks):
            _, end = span(toks, n + 1)
            k = next((m for m in range(n + 2, min(end + 1, len(toks))) if toks[m].word in _BOUGHT), end)
            value = text_of(toks[n + 1 : k])  # 在昆山买了房: the span runs on over 买, the verb ends it
            if at(toks, k, _BOUGHT):
                k = skip(toks, k + 1, frozenset(("了", "一", "套", "一套", "个", "间")))
                if well_formed(value) and at(toks, k, _HOUSING):
                    state.named["lives_in"] = value


def _unnamed_start(clause: str, state: _State) -> list[Claim]:
    """拿到了X的offer，已经入职了 / 在昆山买了房，就搬过去了: a start verb with no object starts the
    value the sentence named before it."""
    if not state.named and state.gone is None:
        return []
    toks = tokens(clause)
    found = _subject(toks) if toks else None
    if found is not None and found[0][0] == "other":
        return []
    i = skip(toks, found[1] if found is not None else 0, ADVERBS | frozenset({"就", "便", "也"}))
    while i < len(toks) and (_time_word(toks[i]) or _adverb(toks[i])):
        i = skip(toks, i + 1, ADVERBS)
    word = toks[i].word if i < len(toks) else ""
    if i + 1 < len(toks) and word + toks[i + 1].word in _UNNAMED_START:
        word, i = word + toks[i + 1].word, i + 1
    predicate = _UNNAMED_START.get(word)
    if predicate is not None and predicate not in state.named and state.gone is not None:
        state.named[predicate] = state.gone.obj  # 我去了华为，已经上班了: the place gone to
    done = at(toks, i + 1, frozenset({"了"})) or any(t.word in ("已经", "已") for t in toks[:i])
    if (
        predicate is None
        or predicate not in state.named
        or skip(toks, i + 1, frozenset(PARTICLES_END)) < len(toks)
    ):
        return []
    if not done:  # 下个月搬过去 / 下周一入职 (its time cut): not yet
        return []
    if any(t.word in NEG or t.word in PLAN or t.word in FUTURE for t in toks[:i]):
        return []
    subject = found[0][1] if found is not None else (state.subject or ("first", SPEAKER))[1]
    return [Claim(predicate, state.named.pop(predicate), subject=subject)]


def _unnamed_end(clause: str, state: _State) -> list[Claim]:
    """我在百度干了三年，上周辞职了 / 我在南京住了五年，上个月搬走了 / …，不过已经离职了: a verb that
    ends a state without naming it ends the value told earlier in the sentence (same subject); its
    time is the sentence's moment, since the clause's own time cannot be told from the value's."""
    toks = tokens(clause)
    if not toks:
        return []
    lead = _lead(toks)
    toks = toks[lead:]
    found = _subject(toks) if toks else None
    if found is not None and found[0][0] == "other" and toks[0].word in ("他", "她") and state.introduced:
        found = (("name", state.introduced), 1, [])  # 我表姐王丽住在台北。她搬走了。
    if found is not None and found[0][0] == "other":
        return []
    subject = found[0] if found is not None else state.subject or ("first", SPEAKER)
    i = skip(toks, found[1] if found is not None else 0, ADVERBS)
    while i < len(toks) and (_time_word(toks[i]) or _adverb(toks[i])):
        i = skip(toks, i + 1, ADVERBS)
    if i >= len(toks):
        return []
    word = toks[i].word
    if word == "被" and i + 1 < len(toks):  # 被(公司)裁了 / 被优化了
        j = i + 1 if toks[i + 1].word in _PASSIVE_END else i + 2
        word = "被裁" if at(toks, j, _PASSIVE_END) else ""
        i = j
    ends = _UNNAMED_END.get(word)
    # 辞职自己创业了 / 离职回家带孩子了: what the person went on to do after the end, told with it
    onward = (
        at(toks, i + 1, _AFTER_QUIT)
        and toks[-1].word == "了"
        and not any(t.flag in _NAME_TAGS for t in toks[i:])
    )
    if ends is None or (skip(toks, i + 1, frozenset(PARTICLES_END)) < len(toks) and not onward):
        return []
    if any(t.word in NEG or t.word in PLAN or t.word in FUTURE for t in toks[:i]):
        return []  # 我在百度上班，打算辞职 / 没辞职: nothing ends
    if not (
        at(toks, i + 1, frozenset({"了"}))
        or onward
        or any(t.word in ("已经", "已", "早就", "早已") for t in toks[:i])
    ):
        return []  # 明年毕业 / 下个月辞职 (their time cut): not yet
    out = []
    for predicate in ends:
        told = next(
            (
                c
                for c in reversed(state.earlier + state.claims)
                if c.predicate in ((predicate,) if predicate else ("works_at", "lives_in", "studies_at"))
                and c.kind in ("assert", "correct")
                and c.subject == subject[1]
            ),
            None,
        )
        if told is None and predicate in ("works_at", "lives_in"):
            state.pending = predicate  # 我辞职了，然后去了阿里: what follows is the next one
        if told is None and predicate:  # named in another episode: the graph's current value ends
            out.append(Claim(predicate, WHATEVER_HOLDS, subject=subject[1], kind="end"))
        elif told is not None and not told.before:
            mine = told in state.claims
            if mine:
                told.before = True  # it held up to the end told after it
            # the end takes this sentence's time when the value is another sentence's
            out.append(Claim(told.predicate, told.obj, subject=told.subject, kind="end", keeps_time=mine))
    return out


PARTICLES_END = ("了", "啦", "呢", "哦", "呀", "吧", "啊", "嘛", "哈")
_AFTER_QUIT = frozenset("自己 出来 回家 在家 专心 创业 考研 读研 带娃 带孩子 休息 歇 去 准备 开始".split())


def _employer_thread(claims: list[Claim], state: _State) -> None:
    """我在阿里干了半年，又回腾讯了 / 我换工作了，从腾讯去了阿里: a stay or a move whose value is no
    place, told where the sentence is about a job (an employer before it, or 换工作), is a job."""
    working = state.pending == "works_at" or any(
        c.predicate == "works_at" and c.kind in ("assert", "end") for c in state.claims
    )
    if not working:
        return
    for claim in claims:
        if (
            claim.predicate in ("located_at", "lives_in")
            and not _placelike(claim.obj)
            and not _homely(claim.obj)
        ):
            claim.predicate = "works_at"


def _doing(value: str) -> bool:
    """家休息 / 家带孩子 (辞职了，现在在家休息): a spot and what one does there, no value."""
    toks = tokens(value)
    return (
        len(toks) > 1
        and toks[0].word in ("家", "家里", "老家")
        and any(t.flag.startswith("v") for t in toks[1:])
    )


def _homely(value: str) -> bool:
    """趟老家 / 家乡 / 老家长沙: a trip or a home, never an employer."""
    return value.startswith(("趟", "一趟", "次")) or any(w in value for w in ("家", "乡"))


def _placelike(value: str) -> bool:
    toks = tokens(value)
    return kind_of(value, [t.flag for t in toks]) == "place" or any(t.flag == "ns" for t in toks)


def _named_topic(clause: str) -> bool:
    """李娜呢 / 小王啊: a name and a topic particle, a clause of its own before what is said of them."""
    toks = tokens(clause)
    return len(toks) == 2 and toks[1].word in _TOPIC_PARTICLES and _is_name(toks, 0)


_ABOUT = re.compile(
    r"^(?:说到|说起|提到|讲到|聊到|至于|关于|还有|再说)(?P<name>[\u4e00-\u9fff]{2,3}?)(?:的话|啊|呢|吧|呀|这个人)?$"
)
_HEARD = re.compile(r"^听(?=[\u4e00-\u9fff]{2,3}(?:说|讲))(?!说)")
_TOPIC_PARTICLES = frozenset("呢 啊 嘛 吧 呀".split())


def _left_home(state: _State, clause: str) -> bool:
    """离开了南京，来到了苏州: a stay told right after the home it leaves is the new home (unless
    the clause says it is a trip: 去北京出差)."""
    previous = state.claims[-1] if state.claims else None
    if previous is None or previous.kind != "end" or previous.predicate != "lives_in":
        return False
    return not any(t.word in TRIP_V for t in tokens(clause))


_OUT_OF = re.compile(r"从(?P<v>[^，,从我你他她]{2,10}?)(?:那边|那里|那儿)?(?:出来|辞职出来|离职出来)了$")
_NO_JOB = re.compile(r"(?:现在|目前|已经|暂时)?(?:没|没有)(?:工作|班上|活干|活儿干)了$")
_JOB_QUIT = re.compile(
    r"把(?P<v>[^，,的把]{2,10}?)的(?:工作|职位|差事|饭碗)(?:给)?(?:辞掉|辞了|辞|丢了|丢掉)了?$"
)
_SENT = re.compile(
    r"^(?:公司|单位|领导|老板|上司|总部|集团|部门|上级|组织)(?:已经|最近|刚|刚刚|又|正式|直接)?"
    r"(?:把(?P<who>我|[\u4e00-\u9fff]{2,3}?)(?:派驻|外派|派遣|派|调派)|(?:派驻|外派|派遣|派|调派)(?P<who2>我|[\u4e00-\u9fff]{2,3}?))"
    r"(?:到了|去了|到|去|往|至)(?P<rest>[^，,]+?)(?:常驻|驻扎|长驻|工作|上班|生活)?(?:了)?$"
)
_DRIFT = re.compile(
    r"(?:在(?P<at>[\u4e00-\u9fff]{2,4}?))?(?:是|在|当|做)?(?:一个|一名|个|名)?(?P<c>北|沪|深|杭|广|蓉)漂(?:一族)?"
)
_DRIFT_CITY = {"北": "北京", "沪": "上海", "深": "深圳", "杭": "杭州", "广": "广州", "蓉": "成都"}


def _drifted(m: re.Match[str]) -> str:
    return f"住在{_DRIFT_CITY[m.group('c')]}"


_MADE = re.compile(
    r"^(?:公司|老板|领导|上司|单位|他们|董事会|上级|总部|学校|医院)(?:已经|最近|刚|刚刚|正式)?"
    r"(?:让|任命|提拔|安排|派|聘|聘请|请|选|指定|升)(?P<who>我|[\u4e00-\u9fff]{2,3}?)(?:来|去)?"
    r"(?:当|做|担任|为|成为|作为|当上)?了?(?:一名|一个|一位)?(?P<title>[^，,]+?)了?$"
)


def _made(m: re.Match[str], state: _State) -> bool:
    """They made me Y: the title is the person's (the speaker for 我)."""
    title = clean(m.group("title"))
    if title is None or not well_formed(title) or not is_job(title):
        return False
    who = m.group("who")
    subject = SPEAKER if who == "我" else who
    state.claims.append(Claim("job_title", title, subject=subject, inferred=state.hedged))
    return True


_HOME_IS = re.compile(
    r"^(?:现在|目前|如今)?(?P<v>[^我你他她]{2,12}?)(?:现在|目前|如今)?(?:就)?是我(?:们)?(?:现在|目前)?的(?:新)?家了?$"
)
_IS_MY_PLACE = re.compile(
    r"^(?:现在|目前|如今)?(?P<v>[^我你他她，,]{2,12}?)(?:现在|目前|如今)?(?:就)?是我(?:们)?(?:现在|目前|如今)?"
    r"(?:(?:住|生活|居住)的(?:地方|城市)|(?P<job>(?:工作|上班)的(?:地方|公司|单位)|的(?:新)?(?:东家|雇主|公司|单位)))了?$"
)
_NOUNED = re.compile(
    r"(?:搬|迁|跳槽|入职|加入|调|去|转行|升职)[^，,的]{0,12}的(?:事|事情|计划|打算|想法|念头|可能|可能性|安排|决定|申请|手续|消息|机会)"
    r"(?![^，,]*(?:办完|办好|定了|成了|落实))"
)
_INTENT = re.compile(
    r"^(?:我|我们)?(?:有|还有|已经有)?(?P<what>.+?)的(?:打算|计划|想法|念头|意向|准备|意愿)$"
)
_PENDING = re.compile(
    r"^(?:我|我们)?(?:已经|最近|刚|刚刚|又)?"
    r"(?P<what>(?:换|找|有)了?(?:一|个|家|份|一家|一份|一个)*(?:新)?(?:工作|公司|东家|单位|城市|地方)|跳槽|搬家)了?(?:生活|工作|上班|住)?了?$"
)


def _after_subject(clause: str) -> str:
    """The clause without its subject (罗兰换工作了 → 换工作了), else as it is."""
    toks = tokens(clause)
    found = _subject(toks) if toks else None
    return text_of(toks[found[1] :]) if found is not None and found[0][0] != "other" else clause


def _pending_predicate(what: str) -> str:
    """换了家公司 / 找了新工作 (works_at), 搬家 / 换了个城市 (lives_in)."""
    return "lives_in" if what == "搬家" or what.endswith(("城市", "地方")) else "works_at"


_GONE_TO = re.compile(
    r"^(?:我|我们)?(?:然后|后来|之后|接着|于是|所以|并|又|再|现在|目前|如今)?(?:就|便|才)?(?:人)?(?:是)?"
    r"(?:去了|来了|到了|来到了?|去|转去了|换到了|换去了|进了|在)的?(?P<v>.+?)了?$"
)


_SUCCESSION = ("后来", "然后", "之后", "接着", "随后", "再后来", "最后", "如今", "现在", "目前")


def _continuation(clause: str, state: _State) -> list[Claim]:
    """离开了华为，去了小米: a bare 去了Y after an ended X names X's successor (same predicate)."""
    m = _GONE_TO.match(clause)
    previous = state.claims[-1] if state.claims else None
    if m is None:
        return []
    value = clean(m.group("v"), place=True)
    if value is None or not well_formed(value) or _doing(value):
        return []
    if previous is not None and previous.kind == "end":
        return [Claim(previous.predicate, value, subject=previous.subject, inferred=previous.inferred)]
    if (
        previous is not None
        and previous.kind == "assert"
        and previous.predicate in ("works_at", "lives_in")
        and clause.startswith(_SUCCESSION)
    ):  # 我以前在IBM工作，后来去了甲骨文: the next value of the same slot (a place is a move)
        kind = kind_of(value, [t.flag for t in tokens(value)])
        predicate = "lives_in" if kind == "place" else previous.predicate
        return [Claim(predicate, value, subject=previous.subject, inferred=previous.inferred)]
    if state.pending:
        subject = state.subject[1] if state.subject else SPEAKER
        return [Claim(state.pending, value, subject=subject, inferred=state.hedged)]
    return []


def _retract(state: _State) -> None:
    """The latest claim of the sentence was the mistake: drop it and remember it."""
    state.correcting = True
    for i in range(len(state.claims) - 1, -1, -1):
        claim = state.claims[i]
        if claim.predicate != "knows" and claim.kind == "assert":
            state.wrong = state.claims.pop(i)
            return


_INTRODUCE = re.compile(
    r"^我(?:有|有一)(?:个|位|名)?(?P<rel>[\u4e00-\u9fff]{1,4}?)(?:叫|名叫|叫做)(?P<name>[\u4e00-\u9fff]{2,4}|[A-Z][a-z]+)$"
)
_SAID_WRONG = re.compile(
    r"^(?:我)?(?:上次|之前|刚才|刚刚|前面|先前|以前|那天)?(?:跟你|和你|对你)?说(?:过)?的(?:那个)?(?P<wrong>[^，,]+?)"
    r"(?:是错的|不对|有误|错了|说错了|不准确|是口误|是笔误|是我说错了|是我记错了|搞错了|记错了)$"
)
_SAID = re.compile(
    r"^(?:我)?(?:上次|之前|刚才|刚刚|前面|先前|以前|那天)(?:跟你|和你|对你)?说(?:过)?(?:的是)?(?P<inner>.+)$"
)
_NOT_REST = r"(?:(?P<verb>住|生活|工作|上班|读书)的(?:地方|城市|公司|单位|学校)?)?(?:并)?不是(?P<rest>.+)$"
_NOT_FIRST = re.compile(rf"^(?P<subject>我|[\u4e00-\u9fff]{{2,3}}?)?{_NOT_REST}")
_NOT_SUBJECTLESS = re.compile(rf"^(?P<subject>){_NOT_REST}")
_VERB_PREDICATE = {"住": "lives_in", "生活": "lives_in", "工作": "works_at", "上班": "works_at"}


_NO_LONGER = re.compile(r"了[啊呀啦哦吧]*$")


def _not_after_subject(clause: str, state: _State) -> re.Match[str] | None:
    """A subject of several words (我老婆王丽, 我的同事张伟) before 不是X: the subject is set and
    the rest matched as a subjectless 不是X."""
    toks = tokens(clause)
    found = _subject(toks) if toks else None
    if found is None or found[0][0] == "other" or found[1] >= len(toks):
        return None
    negated = _NOT_SUBJECTLESS.match(text_of(toks[found[1] :]))
    if negated is None:
        return None
    state.subject = found[0]
    state.claims.extend(found[2])
    return negated


def _wrong_value(m: re.Match[str], state: _State) -> None:
    """(我)不是X(，而是Y) / 我住的不是X: X is the mistaken value; its frame (不是住在X) or the verb
    before it (住的) gives the predicate when there is one."""
    state.correcting = True
    rest = m.group("rest")
    if m.group("subject"):
        found = _subject(tokens(m.group("subject") + "在"))
        if found is not None and found[0][0] != "other":
            state.subject = found[0]
    verb = m.group("verb")
    found_claims = frame_claims(tokens(rest), 0)
    if found_claims:
        state.wrong = found_claims[0]
        state.wrong.subject = state.subject[1] if state.subject else SPEAKER
        return
    if verb:
        value = clean(rest, place=True)
        if value is not None:
            subject = state.subject[1] if state.subject else SPEAKER
            state.wrong = Claim(_VERB_PREDICATE.get(verb, "studies_at"), value, subject=subject)
        return
    value = clean(re.sub(r"^(?:在|住在|于)", "", rest), place=True)  # 我不是在美团，…
    if value is not None:
        state.wrong = Claim("", value)
        state.replaces = value


def _bare(clause: str, state: _State) -> bool:
    """是Y / 而是在Y / 应该是Y after a retraction: Y replaces the mistaken value."""
    m = _BARE.match(clause)
    if m is None or len(tokens(clause)) > 6:
        return False
    raw = m.group("v")
    whole = tag(raw)
    # one name jieba knows whole (美的/nr) keeps its last character; else trailing particles go
    value = raw if len(whole) == 1 and whole[0][1] in _NAME_TAGS else clean(raw, place=True)
    toks = tokens(clause)
    if (
        value is None
        or not well_formed(value)
        or frame_claims(toks, 0)
        or _subject(toks) is not None
        or _where_of(toks, 0)
    ):
        return False  # a clause of its own (林娜在美团上班, 住的是德阳), not a bare value
    at_value = bool(re.match(r"^(?:而|其实|实际上|应该|应当|我是说)?是?在", clause))
    wrong = state.wrong
    if wrong is not None and wrong.predicate:
        state.claims.append(
            Claim(wrong.predicate, value, subject=wrong.subject, kind="correct", replaces=wrong.obj)
        )
        return True
    replaces = wrong.obj if wrong is not None else None
    guess = _guess(value) or (_guess(replaces) if replaces else "") or ("works_at" if at_value else "")
    # 不是腾讯，是华为 in a later message, neither name's kind known: offered to each slot it may be
    # about, applied only where its mistake held (``temporal.chain``)
    unsure = not guess and replaces is not None
    state.claims.append(
        Claim(
            guess or ("lives_in" if unsure else ""),
            value,
            kind="correct",
            replaces=replaces,
            from_context=True,
            guessed=unsure,
        )
    )
    return True


_NAME_TAGS = frozenset("nr nrt nt nz ns".split())


def _guess(value: str) -> str:
    """The predicate a bare corrected value most likely belongs to ("" leaves it to context)."""
    if is_job(value):
        return "job_title"
    kind = kind_of(value, [t.flag for t in tokens(value)])
    return {"school": "studies_at", "organization": "works_at", "place": "lives_in"}.get(kind, "")


# --------------------------------------------------------------------------- clause level

_REL = frozenset(
    "朋友 好朋友 姐姐 妹妹 哥哥 弟弟 妻子 老婆 丈夫 老公 男朋友 女朋友 同事 老板 爸爸 妈妈 父亲 母亲 "
    "儿子 女儿 表姐 表妹 表哥 表弟 堂哥 堂姐 堂弟 堂妹 室友 邻居 同学 领导 舅舅 叔叔 阿姨 姑姑 伯伯 "
    "爷爷 奶奶 外公 外婆 老同学 大学同学 高中同学 前同事 闺蜜 哥们 兄弟 姐妹 上司 下属 徒弟 师傅 "
    "男友 女友 未婚妻 未婚夫 太太 先生 媳妇 对象".split()
)
_OTHER = frozenset("你们 您 你 他们 她们 他 她 它 这 那 它们 大家 别人 人家 有人".split())
_WE = frozenset("我们 咱们 我们俩 咱俩 我俩 我们家 我家 咱家 我们一家".split())
_ROLE = frozenset("职位 职务 职业 岗位 头衔 工作 身份 本职工作 本职".split())
_WE_OK = frozenset({"lives_in", "relationship_status", "located_at", "has_pet", "owns", "plans"})
_DOING = frozenset("做 当 干 担任".split())
# ahead without a date: 过几天搬去X is a plan, like 会/要
_LATER = frozenset(
    "过两天 过几天 过段时间 过一段时间 过阵子 过一阵子 以后 将来 未来 到时候 回头 改天 迟早 早晚 年底 年初".split()
)


_CHANGE_VERBS = (
    MOVE_TO
    | WORK_TO
    | JOB_PROMOTE
    | SWITCH
    | TRANSFER
    | frozenset("搬 跳槽 去 来 到 回 回到 回来 返回".split())
)


def _undone_change(toks: list[Tok], i: int) -> bool:
    """A change verb (搬去, 跳槽到, 升为) with no 了/过 after it: it has not happened yet."""
    return at(toks, i, _CHANGE_VERBS) and not any(t.word in ("了", "过") for t in toks[i:])


def _adverb(tok: Tok) -> bool:
    """An adverb outside the vocabulary (最终, 果断, 彻底): jieba's d / ad tags, skipped before the
    verb; never one glued to a value (从小米), never a frame verb."""
    return (
        tok.flag in ("d", "ad", "dg")
        and tok.word[0] not in _GLUE
        and tok.word not in FRAME_VERBS
        and tok.word not in ("不是", "是")
    )


def _time_word(tok: Tok) -> bool:
    """A time word the time parser left (当年, 那时候, 末): jieba's t / f tags, never a frame verb."""
    return (
        tok.flag in ("t", "f", "tg")
        and not is_stop(tok)
        and tok.word not in FRAME_VERBS
        and tok.word not in ("正在", "当", "当上", "在")
    )


_CONSIDER = frozenset("考虑 计划 打算 准备 筹划 规划".split())
_STILL = frozenset("还 还是 仍 仍然 依然 依旧 照样 一直".split())
_MODAL_SKIP = frozenset("能 可以 还".split())


def _clause(clause: str, state: _State) -> list[Claim]:
    implicit = match(IMPLICIT, clause)
    if implicit:
        state.subject = ("first", SPEAKER)
        return implicit
    toks = tokens(clause)
    if not toks:
        return []
    if len(toks) > 2 and toks[0].word in _PAST:  # (2020年)以前我一直住在X: 我以前…, the past kept
        ahead = _subject(toks[1:])
        if ahead is not None and ahead[0][0] != "other":
            toks = [*toks[1 : 1 + ahead[1]], toks[0], *toks[1 + ahead[1] :]]
    lead = _lead(toks)
    if lead:  # 所以我…, 后来我…, 对了我…: the subject after a discourse word
        toks = toks[lead:]
    toks = _disposal(_topic(toks))
    toks = _whose_person(toks)
    toks, companion = _together(toks)
    found = _subject(toks)
    if found is not None and found[0][0] == "other" and toks[0].word in ("他", "她") and state.introduced:
        found = (("name", state.introduced), 1, [])  # 我有个朋友叫马克，他住在深圳
    claims: list[Claim] = []
    pro_drop = False
    if found is not None:
        subject, i, extra = found
        state.subject = subject
        claims.extend(extra)
    elif state.subject is not None:
        subject, i = state.subject, 0
    else:
        subject, i, pro_drop = ("first", SPEAKER), 0, True
    if subject[0] == "name":  # 罗兰(跟我)说她…: what a named person says of themself
        i = _reported(toks, i)
    if subject[0] == "other":
        return claims
    if subject[0] == "name" and at(toks, i, frozenset({"家"})) and at(toks, skip(toks, i + 1, ADVERBS), _AT):
        toks, i = [Tok("住", "v"), *toks[skip(toks, i + 1, ADVERBS) :]], 0  # 周涛家在苏州: the person's home
    if subject[0] == "home":  # 我家(现在)在X: where the household lives
        subject = state.subject = ("we", SPEAKER)
        j = skip(toks, i, ADVERBS)
        if at(toks, j, frozenset({"在"})):
            toks, i = [Tok("住", "v"), *toks[j:]], 0
    own = _predicate(toks, i, state, pro_drop=pro_drop)
    if own and pro_drop:
        state.subject = subject
    for claim in own:
        if subject[0] == "we" and claim.predicate not in _WE_OK:
            continue
        if claim.predicate == "name" and (subject[0] != "first" or found is None):
            continue
        claim.subject = subject[1]
        claims.append(claim)
    if companion and subject[0] == "first":  # 我和张伟都在华为上班: 张伟 too
        claims.extend(
            replace(c, subject=companion) for c in own if c.predicate not in ("name", "knows", "plans")
        )
    return claims


_GROUP_FLAGS = frozenset("n nz nt ns s f".split())
_THIS_ONE = frozenset("这个人 这人 这家伙 那个人 这小子 这姑娘".split())


def _whose_person(toks: list[Tok]) -> list[Tok]:
    """我们公司的张伟住在杭州 → 张伟住在杭州 (a named person of the speaker's group); 张伟这个人在华为
    上班 → 张伟在华为上班."""
    if len(toks) > 3 and toks[0].word in ("我们", "咱们", "我") and toks[1].word != "的":
        k = next((n for n in range(1, min(4, len(toks) - 2)) if toks[n].word == "的"), None)
        if (
            k is not None
            and all(t.flag in _GROUP_FLAGS and t.word not in _REL for t in toks[1:k])
            and toks[k + 1].flag.startswith("nr")
            and _is_name(toks, k + 1)
        ):
            return toks[k + 1 :]
    if (
        len(toks) > 3
        and toks[0].flag.startswith("nr")
        and toks[1].word in ("这个", "那个")
        and toks[2].word == "人"
    ):
        return [toks[0], *toks[3:]]
    if len(toks) > 2 and toks[0].flag.startswith("nr") and toks[1].word in _THIS_ONE:
        return [toks[0], *toks[2:]]
    return toks


_SAY = frozenset("说 告诉 提到 讲 表示 跟我说 和我说 对我说 告诉我".split())
_SELF = frozenset("他 她 自己 他自己 她自己".split())


def _reported(toks: list[Tok], i: int) -> int:
    """罗兰告诉我她搬到了X / 张伟说他在X上班: past the verb of saying, its listener and the pronoun
    naming the speaker again, the predicate is the named person's; else ``i`` as it was."""
    j = skip(toks, i, ADVERBS)
    if at(toks, j, frozenset({"跟", "和", "对"})) and at(toks, j + 1, frozenset({"我", "我们"})):
        j += 2
    if not at(toks, j, _SAY):
        return i
    j += 1
    if at(toks, j, frozenset({"我", "我们"})) and toks[j - 1].word in ("告诉",):
        j += 1
    return j + 1 if at(toks, j, _SELF) else i


_TOPIC_FLAGS = frozenset("ns nt nz nr nrt nrfg j eng".split())
_TOPIC_VERBS = LIVE_V | WORK_V | STUDY_V


def _topic(toks: list[Tok]) -> list[Tok]:
    """北京我已经不住了 / 腾讯我早就不干了: a name fronted before the subject is the verb's place;
    it is read as 我已经不在北京住了."""
    if len(toks) >= 3 and toks[0].flag in ("ns", "nt") and toks[1].word in LIVE_V and _sated(toks, 1):
        return [Tok("在", "p"), *toks]  # 北京待腻了: 在北京待腻了 (the subject carried or the speaker)
    if len(toks) > 3 and toks[0].flag in _TOPIC_FLAGS and toks[1].word in LOCATIVE:
        toks = [toks[0], *toks[2:]]  # 苏州那边我已经不住了: the place, not where around it
    if len(toks) < 3 or toks[0].flag not in _TOPIC_FLAGS or toks[1].word not in ("我", "我们", "咱们"):
        return toks
    rest = toks[2:]
    k = next((n for n, t in enumerate(rest) if t.word in _TOPIC_VERBS), None)
    if k is None or any(t.word in ("在", "于", "住在") or t.flag in _TOPIC_FLAGS for t in rest):
        return toks
    return [toks[1], *rest[:k], Tok("在", "p"), toks[0], *rest[k:]]


def _disposal(toks: list[Tok]) -> list[Tok]:
    """公司把我(从宁波)调到了温州 / 领导把小王派去了深圳: the one moved by 把 is the clause's subject
    (the agent before 把 is no part of the fact)."""
    if len(toks) < 4 or toks[1].word != "把" or toks[0].word in ("我", "我们", "咱们") or toks[0].punct:
        return toks
    moved = toks[2:]
    if moved[0].word in ("家", "户口", "家人", "全家"):
        return toks
    found = _subject(moved)
    if found is None or found[0][0] == "other":
        return toks
    rest = moved[found[1] :]
    j = skip(rest, 0, ADVERBS)
    if not (
        at(rest, j, TRANSFER)
        or at(rest, j, MOVE_TO)
        or at(rest, j, WORK_TO)
        or at(rest, j, frozenset({"从", "由"}))
    ):
        return toks
    return moved


_WITH = frozenset("和 跟 与 同".split())
_TOGETHER = frozenset("都 一起 一块 一块儿 俩 两个 两个人 一同".split())


def _together(toks: list[Tok]) -> tuple[list[Tok], str | None]:
    """我和张伟(都/一起)… / 我跟老婆住在上海: the speaker is the subject (and a named companion with
    them); the companion phrase is cut so the predicate follows the subject."""
    if len(toks) < 4 or toks[0].word != "我" or not at(toks, 1, _WITH):
        return toks, None
    j, name = 2, None
    if at(toks, j, frozenset({"我"})):
        j = 3 if not at(toks, 3, frozenset({"的"})) else 4
    if at(toks, j, _REL):
        j += 1
    if j < len(toks) - 1 and toks[j].flag.startswith("nr") and len(toks[j].word) >= 2:
        name, j = toks[j].word, j + 1
    elif j == 2:
        return toks, None
    k = j
    while at(toks, k, _TOGETHER):
        k += 1
    rest = toks[k:]
    if not rest or not frame_claims(rest, skip(rest, 0, ADVERBS | NEG)):  # 我和王芳结婚了: their act
        return toks, None
    return [toks[0], *rest], name


_DISCOURSE = frozenset(
    "所以 然后 于是 不过 但是 但 可是 而且 另外 对了 其实 话说 总之 反正 后来 之后 接着 因此 因为 所以说 "
    "现在 目前 如今 最近 那 那么 结果 原来 本来 好消息是 告诉你".split()
)


_CONNECTIVE = frozenset(
    "但是 但 不过 可是 然而 所以 于是 后来 然后 之后 接着 结果 而且 并且 因此 随后".split()
)


def _lead(toks: list[Tok]) -> int:
    """How many discourse words (所以, 后来, 对了) open the clause before a subject (0 when none)."""
    i = 0
    while i < len(toks) - 1 and (
        toks[i].word in _DISCOURSE
        or (toks[i].flag == "c" and toks[i].word not in ("不是", "和", "跟", "与", "同"))
        or (toks[i].word in ("对", "了") and toks[0].word == "对")
        or _time_word(toks[i])
    ):
        i += 1
    if not i or _subject(toks[i:]) is not None:
        return i
    # 但是现在住在威海 / 不过后来搬到了威海: no subject follows; the connective still goes, unless
    # the words after it are the predicate's own (现在 / 已经 are read there as well)
    return i if any(toks[k].word in _CONNECTIVE for k in range(i)) else 0


def _subject(toks: list[Tok]) -> tuple[tuple[str, str | None], int, list[Claim]] | None:
    first = toks[0].word
    if first in ("我们", "咱们") and at(toks, 1, frozenset({"家"})):  # 我们/家 (jieba: 家/q)
        return ("home", SPEAKER), 2, []
    if first in _WE:
        return ("home" if first.endswith("家") else "we", SPEAKER), 1, []
    if first == "我":
        j = 2 if at(toks, 1, frozenset({"的"})) else 1
        for k in range(j, min(j + 3, len(toks))):  # 我(的)(好/大学/最好的/前)朋友X
            if at(toks, k, _REL):
                return _relative(toks, k)
            if not (toks[k].flag in ("a", "n", "f", "b", "uj") and toks[k].word not in _REL_STOP):
                break
        if j == 2 and at(toks, 2, frozenset({"家"})):
            return ("home", SPEAKER), 3, []
        return ("first", SPEAKER), 1, []
    if first in _OTHER or (first in _REL and len(toks) > 1):
        return ("other", None), 1, []
    if _is_name(toks, 0):
        return ("name", first), 2 if at(toks, 1, _SELF_PRONOUN) else 1, []
    return None


_REL_STOP = frozenset("家 公司 工作 新工作 单位 学校 职位 职务 职业 岗位 名字".split())


def _relative(toks: list[Tok], j: int) -> tuple[tuple[str, str | None], int, list[Claim]]:
    """我(的)表哥陈静…: the relative is the subject, and the speaker knows them."""
    rel = toks[j].word
    if j + 1 < len(toks) and _looks_like_name(toks[j + 1]):
        name = toks[j + 1].word
        knows = Claim("knows", name, qualifier=rel, object_kind="person")
        return ("name", name), j + 2, [knows]
    return ("other", None), j + 1, []


def _looks_like_name(tok: Tok) -> bool:
    word = tok.word
    if tok.flag.startswith("nr") and len(word) >= 2:
        return True
    return 2 <= len(word) <= 4 and bool(_HAN.match(word)) and not is_stop(tok) and word not in _REL


def _is_name(toks: list[Tok], i: int) -> bool:
    """A person's name opening a clause: jieba's nr*, or a surname-led word before a predicate."""
    tok = toks[i]
    latin = tok.flag == "eng" and tok.word[:1].isupper() and tok.word.isalpha()  # Tom住在上海
    if len(tok.word) < 2 or is_stop(tok) or not (latin or _HAN.match(tok.word)):
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None:
        return False
    # a predicate opens with a verb, a preposition (被/从/在), an adverb (原来) or a time word
    before_predicate = (
        nxt.word in _PRED_START
        or nxt.word in _POSTS
        or nxt.word in _SELF_PRONOUN
        or nxt.flag.startswith("v")
        or nxt.word in ("的",)
        or (nxt.flag in ("p", "d", "ad", "t") and nxt.word not in _NOT_PREDICATE)
        or nxt.word in _CHANGE_WORDS
        or nxt.word in _PAST
        or (nxt.word == "家" and at(toks, skip(toks, i + 2, ADVERBS), _AT))  # 周涛家在苏州
    )
    if latin:
        return before_predicate
    if tok.flag.startswith("nr"):
        return before_predicate or is_stop(nxt)
    return tok.word[0] in SURNAMES and len(tok.word) <= 3 and before_predicate


_HAN = re.compile(r"^[\u4e00-\u9fff]+$")
_AT = frozenset({"在"})
_SELF_PRONOUN = frozenset("他 她".split())  # 李娜她现在住在上海: the name said again
_CHANGE_WORDS = frozenset("换 换了 搬 搬家 跳槽 辞职 离职 退休 失业 下岗".split())
_NOT_PREDICATE = frozenset("和 跟 与 同 的 对 把".split())
_PRED_START = ADVERBS | NEG | PLAN | FUTURE | HEDGE | frozenset("在 住在 是 从 不是 正在 于 家住".split())


def _predicate(toks: list[Tok], i: int, state: _State, *, pro_drop: bool) -> list[Claim]:
    """Modifiers (adverbs, negation, plan, future, hedge), then a frame, else the phrase table."""
    role = _role(toks, skip(toks, i, ADVERBS))
    if role is not None:
        return role
    start = i
    neg = plan = ""
    future = hedged = still = past = False
    while i < len(toks):
        word = toks[i].word
        # 之前一直住在X: 一直 there says how long it held before, not that it still does
        still = still or (word in _STILL and not (word == "一直" and past))
        past = past or word in _PAST
        if word in _NEAR_MISS:  # 我差一点就搬到苏州了: it did not happen
            return []
        if word == "不是":
            neg, toks = "不", [*toks[:i], Tok("是", "v"), *toks[i + 1 :]]
            break
        if (
            word == "人"
            and i + 1 < len(toks)
            and toks[i + 1].word in ("在", "已经", "还", "现在", "目前", "到")
        ):
            i += 1  # 我现在人在成都生活: the person, in the place
            continue
        if word == "把" and at(toks, i + 1, frozenset({"家", "家人", "全家"})):  # 把家搬到X (户口: no home)
            i += 2
            if at(toks, i, frozenset({"安", "安在", "安置"})):  # 把家安在了X: settled there
                toks = [*toks[:i], Tok("安家在", "v"), *toks[i + 1 :]]
            continue
        if word in ("在", "正在") and (at(toks, i + 1, _CONSIDER) or at(toks, i + 1, _DOING)):  # 在考虑
            i += 1
            continue
        if word in NEG:
            neg = neg or word
        elif word in PLAN:
            plan = word
            break
        elif word in FUTURE or word in _LATER:
            future = True
        elif word == "过" and i + 1 < len(toks) and DURATION.match(toks[i + 1].word):  # 过几天
            future, i = True, i + 1
        elif word in HEDGE:
            hedged = True
        elif (
            word not in ADVERBS and word not in _MODAL_SKIP and word not in _PAST and not DURATION.match(word)
        ):
            if not _time_word(toks[i]) and not _adverb(toks[i]):
                break
        i += 1
    if plan:
        return _plan(toks, i + 1, neg)
    claims = frame_claims(toks, i) or _unglued(toks, i)
    if claims and _visit(toks, i):  # 去日本待了一周 / 在东京住了三天: a visit, not a home
        claims = [replace(c, predicate="located_at") if c.predicate == "lives_in" else c for c in claims]
    if claims and not neg and _sated(toks, i):  # 在北京待腻了 / 在百度干够了: the stay is over
        return _held_before([c for c in claims if c.predicate in _STATES and not c.before])
    if not claims and (still or _lasted(toks, i)) and not neg:  # 我没搬，还在重庆 / 我在杭州都(五年)了
        claims = _named_zai(toks, i) if still else bare_zai(toks, i)  # 还在熟悉: doing, not where
    if not claims and not neg and (past or any(t.word in _NOW_AT for t in toks[start:i])):
        claims = _named_zai(toks, i)  # 我现在在重庆 / 我目前在腾讯 / 我本来在绵阳
    if future and claims and not neg:  # 我明年会搬到X: said ahead, a plan until it happens
        return _plan(toks, i, "")
    if (hedged or state.hedged) and claims and not neg and _undone_change(toks, i):
        return _plan(toks, i, "")  # 林娜有可能搬去成都: a possible move, not a hedged state
    if neg:
        claims = claims or bare_zai(toks, i)
        again = any(t.word in ("再", "再也") for t in toks[start:i])  # 没有再住在X: no longer
        if neg in ("没", "没有") and toks[-1].word != "了" and not again:
            return []
        claims = [_ended(c) for c in claims if not c.before]
    elif claims and (past or _experiential(toks, i)) and not at(toks, i, _CHANGE_VERBS) and not still:
        claims = _held_before(claims)
    if not claims and not pro_drop:
        rest = text_of(toks[start:])
        claims = table_claims(_ADV.sub("", rest))
    for claim in claims:
        claim.needs_future = claim.needs_future or future
        claim.inferred = claim.inferred or hedged or state.hedged
    return claims


_SHORT_STAY = re.compile(r"^(?:[0-9一二两三四五六七八九十几半]+|好几)(?:个)?(?:天|日|周|星期|礼拜|晚|夜|宿)$")
_SHORT_UNIT = frozenset("天 日 周 星期 礼拜 晚 夜 宿 晚上".split())


def _visit(toks: list[Tok], i: int) -> bool:
    """A stay verb with 了 and a stay of days, weeks or nights after it (待了一周, 住了三天, 住了一晚)."""
    for n in range(i, len(toks) - 2):
        if toks[n].word in _STAY_V and toks[n + 1].word == "了":
            word = toks[n + 2].word
            nxt = toks[n + 3].word if n + 3 < len(toks) else ""
            if _SHORT_STAY.match(word) or (NUMBER.match(word) and nxt in _SHORT_UNIT):
                return True
    return False


_NEAR_MISS = frozenset("差点 差点儿 差一点 差一点儿 险些 几乎 差些".split())
_PAST = frozenset("以前 之前 曾经 曾 原来 原先 原本 本来 过去 从前 早先 当年 那时 当时 以往".split())
_NOW = frozenset("现在 目前 如今 至今 一直 还 仍然 依然".split())
_STATES = frozenset({"lives_in", "works_at", "job_title", "studies_at"})


_LASTING = frozenset("已经 已 都 快 有 近 将近 差不多 足足 整整 快要 也".split())


def _lasted(toks: list[Tok], i: int) -> bool:
    """在X已经(三年)了 / 在X都(五年)了: with the duration cut out as a time, an adverb of how long
    and a closing 了 are left after the value: the state has lasted up to now."""
    if toks[-1].word in ("已有", "已经有", "有"):  # 在X已有(五年)
        return True
    return toks[-1].word == "了" and any(t.word in _LASTING for t in toks[i:])


_SATED = frozenset("腻 腻了 够 够了 烦 烦了 厌 厌了 倦 倦了 厌倦 厌烦".split())
_STAY_V = LIVE_V | WORK_V | STUDY_V | AS_V


def _sated(toks: list[Tok], i: int) -> bool:
    """住腻了 / 待够了 / 干烦了 / 呆不下去了: a stay verb with a complement of having had enough."""
    for n in range(i, len(toks) - 1):
        if toks[n].word in _STAY_V and (
            toks[n + 1].word in _SATED or (toks[n + 1].word == "不" and at(toks, n + 2, frozenset({"下去"})))
        ):
            return True
    return False


_NOW_AT = frozenset("现在 目前 如今 眼下 现如今 当前 就 都 始终 一向 向来 长期 常年 一直都".split())
_NOT_NAME_FLAGS = ("v", "f", "s", "a", "d", "m", "r", "u", "y", "p", "c")


def _named_zai(toks: list[Tok], i: int) -> list[Claim]:
    """在X closing a clause said of now or of the past (我现在在重庆, 我本来在绵阳): a state when X is
    a name or a noun (在开会, 在路上, 在地铁上 are what the person is doing, or where on the way)."""
    claims = bare_zai(toks, i)
    if not claims:
        return []
    j = i + 1
    end = len(toks)
    while end > j and toks[end - 1].word in PARTICLES_END:
        end -= 1
    value = toks[j:end]
    if not value or len(text_of(value)) < 2:
        return []
    named = kind_of(text_of(value), [t.flag for t in value]) != ""  # 鹿/nr 鸣/v 科技: a suffix says
    if not named and any(t.flag.startswith(_NOT_NAME_FLAGS) for t in value):
        return []
    return claims


def _experiential(toks: list[Tok], i: int) -> bool:
    """我在西安住过 / 我在华为干过两年: 过 after the verb says it held once, not now (unless 现在/一直)."""
    if any(t.word in _NOW for t in toks):
        return False
    return any(
        t.word == "过" and toks[n - 1].flag.startswith("v") for n, t in enumerate(toks[i + 1 :], i + 1)
    )


def _held_before(claims: list[Claim]) -> list[Claim]:
    """A state said of the past (我以前住在烟台, 我曾经是老师, 住过): it held before this moment and
    ends now, so it is never the current value; a later clause may name what followed."""
    out: list[Claim] = []
    for claim in claims:
        out.append(claim)
        if claim.kind == "assert" and claim.predicate in _STATES and not claim.before:
            claim.before = True
            out.append(Claim(claim.predicate, claim.obj, kind="end", qualifier=claim.qualifier))
    return out


def _unglued(toks: list[Tok], i: int) -> list[Claim]:
    """jieba glues a preposition to the value's first character (从小米 → 从小/米, 在家乐福 → 在家/乐福):
    read it split (从/小米), then as the adverb it also is (从小住在北京: 从小 "since childhood")."""
    if i >= len(toks) or len(toks[i].word) != 2 or toks[i].word[0] not in _GLUE:
        return []
    head, rest = toks[i].word[0], toks[i].word[1]
    split = [*toks[:i], Tok(head, "p"), Tok(rest, "n"), *toks[i + 1 :]]
    return frame_claims(split, i) or frame_claims(toks, i + 1)


_GLUE = frozenset("从在到于")


_ROLE_PREDICATE = {
    "公司": "works_at",
    "单位": "works_at",
    "工作单位": "works_at",
    "雇主": "works_at",
    "东家": "works_at",
    "新东家": "works_at",
    "新雇主": "works_at",
    "学校": "studies_at",
    "母校": "studies_at",
    "城市": "lives_in",
    "住址": "lives_in",
    "居住地": "lives_in",
    "常住地": "lives_in",
    "所在城市": "lives_in",
    "居住城市": "lives_in",
}


def _role(toks: list[Tok], i: int) -> list[Claim] | None:
    """我(目前)的职务是Y (a title), 我的公司是Y (works_at), 我的学校是Y, 我住的城市是Y."""
    named = _where_of(toks, i)
    if named is not None:
        return named
    if i > 0 and at(toks, i, frozenset({"新", "现在的", "目前的"})) and at(toks, i + 1, frozenset(_ROLE_AT)):
        return _role(toks[i:], 0)  # 我新工作在腾讯: as …，新工作在腾讯
    if i == 0:  # …，新工作在腾讯 / 新家在西湖边: the clause names where, its subject carried over
        j = 1 if at(toks, 0, frozenset({"新", "现在的", "目前的"})) else 0
        carried = _ROLE_AT.get(toks[j].word, "") if j < len(toks) else ""
        if carried and toks[j].word in ("工作在", "上班在"):
            value, _ = span(toks, j + 1)
        elif carried and at(toks, j + 1, frozenset({"在"})):
            value, _ = span(toks, j + 2)
        else:
            value = ""
        place = kind_of(value, [t.flag for t in tokens(value)]) == "place"
        if value and well_formed(value) and not (place and carried == "works_at"):
            return [Claim(carried, value)]  # 公司在深圳 says where the company is
    if at(toks, i, _POSTS) and at(toks, i + 1, _BE):  # 我职位是Y (no 的)
        return title_claims(toks, i + 2)
    if not at(toks, i, frozenset({"的"})):
        return None
    if at(toks, i + 1, frozenset({"新", "现任", "现在", "目前"})):  # 我的新职位是Y
        toks = [*toks[: i + 1], *toks[i + 2 :]]
    if i + 2 < len(toks) and toks[i + 1].word + toks[i + 2].word in _ROLE_PREDICATE:  # 工作/单位
        toks = [*toks[: i + 1], Tok(toks[i + 1].word + toks[i + 2].word, "n"), *toks[i + 3 :]]
    if i + 1 < len(toks) and toks[i + 1].word in _ROLE and at(toks, i + 2, frozenset({"从"})):
        return _from_title(toks, i + 3)  # 我的职位从经理变成了总监
    if i + 1 >= len(toks):  # 我上次说的 (the value follows in another clause)
        return None
    if toks[i + 1].word in _ROLE and at(toks, i + 2, JOB_PROMOTE) and not at(toks, i + 2, _BE):
        return title_claims(toks, i + 3)  # 我的头衔变成了Y
    joined = {"工作在": "works_at", "上班在": "works_at", "住在": "lives_in"}.get(toks[i + 1].word)
    if joined is not None and i + 2 < len(toks):  # 我的新工作在X (jieba: 工作在)
        value, _ = span(toks, i + 2)
        return [Claim(joined, value)] if well_formed(value) else None
    if not at(toks, i + 2, frozenset({"是", "在"})):
        return None
    noun = toks[i + 1].word
    if toks[i + 2].word == "在":  # 我的新工作在X / 我的公司在X: where, not what
        value, _ = span(toks, i + 3)
        where = {
            "工作": "works_at",
            "公司": "works_at",
            "单位": "works_at",
            "家": "lives_in",
            "住址": "lives_in",
            "住处": "lives_in",
            "居住地": "lives_in",
        }.get(noun)
        return [Claim(where, value)] if where and well_formed(value) else None
    if noun in _ROLE:
        return title_claims(toks, i + 3)
    predicate = _ROLE_PREDICATE.get(noun)
    if predicate is None:
        return None
    value, _ = span(toks, i + 3)
    return [Claim(predicate, value)] if well_formed(value) else []


_BE = frozenset({"是"})
_POSTS = frozenset("职位 职务 岗位 头衔 职业".split())


def _from_title(toks: list[Tok], i: int) -> list[Claim]:
    """…从X<promotion verb>Y: the title X held before Y."""
    old, j = span(toks, i)
    k = skip(toks, j, ADVERBS)
    if not well_formed(old) or not at(toks, k, JOB_PROMOTE):
        return []
    new = title_claims(toks, k + 1)
    return [Claim("job_title", old, before=True), *new] if new else []


_ROLE_AT = {
    "工作在": "works_at",
    "上班在": "works_at",
    "工作": "works_at",
    "公司": "works_at",
    "单位": "works_at",
    "家": "lives_in",
    "新家": "lives_in",
}
_WHERE_NOUNS = frozenset("地方 城市 地儿 公司 单位 地点 学校 城".split())


def _where_of(toks: list[Tok], i: int) -> list[Claim] | None:
    """我(现在)住的地方是苏州 / 我工作的公司是华为 / 我上班的地方在国贸: the verb before 的 gives the
    predicate, the value follows 是 or 在."""
    if at(toks, i, LIVE_V) and at(toks, i + 1, frozenset({"的"})) and at(toks, i + 2, frozenset({"是"})):
        value, j = span(toks, i + 3)
        flags = [t.flag for t in toks[i + 3 : j]]
        if kind_of(value, flags) != "place" and not any(f in ("ns", "nz", "j") for f in flags):
            return None  # 我住的是老房子: what, not where
        toks = [*toks[: i + 2], Tok("地方", "n"), *toks[i + 2 :]]  # 我住的是苏州: 我住的地方是苏州
    if not (at(toks, i + 1, frozenset({"的"})) and at(toks, i + 2, _WHERE_NOUNS)):
        return None
    verb = toks[i].word if i < len(toks) else ""
    if verb == "所在":  # 我所在的公司是X / 我所在的城市是X
        verb = "住" if toks[i + 2].word in ("城市", "城", "地方") else "工作"
    predicate = (
        "lives_in"
        if verb in LIVE_V
        else "works_at"
        if verb in WORK_V
        else "studies_at"
        if verb in STUDY_V
        else ""
    )
    if not predicate or not at(toks, i + 3, frozenset({"是", "在"})):
        return None
    value, _ = span(toks, i + 4)
    return [Claim(predicate, value)] if well_formed(value) else []


def _ended(claim: Claim) -> Claim:
    claim.kind = "end" if claim.kind == "assert" else claim.kind
    return claim


def _plan(toks: list[Tok], i: int, neg: str) -> list[Claim]:
    """打算/计划/想 + what: a plan (inferred), never the fact itself; the time stays in the value."""
    if neg:
        return []
    i = skip(toks, i, frozenset({"要", "能", "在", "以后", "将来", "未来"}))
    if at(toks, i, frozenset({"不要"})) and at(toks, i - 1, frozenset({"要"})):  # 考虑要不要搬到X
        i += 1
    value = clean(text_of(toks[i:]))
    if value is None or len(value) < 2 or any(p in value for p in ("我", "你", "他", "她")):
        return []  # 我想了想: no plan named
    if i < len(toks) and (toks[i].word in _REL or toks[i].word in _OTHER or toks[i].flag.startswith("nr")):
        return []  # 希望叔叔早日康复: a wish about someone else, not the speaker's plan
    rest = [t for t in toks[i:] if not t.punct and t.word not in ADVERBS and t.word not in _TOGETHER]
    if len(rest) == 1 and rest[0].word in _BARE_GO:
        return []  # 我们决定一起过去: a plan that names nothing
    return [Claim("plans", value, keeps_time=True, inferred=True)]


_BARE_GO = frozenset("去 来 过去 过来 回去 回来 走 出发".split())


# --------------------------------------------------------------------------- the phrase table

_ADV = re.compile(
    r"^(?:现在|目前|一直|已经|就|也|还是|还|都|刚刚|刚|最近|终于|又|仍然|依然|真的|其实|开始|"
    r"全家人?|一家人?|一家子|俩|两个人?|两口子|夫妻俩|一起)+"
)
_SHI_DE = re.compile(r"^是(?P<inner>.+)的$")
_END_PARTICLE = re.compile(r"了[啊呀啦哦吧]*$")


def table_claims(rest: str) -> list[Claim]:
    """Predicates outside the frames (likes, pets, status, owns, name): negation first."""
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
    claims = [_own(c) for c in claims or match(RULES, rest)]
    claims = [c for c in claims if c.obj and not _has_pronoun(c.obj)]
    if negated:
        return [_dislike(c) for c in claims if c.predicate == "likes"]
    for claim in claims:
        claim.kind = "end" if kind == "end" and claim.kind == "assert" else claim.kind
    return claims


_POSSESSIVE = re.compile(r"^(?:我们|我|咱们)(?:的|家的?)")
_PERSONAL = frozenset(
    "我 你 您 他 她 我们 你们 他们 她们 咱们 咱 自己 人家 这里 那里 这儿 那儿 这边 那边 这 那 这个 那个 这些 那些".split()
)


def _own(claim: Claim) -> Claim:
    """我喜欢我的新工作: the speaker's own thing is named without the possessive (新工作)."""
    claim.obj = _POSSESSIVE.sub("", claim.obj)
    return claim


def _has_pronoun(value: str) -> bool:
    """Whether a personal or demonstrative pronoun is a word of ``value`` (和他聊天, 这里的生活 yes;
    弹吉他 no): a fact's statement never keeps one, since it cannot be resolved outside the
    conversation."""
    return any(word in _PERSONAL for word, _ in tag(value))


def _dislike(claim: Claim) -> Claim:
    claim.predicate = "dislikes"
    return claim
