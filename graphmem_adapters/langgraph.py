"""``GraphMemStore``: a LangGraph ``BaseStore`` over graphmem (extra ``langgraph``).

A namespace is ``(group_id, *path)``: the first element is the graphmem group (the API key decides
whether it may be read or written), the rest is the session the items live in (``"a.b"`` for
``(group, "a", "b")``: LangGraph refuses periods inside labels, so the join is unambiguous;
``"langgraph"`` when the path is empty). Each item is one episode of that
session, ``source="json"``, holding ``{"key": ..., "value": ...}`` as its content and a stable
``external_id`` derived from the namespace and key, so a retried put stores nothing twice and a put
of a new value replaces the stored episode (``on_conflict=replace``: its facts are re-derived).

- ``get``: the item of that key in the namespace's session (the newest 1000 turns are looked at).
- ``search`` with a ``query``: graphmem's hybrid search over the group, keeping the store's episodes
  whose session is the prefix's path or below it, scored by the search; without a query: the
  items of the prefix's own session, newest first. ``filter`` keeps items whose value holds each
  given key with an equal value.
- ``put(..., None)`` / ``delete``: forgets the item's episode (and what only it supports).
- ``list_namespaces``: the ``(group_id,)`` namespaces of the key's groups (the API lists groups,
  not the sessions inside them).

An item's ``created_at`` and ``updated_at`` are its episode's ``ingested_at`` (a put that replaces
the value moves both). Each operation is written once, as the client calls it needs: ``batch``
sends them with the sync client, ``abatch`` with ``async_client`` when one is given (else it runs
``batch`` in a worker thread; the sync client is thread-safe).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Generator, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from graphmem.client import AsyncGraphMemClient, Call, GraphMemClient
from graphmem.client import operations as api
from graphmem_adapters import missing_extra

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise missing_extra("langgraph", exc) from exc

DEFAULT_SESSION = "langgraph"
Steps = Generator[Call[Any], Any, Any]  # yields the client calls an op needs, returns its result
SCAN_TURNS = 1000  # the most turns the API returns for one session


def session_of(namespace: tuple[str, ...]) -> tuple[str, str]:
    """``(group_id, session_id)`` of a namespace; the group is its first element."""
    if not namespace or not namespace[0]:
        raise ValueError("a graphmem namespace starts with the group id: (group_id, *path)")
    return namespace[0], ".".join(namespace[1:]) or DEFAULT_SESSION


def external_id(namespace: tuple[str, ...], key: str) -> str:
    """The item's stable episode ``external_id`` (a digest: namespaces and keys may be long)."""
    digest = hashlib.sha256("\x1f".join((*namespace, key)).encode("utf-8")).hexdigest()
    return f"lgstore:{digest[:40]}"


def _matches(value: dict[str, Any], wanted: dict[str, Any] | None) -> bool:
    return all(value.get(k) == v for k, v in (wanted or {}).items())


class GraphMemStore(BaseStore):
    """LangGraph long-term memory in graphmem; the client's API key is the scope.

    Example::

        store = GraphMemStore(GraphMemClient("http://127.0.0.1:8000", api_key="..."))
        graph = builder.compile(store=store)  # nodes take ``store: BaseStore`` and use it
    """

    def __init__(self, client: GraphMemClient, *, async_client: AsyncGraphMemClient | None = None) -> None:
        self.client = client
        self.async_client = async_client

    # --- BaseStore -------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            steps = self._steps(op)
            try:
                call = next(steps)
                while True:
                    call = steps.send(self.client.send(call))
            except StopIteration as done:
                results.append(done.value)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self.async_client is None:
            return await asyncio.to_thread(self.batch, list(ops))
        results: list[Result] = []
        for op in ops:
            steps = self._steps(op)
            try:
                call = next(steps)
                while True:
                    call = steps.send(await self.async_client.send(call))
            except StopIteration as done:
                results.append(done.value)
        return results

    # --- operations: each yields the client calls it needs and returns the op's result ------------
    def _steps(self, op: Op) -> Steps:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, PutOp):
            return self._put(op.namespace, op.key, op.value)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise TypeError(f"unknown store operation: {type(op).__name__}")

    def _items(self, namespace: tuple[str, ...]) -> Generator[Call[Any], Any, list[Item]]:
        group, session = session_of(namespace)
        turns = yield api.session_episodes(group, session, last_n=SCAN_TURNS)
        items = [self._item(namespace, t.episode) for t in reversed(turns)]
        return [i for i in items if i is not None]

    def _get(self, namespace: tuple[str, ...], key: str) -> Steps:
        items = yield from self._items(namespace)
        return next((i for i in items if i.key == key), None)

    def _put(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any] | None) -> Steps:
        group, session = session_of(namespace)
        if value is None:
            wanted = external_id(namespace, key)
            for turn in (yield api.session_episodes(group, session, last_n=SCAN_TURNS)):
                if turn.episode.external_id == wanted:
                    yield api.forget_episode(group, turn.episode.id)
            return None
        content = json.dumps(
            {"key": key, "value": dict(value)}, ensure_ascii=False, sort_keys=True, default=str
        )
        episode = {
            "content": content,
            "source": "json",
            "session_id": session,
            "external_id": external_id(namespace, key),
            "reference_time": datetime.now(UTC).isoformat(),
        }
        yield api.add_episodes(group, [episode], on_conflict="replace")
        return None

    def _search(self, op: SearchOp) -> Steps:
        if op.query:
            found = yield from self._query(op.namespace_prefix, op.query, op.limit + op.offset)
        else:
            found = [self._scored(i, None) for i in (yield from self._items(op.namespace_prefix))]
        kept = [i for i in found if _matches(i.value, op.filter)]
        return kept[op.offset : op.offset + op.limit]

    def _query(
        self, prefix: tuple[str, ...], query: str, wanted: int
    ) -> Generator[Call[Any], Any, list[SearchItem]]:
        group, _ = session_of(prefix)
        path = ".".join(prefix[1:])
        result = yield api.search(group, query, k=min(100, max(10, 3 * wanted)))
        items: list[SearchItem] = []
        for hit in result.episodes:
            session = hit.episode.session_id or ""
            if path and session != path and not session.startswith(f"{path}."):
                continue
            candidates = [(group, *session.split("."))] + ([(group,)] if session == DEFAULT_SESSION else [])
            for namespace in candidates:
                item = self._item(namespace, hit.episode)
                if item is not None:
                    items.append(self._scored(item, hit.score))
                    break
        return items

    def _namespaces(self, op: ListNamespacesOp) -> Steps:
        groups = yield api.list_groups()
        namespaces: list[tuple[str, ...]] = [(g.group_id,) for g in groups]
        for condition in op.match_conditions or ():
            path = tuple(condition.path)
            if condition.match_type == "prefix":
                namespaces = [n for n in namespaces if _glob(n[: len(path)], path)]
            else:
                namespaces = [n for n in namespaces if _glob(n[-len(path) :], path)]
        return namespaces[op.offset : op.offset + op.limit]

    # --- conversions -----------------------------------------------------------------------------
    @staticmethod
    def _item(namespace: tuple[str, ...], episode: Any) -> Item | None:
        """The store item an episode holds, or None for episodes the store did not write."""
        if episode.source != "json" or not (episode.external_id or "").startswith("lgstore:"):
            return None
        body = json.loads(episode.content)
        key = str(body["key"])
        if episode.external_id != external_id(namespace, key):
            return None
        return Item(
            value=body["value"],
            key=key,
            namespace=namespace,
            created_at=episode.ingested_at,
            updated_at=episode.ingested_at,
        )

    @staticmethod
    def _scored(item: Item, score: float | None) -> SearchItem:
        return SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score=score)


def _glob(part: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    return len(part) == len(pattern) and all(p in ("*", v) for v, p in zip(part, pattern, strict=True))
