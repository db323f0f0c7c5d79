"""Scoring for the temporal suite (EVAL.md §1): pure functions over ``FactRecord`` lists.

Values are compared after Unicode case-folding and whitespace trimming. A fact *carries* a value when
its literal ``value`` or its object entity's name matches it.

- **structured**: the facts holding for (subject, predicate) at ``as_of`` (current facts when it is
  null) must carry exactly the expected values: one value for a functional predicate, the expected
  set for a multi-valued one (``expect`` may be a string or a list), none for ``null``. When stated
  and inferred facts both hold, the stated ones answer: an inferred fact never overrides a stated
  one (DESIGN §1 rule 3), and the conflict stays visible in the graph.
- **search**: among the returned facts about that subject and predicate, the highest ranked one
  carries the expected value; for a ``null`` expectation, none of them claims a value.
- **history**: start at the current (else the latest) stated fact that nothing supersedes and
  walk ``supersedes`` back; the values, oldest first, must equal ``expect_history``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmem.models.episode import EpisodeIn
from graphmem.models.fact import FactIn, FactRecord
from graphmem.models.predicates import is_functional

Expect = str | list[str] | None
_EARLIEST = datetime.min.replace(tzinfo=UTC)


class Question(BaseModel):
    model_config = ConfigDict(extra="ignore")

    q_id: str
    kind: Literal["current", "as_of", "history", "no_answer"]
    subject: str
    predicate: str
    as_of: datetime | None = None
    expect: Expect = None
    expect_history: list[str] | None = None
    query: str = ""


class CaseSpec(BaseModel):
    """One line of the suite. ``category``, ``lang`` and ``split`` (dev or test, in the generated
    benchmark) are optional extras used for breakdowns."""

    model_config = ConfigDict(extra="ignore")

    case_id: str
    group_id: str
    ingest_order: Literal["given", "shuffled"] = "given"
    episodes: list[EpisodeIn] = Field(default_factory=list)
    facts: list[FactIn] = Field(default_factory=list)
    questions: list[Question]
    category: str = ""
    lang: str = ""
    split: str = ""

    @property
    def source(self) -> str:
        """explicit (facts only), natural (episodes only) or mixed."""
        if self.facts and self.episodes:
            return "mixed"
        return "explicit" if self.facts else "natural"


def norm(text: str | None) -> str:
    return (text or "").casefold().strip()


def carries(fact: FactRecord, value: str) -> bool:
    return norm(value) in {norm(fact.value), norm(fact.object)} - {""}


def tier(fact: FactRecord) -> str:
    return fact.tier


def _stated_first(facts: Sequence[FactRecord]) -> list[FactRecord]:
    stated = [f for f in facts if tier(f) == "stated"]
    return stated or list(facts)


def _expected(expect: Expect) -> list[str]:
    if expect is None:
        return []
    return [expect] if isinstance(expect, str) else list(expect)


def shown(facts: Sequence[FactRecord]) -> list[str]:
    return [f.value for f in facts]


def structured_ok(question: Question, holding: Sequence[FactRecord]) -> tuple[bool, list[str]]:
    """(correct, values the structured read gave)."""
    facts = _stated_first(holding)
    expected = _expected(question.expect)
    got = shown(facts)
    if not expected:
        return not facts, got
    if is_functional(question.predicate) and len({norm(f.value) for f in facts}) != 1:
        return False, got
    every_expected = all(any(carries(f, e) for f in facts) for e in expected)
    nothing_else = all(any(carries(f, e) for e in expected) for f in facts)
    return every_expected and nothing_else, got


def about(question: Question, ranked: Sequence[FactRecord]) -> list[FactRecord]:
    subject = norm(question.subject)
    return [f for f in ranked if f.predicate == question.predicate and norm(f.subject) == subject]


def search_ok(question: Question, ranked: Sequence[FactRecord]) -> tuple[bool, list[str]]:
    """(correct, values of the returned facts about the subject and predicate, best first)."""
    hits = about(question, ranked)
    expected = _expected(question.expect)
    if not expected:
        return not hits, shown(hits)
    return bool(hits) and any(carries(hits[0], e) for e in expected), shown(hits)


def chain(facts: Sequence[FactRecord]) -> list[FactRecord]:
    """The SUPERSEDES chain ending at the current (else latest) stated fact, oldest first."""
    live = [f for f in facts if f.expired_at is None]
    by_id = {f.id: f for f in live}
    heads = [f for f in _stated_first(live) if not any(i in by_id for i in f.superseded_by)]
    if not heads:
        return []
    cursor: FactRecord | None = max(heads, key=lambda f: (f.is_current, f.valid_from or _EARLIEST, f.id))
    walked: list[FactRecord] = []
    while cursor is not None and all(cursor.id != f.id for f in walked):
        walked.append(cursor)
        previous = [by_id[i] for i in cursor.supersedes if i in by_id]
        cursor = max(previous, key=lambda f: (f.valid_from or _EARLIEST, f.id)) if previous else None
    return walked[::-1]


def history_ok(question: Question, facts: Sequence[FactRecord]) -> tuple[bool, list[str]]:
    walked = chain([f for f in facts if f.predicate == question.predicate])
    expected = question.expect_history or []
    ok = len(walked) == len(expected) and all(carries(f, e) for f, e in zip(walked, expected, strict=False))
    return ok, shown(walked)


class Outcome(BaseModel):
    """The result of one question."""

    case_id: str
    q_id: str
    kind: str
    source: str
    lang: str
    category: str
    query: str
    expect: Any
    split: str = ""
    structured: bool
    structured_got: list[str] | str
    search: bool | None = None
    search_got: list[str] | str | None = None

    def failures(self) -> list[dict[str, Any]]:
        rows = []
        if not self.structured:
            check = "history" if self.kind == "history" else "structured"
            rows.append(self._failure(check, self.structured_got))
        if self.search is False:
            rows.append(self._failure("search", self.search_got))
        return rows

    def _failure(self, check: str, got: Any) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "q_id": self.q_id,
            "kind": self.kind,
            "check": check,
            "query": self.query,
            "expect": self.expect,
            "got": got,
        }
