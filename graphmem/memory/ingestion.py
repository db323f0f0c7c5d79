"""Ingestion (DESIGN §3): validate → key → embed → extract → resolve → one write transaction."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeVar

import numpy as np

from graphmem.errors import IdempotencyConflict, InvalidInput, NotFound
from graphmem.memory import changes, pii
from graphmem.memory.context import MemoryContext
from graphmem.memory.drafts import Draft, from_explicit, from_extracted
from graphmem.memory.entities import plan_entities
from graphmem.memory.facts import build_claims, resolve_slots, slot_keys, write_plans
from graphmem.memory.lifecycle.forget import _forget_episodes as forget_episodes_in_tx
from graphmem.models.episode import EpisodeIn, EpisodeOutcome, IngestResult
from graphmem.models.extraction import ExtractedFact, Extraction
from graphmem.models.fact import FactIn
from graphmem.models.predicates import lookup
from graphmem.privacy import Found
from graphmem.store import lifecycle as lifecycle_repo
from graphmem.store import writes
from graphmem.store.driver import Tx
from graphmem.temporal.normalize import group_token, normalize_name, statement
from graphmem.text import clean_name, clean_text, episode_fields, episode_text


@dataclass
class Prepared:
    id: str
    key: str
    episode: EpisodeIn
    extraction: Extraction
    # names and statements embedded before the lock (``_embed_ahead``), shared by the batch
    ahead: dict[str, np.ndarray] = field(default_factory=dict)


def indexed_text(ep: EpisodeIn) -> str:
    """What search embeds of an episode: "speaker: content" (``graphmem.text.episode_text``)."""
    return episode_text(ep.speaker, ep.content)


def _row(p: Prepared, vector: np.ndarray) -> dict[str, Any]:
    ep = p.episode
    return {
        "id": p.id,
        "key": p.key,
        "external_id": ep.external_id,
        "session_id": ep.session_id,
        "source": ep.source,
        "speaker": ep.speaker,
        "content": ep.content,
        "reference_time": ep.reference_time,
        "content_hash": ep.content_hash(),
        **episode_fields(ep.speaker, ep.content),  # search_text gets its session context below
        "embedding": vector.tolist(),  # float32 -> float, as float(x) does
    }


async def _known_keys(ctx: MemoryContext, keys: list[str]) -> dict[str, dict[str, Any]]:
    return await writes.peek_episode_keys(ctx.store, keys=keys)


def _changed(model: Any, update: dict[str, Any]) -> Any:
    changed = {k: v for k, v in update.items() if v != getattr(model, k)}
    return model.model_copy(update=changed) if changed else model


def clean_episode(ep: EpisodeIn) -> EpisodeIn:
    """The input boundary for episodes: text NFC (``graphmem.text.clean_text``), the speaker (an
    entity name) without NUL and bidirectional controls. Keys and hashes are taken after this, so
    a decomposed and a composed copy of the same text are one episode."""
    speaker = clean_name(ep.speaker) or None if ep.speaker is not None else None
    update: dict[str, Any] = {"content": clean_text(ep.content), "speaker": speaker}
    for name in ("session_id", "external_id"):
        value = getattr(ep, name)
        update[name] = clean_text(value) if value is not None else None
    return _changed(ep, update)


def clean_fact(fact: FactIn, index: int = 0) -> FactIn:
    """The input boundary for explicit facts: names cleaned like entity names, the value NFC."""
    update: dict[str, Any] = {"subject": clean_name(fact.subject)}
    if fact.object is not None:
        update["object"] = clean_name(fact.object)
    if fact.value is not None:
        update["value"] = clean_text(fact.value)
    for name in ("subject", "object", "value"):
        if name in update and not update[name]:
            raise InvalidInput(
                f"{name} is empty once control characters are removed",
                details={"field": f"facts.{index}.{name}"},
            )
    return _changed(fact, update)


def _clean_extraction(x: Extraction) -> Extraction:
    """Extractor output under the same name rule as input (an LLM may echo control characters)."""
    entities = [_changed(e, {"name": clean_name(e.name)}) for e in x.entities if clean_name(e.name)]
    facts: list[ExtractedFact] = []
    for f in x.facts:
        subject = clean_name(f.subject)
        obj = clean_name(f.object) if f.object is not None else None
        if not subject or obj == "":
            continue
        facts.append(_changed(f, {"subject": subject, "object": obj}))
    return _changed(x, {"entities": entities, "facts": facts})


def _extract(ctx: MemoryContext, episodes: list[tuple[str, EpisodeIn]]) -> list[Extraction]:
    return extract_batch(ctx.extractor, [ep for _, ep in episodes])


def extract_batch(extractor: Any, episodes: Sequence[EpisodeIn]) -> list[Extraction]:
    """The extractor's output for each episode, cleaned (``_clean_extraction``)."""
    batch = getattr(extractor, "extract_batch", None)
    if batch is not None:  # the rules extractor: one parser pass, and "you" is the other speaker
        from graphmem.providers.extractors.rules import ExtractRequest

        others = _other_speakers(list(episodes))
        requests = [
            ExtractRequest(ep.content, ep.speaker, ep.reference_time, other)
            for ep, other in zip(episodes, others, strict=True)
        ]
        return [_clean_extraction(x) for x in batch(requests)]
    return [
        _clean_extraction(
            extractor.extract(content=ep.content, speaker=ep.speaker, reference_time=ep.reference_time)
        )
        for ep in episodes
    ]


def _other_speakers(episodes: list[EpisodeIn]) -> list[str | None]:
    """For each episode, the other speaker of its session when the batch shows exactly two."""
    speakers: dict[str, set[str]] = {}
    for ep in episodes:
        if ep.session_id and ep.speaker:
            speakers.setdefault(ep.session_id, set()).add(ep.speaker)
    out: list[str | None] = []
    for ep in episodes:
        names = speakers.get(ep.session_id or "", set())
        rest = names - {ep.speaker} if len(names) == 2 else set()
        out.append(next(iter(rest)) if rest else None)
    return out


def _drafts(prepared: list[Prepared]) -> list[Draft]:
    return [
        from_extracted(f, ref=f"{p.id}:{i}", episode_id=p.id, at=p.episode.reference_time)
        for p in prepared
        for i, f in enumerate(p.extraction.facts)
    ]


def _wanted_entities(prepared: list[Prepared], drafts: list[Draft]) -> dict[str, tuple[str, str]]:
    wanted: dict[str, tuple[str, str]] = {}
    for p in prepared:
        for ent in p.extraction.entities:
            wanted.setdefault(normalize_name(ent.name), (ent.name, ent.kind))
    for d in drafts:
        wanted.setdefault(normalize_name(d.subject), (d.subject, d.subject_kind))
        if d.object_name:
            wanted.setdefault(normalize_name(d.object_name), (d.object_name, d.object_kind))
    return {k: v for k, v in wanted.items() if k}


@dataclass
class PreparedBatch:
    """One batch keyed, extracted and embedded outside the group lock (``prepare_episodes``), so
    that it can overlap the previous batch's write; ``commit_episodes`` writes it under the lock,
    re-checking the keys (a key stored meanwhile is reported as existing, never added twice).
    ``replaced``: key -> id of a stored episode this batch replaces (``replace=True``)."""

    group_id: str
    allow_forgotten: bool
    keyed: list[tuple[str, EpisodeIn]]
    known: dict[str, dict[str, Any]]
    new_ids: dict[str, str]
    prepared: list[Prepared]
    vectors: np.ndarray
    replace: bool = False
    replaced: dict[str, str] = field(default_factory=dict)
    vault: list[Found] = field(default_factory=list)  # PII redacted from the batch (graphmem.memory.pii)
    # per stage of the prepare (extract, embed, ahead): wall seconds and the CPU seconds of the
    # thread that ran it (``<stage>_cpu``), for ``eval.ingest_speed``
    stage_seconds: dict[str, float] = field(default_factory=dict)


def _conflicts(keyed: list[tuple[str, EpisodeIn]], known: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Episodes whose key (``external_id``) already names a stored episode, or an earlier one in
    the batch, with other content: a retry must carry the same content (compared by hash)."""
    first: dict[str, tuple[str | None, str]] = {
        k: (r["id"], r["content_hash"]) for k, r in known.items() if r.get("id") and r.get("content_hash")
    }
    found: list[dict[str, Any]] = []
    for index, (key, ep) in enumerate(keyed):
        digest = ep.content_hash()
        stored = first.setdefault(key, (None, digest))
        if ep.external_id and stored[1] != digest:
            found.append(
                {
                    "index": index,
                    "external_id": ep.external_id,
                    "episode_id": stored[0],
                    "stored_content_hash": stored[1],
                    "content_hash": digest,
                }
            )
    return found


def _refuse(conflicts: list[dict[str, Any]]) -> IdempotencyConflict:
    return IdempotencyConflict(
        "an external_id already names an episode with other content; send the same content to "
        "retry, or ask to replace it (on_conflict=replace)",
        details={"conflicts": conflicts},
    )


def wanted_entities(prepared: list[Prepared]) -> dict[str, tuple[str, str]]:
    """Normalised name -> (name, kind) of every entity the batch's extractions name."""
    return _wanted_entities(prepared, _drafts(prepared))


def ahead_texts(prepared: list[Prepared], names: dict[str, str]) -> list[str]:
    """What ``_embed_ahead`` embeds, sorted: the names of the entities not in ``names`` (normalised
    name -> display name of the entities the group knows) and the statements of the batch's facts,
    as they will read with the known entities' display names."""
    drafts = _drafts(prepared)
    wanted = _wanted_entities(prepared, drafts)
    texts = {name for k, (name, _) in wanted.items() if k not in names}
    for d in drafts:
        value = names.get(normalize_name(d.object_name), d.value) if d.object_name else d.value
        texts.add(statement(names.get(normalize_name(d.subject), d.subject), d.predicate, value))
    return sorted(texts)


_T = TypeVar("_T")


async def _timed(stages: dict[str, float], name: str, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)`` in a worker thread; its wall time and that thread's CPU time go to ``stages``."""

    def run() -> tuple[_T, float]:
        began = time.thread_time()
        return fn(*args), time.thread_time() - began

    began = time.perf_counter()
    out, cpu = await asyncio.to_thread(run)
    stages[name] = stages.get(name, 0.0) + time.perf_counter() - began
    stages[name + "_cpu"] = stages.get(name + "_cpu", 0.0) + cpu
    return out


def _embed(ctx: MemoryContext, texts: list[str]) -> np.ndarray:
    if not texts:
        return np.zeros((0, ctx.embedder.dimension), dtype=np.float32)
    return ctx.embedder.embed(texts)


async def _embed_ahead(
    ctx: MemoryContext, group_id: str, prepared: list[Prepared], stages: dict[str, float] | None = None
) -> None:
    """Embed, before the group lock, what the commit would otherwise embed under it: the names of
    entities the group does not know yet and the statements of the batch's facts, as they will read
    with the known entities' display names. A name that resolves otherwise under the lock (a
    fuzzy match, a concurrent writer's new entity) is embedded there, as before."""
    if not ctx.write_embed_ahead or not prepared:
        return
    wanted = wanted_entities(prepared)
    known = await writes.peek_entities(ctx.store, group_id=group_id, keys=sorted(wanted))
    ordered = ahead_texts(prepared, {k: r["name"] for k, r in known.items()})
    vectors = await _timed(stages if stages is not None else {}, "ahead", _embed, ctx, ordered)
    ahead = dict(zip(ordered, vectors, strict=True))
    for p in prepared:
        p.ahead = ahead


async def prepare_episodes(
    ctx: MemoryContext,
    group_id: str,
    episodes: Sequence[EpisodeIn],
    *,
    allow_forgotten: bool = False,
    replace: bool = False,
) -> PreparedBatch:
    """The lock-free part of ``add_episodes``: clean, dedupe by key, extract, embed. Writes nothing.

    A key that names a stored episode with other content raises ``IdempotencyConflict`` (both
    content hashes in ``details``), unless ``replace``: then the stored episode is forgotten and the
    new content ingested in its place, in the commit's transaction."""
    cleaned, vault = pii.redact_episodes(ctx, group_id, [clean_episode(ep) for ep in episodes])
    keyed = [(ep.idempotency_key(group_id), ep) for ep in cleaned]
    known = await _known_keys(ctx, sorted({k for k, _ in keyed}))
    conflicts = _conflicts(keyed, known)
    if conflicts and (not replace or any(c["episode_id"] is None for c in conflicts)):
        raise _refuse(conflicts)  # within one batch, even ``replace`` cannot say which text wins
    replaced = {keyed[c["index"]][0]: str(c["episode_id"]) for c in conflicts}
    new_ids: dict[str, str] = {}
    fresh: list[tuple[str, EpisodeIn]] = []
    for key, ep in keyed:
        status = None if key in replaced else _status(known.get(key), allow_forgotten)
        if status is None and key not in new_ids:
            new_ids[key] = str(uuid.uuid4())
            fresh.append((key, ep))
    # extraction (a thread) overlaps the embedding: on two cores the parser is not on the critical path
    stages: dict[str, float] = {}
    extractions, vectors = await asyncio.gather(
        _timed(stages, "extract", _extract, ctx, fresh),
        _timed(stages, "embed", _embed, ctx, [indexed_text(ep) for _, ep in fresh]),
    )
    extractions = [pii.drop_token_names(ctx, x) for x in extractions]
    prepared = [Prepared(new_ids[k], k, ep, x) for (k, ep), x in zip(fresh, extractions, strict=True)]
    await _embed_ahead(ctx, group_id, prepared, stages)
    return PreparedBatch(
        group_id, allow_forgotten, keyed, known, new_ids, prepared, vectors, replace, replaced, vault, stages
    )


async def commit_episodes(ctx: MemoryContext, batch: PreparedBatch) -> IngestResult:
    """Write a prepared batch in one transaction under the group lock."""
    result = await _commit(
        ctx,
        batch.group_id,
        batch.prepared,
        _drafts(batch.prepared),
        batch.vectors,
        allow_forgotten=batch.allow_forgotten,
        replace=batch.replaced if batch.replace else None,
        vault=batch.vault,
    )
    outcomes: list[EpisodeOutcome] = []
    reported: set[str] = set()
    for key, ep in batch.keyed:
        known = None if key in batch.replaced else batch.known.get(key)
        status = _status(known, batch.allow_forgotten)
        if status is None:
            status = "created" if key in result.created_keys and key not in reported else "existing"
        eid = batch.new_ids.get(key) if key in result.created_keys else None
        eid = eid or (known or {}).get("id") or result.existing_ids.get(key, "")
        outcomes.append(EpisodeOutcome(id=eid, external_id=ep.external_id, status=status))
        reported.add(key)
    return IngestResult(episodes=outcomes, facts=result.changes)


async def add_episodes(
    ctx: MemoryContext,
    group_id: str,
    episodes: Sequence[EpisodeIn],
    *,
    allow_forgotten: bool = False,
    replace: bool = False,
) -> IngestResult:
    batch = await prepare_episodes(ctx, group_id, episodes, allow_forgotten=allow_forgotten, replace=replace)
    return await commit_episodes(ctx, batch)


Status = Literal["created", "existing", "forgotten"]


def _status(row: dict[str, Any] | None, allow_forgotten: bool) -> Status | None:
    if row is None:
        return None
    if row.get("id"):
        return "existing"
    return None if allow_forgotten else "forgotten"


async def add_facts(ctx: MemoryContext, group_id: str, facts: Sequence[FactIn]) -> IngestResult:
    drafts: list[Draft] = []
    vault: list[Found] = []
    for fact in (clean_fact(f, i) for i, f in enumerate(facts)):
        fact, found = pii.redact_fact(ctx, group_id, fact)
        vault += found
        base = f"explicit:{uuid.uuid4()}"
        evidence: list[str | None] = list(fact.evidence_episode_ids) or [None]
        drafts.extend(
            from_explicit(fact, ref=f"{base}:{i}", episode_id=eid) for i, eid in enumerate(evidence)
        )
    result = await _commit(ctx, group_id, [], drafts, np.zeros((0, ctx.embedder.dimension)), vault=vault)
    return IngestResult(episodes=[], facts=result.changes)


@dataclass
class _CommitResult:
    created_keys: set[str]
    existing_ids: dict[str, str]
    changes: list[Any]


async def _commit(
    ctx: MemoryContext,
    group_id: str,
    prepared: list[Prepared],
    drafts: list[Draft],
    episode_vectors: np.ndarray,
    *,
    allow_forgotten: bool = False,
    replace: dict[str, str] | None = None,
    vault: list[Found] | None = None,
) -> _CommitResult:
    wanted = _wanted_entities(prepared, drafts)
    # Only episodes are embedded up front (``prepare_episodes``); statements of facts that turn out
    # to be new and names of entities that turn out to be unknown are embedded inside the
    # transaction, once known.
    vectors: dict[str, np.ndarray] = {t: v for p in prepared for t, v in p.ahead.items()}
    now = ctx.clock()

    async def work(tx: Tx) -> _CommitResult:
        # Round trips: BEGIN_INGEST (lock, re-check keys, known entities, evidence), episodes and
        # their sessions' tails, [fuzzy entity candidates], NEXT edits + search context + entities
        # + mentions + the touched slots' facts, facts + change log + counts; one commit. The
        # slots are keyed by entity ids, so they are read with the ids the merge is expected to
        # give (new rows' own); should it give others, they are read again.
        evidence_ids = _evidence_ids(drafts)
        start = await writes.begin_ingest(
            tx,
            group_id=group_id,
            now=now,
            keys=[p.key for p in prepared],
            names=sorted(wanted),
            evidence_ids=evidence_ids,
        )
        kept, existing = _recheck(start.known, prepared, allow_forgotten, replace)
        found = start.entities
        if replace:
            await _forget_replaced(tx, ctx, group_id, replace, now)
            found = await writes.find_entities(tx, group_id=group_id, keys=sorted(wanted))
        _check_evidence(evidence_ids, start.evidence)
        rows = [_row(p, v) for p, v in zip(kept, episode_vectors, strict=True) if p is not None]
        live = [p for p in kept if p is not None]
        token = group_token(group_id)
        unlink, link = await writes.create_episodes_and_tails(
            tx, group_id=group_id, group_token=token, rows=rows, since=_earliest_by_session(live), now=now
        )
        live_ids = {p.id for p in live}
        kept_drafts = [
            d
            for d in drafts
            if d.episode_id is None or d.episode_id in live_ids or d.ref.startswith("explicit:")
        ]
        if vault:
            await pii.write_vault(tx, ctx, group_id, vault, _written_text(rows, kept_drafts), now)
        plan = await plan_entities(
            tx, group_id=group_id, wanted=wanted, found=found, vectors=vectors, embed=ctx.embed
        )
        expected = plan.expected()
        slots = build_claims(kept_drafts, expected, now=now)
        loaded: list[dict[str, Any]] | None
        merged, loaded = await writes.link_episodes(
            tx,
            group_id=group_id,
            group_token=token,
            unlink=unlink,
            link=link,
            refresh_ids=[p.id for p in live],
            entities=plan.rows,
            aliases=plan.aliases,
            mentions=_mentions(live, plan.ids, {r["normalized_name"] for r in plan.rows}),
            slots=slot_keys(slots),
            now=now,
        )
        entities = plan.resolved(merged)
        if (entities.ids, entities.names) != (expected.ids, expected.names):  # a merge matched instead
            slots, loaded = build_claims(kept_drafts, entities, now=now), None
        fw = await resolve_slots(tx, group_id=group_id, slots=slots, now=now, loaded=loaded)
        records = changes.ingest_records(
            ctx,
            episodes=rows,
            aliases=entities.aliases,
            out=fw,
            sources={d.episode_id for d in kept_drafts if d.episode_id},
            extracted=bool(prepared),
            now=now,
        )
        counts = {"episodes": len(rows), "facts": fw.created, "entities": entities.created}
        await write_plans(
            tx,
            group_id=group_id,
            slots=sorted(slots),
            out=fw,
            vectors=vectors,
            embed_missing=ctx.embed,
            now=now,
            change_rows=records,
            counts=counts,
        )
        return _CommitResult({p.key for p in live}, existing, fw.changes)

    # writes queued for this group meanwhile share the transaction (group commit), each its own result
    return await ctx.write_gate.commit(group_id, work, ctx.store.execute, rows=len(prepared) + len(drafts))


def _written_text(rows: list[dict[str, Any]], drafts: list[Draft]) -> list[str | None]:
    """The text a write stores: episodes' content and speaker, explicit facts' names and values."""
    texts: list[str | None] = [t for r in rows for t in (r["content"], r["speaker"])]
    return texts + [t for d in drafts for t in (d.subject, d.object_name, d.value)]


def _earliest_by_session(prepared: list[Prepared]) -> dict[str, datetime]:
    since: dict[str, datetime] = {}
    for p in prepared:
        sid, at = p.episode.session_id, p.episode.reference_time
        if sid and (sid not in since or at < since[sid]):
            since[sid] = at
    return since


def _recheck(
    known: dict[str, dict[str, Any]],
    prepared: list[Prepared],
    allow_forgotten: bool,
    replace: dict[str, str] | None,
) -> tuple[list[Prepared | None], dict[str, str]]:
    """Under the group lock, drop episodes a concurrent writer stored (or forgot) meanwhile
    (``known``: the keys stored or tombstoned, read under the lock); a forgotten (tombstoned)
    episode comes back only when ``allow_forgotten``. A key stored meanwhile with other content
    is a conflict, or (``replace``) one more episode to replace."""
    if not prepared:
        return [], {}
    if replace is not None:
        for p in prepared:
            row = known.get(p.key) or {}
            if row.get("id") and p.key not in replace and row.get("content_hash") != p.episode.content_hash():
                replace[p.key] = row["id"]
    else:
        keyed = [(p.key, p.episode) for p in prepared]
        conflicts = _conflicts(keyed, known)
        if conflicts:
            raise _refuse(conflicts)
    replaced = replace or {}
    existing = {k: r["id"] for k, r in known.items() if r.get("id") and k not in replaced}
    dropped = set(existing) if allow_forgotten else set(known) - set(replaced)
    return [None if p.key in dropped else p for p in prepared], existing


async def _forget_replaced(
    tx: Tx, ctx: MemoryContext, group_id: str, replace: dict[str, str], now: datetime
) -> None:
    """Forget the episodes being replaced inside the writing transaction, without tombstones: their
    keys are about to name the new content."""
    rows = await lifecycle_repo.episodes_by_ids(tx, group_id=group_id, ids=sorted(set(replace.values())))
    if rows:
        await forget_episodes_in_tx(tx, ctx, group_id, [{**r, "key": None} for r in rows], now)


def _evidence_ids(drafts: list[Draft]) -> list[str]:
    """The episodes explicit facts name as their evidence (they must be in the group)."""
    return sorted({d.episode_id for d in drafts if d.episode_id and d.ref.startswith("explicit:")})


def _check_evidence(ids: list[str], found: set[str]) -> None:
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            "evidence episode not found in this group",
            details={"field": "evidence_episode_ids", "ids": missing},
        )


def _mentions(
    prepared: list[Prepared], ids: dict[str, str], new_keys: set[str]
) -> list[dict[str, str | None]]:
    """MENTIONS rows: an episode and the id of an entity found (``ids``) or the normalised name of
    one the same statement creates (``new_keys``)."""
    rows: dict[tuple[str, str], dict[str, str | None]] = {}
    for p in prepared:
        names = [e.name for e in p.extraction.entities]
        names += [f.subject for f in p.extraction.facts]
        names += [f.object for f in p.extraction.facts if f.object and lookup(f.predicate).object_is_entity]
        for name in names:
            key = normalize_name(name)
            eid = ids.get(key)
            if eid:
                rows[(p.id, eid)] = {"episode_id": p.id, "entity_id": eid, "new_key": None}
            elif key in new_keys:
                rows[(p.id, "new:" + key)] = {"episode_id": p.id, "entity_id": None, "new_key": key}
    return list(rows.values())
