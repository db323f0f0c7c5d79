"""Pure scoring for ``graphmem eval facts`` (EVAL.md §4): families, malformed facts, coverage,
precision against hand labels, and the stratified sample for labelling.

A *fact row* is what ``graphmem.store.facts_eval.facts_with_evidence`` returns, plus the
conversation's ``sample_id`` under ``conversation``.

- **family**: the predicate's family (``FAMILY_OF``): ``place_work``, ``identity`` (also ``is``),
  ``preference`` (also ``values``, ``appreciates``), ``possession``, ``social`` (also ``has``: a
  relative), ``plan``, ``event``, ``activity`` (``does``), ``attribute`` (``attribute:*``),
  ``canonical`` (another predicate of the vocabulary) or ``open`` (a normalised open predicate).
- **malformed**: the statement keeps a first- or second-person pronoun (``pronoun``), or the subject
  is neither a speaker nor a name (``subject``). A name is a phrase that starts with a capital and
  occurs in some turn of the conversation not at a sentence start ("... with Max yesterday");
  ``<name>'s <noun phrase>`` (a resolved "my daughter") counts as a name when ``<name>`` does.
- **coverage**: the share of the turns cited by LoCoMo's observations that some current fact is
  EVIDENCED_BY (per family: by a current fact of that family).
- **precision**: correct / labelled, over the produced facts that a hand label matches on
  (conversation, dia_id, predicate, statement); ``vague`` and ``wrong`` both count against it.
  ``precision_weighted`` weights each family's precision by its share of the facts.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from graphmem.models.predicates import VOCABULARY

FAMILY_OF = {
    "lives_in": "place_work",
    "works_at": "place_work",
    "job_title": "place_work",
    "studies_at": "place_work",
    "located_at": "place_work",
    "name": "identity",
    "age": "identity",
    "born_in": "identity",
    "relationship_status": "identity",
    "married_to": "identity",
    "speaks": "identity",
    "likes": "preference",
    "dislikes": "preference",
    "prefers": "preference",
    "has_pet": "possession",
    "owns": "possession",
    "knows": "social",
    "met": "social",
    "plans": "plan",
    "attended": "event",
    "visited": "event",
    "values": "preference",
    "appreciates": "preference",
    "has": "social",
    "is": "identity",
    "does": "activity",
}
LABELS = ("correct", "wrong", "vague")

_EN_PRONOUN = re.compile(
    r"(?<![\w'’])(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself|[Ww]e|[Uu]s|[Oo]ur|[Oo]urs|[Oo]urselves|[Yy]ou|[Yy]our|"
    r"[Yy]ours|[Yy]ourself|[Yy]ourselves)(?![\w])"
)
_US_COUNTRY = re.compile(r"(?<![\w'’])US(?![\w])")
_ZH_PRONOUN = re.compile(r"[我你咱]")
_CAPITAL_WORD = re.compile(r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*")
_SENTENCE_END = re.compile(r"[.!?…:;\"“”(\[\-–—]\s*$")
_POSSESSIVE = re.compile(r"^(?P<owner>.+?)['’]s\s+\S")


def family(predicate: str) -> str:
    if predicate in FAMILY_OF:
        return FAMILY_OF[predicate]
    if predicate.startswith("attribute:"):
        return "attribute"
    return "canonical" if predicate in VOCABULARY else "open"


def has_pronoun(statement: str) -> bool:
    """A first- or second-person pronoun left in a statement (English words, Chinese 我/你/咱)."""
    return bool(_EN_PRONOUN.search(statement) or _ZH_PRONOUN.search(statement))


def mid_sentence_names(texts: Iterable[str]) -> set[str]:
    """Capitalised phrases (and each of their words) used in some text not at a sentence start."""
    names: set[str] = set()
    for text in texts:
        for match in _CAPITAL_WORD.finditer(text):
            before = text[: match.start()]
            if not before.strip() or _SENTENCE_END.search(before):
                continue
            phrase = match.group(0).rstrip(".'’-")
            names.add(phrase)
            names.update(w.rstrip(".'’-") for w in phrase.split())
    names.discard("I")
    return names


def subject_ok(subject: str, speakers: Sequence[str], names: set[str]) -> bool:
    """A speaker (full or first name), a mid-sentence name, or ``<one of those>'s <noun phrase>``."""
    text = (subject or "").strip()
    if not text:
        return False
    folded = text.casefold()
    if any(folded in (s.casefold(), s.split()[0].casefold()) for s in speakers if s.strip()):
        return True
    if text[0].isupper() and text in names and text not in ("I",):
        return True
    owner = _POSSESSIVE.match(text)
    return owner is not None and subject_ok(owner.group("owner"), speakers, names)


def malformed_reason(row: dict[str, Any], speakers: Sequence[str], names: set[str]) -> str | None:
    """``pronoun``, ``subject`` or None (a pronoun wins when both apply)."""
    statement = str(row.get("statement") or "")
    if has_pronoun(_US_COUNTRY.sub("", statement)):
        return "pronoun"
    if not subject_ok(str(row.get("subject") or ""), speakers, names):
        return "subject"
    return None


def norm(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


LabelKey = tuple[str, str, str, str]


def label_key(conversation: str, dia_id: str, predicate: str, statement: str) -> LabelKey:
    return (conversation, dia_id, predicate, norm(statement))


def labels_index(rows: Iterable[dict[str, Any]]) -> dict[LabelKey, str]:
    """(conversation, dia_id, predicate, statement) -> label; an unknown label is an error."""
    index: dict[LabelKey, str] = {}
    for row in rows:
        label = str(row.get("label"))
        if label not in LABELS:
            raise ValueError(f"label must be one of {', '.join(LABELS)}: {row!r}")
        key = label_key(
            str(row["conversation"]), str(row["dia_id"]), str(row["predicate"]), str(row["statement"])
        )
        index[key] = label
    return index


def label_of(row: dict[str, Any], labels: dict[LabelKey, str]) -> str | None:
    for dia_id in row.get("external_ids") or []:
        found = labels.get(label_key(row["conversation"], str(dia_id), row["predicate"], row["statement"]))
        if found is not None:
            return found
    return None


@dataclass
class ConversationFacts:
    """One conversation's facts and what the scoring needs to know about it."""

    sample_id: str
    turns: int
    speakers: tuple[str, ...]
    names: set[str]
    observed: set[str]
    rows: list[dict[str, Any]]


def _rate(n: int, d: int) -> float | None:
    return round(n / d, 4) if d else None


def _block(
    rows: Sequence[dict[str, Any]], turns: int, observed: int, covered: int, labels: dict[LabelKey, str]
) -> dict[str, Any]:
    reasons = Counter(r["_malformed"] for r in rows if r["_malformed"])
    judged = Counter(label for r in rows if (label := label_of(r, labels)) is not None)
    n_judged = sum(judged.values())
    return {
        "facts": len(rows),
        "current": sum(1 for r in rows if r.get("current")),
        "facts_per_turn": _rate(len(rows), turns),
        "coverage": _rate(covered, observed),
        "malformed_rate": _rate(sum(reasons.values()), len(rows)),
        "malformed": {"pronoun": reasons["pronoun"], "subject": reasons["subject"]},
        "precision": _rate(judged["correct"], n_judged),
        "labelled": {"n": n_judged, **{k: judged[k] for k in LABELS}},
    }


def labelled_precision(rows: Sequence[dict[str, Any]], labels: dict[LabelKey, str]) -> dict[str, Any]:
    """Precision of ``rows`` (scored rows: ``conversation`` set) on one label set."""
    judged = Counter(label for r in rows if (label := label_of(r, labels)) is not None)
    n = sum(judged.values())
    return {"n": n, "precision": _rate(judged["correct"], n), **{k: judged[k] for k in LABELS}}


def _covered(rows: Iterable[dict[str, Any]], observed: set[tuple[str, str]]) -> int:
    cited = {
        (r["conversation"], str(d)) for r in rows if r.get("current") for d in r.get("external_ids") or []
    }
    return len(cited & observed)


def score(conversations: Sequence[ConversationFacts], labels: dict[LabelKey, str]) -> dict[str, Any]:
    """The EVAL.md §4 object (without run metadata)."""
    rows: list[dict[str, Any]] = []
    for conv in conversations:
        for row in conv.rows:
            row["conversation"] = conv.sample_id
            row["_family"] = family(str(row["predicate"]))
            row["_malformed"] = malformed_reason(row, conv.speakers, conv.names)
            rows.append(row)
    turns = sum(c.turns for c in conversations)
    observed = {(c.sample_id, d) for c in conversations for d in c.observed}
    result = {"n_conversations": len(conversations), "turns": turns, "observation_turns": len(observed)}
    result |= _block(rows, turns, len(observed), _covered(rows, observed), labels)
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_family[row["_family"]].append(row)
    result["by_family"] = {
        name: _block(group, turns, len(observed), _covered(group, observed), labels)
        for name, group in sorted(by_family.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    }
    result["by_conversation"] = {}
    for conv in conversations:
        own = [r for r in rows if r["conversation"] == conv.sample_id]
        seen = {(conv.sample_id, d) for d in conv.observed}
        block = _block(own, conv.turns, len(seen), _covered(own, seen), labels)
        result["by_conversation"][conv.sample_id] = {
            k: block[k] for k in ("facts", "facts_per_turn", "coverage", "malformed_rate", "precision")
        }
    result["precision_weighted"] = _weighted(result["by_family"])
    result["labels_total"] = len(labels)
    return result


def _weighted(by_family: dict[str, dict[str, Any]]) -> float | None:
    """Precision per family weighted by the family's share of the facts (the labelling sample
    over-represents small families), over the families that have labelled facts."""
    judged = {k: v for k, v in by_family.items() if v["precision"] is not None}
    total = sum(v["facts"] for v in judged.values())
    if not total:
        return None
    return round(sum(v["precision"] * v["facts"] for v in judged.values()) / total, 4)


def stratified_sample(
    rows: Sequence[dict[str, Any]], size: int, seed: int = 20261201
) -> list[dict[str, Any]]:
    """About ``size`` facts stratified by family (each family at least ``min(10, its size)``, the
    rest in proportion) and, inside a family, spread over conversations in turn. Deterministic."""
    rng = random.Random(seed)
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r["conversation"], r["id"])):
        by_family[family(str(row["predicate"]))].append(row)
    total = len(rows)
    quota = {
        name: min(len(group), max(min(10, len(group)), round(size * len(group) / total)))
        for name, group in by_family.items()
    }
    chosen: list[dict[str, Any]] = []
    for name in sorted(by_family):
        per_conv: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in by_family[name]:
            per_conv[row["conversation"]].append(row)
        for group in per_conv.values():
            rng.shuffle(group)
        queues = [per_conv[c] for c in sorted(per_conv)]
        picked: list[dict[str, Any]] = []
        while len(picked) < quota[name] and any(queues):
            for queue in queues:
                if queue and len(picked) < quota[name]:
                    picked.append(queue.pop())
        chosen.extend(picked)
    return chosen
