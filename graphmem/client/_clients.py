"""``GraphMemClient`` (sync) and ``AsyncGraphMemClient`` over httpx: the same operations, sent with
the retry rule of ``_core`` and the API key as a bearer token."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, TypeVar

import httpx

from graphmem.client import operations as ops
from graphmem.client._core import DEFAULT_TIMEOUT_S, Call, Pages, RetryPolicy, parsed, request_kwargs

P = ParamSpec("P")
T = TypeVar("T")
Sleep = Callable[[float], Any]


def _headers(api_key: str | None, extra: dict[str, str] | None) -> dict[str, str]:
    headers = {"User-Agent": "graphmem-client/0.1.0", **(extra or {})}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def _sync(op: Callable[P, Call[T]]) -> Callable[Concatenate[GraphMemClient, P], T]:
    def method(self: GraphMemClient, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.send(op(*args, **kwargs))

    method.__name__ = method.__qualname__ = op.__name__
    method.__doc__ = op.__doc__
    return method


def _async(
    op: Callable[P, Call[T]],
) -> Callable[Concatenate[AsyncGraphMemClient, P], Coroutine[Any, Any, T]]:
    async def method(self: AsyncGraphMemClient, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.send(op(*args, **kwargs))

    method.__name__ = method.__qualname__ = op.__name__
    method.__doc__ = op.__doc__
    return method


def _sync_pages(op: Callable[P, Pages[T]]) -> Callable[Concatenate[GraphMemClient, P], Iterator[T]]:
    def method(self: GraphMemClient, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        return self.walk(op(*args, **kwargs))

    method.__name__ = method.__qualname__ = op.__name__.replace("every_", "iter_") + "s"
    method.__doc__ = op.__doc__
    return method


def _async_pages(
    op: Callable[P, Pages[T]],
) -> Callable[Concatenate[AsyncGraphMemClient, P], AsyncIterator[T]]:
    def method(self: AsyncGraphMemClient, *args: P.args, **kwargs: P.kwargs) -> AsyncIterator[T]:
        return self.walk(op(*args, **kwargs))

    method.__name__ = method.__qualname__ = op.__name__.replace("every_", "iter_") + "s"
    method.__doc__ = op.__doc__
    return method


class GraphMemClient:
    """Sync client. ``timeout`` (seconds) is the default of every call; each call takes its own.

    Example::

        with GraphMemClient("http://127.0.0.1:8000", api_key="...") as memory:
            memory.add_episodes("team-a", [{"content": "I moved to Paris.", "speaker": "alice",
                                            "reference_time": "2024-06-01T09:00:00Z", "external_id": "m1"}])
            print(memory.search("team-a", "where does alice live?").context)
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        retry: RetryPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
        headers: dict[str, str] | None = None,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.Client(base_url=base_url, headers=_headers(api_key, headers), transport=transport)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GraphMemClient:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def send(self, call: Call[T]) -> T:
        """Send one ``Call``, retrying as ``RetryPolicy`` allows; raise the API's typed error."""
        kwargs = request_kwargs(call, self.timeout)
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = self._http.request(call.method, call.path, **kwargs)
            except httpx.TransportError as exc:
                if last or not self.retry.should_retry(call, error=exc):
                    raise
                self._sleep(self.retry.wait_s(attempt))
                continue
            if last or not self.retry.should_retry(call, status=response.status_code):
                return parsed(call, response)
            self._sleep(self.retry.wait_s(attempt, response))
        raise AssertionError("unreachable: the last attempt returns or raises")

    # the operations (graphmem/client/operations.py), sent by ``send``
    add_episodes = _sync(ops.add_episodes)
    add_facts = _sync(ops.add_facts)
    search = _sync(ops.search)
    search_groups = _sync(ops.search_groups)
    get_fact = _sync(ops.get_fact)
    list_facts = _sync(ops.list_facts)
    correct_fact = _sync(ops.correct_fact)
    retract_fact = _sync(ops.retract_fact)
    find_entities = _sync(ops.find_entities)
    get_entity = _sync(ops.get_entity)
    timeline = _sync(ops.timeline)
    get_episode = _sync(ops.get_episode)
    session_episodes = _sync(ops.session_episodes)
    list_sessions = _sync(ops.list_sessions)
    list_episodes = _sync(ops.list_episodes)
    session_digest = _sync(ops.session_digest)
    export_group = _sync(ops.export_group)
    import_records = _sync(ops.import_records)
    list_groups = _sync(ops.list_groups)
    group_page = _sync(ops.group_page)
    forget_episode = _sync(ops.forget_episode)
    forget_group = _sync(ops.forget_group)
    cypher = _sync(ops.cypher)
    ready = _sync(ops.ready)

    def walk(self, pages: Pages[T]) -> Iterator[T]:
        """Every item of a paged list, item by item: the next page is fetched when the last one is
        used up."""
        cursor: str | None = None
        while True:
            page = self.send(pages.call(cursor))
            yield from pages.items(page)
            if not page.has_more:
                return
            cursor = page.next_cursor

    iter_groups = _sync_pages(ops.every_group)
    iter_sessions = _sync_pages(ops.every_session)
    iter_episodes = _sync_pages(ops.every_episode)


class AsyncGraphMemClient:
    """Async client with the same operations and rules as ``GraphMemClient``."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: dict[str, str] | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=_headers(api_key, headers), transport=transport
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncGraphMemClient:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.aclose()

    async def send(self, call: Call[T]) -> T:
        kwargs = request_kwargs(call, self.timeout)
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = await self._http.request(call.method, call.path, **kwargs)
            except httpx.TransportError as exc:
                if last or not self.retry.should_retry(call, error=exc):
                    raise
                await self._sleep(self.retry.wait_s(attempt))
                continue
            if last or not self.retry.should_retry(call, status=response.status_code):
                return parsed(call, response)
            await self._sleep(self.retry.wait_s(attempt, response))
        raise AssertionError("unreachable: the last attempt returns or raises")

    # the operations (graphmem/client/operations.py), sent by ``send``
    add_episodes = _async(ops.add_episodes)
    add_facts = _async(ops.add_facts)
    search = _async(ops.search)
    search_groups = _async(ops.search_groups)
    get_fact = _async(ops.get_fact)
    list_facts = _async(ops.list_facts)
    correct_fact = _async(ops.correct_fact)
    retract_fact = _async(ops.retract_fact)
    find_entities = _async(ops.find_entities)
    get_entity = _async(ops.get_entity)
    timeline = _async(ops.timeline)
    get_episode = _async(ops.get_episode)
    session_episodes = _async(ops.session_episodes)
    list_sessions = _async(ops.list_sessions)
    list_episodes = _async(ops.list_episodes)
    session_digest = _async(ops.session_digest)
    export_group = _async(ops.export_group)
    import_records = _async(ops.import_records)
    list_groups = _async(ops.list_groups)
    group_page = _async(ops.group_page)
    forget_episode = _async(ops.forget_episode)
    forget_group = _async(ops.forget_group)
    cypher = _async(ops.cypher)
    ready = _async(ops.ready)

    async def walk(self, pages: Pages[T]) -> AsyncIterator[T]:
        """Every item of a paged list, as ``GraphMemClient.walk``."""
        cursor: str | None = None
        while True:
            page = await self.send(pages.call(cursor))
            for item in pages.items(page):
                yield item
            if not page.has_more:
                return
            cursor = page.next_cursor

    iter_groups = _async_pages(ops.every_group)
    iter_sessions = _async_pages(ops.every_session)
    iter_episodes = _async_pages(ops.every_episode)
