"""Chinese rules extraction over multi-turn chats written for these tests (two speakers, small
talk, questions, relatives without names, plans, corrections): every fact's subject is a speaker
or a person named in the chat, no statement keeps a pronoun, and the facts the chat states are found.
"""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models.extraction import ExtractedFact
from graphmem.providers.extractors.rules import RulesExtractor

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)
EXTRACTOR = RulesExtractor()
PRONOUNS = ("我", "你", "您", "他", "她", "它", "咱", "这里", "那里", "这儿", "那儿")

CHAT_MOVE = [
    ("韩梅梅", "嗨，好久不见！最近怎么样？"),
    ("李雷", "挺好的！我上个月刚从广州搬到了深圳，新工作在腾讯。"),
    ("韩梅梅", "哇，恭喜你！你在腾讯做什么？"),
    ("李雷", "我是产品经理。你呢？还在百度吗？"),
    ("韩梅梅", "我早就离职了，现在在字节跳动上班，不过可能明年要搬去上海。"),
    ("李雷", "那挺好的，我妹妹也在上海，她在复旦读书。"),
    ("韩梅梅", "对了，我有个同事叫周岚，她也住在上海。"),
    ("李雷", "你们住哪儿？"),
    ("韩梅梅", "我们现在住在北京，但是打算搬到杭州。"),
]
CHAT_JOB = [
    ("王强", "我最近换了家公司，现在在美团。"),
    ("赵敏", "真的吗？你之前不是在阿里吗？"),
    ("王强", "对，我在阿里干了三年，然后跳槽了。"),
    ("赵敏", "我还在华为，都五年了。我老公在中兴上班。"),
    ("王强", "你们还住在南京吗？"),
    ("赵敏", "没有，我们去年就搬到苏州了。我很喜欢这里的生活。"),
    ("王强", "我喜欢和他们一起爬山，下次叫上你。"),
    ("赵敏", "希望叔叔早日康复。我们决定一起过去看看他。"),
    ("王强", "我之前说错了，我不是在美团，是在美的。"),
]


def run(chat: list[tuple[str, str]]) -> list[ExtractedFact]:
    speakers = {s for s, _ in chat}
    out: list[ExtractedFact] = []
    for speaker, text in chat:
        (other,) = speakers - {speaker}
        out.extend(
            EXTRACTOR.extract(content=text, speaker=speaker, reference_time=REF, other_speaker=other).facts
        )
    return out


def rows(facts: list[ExtractedFact]) -> set[tuple[str, str, str, str]]:
    return {(f.subject, f.predicate, f.literal, f.claim) for f in facts}


def check_clean(chat: list[tuple[str, str]], facts: list[ExtractedFact]) -> None:
    names = {s for s, _ in chat} | {"周岚"}
    for fact in facts:
        assert fact.subject in names, fact
        assert not any(p in fact.literal for p in PRONOUNS), fact
        assert not any(p in fact.subject for p in PRONOUNS), fact


def test_a_chat_about_moves_and_jobs_gives_the_speakers_facts_and_nothing_unresolved() -> None:
    """Regression: a new-job clause without its own subject (…，新工作在腾讯) was lost, and questions
    and unnamed relatives (我妹妹…，她在复旦读书) must give nothing."""
    facts = run(CHAT_MOVE)
    check_clean(CHAT_MOVE, facts)
    got = rows(facts)
    assert {
        ("李雷", "lives_in", "广州", "assert"),
        ("李雷", "lives_in", "深圳", "assert"),
        ("李雷", "works_at", "腾讯", "assert"),
        ("李雷", "job_title", "产品经理", "assert"),
        ("韩梅梅", "works_at", "字节跳动", "assert"),
        ("韩梅梅", "knows", "周岚", "assert"),
        ("周岚", "lives_in", "上海", "assert"),
        ("韩梅梅", "lives_in", "北京", "assert"),
    } <= got
    assert not any(f.predicate == "studies_at" for f in facts)  # 她 (an unnamed sister) is nobody
    plans = [f for f in facts if f.predicate == "plans"]
    assert plans and all(f.source_kind == "inferred" for f in plans)


def test_a_chat_with_wishes_deixis_and_a_later_correction() -> None:
    """Regression: 我很喜欢这里的生活 gave likes '这里的生活', 希望叔叔早日康复 a plan of the speaker."""
    facts = run(CHAT_JOB)
    check_clean(CHAT_JOB, facts)
    got = rows(facts)
    assert {
        ("王强", "works_at", "美团", "assert"),
        ("王强", "works_at", "阿里", "assert"),
        ("赵敏", "works_at", "华为", "assert"),
        ("赵敏", "lives_in", "苏州", "assert"),
        ("王强", "works_at", "美的", "correct"),
    } <= got
    assert not any(f.predicate == "plans" for f in facts if f.subject == "赵敏")
    (fixed,) = [f for f in facts if f.claim == "correct"]
    assert fixed.replaces == "美团"
