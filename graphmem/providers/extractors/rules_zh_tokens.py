"""Tokens for the Chinese rules extractor: jieba's (word, POS) sequence plus general vocabulary.

``tokens(text)`` is jieba.posseg's segmentation (``rules_zh.tag``) with the verb compounds jieba
splits (搬/到, 入/职, 跳槽/到) joined again, so a phrasing is matched word by word. The word classes
below are general vocabulary (verbs, adverbs, particles, measure words), never names: a place or
an organisation is whatever stands between a frame's words. ``span`` reads such a value: it runs
from a position to the next word that cannot be part of a name (a particle, an adverb, a frame
verb, a pronoun, a duration, punctuation), so 在南京已经住了三年 gives 南京 and an untagged
name (蔚来汽车, 拼多多) comes out whole even where jieba cuts it into pieces tagged as verbs.
jieba's own tags are used only where they are reliable enough to guess with: nr* for people,
ns / nt for the kind of an ambiguous value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

# --------------------------------------------------------------------------- vocabulary


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


LIVE_V = _words(
    "发展 住 居住 生活 定居 安家 落户 长住 常住 久居 待 呆 扎根 住下 住下来 定居下来 安顿下来 落脚 落脚了 落地生根"
)
WORK_V = _words("效力 卖命 工作 上班 任职 就职 供职 实习 打工 干活 干 上岗 做事 谋生 转正")
STUDY_V = _words(
    "读书 上学 学习 念书 读大学 上大学 读研 读博 读研究生 读本科 留学 深造 求学 进修 读硕士 读博士"
)
TRIP_V = _words("出差 旅游 旅行 度假 玩 开会 游玩 考察 参会 培训 观光")
AS_V = _words("当 做 担任 任 干")  # 在X当Y: works at X as Y
MOVE_TO = _words(
    "搬到 搬去 搬来 搬回 搬回到 搬进 搬进了 搬家到 搬家去 迁到 迁往 迁去 迁居 迁居到 移居 移居到 "
    "定居到 定居在 定居于 落户到 落户在 落户于 安家在 安家于 安家到 搬至 迁至 移居至 搬往 住到 住到了 "
    "落脚 落脚在 落脚于 搬过去 迁居至 迁回 调回 调回到 返回 搬迁到 搬迁至 迁往了 乔迁到 乔迁至 乔迁"
)
WORK_TO = _words(
    "跳槽到 跳槽去 跳槽至 跳到 跳去 入职 加入 加盟 就职于 供职于 任职于 效力于 转到 转去 调到 调去 "
    "调往 跳槽进 进入 进了 入职到 签约 转投 投奔 跳槽至"
)
LIVE_AT = _words(
    "留在 留在了 现居 现居住在 现住在 现住 现居于 住在 住于 生活在 居住在 居住于 定居在 定居于 家住在 家住 安家在 落户在 长住在 常住在"
)
WORK_AT = _words("工作在 上班在 就职于 供职于 任职于 服务于 效力于")
LEAVE = _words("离开 离开了 告别")
LEAVE_LIVE = _words("搬离 搬出 搬出了 搬离了 迁出 迁离")
QUIT = _words("离职 辞职 退休 辞工 裸辞 被裁 被辞退 被开除")
QUIT_OBJ = _words("辞去 辞掉 辞了 退出 离开")  # 辞去X的工作
TITLE_END = _words("卸任 辞任 离任 卸下")  # 卸任X: the title ends
GRADUATE = _words("毕业 退学 休学")
RETURN = _words("回来 回来了 归来")
DIRECTION = _words("去 来 到 回 回到")
JOB_PROMOTE = _words(
    "升职 升职为 升职成 升职成为 升为 升成 升任 晋升 晋升为 晋升成 提拔为 提升为 提拔成 提升成 任命为 聘为 聘任为 "
    "被提拔为 被提升为 被任命为 被聘为 被聘任为 被评为 被提拔成 被升为 被晋升为 转岗为 转岗成 出任 "
    "当上 当上了 成为 成为了 变成 变成了 转行做 转行当 转行成 转做 改做 改当 转岗做 转岗当 改行做 改行当 "
    "现任 调任 调任为 转任 转为 改任 成了 升做 从事 调岗 调岗为 调岗成 调岗做 转岗 转岗为 转岗成 转行 改行 "
    "转成 转当 升 升了 荣升 荣升为 升级为 升级成 接任 就任 出任了 晋级为 升到 升至 晋升到 晋升至 "
    "选为 被选为 当选 当选为 被评为 评为"
)
PLAN = _words("打算 计划 准备 想 想要 考虑 决定 希望 梦想 盼望 期待 规划 筹划 有意")
FUTURE = _words("要 会 将 将要 即将 快要 就要 马上")
HEDGE = _words("可能 也许 大概 好像 似乎 估计 或许 应该 说不定 大约 貌似 八成 恐怕 听说 据说")
HEDGE_LEAD = ("我觉得", "我猜", "我认为", "我估计", "我听说", "听说", "据说", "我感觉", "好像")
NEG = _words("不 不再 没 没有 别 再也不 早就不 早已不 已经不 已不 并不 从不 不会再")
ADVERBS = _words(
    "已经 已 已有 已经有 一直 都 也 还 还是 就 刚 刚刚 才 又 再 仍 仍然 依然 依旧 真的 其实 开始 正式 正 "
    "现在 目前 如今 最近 近来 终于 总算 快 将近 差不多 至少 足足 整整 大约 约 有 早就 早已 一度 "
    "举家 举家人 曾经 曾 以前 之前 后来 然后 接着 随后 马上 立刻 暂时 临时 长期 常年 一起 一块 一块儿 "
    "全家 全家人 一家 一家人 一家子 俩 两个人 两口子 夫妻俩 我们俩 顺利 成功 光荣 刚才 前几天 "
    "前些天 前阵子 前段时间 这几天 这两天 那时 当时 这阵子 已然 总算是 已经是 正式地 重新 又一次"
)
PARTICLES = _words("了 的 着 过 啦 呢 吧 啊 呀 哦 嘛 喔 哈 呗 咯 么 嘞 噢 哟")
PREPS = _words("在 从 到 于 和 跟 与 同 给 为 把 被 对 向 往 朝 自 由 而 但 但是 可是 所以 并 并且 而且 以及")
PRONOUNS = _words(
    "我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 咱 自己 这 那 这里 那里 这儿 那儿 这边 那边 "
    "哪 哪里 哪儿 大家 人家 别人 谁 什么"
)
MEASURE_START = re.compile(r"^(?:一|这|那|某|几|哪)(?:家|个|所|座|间|处|份|位|名)")
DURATION = re.compile(
    r"^(?:[0-9零〇一二两三四五六七八九十百几半]+|好几|很多|许多|多)(?:个)?(?:多)?"
    r"(?:年|月|天|日|周|星期|礼拜|小时|年半|个月)(?:多|半)?(?:了)?$"
)
NUMBER = re.compile(r"^[0-9零〇一二两三四五六七八九十百千万几半]+(?:个)?$")
EMPTY = _words(
    "家 家里 老家 新家 新房 新房子 新公司 公司 单位 学校 外地 国外 海外 附近 市区 郊区 城里 乡下 "
    "大城市 小城市 城市 小镇 这座城市 那座城市 那个城市 这个城市 那家公司 这家公司 别的地方 其他地方 "
    "一线城市 南方 北方 那 这 那里 这里 地方 现在 工作 新工作 上班 总部 分公司 办公室 "
    "去 来 过去 过来 进去 进来 回去 回来 出去 出来"
)
HOME_NOUNS = _words("老家 家乡 故乡 祖籍 老家的 家乡的 故乡的 新家 家")
TRANSFER = _words("调到 调去 调往 调回 调回到 转到 转去 进入 派到 派去 派驻 外派到 外派")
"""Transfers whose value's kind decides the predicate: 调到深圳 (lives_in), 调到销售部 (works_at)."""
MOVED_OUT = _words("搬走 搬出来 搬出去 搬家")
HIRED = _words("挖走 挖走了 挖过去 挖 挖了 录用 聘用 雇用 雇佣 聘请 招聘 录取 聘 招进 录用了")
FIRED = _words("裁员 裁 裁掉 辞退 开除 解雇 炒 炒了 炒鱿鱼 劝退")
SWITCH = _words("换到 换去 转到 转去 调到 调去")  # 换到X工作: the verb after X decides
FRAME_VERBS = (
    TRANSFER
    | TITLE_END
    | HIRED
    | FIRED
    | SWITCH
    | JOB_PROMOTE
    | MOVED_OUT
    | LIVE_AT
    | WORK_AT
    | LEAVE
    | QUIT_OBJ
    | LIVE_V
    | WORK_V
    | STUDY_V
    | TRIP_V
    | MOVE_TO
    | WORK_TO
    | QUIT
    | GRADUATE
    | LEAVE_LIVE
)
ARRIVE = _words("抵达 抵达了 到达 到达了 来到 来到了")
LOCATIVE = _words("附近 周边 郊区 市区 一带 那边 这边 那儿 这儿 那里 这里 市中心 城区 周围 旁边 边上")
"""Place words after a name (住在杭州附近, 在腾讯那边上班): where around it, no part of the name."""
STOP = (
    ADVERBS
    | PARTICLES
    | PREPS
    | PRONOUNS
    | NEG
    | PLAN
    | FUTURE
    | HEDGE
    | FRAME_VERBS
    | AS_V
    | RETURN
    | ARRIVE
    | LOCATIVE
) | _words(
    "报到 报道 找到 找到了 获得 得到 一职 是 搬 搬家 回 面试 看看 看 见 找 换 换了 感觉 觉得 说 一趟 一下 几天 一段时间 很久 好久 "
    "租房 租房子 租了房 租了房子 买房 买了房 "
    "以后 之后 过后"
)
_COMPOUNDS = frozenset(
    TRANSFER
    | MOVE_TO
    | WORK_TO
    | LIVE_AT
    | WORK_AT
    | LEAVE_LIVE
    | JOB_PROMOTE
    | QUIT
    | MOVED_OUT
    | SWITCH
    | TITLE_END
    | _words("一职 入职 升职 家住 住下 住下来 不再 说错 跳槽 再也不 早就不 已经不")
)
_MAX_JOIN = 4
_PUNCT = re.compile(r"^[\s，,。.！!？?；;：:、…~～\"'“”‘’（）()\[\]【】《》<>—\-]+$")


@dataclass(frozen=True, slots=True)
class Tok:
    word: str
    flag: str

    @property
    def punct(self) -> bool:
        return self.flag == "x" and bool(_PUNCT.match(self.word))


_NAME_TAIL = frozenset("正也都还就又才刚曾已在想要会住搬说为被来去到回家")
_MODALS = FUTURE | PLAN | NEG | frozenset({"能"})
_SPLIT = {
    "不住": ("不", "住"),
    "不在": ("不", "在"),
    "没在": ("没", "在"),
    "没住": ("没", "住"),
    "不当": ("不", "当"),
    "不干": ("不", "干"),
    "不做": ("不", "做"),
    "回老家": ("回", "老家"),
    "回家乡": ("回", "家乡"),
    # 住够/待腻/干烦 (jieba's words): the stay verb and its complement of having had enough
    **{v + c: (v, c) for v in "住待呆干" for c in "够腻烦厌倦"},
}


def join_compounds(pairs: Iterable[tuple[str, str]]) -> list[Tok]:
    """jieba's tokens with split verb compounds joined (longest first): 搬/到 → 搬到, 入/职 → 入职,
    and negated verbs it glues split (不住 → 不/住).

    Only words of the vocabulary above are joined, and only whole tokens, so a name never changes."""
    toks: list[Tok] = []
    for word, flag in pairs:
        parts = _SPLIT.get(word)
        if parts is None and flag.startswith("nr") and len(word) == 3 and word[-1] in _NAME_TAIL:
            toks.extend((Tok(word[:2], flag), Tok(word[2], "d" if word[2] in NEG else "v")))
            continue  # the HMM read 林娜正(打算) as one name
        if parts is None and len(word) >= 2 and word[0] in "我你他她" and word[1:] in _MODALS:
            parts = (word[0], word[1:])  # 我会/搬到 → 我 会 搬到
        if parts is None and word in _COMPOUNDS and not flag.startswith("v"):
            flag = "v"  # 晋升为/nr: the HMM's guess at a name is a verb of the vocabulary
        toks.extend([Tok(p, "d" if p in NEG else "v") for p in parts] if parts else [Tok(word, flag)])
    toks = _separable(_compound_surnames(_unglue_verb(_unglue_preposition(toks))))
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        for n in range(min(_MAX_JOIN, len(toks) - i), 1, -1):
            word = "".join(t.word for t in toks[i : i + n])
            if word in _COMPOUNDS or word in _GLUED_VERBS:
                out.append(Tok(word, "v"))
                i += n
                break
            if word.endswith("了") and word[:-1] in _COMPOUNDS:  # 升/为了 → 升为 了
                out.extend((Tok(word[:-1], "v"), Tok("了", "ul")))
                i += n
                break
        else:
            out.append(toks[i])
            i += 1
    return out


_PREP_TAIL = frozenset("于在到至往")


def _unglue_preposition(toks: list[Tok]) -> list[Tok]:
    """任职/于青禾/nr 集团 → 任职 于 青禾 集团: jieba glues the preposition a verb takes to the
    (unknown) name after it; the verb and that character form a compound of the vocabulary, so the
    preposition goes back to the verb and the rest of the word is the name's start."""
    out: list[Tok] = []
    for n, tok in enumerate(toks):
        previous = toks[n - 1].word if n else ""
        head = tok.word[:1]
        if (
            previous
            and len(tok.word) >= 2
            and head in _PREP_TAIL
            and previous + head in _COMPOUNDS
            and previous + tok.word not in _COMPOUNDS
        ):
            out.extend((Tok(head, "p"), Tok(tok.word[1:], "n")))
            continue
        out.append(tok)
    return out


_NAME_FLAGS = frozenset("n nz ns nr nt nrt nrfg j".split())


def _unglue_verb(toks: list[Tok]) -> list[Tok]:
    """鹿鸣/科技报/到 → 鹿鸣 科技 报到: jieba glues a verb's first character to the (unknown) name
    before it; that character and the next word form a frame verb, so it goes back to the verb."""
    out: list[Tok] = []
    for n, tok in enumerate(toks):
        nxt = toks[n + 1].word if n + 1 < len(toks) else ""
        tail = tok.word[-1:]
        if (
            nxt
            and len(tok.word) >= 3
            and tok.flag in _NAME_FLAGS
            and tail + nxt in _GLUED_VERBS
            and tok.word not in STOP
        ):
            out.extend((Tok(tok.word[:-1], tok.flag), Tok(tail, "v")))
            continue
        out.append(tok)
    return out


_GLUED_VERBS = _words("报到 报道 上班 入职 定居 落户 工作 居住 生活 任职 就职 供职")


COMPOUND_SURNAMES = _words(
    "欧阳 司马 上官 诸葛 东方 慕容 令狐 皇甫 尉迟 长孙 公孙 夏侯 端木 西门 南宫 司徒 独孤"
)


def _compound_surnames(toks: list[Tok]) -> list[Tok]:
    """欧阳/ns 娜娜/nr → 欧阳娜娜/nr: a compound surname and the given name after it are one name."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if (
            tok.word in COMPOUND_SURNAMES
            and nxt is not None
            and 1 <= len(nxt.word) <= 2
            and (
                nxt.flag.startswith("nr")
                or (nxt.flag not in ("x", "ul", "uj", "p", "v", "d", "m", "r") and nxt.word not in STOP)
            )
        ):
            out.append(Tok(tok.word + nxt.word, "nr"))
            i += 2
            continue
        after = toks[i + 2].word if i + 2 < len(toks) else ""
        if (
            tok.word in _NAME_PREFIX
            and nxt is not None
            and len(nxt.word) == 2
            and nxt.flag.startswith("nr")
            and nxt.word[1] + after in _GLUED_ADVERBS
        ):  # 小/王本/来 → 小王 本来: the HMM took an adverb's first character into the name
            out.extend((Tok(tok.word + nxt.word[0], "nr"), Tok(nxt.word[1] + after, "d")))
            i += 3
            continue
        if tok.word in _NAME_PREFIX and nxt is not None and len(nxt.word) == 1 and nxt.flag.startswith("nr"):
            out.append(Tok(tok.word + nxt.word, "nr"))  # 小/李 → 小李, 老/王 → 老王
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


_NAME_PREFIX = frozenset("小 老 阿".split())
_GLUED_ADVERBS = ADVERBS | _words("本来 原来 原先 原本 现在 目前 如今 以前 之前 一直 已经 去年 今年 前年")


SEPARABLE = _words(
    "安家 落户 上班 跳槽 辞职 离职 入职 搬家 退休 就业 扎根 落脚 定居 升职 转行 改行 打工 上岗"
)
_ASPECT = frozenset("了 着 过")


def _separable(toks: list[Tok]) -> list[Tok]:
    """安/了/家 → 安家 了: a verb-object compound with the aspect particle inside (安了家, 落了户,
    辞了职, 跳了槽, 上着班, 上过班; jieba may glue the particle to the verb: 上着/班) is the compound
    followed by the particle."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        if i + 2 < len(toks) and toks[i + 1].word in _ASPECT and toks[i].word + toks[i + 2].word in SEPARABLE:
            out.extend((Tok(toks[i].word + toks[i + 2].word, "v"), Tok(toks[i + 1].word, "ul")))
            i += 3
            continue
        glued = toks[i].word
        if (
            i + 1 < len(toks)
            and len(glued) >= 2
            and glued[-1] in _ASPECT
            and glued[:-1] + toks[i + 1].word in SEPARABLE
        ):
            out.extend((Tok(glued[:-1] + toks[i + 1].word, "v"), Tok(glued[-1], "ul")))
            i += 2
            continue
        nxt = toks[i + 1].word if i + 1 < len(toks) else ""
        if len(nxt) >= 2 and nxt[0] in _ASPECT and glued + nxt[1:] in SEPARABLE:  # 上/了班
            out.extend((Tok(glued + nxt[1:], "v"), Tok(nxt[0], "ul")))
            i += 2
            continue
        out.append(toks[i])
        i += 1
    return out


def is_stop(tok: Tok) -> bool:
    """Whether ``tok`` ends a value (a name never holds it as a word of its own)."""
    if tok.punct or tok.word in STOP or tok.flag in ("ul", "uj", "uz", "ug", "ule", "y", "e"):
        return True
    return bool(DURATION.match(tok.word) or NUMBER.match(tok.word))


READ = frozenset("读 念 上 攻读 在读".split())
# what one reads at a school: a degree or a year (在北大读博, 在浙大念大三, 读研究生, 上高二)
GRADE = frozenset(
    "研究生 研 博 博士 硕士 本科 大专 专科 书 大学 高中 初中 MBA 博士后 大一 大二 大三 大四 大五 研一 研二 研三 "
    "博一 博二 博三 高一 高二 高三 初一 初二 初三 预科".split()
)


def span(toks: list[Tok], i: int, until: frozenset[str] = frozenset()) -> tuple[str, int]:
    """The value starting at ``toks[i]`` and the index after it ("" when none starts there).

    It ends before the first stop word (see ``is_stop``) or word of ``until``; 去/来 end it only
    where they close the clause or come before a particle or a verb (搬到杭州去了, not 蔚来汽车)."""
    j = i
    while j < len(toks):
        tok = toks[j]
        if tok.word in until or (j > i and is_stop(tok)) or (j == i and _bad_start(tok)):
            break
        if j > i and tok.word in DIRECTION and _closes(toks, j + 1):
            break
        if j > i and tok.word in READ and j + 1 < len(toks) and toks[j + 1].word in GRADE:
            break  # 北大读博: the school, then what is read there
        j += 1
    return "".join(t.word for t in toks[i:j]), j


_BAD_START = PARTICLES | PRONOUNS | PREPS | NEG | PLAN | FUTURE | HEDGE | FRAME_VERBS | AS_V


def _bad_start(tok: Tok) -> bool:
    """A value may open with an adverb-like word (快手, 大连), never with these."""
    return tok.punct or tok.word in _BAD_START


def _closes(toks: list[Tok], j: int) -> bool:
    return j >= len(toks) or is_stop(toks[j]) or toks[j].flag.startswith("v")


def skip(toks: list[Tok], i: int, words: frozenset[str]) -> int:
    """The index after any run of ``words`` (and particles such as 了) starting at ``i``."""
    while i < len(toks) and (toks[i].word in words or toks[i].word in ("了", "着", "过")):
        i += 1
    return i


def at(toks: list[Tok], i: int, words: frozenset[str]) -> bool:
    return i < len(toks) and toks[i].word in words


def text_of(toks: list[Tok]) -> str:
    return "".join(t.word for t in toks)


_SCHOOL = re.compile(r"(?:大学|学院|中学|小学|学校|高中|初中|幼儿园|研究生院|大专|职高|技校)$")
_ORG = re.compile(
    r"(?:公司|集团|银行|科技|网络|汽车|医院|工作室|研究院|研究所|事务所|工厂|厂|店|餐厅|酒店|"
    r"协会|基金会|出版社|报社|电视台|律所|中心|股份|控股|有限|传媒|证券|保险|实验室|部门|政府|局)$"
)
_PLACE = re.compile(r"(?:市|省|县|区|镇|村|乡|州|岛|国|湾|港|城)$")


def kind_of(value: str, flags: Iterable[str]) -> str:
    """school, organization, place or "" for a value, from its suffix, else from jieba's tag."""
    if _SCHOOL.search(value):
        return "school"
    if _ORG.search(value):
        return "organization"
    if _PLACE.search(value):
        return "place"
    tags = list(flags)
    if len(tags) != 1:  # a name jieba cut into pieces (美/ns 团/n): its pieces' tags say nothing
        return ""
    kind = {"nt": "organization", "ns": "place"}.get(tags[0], "")
    return kind or ("place" if value in _city_stems() else "")


@functools.cache
def _city_stems() -> frozenset[str]:
    """Dictionary words whose 市/省/县 form is a dictionary place (合肥/n, since 合肥市/ns): jieba
    tags many city names as plain nouns, and this is what tells their kind."""
    import jieba.posseg

    tab: dict[str, str] = jieba.posseg.dt.word_tag_tab
    return frozenset(
        w[:-1] for w, flag in tab.items() if flag == "ns" and 3 <= len(w) <= 4 and w[-1] in "市省县"
    )


_ORG_TAIL = re.compile(r"(?<=..)(?:团队|大家庭|这家公司|那家公司|公司总部|总部)$")


def trim_org(value: str) -> str:
    """加入腾讯团队 / 腾讯大家庭 name 腾讯."""
    return _ORG_TAIL.sub("", value)


def well_formed(value: str) -> bool:
    """Quality gate for a value: a name or a noun phrase, not a pronoun, filler or an indefinite."""
    if (
        not value
        or len(value) > 24
        or value in EMPTY
        or value in PRONOUNS
        or value in NEG
        or value in ADVERBS
    ):
        return False
    if MEASURE_START.match(value) or any(p in value for p in ("我", "你", "他", "她", "它")):
        return False
    if DURATION.match(value) or NUMBER.match(value):
        return False
    return bool(re.search(r"[\u4e00-\u9fffA-Za-z]", value))
