"""Field-separated BM25 over episodes (pure): a turn's own text, its session context, its facts.

An episode's ``search_text`` is one bag: its speaker's and its own analysed terms followed by its
chain neighbours' (``graphmem.store.cypher.context``). Scored as one bag, a long neighbour (an
assistant's 500-word answer) outweighs a short turn's own words, and a turn that only *borders* the
answer ranks with the answer itself. Kept apart, each field has its own length normalisation and
document frequencies, and a recipe weighs them (``SearchConfig.field_weights``):

- ``own``: ``speaker_terms`` + ``terms`` (the row's fields; the prefix of ``search_text``);
- ``context``: the rest of ``search_text`` (the neighbours' terms);
- ``facts``: the ``search_text`` of the unexpired facts the episode evidences ("K = V + fact" keys:
  a turn is found by what was extracted from it as well as by its words).

Facts may arrive before or after their episodes (a load reads episodes first, a catch-up reads
either): the link is kept by episode id and the field recomputed whenever either side changes.
The postings are built on the first search that weighs fields (until then only the field texts are
kept; from then on only the postings, which hold the texts), so a tenant whose recipes never ask for them pays no index time for them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmem.retrieval.tenant_index.lexical import Lexical, Strings

FIELDS = ("own", "context", "facts")


class Speakers:
    """Each episode slot's analysed speaker terms (``speaker_terms``: "carolin"), for entity-centred
    search (``graphmem.retrieval.focus``): a code per slot into the tenant's distinct speakers, who
    are few (two in a conversation, user and assistant in a chat log), 4 bytes a slot."""

    def __init__(self) -> None:
        self.names: list[str] = [""]  # code 0: no speaker
        self.code: dict[str, int] = {"": 0}
        self.of: np.ndarray = np.zeros(0, dtype=np.int32)

    def put(self, slot: int, terms: str | None) -> None:
        key = " ".join((terms or "").split())
        code = self.code.get(key)
        if code is None:
            code = self.code[key] = len(self.names)
            self.names.append(key)
        if slot >= len(self.of):
            grown = np.zeros(max(slot + 1, 2 * len(self.of), 64), dtype=np.int32)
            grown[: len(self.of)] = self.of
            self.of = grown
        self.of[slot] = code

    def code_of(self, slot: int) -> int:
        return int(self.of[slot]) if 0 <= slot < len(self.of) else 0

    def get(self, slot: int) -> str:
        return self.names[self.code_of(slot)]

    def holding(self, terms: set[str]) -> set[int]:
        """The codes whose speaker terms hold one of ``terms`` (never 0, no speaker)."""
        return {c for c, name in enumerate(self.names) if c and terms.intersection(name.split())}

    def nbytes(self) -> int:
        return int(self.of.nbytes) + sum(len(n) + 49 for n in self.names)


def split_fields(row: Mapping[str, Any]) -> tuple[str, str]:
    """(own, context) of an episode row. Without ``terms`` (older nodes) all of it is own text."""
    tokens = (row.get("search_text") or "").split()
    own = f"{row.get('speaker_terms') or ''} {row.get('terms') or ''}".split()
    if row.get("terms") is None or tokens[: len(own)] != own:
        return " ".join(tokens), ""
    return " ".join(own), " ".join(tokens[len(own) :])


@dataclass
class FrozenMaps:
    """The maps a write reads, as columns (what a snapshot holds): episode ``ids[i]`` is at slot
    ``slots[i]``; fact ``fact_slots[j]`` is evidenced by ``names[codes[starts[j]:starts[j + 1]]]``
    (in order) and, when unexpired, has the text ``texts[j]`` (``has_text[j]``). ``facts_of`` is
    the inverse of the evidence, rebuilt."""

    ids: Strings
    slots: np.ndarray
    names: Strings
    fact_slots: np.ndarray
    starts: np.ndarray
    codes: np.ndarray
    has_text: np.ndarray
    texts: Strings

    @classmethod
    def of(cls, fields: EpisodeFields) -> FrozenMaps:
        facts = sorted(set(fields.evidence_of) | set(fields.fact_text))
        names = sorted({e for evidence in fields.evidence_of.values() for e in evidence})
        code = {e: i for i, e in enumerate(names)}
        evidence = [fields.evidence_of.get(f, ()) for f in facts]
        starts = np.zeros(len(facts) + 1, dtype=np.int64)
        np.cumsum([len(e) for e in evidence], out=starts[1:])
        return cls(
            Strings(list(fields.slot_of)),
            np.fromiter(fields.slot_of.values(), dtype=np.int64, count=len(fields.slot_of)),
            Strings(names),
            np.asarray(facts, dtype=np.int64),
            starts,
            np.fromiter((code[e] for ev in evidence for e in ev), dtype=np.int64, count=int(starts[-1])),
            np.fromiter((f in fields.fact_text for f in facts), dtype=np.bool_, count=len(facts)),
            Strings([fields.fact_text.get(f, "") for f in facts]),
        )

    def thaw(self, fields: EpisodeFields) -> None:
        """Set ``fields``' maps from the columns."""
        fields.slot_of = dict(zip(_strings(self.ids), self.slots.tolist(), strict=True))
        names = _strings(self.names)
        bounds = self.starts.tolist()
        codes = self.codes.tolist()
        slots = self.fact_slots.tolist()
        fields.evidence_of = {
            f: tuple(names[c] for c in codes[bounds[j] : bounds[j + 1]]) for j, f in enumerate(slots)
        }
        fields.facts_of = defaultdict(set)
        for f, evidence in fields.evidence_of.items():
            for e in evidence:
                fields.facts_of[e].add(f)
        texts = _strings(self.texts)
        fields.fact_text = {f: texts[j] for j, f in enumerate(slots) if self.has_text[j]}

    def evidence(self, slot: int) -> tuple[str, ...]:
        j = int(np.searchsorted(self.fact_slots, slot))
        if j == len(self.fact_slots) or self.fact_slots[j] != slot:
            return ()
        return tuple(self.names[int(c)] for c in self.codes[self.starts[j] : self.starts[j + 1]])

    def entries(self) -> int:
        return len(self.slots) + 2 * len(self.fact_slots)

    def nbytes(self) -> int:
        arrays = (self.slots, self.fact_slots, self.starts, self.codes, self.has_text)
        return sum(a.nbytes for a in arrays) + self.ids.nbytes() + self.names.nbytes() + self.texts.nbytes()


def _strings(values: Strings) -> list[str]:
    return [values[i] for i in range(len(values))]


class EpisodeFields:
    """Pickled (``tenant_index.persist``), the maps only writes read (``slot_of``, ``facts_of``,
    ``evidence_of``, ``fact_text``) travel as ``FrozenMaps`` columns, turned back into dicts by the
    first write: a restore builds none of them, and a search reads only the postings."""

    def __init__(self) -> None:
        self.lexical = {name: Lexical() for name in FIELDS}
        self.texts: dict[str, dict[int, str]] = {name: {} for name in FIELDS}
        self.active = False  # postings built (the first field-weighted search builds them)
        self.slot_of: dict[str, int] = {}  # episode id -> slot
        self.facts_of: defaultdict[str, set[int]] = defaultdict(set)  # episode id -> fact slots
        self.evidence_of: dict[int, tuple[str, ...]] = {}  # fact slot -> episode ids
        self.fact_text: dict[int, str] = {}  # fact slot -> search_text (unexpired facts only)
        self.frozen: FrozenMaps | None = None  # a restored index's maps, until its first write
        # each slot's speaker terms; None in an index restored from a snapshot written before they
        # were kept (the focus then reads Neo4j: retrieval.pipeline)
        self.speakers: Speakers | None = Speakers()

    def __getstate__(self) -> dict[str, Any]:
        self._thaw()
        state = dict(vars(self))
        state.update(slot_of={}, facts_of=defaultdict(set), evidence_of={}, fact_text={})
        state["frozen"] = FrozenMaps.of(self)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.frozen = None
        self.speakers = None
        vars(self).update(state)

    def _thaw(self) -> None:
        if self.frozen is not None:
            frozen, self.frozen = self.frozen, None
            frozen.thaw(self)

    def evidence(self, slot: int) -> tuple[str, ...]:
        """The episode ids fact ``slot`` is evidenced by (read in place from the columns)."""
        if self.frozen is not None:
            return self.frozen.evidence(slot)
        return self.evidence_of.get(slot, ())

    def entries(self) -> int:
        """Entries of the maps (in columns or dicts), for the memory estimate."""
        held = len(self.slot_of) + len(self.evidence_of) + len(self.fact_text)
        return held + (0 if self.frozen is None else self.frozen.entries())

    def set_episode(self, slot: int, episode_id: str, row: Mapping[str, Any]) -> None:
        self._thaw()
        own, context = split_fields(row)
        self.slot_of[episode_id] = slot
        if self.speakers is not None:
            self.speakers.put(slot, row.get("speaker_terms"))
        self._set("own", slot, own)
        self._set("context", slot, context)
        self._refresh(episode_id)

    def set_fact(self, slot: int, row: Mapping[str, Any], *, live: bool) -> None:
        """A fact's evidence and text; ``live`` False (expired, retracted) takes it out of its keys."""
        self._thaw()
        before = self.evidence_of.get(slot, ())
        after = tuple(dict.fromkeys(str(e) for e in row.get("evidence_ids") or []))
        for episode_id in before:
            self.facts_of[episode_id].discard(slot)
        for episode_id in after:
            self.facts_of[episode_id].add(slot)
        self.evidence_of[slot] = after
        if live and row.get("search_text"):
            self.fact_text[slot] = str(row["search_text"])
        else:
            self.fact_text.pop(slot, None)
        for episode_id in dict.fromkeys(before + after):
            self._refresh(episode_id)

    def _refresh(self, episode_id: str) -> None:
        slot = self.slot_of.get(episode_id)
        if slot is None:
            return
        texts = [self.fact_text[f] for f in sorted(self.facts_of.get(episode_id, ())) if f in self.fact_text]
        self._set("facts", slot, " ".join(texts))

    def _set(self, name: str, slot: int, text: str) -> None:
        if self.active:  # the postings hold the texts from then on
            self.lexical[name].set(slot, text)
        else:
            self.texts[name][slot] = text

    def activate(self) -> None:
        """Build the fields' postings from their texts (once; a snapshot is saved with them)."""
        if self.active:
            return
        for name, texts in self.texts.items():
            for slot, text in texts.items():
                self.lexical[name].set(slot, text)
            texts.clear()
        self.active = True

    def scores(self, terms: list[str], weights: Mapping[str, float], size: int) -> np.ndarray:
        """Σ weight × BM25 of each field (each with its own statistics), one score per slot."""
        self.activate()
        out = np.zeros(size, dtype=np.float32)
        for name, weight in weights.items():
            if weight > 0 and name in self.lexical:
                part = self.lexical[name].scores(terms)
                out[: len(part)] += weight * part[:size]
        return out
