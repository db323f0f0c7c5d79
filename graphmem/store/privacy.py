"""Repository functions for the PII vault (``graphmem.store.cypher.privacy``). Keyword-only; each
takes the caller's ``tx`` (which holds the group lock for writes)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from graphmem.store.cypher import privacy as q
from graphmem.store.driver import Store, Tx, run


def vault_key(group_id: str, token: str) -> str:
    return hashlib.sha256(f"{group_id}\x1f{token}".encode()).hexdigest()


async def write_vault(tx: Tx, *, group_id: str, rows: list[dict[str, Any]], now: datetime) -> int:
    """Rows: token, kind, nonce, ciphertext (an entry already there is kept)."""
    if not rows:
        return 0
    keyed = [{**r, "key": vault_key(group_id, r["token"])} for r in rows]
    return int((await run(tx, q.VAULT_WRITE, group_id=group_id, rows=keyed, now=now))[0]["written"])


async def vault_entry(tx: Tx, *, group_id: str, token: str) -> dict[str, Any] | None:
    rows = await run(tx, q.VAULT_GET, group_id=group_id, key=vault_key(group_id, token))
    return rows[0] if rows else None


async def vault_tokens(store: Store, *, group_id: str, tokens: list[str] | None = None) -> list[str]:
    rows = await store.read(q.VAULT_TOKENS, group_id=group_id, tokens=tokens)
    return [r["token"] for r in rows]


async def has_vault(tx: Tx, *, group_id: str) -> bool:
    return bool(await run(tx, q.VAULT_ANY, group_id=group_id))


async def delete_group_vault(tx: Tx, *, group_id: str) -> int:
    return int((await run(tx, q.VAULT_DELETE_GROUP, group_id=group_id))[0]["deleted"])


async def collect_vault(tx: Tx, *, group_id: str, tokens: list[str]) -> int:
    """Delete the entries of ``tokens`` that nothing of the group names any more."""
    if not tokens:
        return 0
    return int((await run(tx, q.VAULT_COLLECT, group_id=group_id, tokens=tokens))[0]["deleted"])


async def texts(
    tx: Tx, *, group_id: str, episode_ids: list[str], slots: list[str], entity_ids: list[str]
) -> list[str]:
    rows = await run(
        tx, q.TEXTS, group_id=group_id, episode_ids=episode_ids, slots=slots, entity_ids=entity_ids
    )
    return [t for t in rows[0]["texts"] if t] if rows else []


# --- proof of forgetting ----------------------------------------------------------------------------


async def proof_graph(
    store: Store, *, group_id: str, external_id: str | None, key: str | None
) -> dict[str, Any]:
    rows = await store.read(q.PROOF_GRAPH, group_id=group_id, external_id=external_id, key=key)
    return rows[0]


async def proof_text(store: Store, *, group_id: str, probes: list[str]) -> list[str]:
    if not probes:
        return []
    return list((await store.read(q.PROOF_TEXT, group_id=group_id, probes=probes))[0]["ids"])


async def proof_fulltext(
    store: Store, *, group_id: str, index: str, lucene: str, limit: int = 100
) -> list[dict[str, Any]]:
    return await store.read(q.PROOF_FULLTEXT, group_id=group_id, index=index, lucene=lucene, limit=limit)


async def proof_embedded(store: Store, *, group_id: str) -> int:
    return int((await store.read(q.PROOF_EMBEDDED, group_id=group_id))[0]["embedded"])


async def proof_vector(
    store: Store, *, group_id: str, index: str, vector: list[float], k: int, min_score: float
) -> list[str]:
    rows = await store.read(
        q.PROOF_VECTOR, group_id=group_id, index=index, vector=vector, k=k, min_score=min_score
    )
    return [r["id"] for r in rows]


async def proof_changes(
    store: Store, *, group_id: str, external_id: str | None, probes: list[str]
) -> list[str]:
    rows = await store.read(q.PROOF_CHANGES, group_id=group_id, external_id=external_id, probes=probes)
    return list(rows[0]["ids"])


async def proof_vault(store: Store, *, group_id: str, tokens: list[str] | None) -> list[dict[str, Any]]:
    return await store.read(q.PROOF_VAULT, group_id=group_id, tokens=tokens)
