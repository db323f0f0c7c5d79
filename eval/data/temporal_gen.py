"""Write the generated temporal benchmark: ``temporal_gen_dev.jsonl`` and ``temporal_gen_test.jsonl``.

A compositional generator (EVAL.md §1 format) whose dimensions are:

- subject, predicate and value: the speaker (first person) or a person the speaker names (third
  person); ``lives_in``, ``works_at`` and ``job_title``; values drawn from seeded pools;
- phrasing family (``temporal_gen_phrases``): at least 8 families per predicate per language, each
  with templates that differ in tense and aspect;
- time expression and duration ("last week", 两周前, "for three years", 已经住了三年);
- surrounding chatter: small talk before or after the statement, chatter-only episodes in between,
  and a distractor episode giving another person's value for the same predicate;
- correction and negation forms: a correction in the same message as the wrong value, a later
  correction, negations, plans that must not change the current value;
- ingestion order: every third case is ``shuffled``.

Split: within each (language, predicate, form) family list, families at even positions are
development families and families at odd positions are test families (``temporal_gen_phrases``).
``--heldout`` also writes ``temporal_gen_heldout.jsonl`` from the families of
``temporal_gen_heldout_phrases`` (split ``heldout``), written apart from the others so that no
extractor change could have seen them before they were measured.
A case uses families of one split only, so no test phrasing appears in the development file. The
extractor may be tuned on the development file, never on the test file.

Scenarios per (language, predicate, split), each case one ``category``: ``change`` (state, change,
sometimes a second change), ``neg`` (state, then it ends), ``corr_same``, ``corr_later``, ``plan``
and ``state`` (one statement, plus a no-answer question). Deterministic: each (split, language,
predicate) draws from its own seeded generator. Run from the repository root:

    .venv/bin/python eval/data/temporal_gen.py [--out-dir DIR]
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from suite_kit import (
    EN_CITIES,
    EN_ORGS,
    EN_PEOPLE,
    ZH_CITIES,
    ZH_ORGS,
    ZH_PEOPLE,
    Case,
    Pools,
    after,
    between,
    later,
)
from temporal_gen_phrases import (
    EN_CHATTER,
    EN_DISTRACTOR,
    EN_DUR,
    EN_TITLES,
    EN_WHEN,
    FAMILIES,
    ZH_CHATTER,
    ZH_DISTRACTOR,
    ZH_DUR,
    ZH_TITLES,
    ZH_WHEN,
    Family,
)

SEED = 20261201
OUT_DIR = Path(__file__).parent
SPLITS = ("dev", "test")
HELDOUT = "heldout"
LANGS = ("en", "zh")
PREDICATES = ("lives_in", "works_at", "job_title")
# Cases per family of each form (per split, language and predicate).
PER_FAMILY = {"change": 3, "neg": 2, "corr_same": 2, "corr_later": 2, "plan": 2, "state": 2}
_ALT = re.compile(r"<([^<>|]*)\|([^<>]*)>")


def families(lang: str, predicate: str, form: str, split: str) -> tuple[Family, ...]:
    """The families of one split: even positions are dev, odd positions are test; ``heldout``
    uses every family of ``temporal_gen_heldout_phrases``."""
    if split == HELDOUT:
        return _heldout()[(lang, predicate)][form]
    listed = FAMILIES[(lang, predicate)][form]
    return listed[SPLITS.index(split) :: 2]


def _heldout() -> dict[tuple[str, str], dict[str, tuple[Family, ...]]]:
    module = importlib.import_module("temporal_gen_heldout_phrases")
    return module.FAMILIES  # type: ignore[no-any-return]


def article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def values_pool(lang: str, predicate: str) -> tuple[str, ...] | list[str]:
    if predicate == "lives_in":
        return EN_CITIES if lang == "en" else ZH_CITIES
    if predicate == "works_at":
        return EN_ORGS if lang == "en" else ZH_ORGS
    return EN_TITLES if lang == "en" else ZH_TITLES


class Writer:
    """Renders templates for one case: person, subject name, rotating time expressions and chatter."""

    def __init__(self, lang: str, first_person: bool, subject: str, p: Pools, turn: int) -> None:
        self.lang = lang
        self.first = first_person
        self.subject = subject
        self.p = p
        self.turn = turn

    def render(self, template: str, t: datetime, **values: str) -> str:
        text = _ALT.sub(lambda m: m.group(1) if self.first else m.group(2), template)
        en = self.lang == "en"
        slots = dict(values)
        slots["S"] = self.subject if not self.first or en else "我"
        slots["when"] = self._rotate(EN_WHEN if en else ZH_WHEN)
        slots["dur"] = self._rotate(EN_DUR if en else ZH_DUR)
        slots["year"] = str(t.year - 2 - self.turn % 4)
        slots["O"] = self.p.one(EN_ORGS if en else ZH_ORGS)
        for key in ("A", "B", "W"):
            if key in values:
                slots["a" + key] = article(values[key])
        return text.format(**slots)

    def _rotate(self, pool: tuple[str, ...]) -> str:
        self.turn += 1
        return pool[self.turn % len(pool)]

    def chatter(self, text: str, where: int) -> str:
        """``where``: 0 none, 1 before, 2 after, 3 both."""
        pool = EN_CHATTER if self.lang == "en" else ZH_CHATTER
        sep = " " if self.lang == "en" else ""
        before = pool[self.turn % len(pool)] if where in (1, 3) else ""
        after_ = pool[(self.turn + 3) % len(pool)] if where in (2, 3) else ""
        return sep.join(s for s in (before, text, after_) if s)


class Builder:
    """All cases of one (split, language, predicate)."""

    def __init__(self, split: str, lang: str, predicate: str) -> None:
        self.split, self.lang, self.predicate = split, lang, predicate
        self.p = Pools(SEED ^ zlib.crc32(f"{split}:{lang}:{predicate}".encode()))
        self.n = 0

    def fam(self, form: str, i: int) -> Family:
        listed = families(self.lang, self.predicate, form, self.split)
        return listed[i % len(listed)]

    def new_case(self, form: str, family: str) -> tuple[Case, Writer]:
        self.n += 1
        people = EN_PEOPLE if self.lang == "en" else ZH_PEOPLE
        speaker, other = self.p.pick(people, 2)
        first = self.n % 4 != 0
        case_id = f"gen-{self.split}-{self.lang}-{self.predicate}-{form}-{family}-{self.n:03d}"
        case = Case(case_id, form, self.lang, speaker).shuffled(self.n % 3 == 0)
        return case, Writer(self.lang, first, speaker if first else other, self.p, self.n)

    def say(self, case: Case, w: Writer, t: datetime, text: str) -> None:
        case.say(t, w.chatter(text, (self.n // 4 + self.n) % 4))

    def extras(self, case: Case, w: Writer, t: datetime, taken: list[str]) -> None:
        """A chatter-only episode (every second case) and a distractor (two cases in five), before ``t``."""
        pool = EN_CHATTER if self.lang == "en" else ZH_CHATTER
        if self.n % 2 == 0:
            case.say(after(t, -3).replace(hour=9), pool[(self.n + 5) % len(pool)])
        if self.n % 5 in (1, 3):
            people = EN_PEOPLE if self.lang == "en" else ZH_PEOPLE
            cousin = self.p.one([x for x in people if x not in (case.speaker, w.subject)])
            other_value = self.p.one([v for v in values_pool(self.lang, self.predicate) if v not in taken])
            table = EN_DISTRACTOR if self.lang == "en" else ZH_DISTRACTOR
            line = table[self.predicate].format(X=cousin, D=other_value, aD=article(other_value))
            case.say(after(t, -1).replace(hour=9), line)

    def template(self, family: Family, k: int) -> str:
        return family[1][k % len(family[1])]

    def values(self, n: int) -> list[str]:
        return self.p.pick(values_pool(self.lang, self.predicate), n)

    def state_only(self, family: Family, k: int) -> Case:
        case, w = self.new_case("state", family[0])
        (a,) = self.values(1)
        t1 = self.p.start()
        self.say(case, w, t1, w.render(self.template(family, k), t1, A=a))
        self.extras(case, w, t1, [a])
        pred, who = self.predicate, w.subject
        case.now(pred, a, subject=who).at(after(t1, 30), pred, a, subject=who)
        return case.none("studies_at", subject=who).history(pred, [a], subject=who)

    def change(self, family: Family, k: int) -> Case:
        case, w = self.new_case("change", family[0])
        twice = k % 3 == 2
        a, b, c = self.values(3)
        t1 = self.p.start()
        t2 = later(self.p, t1)
        state = self.fam("state", self.n)
        self.say(case, w, t1, w.render(self.template(state, self.n), t1, A=a))
        self.say(case, w, t2, w.render(self.template(family, k), t2, A=a, B=b))
        self.extras(case, w, t2, [a, b, c])
        pred, who = self.predicate, w.subject
        chain = [a, b]
        if twice:
            t3 = later(self.p, t2)
            second = self.fam("change", k + 1)
            self.say(case, w, t3, w.render(self.template(second, k + 1), t3, A=b, B=c))
            case.at(between(t2, t3), pred, b, subject=who)
            chain.append(c)
        case.now(pred, chain[-1], subject=who).at(between(t1, t2), pred, a, subject=who)
        return case.history(pred, chain, subject=who)

    def negation(self, family: Family, k: int) -> Case:
        case, w = self.new_case("neg", family[0])
        (a,) = self.values(1)
        t1 = self.p.start()
        t2 = later(self.p, t1)
        state = self.fam("state", self.n)
        self.say(case, w, t1, w.render(self.template(state, self.n), t1, A=a))
        self.say(case, w, t2, w.render(self.template(family, k), t2, A=a))
        self.extras(case, w, t2, [a])
        pred, who = self.predicate, w.subject
        case.now(pred, None, subject=who).at(after(t1, 30), pred, a, subject=who)
        return case.history(pred, [a], subject=who)

    def correction_same(self, family: Family, k: int) -> Case:
        case, w = self.new_case("corr_same", family[0])
        wrong, b = self.values(2)
        t1 = self.p.start()
        self.say(case, w, t1, w.render(self.template(family, k), t1, W=wrong, B=b))
        self.extras(case, w, t1, [wrong, b])
        pred, who = self.predicate, w.subject
        case.now(pred, b, subject=who).at(after(t1, 10), pred, b, subject=who)
        return case.history(pred, [b], subject=who)

    def correction_later(self, family: Family, k: int) -> Case:
        case, w = self.new_case("corr_later", family[0])
        a, b = self.values(2)
        t1 = self.p.start()
        t2 = later(self.p, t1, 20, 60)
        state = self.fam("state", self.n)
        self.say(case, w, t1, w.render(self.template(state, self.n), t1, A=a))
        self.say(case, w, t2, w.render(self.template(family, k), t2, A=a, B=b))
        self.extras(case, w, t2, [a, b])
        pred, who = self.predicate, w.subject
        case.now(pred, b, subject=who).at(between(t1, t2), pred, b, subject=who)
        return case.history(pred, [b], subject=who)

    def plan(self, family: Family, k: int) -> Case:
        case, w = self.new_case("plan", family[0])
        a, b = self.values(2)
        t1 = self.p.start()
        t2 = later(self.p, t1)
        state = self.fam("state", self.n)
        self.say(case, w, t1, w.render(self.template(state, self.n), t1, A=a))
        self.say(case, w, t2, w.render(self.template(family, k), t2, A=a, B=b))
        self.extras(case, w, t2, [a, b])
        pred, who = self.predicate, w.subject
        case.now(pred, a, subject=who).at(after(t2, 5), pred, a, subject=who)
        return case.history(pred, [a], subject=who)

    def build(self) -> list[Case]:
        makers: dict[str, Callable[[Family, int], Case]] = {
            "state": self.state_only,
            "change": self.change,
            "neg": self.negation,
            "corr_same": self.correction_same,
            "corr_later": self.correction_later,
            "plan": self.plan,
        }
        cases = []
        for form, make in makers.items():
            for family in families(self.lang, self.predicate, form, self.split):
                cases.extend(make(family, k) for k in range(PER_FAMILY[form]))
        return cases


def build_split(split: str) -> list[Case]:
    cases = [c for lang in LANGS for pred in PREDICATES for c in Builder(split, lang, pred).build()]
    duplicates = [i for i, n in Counter(c.case_id for c in cases).items() if n > 1]
    if duplicates:
        raise SystemExit(f"duplicate case ids: {duplicates}")
    return cases


def case_json(case: Case, split: str) -> dict[str, object]:
    row = case.to_json()
    row["split"] = split
    row["family"] = case.case_id.split("-")[5]
    return row


def summary(cases: list[Case]) -> str:
    questions = [q for c in cases for q in c.questions]
    langs = Counter(c.lang for c in cases)
    kinds = Counter(q["kind"] for q in questions)
    return (
        f"{len(cases)} cases ({dict(sorted(langs.items()))}), {len(questions)} questions "
        f"({dict(sorted(kinds.items()))})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    parser.add_argument(
        "--heldout", action="store_true", help="also write temporal_gen_heldout.jsonl (held-out families)"
    )
    args = parser.parse_args()
    for split in (*SPLITS, HELDOUT) if args.heldout else SPLITS:
        cases = build_split(split)
        out = args.out_dir / f"temporal_gen_{split}.jsonl"
        with out.open("w", encoding="utf-8") as fh:
            for case in cases:
                fh.write(json.dumps(case_json(case, split), ensure_ascii=False) + "\n")
        print(f"wrote {out}: {summary(cases)}")


if __name__ == "__main__":
    main()
