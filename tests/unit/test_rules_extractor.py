"""The offline ``rules`` extractor: each predicate, negations, corrections, time, EN + ZH."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest

from graphmem.models.extraction import Extraction
from graphmem.ports import Extractor
from graphmem.providers.extractors.rules import RulesExtractor, split_sentences

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)  # a Wednesday
EXTRACTOR = RulesExtractor()

Row = tuple[str, str, str, str]  # (subject, predicate, object-or-value, claim)


def extract(text: str, speaker: str | None = "Alice") -> Extraction:
    return EXTRACTOR.extract(content=text, speaker=speaker, reference_time=REF)


def rows(text: str, speaker: str | None = "Alice") -> list[Row]:
    return [(f.subject, f.predicate, f.literal, f.claim) for f in extract(text, speaker).facts]


def day(year: int, month: int, d: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, d, hour, minute, tzinfo=UTC)


EN_ASSERTS: list[tuple[str, list[Row]]] = [
    # lives_in
    ("I live in Paris.", [("Alice", "lives_in", "Paris", "assert")]),
    ("I'm living in New York now.", [("Alice", "lives_in", "New York", "assert")]),
    ("I moved to Berlin.", [("Alice", "lives_in", "Berlin", "assert")]),
    ("We relocated to San Francisco.", [("Alice", "lives_in", "San Francisco", "assert")]),
    ("I just moved to London!", [("Alice", "lives_in", "London", "assert")]),
    ("I'm based in Austin these days.", [("Alice", "lives_in", "Austin", "assert")]),
    ("My home is in Lisbon.", [("Alice", "lives_in", "Lisbon", "assert")]),
    ("I settled in Kyoto.", [("Alice", "lives_in", "Kyoto", "assert")]),
    (
        "i live in a small town near the coast",
        [("Alice", "lives_in", "small town near the coast", "assert")],
    ),
    # works_at
    ("I work at Google.", [("Alice", "works_at", "Google", "assert")]),
    ("I work for Acme Corp.", [("Alice", "works_at", "Acme Corp", "assert")]),
    ("I joined Microsoft.", [("Alice", "works_at", "Microsoft", "assert")]),
    ("I started a new job at Stripe.", [("Alice", "works_at", "Stripe", "assert")]),
    ("I got a job at Amazon.", [("Alice", "works_at", "Amazon", "assert")]),
    ("I'm employed by IBM.", [("Alice", "works_at", "IBM", "assert")]),
    ("I work at Bank of America.", [("Alice", "works_at", "Bank of America", "assert")]),
    # job_title
    ("I work as a software engineer.", [("Alice", "job_title", "software engineer", "assert")]),
    ("I'm a nurse.", [("Alice", "job_title", "nurse", "assert")]),
    (
        "I'm a senior developer at Shopify.",
        [
            ("Alice", "job_title", "senior developer", "assert"),
            ("Alice", "works_at", "Shopify", "assert"),
        ],
    ),
    ("I got promoted to senior manager.", [("Alice", "job_title", "senior manager", "assert")]),
    ("I'm a happy person.", []),
    # studies_at
    ("I study at MIT.", [("Alice", "studies_at", "MIT", "assert")]),
    ("I'm studying computer science at Stanford.", [("Alice", "studies_at", "Stanford", "assert")]),
    ("I go to Harvard University.", [("Alice", "studies_at", "Harvard University", "assert")]),
    ("I enrolled at Oxford.", [("Alice", "studies_at", "Oxford", "assert")]),
    ("I go to the gym.", [("Alice", "goes_to", "gym", "assert")]),  # a habit: open predicate, not studies_at
    # relationship_status
    ("I'm single.", [("Alice", "relationship_status", "single", "assert")]),
    ("I got engaged!", [("Alice", "relationship_status", "engaged", "assert")]),
    ("I got divorced.", [("Alice", "relationship_status", "divorced", "assert")]),
    ("We broke up.", [("Alice", "relationship_status", "single", "assert")]),
    (
        "I'm married to John Smith.",
        [
            ("Alice", "relationship_status", "married", "assert"),
            ("Alice", "married_to", "John Smith", "assert"),
        ],
    ),
    # located_at (temporary)
    ("I'm on a trip to Tokyo.", [("Alice", "located_at", "Tokyo", "assert")]),
    ("I'm traveling in Italy.", [("Alice", "located_at", "Italy", "assert")]),
    ("I'm visiting Paris.", [("Alice", "located_at", "Paris", "assert")]),
    ("I'm in Tokyo for a conference.", [("Alice", "located_at", "Tokyo", "assert")]),
    ("I'm staying in Kyoto for 5 days.", [("Alice", "located_at", "Kyoto", "assert")]),
    ("I'm in love.", []),
    # likes / dislikes / prefers
    ("I like hiking in the mountains.", [("Alice", "likes", "hiking in the mountains", "assert")]),
    ("I love Italian food.", [("Alice", "likes", "Italian food", "assert")]),
    ("I'm a big fan of jazz.", [("Alice", "likes", "jazz", "assert")]),
    ("I hate running.", [("Alice", "dislikes", "running", "assert")]),
    ("I can't stand cilantro.", [("Alice", "dislikes", "cilantro", "assert")]),
    ("I don't like coffee.", [("Alice", "dislikes", "coffee", "assert")]),
    ("I prefer tea over coffee.", [("Alice", "prefers", "tea", "assert")]),
    ("I love it.", []),
    # has_pet / owns
    ("I have a dog named Max.", [("Alice", "has_pet", "dog named Max", "assert")]),
    ("I adopted a puppy.", [("Alice", "has_pet", "puppy", "assert")]),
    ("We have two cats.", [("Alice", "has_pet", "two cats", "assert")]),
    ("I bought a new car.", [("Alice", "owns", "car", "assert")]),
    ("I own a Tesla.", [("Alice", "owns", "Tesla", "assert")]),
    ("I have a new laptop.", [("Alice", "owns", "laptop", "assert")]),
    ("I have a question.", []),
    # plans
    ("I'm planning to visit Japan.", [("Alice", "plans", "visit Japan", "assert")]),
    ("I plan to learn the piano.", [("Alice", "plans", "learn the piano", "assert")]),
    ("I'm going to Paris next week.", [("Alice", "plans", "go to Paris next week", "assert")]),
    ("I'm going to the store.", []),
    (
        "We're going to Hawaii next month for our anniversary.",
        [("Alice", "plans", "go to Hawaii next month", "assert")],
    ),
    # name
    ("My name is Alice Smith.", [("Alice", "name", "Alice Smith", "assert")]),
    ("Call me Bob.", [("Alice", "name", "Bob", "assert")]),
    ("Hi, I'm Carol.", [("Alice", "name", "Carol", "assert")]),
    # third person and several clauses
    ("Bob lives in Rome.", [("Bob", "lives_in", "Rome", "assert")]),
    ("Mr. Smith works at Pfizer.", [("Mr. Smith", "works_at", "Pfizer", "assert")]),
    (
        "My sister Emma works at Google.",
        [
            ("Emma", "works_at", "Google", "assert"),
            ("Alice", "knows", "Emma", "assert"),
            ("Alice", "has", "sister named Emma", "assert"),
        ],
    ),
    (
        "I live in Paris and work at Google.",
        [("Alice", "lives_in", "Paris", "assert"), ("Alice", "works_at", "Google", "assert")],
    ),
    (
        "I enjoy reading, but I hate running.",
        [("Alice", "likes", "reading", "assert"), ("Alice", "dislikes", "running", "assert")],
    ),
]


@pytest.mark.parametrize(("text", "expected"), EN_ASSERTS)
def test_english_phrasings(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


ZH_ASSERTS: list[tuple[str, list[Row]]] = [
    ("我住在上海。", [("Alice", "lives_in", "上海", "assert")]),
    ("我搬到了北京。", [("Alice", "lives_in", "北京", "assert")]),
    ("我搬到杭州去了", [("Alice", "lives_in", "杭州", "assert")]),
    ("我现在住在深圳。", [("Alice", "lives_in", "深圳", "assert")]),
    ("我家在成都。", [("Alice", "lives_in", "成都", "assert")]),
    ("我在腾讯工作。", [("Alice", "works_at", "腾讯", "assert")]),
    ("我在阿里巴巴上班。", [("Alice", "works_at", "阿里巴巴", "assert")]),
    ("我加入了字节跳动。", [("Alice", "works_at", "字节跳动", "assert")]),
    ("我入职了华为。", [("Alice", "works_at", "华为", "assert")]),
    ("我是一名软件工程师。", [("Alice", "job_title", "软件工程师", "assert")]),
    ("我是老师。", [("Alice", "job_title", "老师", "assert")]),
    ("我是北京人。", []),
    (
        "我在腾讯当程序员。",
        [("Alice", "works_at", "腾讯", "assert"), ("Alice", "job_title", "程序员", "assert")],
    ),
    ("我在清华大学读书。", [("Alice", "studies_at", "清华大学", "assert")]),
    ("我在北京大学上学", [("Alice", "studies_at", "北京大学", "assert")]),
    ("我结婚了。", [("Alice", "relationship_status", "married", "assert")]),
    ("我单身。", [("Alice", "relationship_status", "single", "assert")]),
    ("我离婚了。", [("Alice", "relationship_status", "divorced", "assert")]),
    ("我在上海出差。", [("Alice", "located_at", "上海", "assert")]),
    ("我去日本旅游了。", [("Alice", "located_at", "日本", "assert")]),
    ("我正在云南旅行。", [("Alice", "located_at", "云南", "assert")]),
    ("我喜欢吃火锅。", [("Alice", "likes", "吃火锅", "assert")]),
    ("我爱音乐。", [("Alice", "likes", "音乐", "assert")]),
    ("我讨厌下雨天。", [("Alice", "dislikes", "下雨天", "assert")]),
    ("我不喜欢咖啡。", [("Alice", "dislikes", "咖啡", "assert")]),
    ("我更喜欢茶。", [("Alice", "prefers", "茶", "assert")]),
    ("我养了一只猫。", [("Alice", "has_pet", "猫", "assert")]),
    ("我买了一辆新车。", [("Alice", "owns", "车", "assert")]),
    ("我打算学习钢琴。", [("Alice", "plans", "学习钢琴", "assert")]),
    ("我计划去欧洲。", [("Alice", "plans", "去欧洲", "assert")]),
    ("我叫李明。", [("Alice", "name", "李明", "assert")]),
    ("我的名字是王芳。", [("Alice", "name", "王芳", "assert")]),
    ("张伟住在北京。", [("张伟", "lives_in", "北京", "assert")]),
    (
        "我的朋友张伟在阿里巴巴上班。",
        [("Alice", "knows", "张伟", "assert"), ("张伟", "works_at", "阿里巴巴", "assert")],
    ),
    (
        "我在腾讯工作，我喜欢吃火锅",
        [("Alice", "works_at", "腾讯", "assert"), ("Alice", "likes", "吃火锅", "assert")],
    ),
]


@pytest.mark.parametrize(("text", "expected"), ZH_ASSERTS)
def test_chinese_phrasings(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


ENDS: list[tuple[str, Row]] = [
    ("I no longer work at Google.", ("Alice", "works_at", "Google", "end")),
    ("I don't work at Google anymore.", ("Alice", "works_at", "Google", "end")),
    ("I quit my job at Facebook.", ("Alice", "works_at", "Facebook", "end")),
    ("I left Amazon.", ("Alice", "works_at", "Amazon", "end")),
    ("I moved out of Boston.", ("Alice", "lives_in", "Boston", "end")),
    ("I don't live in Paris anymore.", ("Alice", "lives_in", "Paris", "end")),
    ("I stopped liking coffee.", ("Alice", "likes", "coffee", "end")),
    ("I don't like sushi anymore.", ("Alice", "likes", "sushi", "end")),
    ("I'm not a teacher anymore.", ("Alice", "job_title", "teacher", "end")),
    ("I graduated from Yale.", ("Alice", "studies_at", "Yale", "end")),
    ("I used to live in Chicago.", ("Alice", "lives_in", "Chicago", "end")),
    ("Bob no longer lives in Rome.", ("Bob", "lives_in", "Rome", "end")),
    ("我不在腾讯工作了。", ("Alice", "works_at", "腾讯", "end")),
    ("我离开了阿里巴巴。", ("Alice", "works_at", "阿里巴巴", "end")),
    ("我已经不住在北京了。", ("Alice", "lives_in", "北京", "end")),
    ("我不再喜欢咖啡。", ("Alice", "likes", "咖啡", "end")),
]


@pytest.mark.parametrize(("text", "expected"), ENDS)
def test_negations_end_facts(text: str, expected: Row) -> None:
    assert rows(text) == [expected]


CORRECTIONS: list[tuple[str, Row, str | None]] = [
    (
        "Actually I live in Berlin, not Munich.",
        ("Alice", "lives_in", "Berlin", "correct"),
        "Munich",
    ),
    (
        "Correction: I work at Apple, not Google.",
        ("Alice", "works_at", "Apple", "correct"),
        "Google",
    ),
    (
        "Sorry, I meant I work at Globex, not Initech.",
        ("Alice", "works_at", "Globex", "correct"),
        "Initech",
    ),
    ("Correction: I work at Apple.", ("Alice", "works_at", "Apple", "correct"), None),
    ("其实我住在广州，不是深圳。", ("Alice", "lives_in", "广州", "correct"), "深圳"),
    ("我说错了，我在百度工作，不是腾讯。", ("Alice", "works_at", "百度", "correct"), "腾讯"),
]


@pytest.mark.parametrize(("text", "expected", "replaces"), CORRECTIONS)
def test_corrections(text: str, expected: Row, replaces: str | None) -> None:
    facts = extract(text).facts
    assert [(f.subject, f.predicate, f.literal, f.claim) for f in facts] == [expected]
    assert facts[0].replaces == replaces


def test_i_meant_takes_the_predicate_from_the_earlier_sentence() -> None:
    # said in one episode, the mistake never held: only the corrected value is kept, as an assertion
    facts = extract("I live in Munich. Sorry, I meant Berlin, not Munich.").facts
    assert [(f.predicate, f.literal, f.claim, f.replaces) for f in facts] == [
        ("lives_in", "Berlin", "assert", None),
    ]
    assert facts[0].source_kind == "user_stated"


def test_actually_without_a_wrong_value_is_a_plain_assertion() -> None:
    assert rows("Actually, I moved to Berlin.") == [("Alice", "lives_in", "Berlin", "assert")]


TIMES: list[tuple[str, datetime]] = [
    ("I moved to Berlin last May.", day(2024, 5, 1)),
    ("I joined Acme two weeks ago.", day(2024, 5, 29)),
    ("In 2019, I moved to Tokyo.", day(2019, 1, 1)),
    ("I've lived in Paris since 2019.", day(2019, 1, 1)),
    ("I got married last year.", day(2023, 6, 12)),
    ("Yesterday I adopted a kitten.", day(2024, 6, 11)),
    ("I left Amazon last week.", day(2024, 6, 5)),
    ("I started at Stripe on March 3rd.", day(2024, 3, 3)),
    ("我上周二搬到了深圳。", day(2024, 6, 4)),
    ("前天下午3点我搬到了上海。", day(2024, 6, 10, 15)),
    ("我2019年加入了腾讯。", day(2019, 1, 1)),
    ("去年我搬到了上海。", day(2023, 6, 12)),
    ("三个月前我开始在美团工作。", day(2024, 3, 12)),
]


@pytest.mark.parametrize(("text", "expected"), TIMES)
def test_time_phrases_set_valid_from(text: str, expected: datetime) -> None:
    facts = extract(text).facts
    assert len(facts) == 1
    assert facts[0].valid_from == expected
    assert facts[0].literal and not any(w in facts[0].literal for w in ("last", "ago", "上周", "2019"))


def test_without_a_time_phrase_valid_from_is_the_reference_time() -> None:
    (fact,) = extract("I work at Google.").facts
    assert fact.valid_from == REF


def test_an_end_takes_its_time_from_the_sentence() -> None:
    (fact,) = extract("I quit my job at Facebook last month.").facts
    assert (fact.claim, fact.valid_from) == ("end", day(2024, 5, 12))


def test_plans_keep_their_time_in_the_value() -> None:
    (fact,) = extract("I'm planning to visit Japan next year.").facts
    assert (fact.value, fact.valid_from) == ("visit Japan next year", REF)
    (zh,) = extract("我打算明年去日本留学。").facts
    assert (zh.value, zh.valid_from) == ("明年去日本留学", REF)


NO_FACTS = [
    "Do you live in Paris?",
    "Where do you work?",
    "Are you married",
    "If I lived in Paris, I would be happy.",
    "I wish I worked at Google.",
    "You live in Paris.",
    "He works at Google.",
    "What a lovely day.",
    "I love how you're living your best life!",
    "I like that you're so honest.",
    "",
    "你住在哪里？",
    "你在哪里工作",
    "你喜欢猫吗",
    "如果我住在北京就好了。",
    "他在腾讯工作。",
]


@pytest.mark.parametrize("text", NO_FACTS)
def test_questions_hypotheticals_and_second_person_give_no_facts(text: str) -> None:
    assert extract(text).facts == []


SOURCES: list[tuple[str, str, float]] = [
    ("I live in Paris.", "user_stated", 0.9),
    ("Bob lives in Rome.", "extracted", 0.7),
    ("I think Bob lives in Rome.", "inferred", 0.5),
    ("Bob probably works at Google.", "inferred", 0.5),
    ("我觉得李娜可能在腾讯工作。", "inferred", 0.5),
    ("张伟住在北京。", "extracted", 0.7),
]


@pytest.mark.parametrize(("text", "source", "confidence"), SOURCES)
def test_source_kind_and_confidence(text: str, source: str, confidence: float) -> None:
    facts = extract(text).facts
    assert facts, text
    assert {(f.source_kind, f.confidence) for f in facts} == {(source, confidence)}


def test_entity_objects_and_literal_values_use_the_vocabulary() -> None:
    lives, title = extract("I live in Paris. I'm a teacher.").facts
    assert (lives.object, lives.object_kind, lives.value) == ("Paris", "place", None)
    assert (title.object, title.value) == (None, "teacher")
    (works,) = extract("I work at Google.").facts
    assert works.object_kind == "organization"


def test_first_person_without_a_speaker_binds_to_user() -> None:
    assert rows("I live in Paris.", speaker=None) == [("user", "lives_in", "Paris", "assert")]
    assert rows("我住在上海", speaker="  ") == [("user", "lives_in", "上海", "assert")]


def test_quote_spans_point_at_each_sentence() -> None:
    text = "Hello there! I live in Paris.\nI work at Google? No. 我在腾讯工作。"
    facts = extract(text).facts
    assert [(f.quote, text[f.start : f.end]) for f in facts if f.start is not None] == [
        ("I live in Paris.", "I live in Paris."),
        ("我在腾讯工作。", "我在腾讯工作。"),
    ]


def test_sentence_splitting_keeps_honorifics_together() -> None:
    text = "Mr. Smith lives in Boston. 我住在上海。我喜欢猫！Really?"
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "Mr. Smith lives in Boston.",
        "我住在上海。",
        "我喜欢猫！",
        "Really?",
    ]


def test_entities_cover_speaker_subjects_objects_and_names() -> None:
    result = extract("I moved to New York. I met Taylor Swift at a party with my friend.")
    kinds = {e.name: e.kind for e in result.entities}
    assert kinds["Alice"] == "person"
    assert kinds["New York"] == "place"
    assert "Taylor Swift" in kinds
    assert "I" not in kinds


def test_entities_are_deduplicated_by_name() -> None:
    result = extract("I live in Paris. Paris is lovely. I love Paris.")
    names = [e.name.casefold() for e in result.entities]
    assert len(names) == len(set(names))
    assert {e.name: e.kind for e in result.entities}["Paris"] == "place"


def test_chinese_entities_come_from_jieba_tags() -> None:
    kinds = {e.name: e.kind for e in extract("我的朋友张伟上周去了北京。").entities}
    assert kinds.get("张伟") == "person"
    assert kinds.get("北京") == "place"
    assert "上周" not in kinds


def test_no_speaker_entity_without_a_first_person_fact() -> None:
    names = {e.name for e in extract("Bob lives in Rome.").entities}
    assert "Alice" not in names


def test_prefers_qualifier_names_the_choice() -> None:
    en = extract("I prefer tea over coffee.").facts[0]
    zh = extract("比起咖啡，我更喜欢茶。").facts[0]
    assert (en.qualifier, zh.qualifier) == ("coffee vs tea", "咖啡 vs 茶")
    assert extract("My favorite food is sushi.").facts[0].qualifier == "food"


def test_extraction_is_deterministic() -> None:
    text = "I moved to Berlin last May and I love techno. 我在腾讯工作，不是百度。Bob left Google."
    first = extract(text).model_dump()
    assert all(extract(text).model_dump() == first for _ in range(3))
    assert RulesExtractor().extract(content=text, speaker="Alice", reference_time=REF).model_dump() == first


def test_rules_extractor_satisfies_the_port() -> None:
    extractor: Extractor = RulesExtractor()
    assert extractor.name == "rules"


def test_importing_the_extractor_does_no_work() -> None:
    """Importing must not load jieba, dateparser or spaCy (STYLE §9: importing a module does nothing)."""
    code = (
        "import sys, graphmem.providers.extractors.rules; "
        "print(sorted(m for m in ('jieba', 'dateparser', 'spacy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_verb_phrase_between_zai_and_gongzuo_is_not_an_employer() -> None:
    """Regression: 我在想要不要换工作 ("I'm wondering whether to change jobs") gave works_at 想要不要换."""
    assert extract("我在想要不要换工作。").facts == []
    assert rows("我在上海工作。") == [("Alice", "works_at", "上海", "assert")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我表哥陈静住在南宁。他去年搬到了桂林。", ("陈静", "lives_in", "桂林", "assert")),
        ("我在百度干了三年。上周辞职了。", ("Alice", "works_at", "百度", "end")),
    ],
)
def test_a_chinese_episode_reads_its_earlier_sentences(text: str, expected: Row) -> None:
    """Regression: each Chinese sentence was parsed alone, so a 他/她 opening the next sentence had no
    person and an unnamed quit (辞职了) ended nothing; the extractor now hands one ZhContext through
    the episode's sentences."""
    assert expected in rows(text)
