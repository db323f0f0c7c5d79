"""Building blocks for the temporal suite generator (``make_temporal_suite.py``).

``Case`` collects episodes, explicit facts and questions in the EVAL.md §1 shape; ``Pools`` hands
out distinct names, cities and companies from a seeded ``random.Random`` so the suite is the same on
every run. Two extra keys per case, ``category`` and ``lang``, let the runner break results down;
the runner ignores keys it does not know.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

EN_PEOPLE = (
    "Alice Bob Carlos Diana Ethan Fatima George Hannah Ivan Julia Kevin Laura Marcus Nadia Oliver "
    "Priya Quentin Rachel Samuel Tara Umar Valerie Walter Xenia Yusuf Zoe Liam Sofia Noah Emma "
    "Lucas Chloe Mateo Grace Daniel Ruby Omar Ingrid Felix Leah Arjun Mia Tomas Elena Hugo Nora"
).split()
EN_CITIES = (
    "Paris",
    "Berlin",
    "Lisbon",
    "Toronto",
    "Chicago",
    "Seattle",
    "Denver",
    "Austin",
    "Boston",
    "Madrid",
    "Rome",
    "Vienna",
    "Prague",
    "Dublin",
    "Oslo",
    "Stockholm",
    "Amsterdam",
    "Barcelona",
    "Melbourne",
    "Vancouver",
    "Montreal",
    "New York",
    "San Francisco",
    "Los Angeles",
    "Mexico City",
    "Buenos Aires",
    "Cape Town",
    "Edinburgh",
    "Manchester",
    "Munich",
    "Zurich",
    "Copenhagen",
    "Helsinki",
    "Portland",
    "Atlanta",
    "Philadelphia",
)
EN_TRIPS = (
    "Tokyo",
    "Singapore",
    "Bangkok",
    "Seoul",
    "Rio de Janeiro",
    "Reykjavik",
    "Marrakech",
    "Istanbul",
    "Hong Kong",
    "Sydney",
    "Nairobi",
    "Athens",
)
EN_ORGS = (
    "Acme",
    "Globex",
    "Initech",
    "Umbrella Labs",
    "Hooli",
    "Pied Piper",
    "Vandelay Industries",
    "Wonka Industries",
    "Cyberdyne Systems",
    "Massive Dynamic",
    "Stripe",
    "Shopify",
    "Spotify",
    "Google",
    "Microsoft",
    "Amazon",
    "Netflix",
    "Airbnb",
    "Dropbox",
    "Atlassian",
    "Pfizer",
    "Deloitte",
    "Bank of America",
    "Goldman Sachs",
    "Siemens",
    "Nvidia",
    "Salesforce",
    "Adobe",
)
EN_SCHOOLS = (
    "MIT",
    "Stanford",
    "Oxford",
    "Harvard University",
    "Yale",
    "Columbia University",
    "Imperial College",
    "University of Toronto",
    "Cornell University",
    "Princeton",
)
EN_TOPICS = (
    "coffee",
    "jazz",
    "horror movies",
    "spicy food",
    "running",
    "sushi",
    "board games",
    "yoga",
    "reality TV",
    "country music",
    "camping",
    "craft beer",
)
ZH_PEOPLE = (
    "王芳 李明 张伟 刘洋 陈静 杨磊 赵敏 黄丽 周杰 吴婷 徐强 孙悦 马超 朱琳 胡斌 郭晶 何勇 林娜 "
    "高翔 罗兰 郑爽 梁宇 宋佳 谢娜 韩雪 唐亮 冯涛 董洁"
).split()
ZH_CITIES = (
    "北京 上海 广州 深圳 杭州 成都 南京 武汉 西安 重庆 苏州 厦门 青岛 大连 长沙 昆明 天津 郑州 合肥 宁波"
).split()
ZH_TRIPS = "日本 东京 新加坡 云南 三亚 泰国 巴黎 香港 首尔 伦敦".split()
ZH_ORGS = (
    "腾讯 阿里巴巴 字节跳动 华为 百度 美团 京东 小米 网易 拼多多 滴滴 快手 招商银行 比亚迪 大疆 携程".split()
)
ZH_SCHOOLS = "清华大学 北京大学 复旦大学 浙江大学 南京大学 武汉大学 中山大学".split()
ZH_TOPICS = "咖啡 火锅 爬山 跑步 看电影 打游戏 喝奶茶 钓鱼".split()


def day(y: int, m: int, d: int, h: int = 10) -> datetime:
    return datetime(y, m, d, h, tzinfo=UTC)


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def midnight(t: datetime) -> datetime:
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def between(a: datetime, b: datetime) -> datetime:
    """Midnight halfway between two times: an ``as_of`` that no day-level rounding can cross."""
    return midnight(a + (b - a) / 2)


def after(t: datetime, days: int) -> datetime:
    return midnight(t + timedelta(days=days))


def en_month(t: datetime) -> str:
    return t.strftime("%B %Y")


def zh_month(t: datetime) -> str:
    return f"{t.year}年{t.month}月"


class Pools:
    """Seeded draws of distinct names; each case asks for what it needs."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, pool: tuple[str, ...] | list[str], n: int = 1) -> list[str]:
        return self.rng.sample(list(pool), n)

    def one(self, pool: tuple[str, ...] | list[str]) -> str:
        return self.rng.choice(list(pool))

    def start(self, first_year: int = 2021, last_year: int = 2023) -> datetime:
        """A first-episode time: a random day in the given years (days 1-28, at 10:00 UTC)."""
        return day(self.rng.randint(first_year, last_year), self.rng.randint(1, 12), self.rng.randint(1, 28))


@dataclass
class Case:
    case_id: str
    category: str
    lang: str
    speaker: str
    ingest_order: str = "given"
    episodes: list[dict[str, Any]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    questions: list[dict[str, Any]] = field(default_factory=list)

    def say(self, when: datetime, content: str, speaker: str | None = None) -> Case:
        n = len(self.episodes) + 1
        self.episodes.append(
            {
                "external_id": f"e{n}",
                "session_id": f"s{n}",
                "speaker": speaker or self.speaker,
                "reference_time": iso(when),
                "content": content,
            }
        )
        return self

    def fact(
        self,
        predicate: str,
        target: str,
        start: datetime | None,
        end: datetime | None = None,
        *,
        subject: str | None = None,
        literal: bool = False,
        source_kind: str = "user_stated",
    ) -> Case:
        row: dict[str, Any] = {"subject": subject or self.speaker, "predicate": predicate}
        row["value" if literal else "object"] = target
        row["valid_from"] = iso(start) if start else None
        row["valid_to"] = iso(end) if end else None
        row["source_kind"] = source_kind
        self.facts.append(row)
        return self

    def ask(
        self,
        kind: str,
        predicate: str,
        expect: str | list[str] | None,
        as_of: datetime | None = None,
        subject: str | None = None,
    ) -> Case:
        who = subject or self.speaker
        self.questions.append(
            {
                "q_id": f"q{len(self.questions) + 1}",
                "kind": kind,
                "subject": who,
                "predicate": predicate,
                "as_of": iso(as_of) if as_of else None,
                "expect": expect,
                "query": query(self.lang, predicate, who, as_of),
            }
        )
        return self

    def now(self, predicate: str, expect: str | list[str] | None, subject: str | None = None) -> Case:
        return self.ask("current", predicate, expect, subject=subject)

    def at(
        self, as_of: datetime, predicate: str, expect: str | list[str] | None, subject: str | None = None
    ) -> Case:
        return self.ask("as_of", predicate, expect, as_of=as_of, subject=subject)

    def none(self, predicate: str, subject: str | None = None) -> Case:
        return self.ask("no_answer", predicate, None, subject=subject)

    def history(self, predicate: str, values: list[str], subject: str | None = None) -> Case:
        who = subject or self.speaker
        self.questions.append(
            {
                "q_id": f"q{len(self.questions) + 1}",
                "kind": "history",
                "subject": who,
                "predicate": predicate,
                "expect_history": values,
                "query": query(self.lang, predicate, who, history=True),
            }
        )
        return self

    def shuffled(self, flag: bool = True) -> Case:
        self.ingest_order = "shuffled" if flag else "given"
        return self

    def to_json(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "group_id": f"t-{self.case_id}",
            "category": self.category,
            "lang": self.lang,
            "ingest_order": self.ingest_order,
            "episodes": self.episodes,
            "facts": self.facts,
            "questions": self.questions,
        }


_EN_NOW = {
    "lives_in": "Where does {s} live?",
    "works_at": "Where does {s} work?",
    "job_title": "What is {s}'s job title?",
    "studies_at": "Where does {s} study?",
    "likes": "What does {s} like?",
    "dislikes": "What does {s} dislike?",
    "located_at": "Where is {s} traveling right now?",
    "relationship_status": "What is {s}'s relationship status?",
    "has_pet": "What pet does {s} have?",
    "married_to": "Who is {s} married to?",
    "owns": "What does {s} own?",
}
_EN_THEN = {
    "lives_in": "Where did {s} live in {t}?",
    "works_at": "Where was {s} working in {t}?",
    "job_title": "What was {s}'s job title in {t}?",
    "studies_at": "Where was {s} studying in {t}?",
    "likes": "What did {s} like in {t}?",
    "dislikes": "What did {s} dislike in {t}?",
    "located_at": "Where was {s} traveling in {t}?",
    "relationship_status": "What was {s}'s relationship status in {t}?",
}
_EN_HISTORY = {
    "lives_in": "Where has {s} lived, in order?",
    "works_at": "Which companies has {s} worked for, in order?",
    "job_title": "What job titles has {s} had, in order?",
    "studies_at": "Where has {s} studied, in order?",
    "relationship_status": "How has {s}'s relationship status changed over time?",
}
_ZH_NOW = {
    "lives_in": "{s}现在住在哪里？",
    "works_at": "{s}现在在哪家公司工作？",
    "job_title": "{s}现在的职位是什么？",
    "studies_at": "{s}在哪所学校读书？",
    "likes": "{s}喜欢什么？",
    "dislikes": "{s}讨厌什么？",
    "located_at": "{s}现在在哪里出差或旅行？",
    "relationship_status": "{s}的婚恋状况是什么？",
    "has_pet": "{s}养了什么宠物？",
    "owns": "{s}有什么东西？",
}
_ZH_THEN = {
    "lives_in": "{t}{s}住在哪里？",
    "works_at": "{t}{s}在哪里工作？",
    "job_title": "{t}{s}的职位是什么？",
    "studies_at": "{t}{s}在哪里读书？",
    "likes": "{t}{s}喜欢什么？",
    "dislikes": "{t}{s}讨厌什么？",
    "located_at": "{t}{s}在哪里出差或旅行？",
    "relationship_status": "{t}{s}的婚恋状况是什么？",
}
_ZH_HISTORY = {
    "lives_in": "{s}先后住过哪些城市？",
    "works_at": "{s}先后在哪些公司工作过？",
    "job_title": "{s}先后担任过哪些职位？",
    "studies_at": "{s}先后在哪些学校读过书？",
    "relationship_status": "{s}的婚恋状况是怎样变化的？",
}


def query(lang: str, predicate: str, who: str, as_of: datetime | None = None, history: bool = False) -> str:
    """The natural-language question a user would type for one structured question."""
    if lang == "zh":
        table = _ZH_HISTORY if history else (_ZH_THEN if as_of else _ZH_NOW)
        return table[predicate].format(s=who, t=zh_month(as_of) if as_of else "")
    table = _EN_HISTORY if history else (_EN_THEN if as_of else _EN_NOW)
    return table[predicate].format(s=who, t=en_month(as_of) if as_of else "")


def later(p: Pools, t: datetime, lo: int = 180, hi: int = 420) -> datetime:
    """A later episode time, far enough that relative phrases ("last month") cannot cross ``between``."""
    return t + timedelta(days=p.rng.randint(lo, hi))
