"""PII redaction on write (docs/lifecycle.md, "PII redaction"), at the one boundary where text
enters: episodes (content and speaker, before keys, hashes, extraction and embedding), explicit
facts (subject, object, value), corrections, and search queries (tokenised the same way, so a
user searching their own address finds its token). The originals go to the group's vault in the
writing transaction, only for values that text actually written still holds; forget removes the
entries nothing names any more; an admin reveal is recorded as a ``pii_revealed`` change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from graphmem.errors import NotFound
from graphmem.memory import changes
from graphmem.memory.context import MemoryContext
from graphmem.models.episode import EpisodeIn
from graphmem.models.extraction import Extraction
from graphmem.models.fact import FactIn
from graphmem.models.privacy import PiiReveal
from graphmem.privacy import TOKEN_RE, Found, Redactor, tokens_in
from graphmem.store import changes as changes_repo
from graphmem.store import lifecycle as lifecycle_repo
from graphmem.store import privacy as repo
from graphmem.store.driver import Tx

M = TypeVar("M", bound=BaseModel)


def _active(ctx: MemoryContext) -> Redactor | None:
    r = ctx.redactor
    return r if r is not None and r.enabled else None


def _redact_fields(r: Redactor, group_id: str, model: M, names: Iterable[str]) -> tuple[M, list[Found]]:
    update: dict[str, Any] = {}
    found: list[Found] = []
    for name in names:
        value = getattr(model, name)
        if isinstance(value, str):
            out = r.redact(group_id, value)
            if out.found:
                update[name] = out.text
                found += out.found
    return (model.model_copy(update=update) if update else model), found


def redact_episodes(
    ctx: MemoryContext, group_id: str, episodes: Sequence[EpisodeIn]
) -> tuple[list[EpisodeIn], list[Found]]:
    r = _active(ctx)
    if r is None:
        return list(episodes), []
    out: list[EpisodeIn] = []
    found: list[Found] = []
    for ep in episodes:
        clean, f = _redact_fields(r, group_id, ep, ("content", "speaker"))
        out.append(clean)
        found += f
    return out, found


def redact_fact(ctx: MemoryContext, group_id: str, fact: FactIn) -> tuple[FactIn, list[Found]]:
    r = _active(ctx)
    if r is None:
        return fact, []
    return _redact_fields(r, group_id, fact, ("subject", "object", "value"))


def redact_text(ctx: MemoryContext, group_id: str, text: str | None) -> tuple[str | None, list[Found]]:
    r = _active(ctx)
    if r is None or text is None:
        return text, []
    out = r.redact(group_id, text)
    return out.text, out.found


def redact_query(ctx: MemoryContext, group_id: str, query: str) -> str:
    """A search query tokenised as stored text is (nothing is written)."""
    return redact_text(ctx, group_id, query)[0] or ""


async def write_vault(
    tx: Tx,
    ctx: MemoryContext,
    group_id: str,
    found: list[Found],
    written: Iterable[str | None],
    now: datetime,
) -> int:
    """Seal the originals of the tokens that ``written`` (the text this transaction stores) holds;
    a value of an episode left out (existing, forgotten) gets no entry."""
    r = ctx.redactor
    if r is None or not found:
        return 0
    held: set[str] = set().union(*(tokens_in(t) for t in written))
    rows: dict[str, dict[str, str]] = {}
    for f in found:
        if f.token in held and f.token not in rows:
            rows[f.token] = {"token": f.token, "kind": f.kind, **r.seal(group_id, f.token, f.value)}
    return await repo.write_vault(tx, group_id=group_id, rows=list(rows.values()), now=now)


async def texts_at_risk(
    tx: Tx,
    group_id: str,
    *,
    episode_ids: Sequence[str] = (),
    slots: Sequence[str] = (),
    entity_ids: Sequence[str] = (),
) -> set[str]:
    """The tokens held by what a forget is about to touch (read before it deletes)."""
    if not await repo.has_vault(tx, group_id=group_id):
        return set()
    texts = await repo.texts(
        tx, group_id=group_id, episode_ids=list(episode_ids), slots=list(slots), entity_ids=list(entity_ids)
    )
    return set().union(*(tokens_in(t) for t in texts)) if texts else set()


async def collect(tx: Tx, group_id: str, tokens: set[str]) -> int:
    """After a forget: delete the vault entries of ``tokens`` that nothing of the group names."""
    return await repo.collect_vault(tx, group_id=group_id, tokens=sorted(tokens))


async def reveal(ctx: MemoryContext, group_id: str, token: str) -> PiiReveal:
    """The original behind ``token``, decrypted, and a ``pii_revealed`` change record in the same
    transaction (written whether or not the change log is on: a reveal is never unrecorded)."""
    if ctx.redactor is None or not TOKEN_RE.fullmatch(token):
        raise NotFound("no vault entry for this token", details={"token": token})
    async with ctx.store.transaction() as tx:
        now = ctx.clock()
        found = await lifecycle_repo.lock_existing_group(tx, group_id=group_id)
        entry = await repo.vault_entry(tx, group_id=group_id, token=token) if found else None
        if entry is None:
            raise NotFound("no vault entry for this token", details={"token": token})
        value = ctx.redactor.open(group_id, token, entry["nonce"], entry["ciphertext"])
        row = changes.record(
            "pii_revealed",
            [token],
            meta=changes.current(),
            occurred_at=now,
            payload={"token": token, "kind": entry["kind"]},
        )
        await changes_repo.append(tx, group_id=group_id, rows=[row], now=now)
    return PiiReveal(token=token, kind=entry["kind"], value=value, created_at=entry["created_at"])


_KIND_NAMES = frozenset(k.lower() for k in ("EMAIL", "PHONE", "CARD", "CN_ID", "IBAN", "IP"))


def _is_token_name(name: str | None) -> bool:
    if name is None:
        return False
    bare = name.strip("[]# ").lower()
    return bare in _KIND_NAMES or bare.split("#", 1)[0] in _KIND_NAMES


def drop_token_names(ctx: MemoryContext, extraction: Extraction) -> Extraction:
    """With redaction on, an extractor may read a token's kind ("EMAIL" of ``[EMAIL#…]``) as a
    name: such entities, and facts about them, would tie every redacted value of a kind together."""
    if _active(ctx) is None:
        return extraction
    entities = [e for e in extraction.entities if not _is_token_name(e.name)]
    facts = [f for f in extraction.facts if not (_is_token_name(f.subject) or _is_token_name(f.object))]
    if len(entities) == len(extraction.entities) and len(facts) == len(extraction.facts):
        return extraction
    return extraction.model_copy(update={"entities": entities, "facts": facts})
