"""What the two clients share: a call described as data, the retry rule, errors from responses.

A ``Call`` is one HTTP request plus how to read its answer; ``operations`` builds them and the sync
and async clients only send them. The retry rule (``RetryPolicy.should_retry``):

- a request that never left (connect error or timeout, no free connection): retried, any method;
- 408 and 429 (the server refused it before doing anything): retried, any method, after
  ``Retry-After`` when the server sent one;
- 503 and errors after the request was sent (read timeout, dropped connection): retried only when
  the call is idempotent: reads, and writes made safe by external ids or an idempotency key;
- anything else, 409 and 412 included, is raised at once: a conflict needs a fresh read, not a retry.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import httpx

from graphmem.errors import GraphMemError

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 60.0
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
REFUSED_UNPROCESSED = frozenset({408, 429})
CODE_BY_STATUS = {
    400: "invalid_input",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "payload_too_large",
    422: "invalid_input",
    503: "store_unavailable",
}


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request: method, path, query, body (JSON, or raw ``content``) and headers; ``parse``
    reads the JSON answer (the answer's text when ``raw``, for JSONL)."""

    method: str
    path: str
    parse: Callable[[Any], T]
    params: dict[str, Any] | None = None
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    idempotent: bool = False
    timeout: float | None = None
    content: bytes | None = None
    raw: bool = False


class Page(Protocol):
    """A cursor-paged answer: ``next_cursor`` continues it while ``has_more``."""

    @property
    def has_more(self) -> bool: ...

    @property
    def next_cursor(self) -> str | None: ...


@dataclass(frozen=True)
class Pages(Generic[T]):
    """Every item of a cursor-paged list: ``call(cursor)`` is the request for one page (``None``:
    the first), ``items`` reads that page's items. The clients' ``walk`` sends them in turn."""

    call: Callable[[str | None], Call[Any]]
    items: Callable[[Any], Sequence[T]]


@dataclass(frozen=True)
class RetryPolicy:
    """``attempts`` tries in all; waits ``backoff_s * 2**n`` or the server's ``Retry-After``,
    at most ``max_wait_s`` each."""

    attempts: int = 4
    backoff_s: float = 0.5
    max_wait_s: float = 30.0

    def should_retry(
        self, call: Call[Any], *, status: int | None = None, error: Exception | None = None
    ) -> bool:
        if error is not None:
            return isinstance(error, NOT_SENT) or (
                call.idempotent and isinstance(error, httpx.TransportError)
            )
        if status in REFUSED_UNPROCESSED:
            return True
        return status == 503 and call.idempotent

    def wait_s(self, attempt: int, response: httpx.Response | None = None) -> float:
        """Seconds before try ``attempt + 1`` (``attempt`` counts from 0)."""
        asked = retry_after_s(response.headers.get("Retry-After")) if response is not None else None
        wait = asked if asked is not None else self.backoff_s * (2**attempt)
        return max(0.0, min(wait, self.max_wait_s))


def retry_after_s(value: str | None, *, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds: a number of seconds or an HTTP date; ``None`` when absent or bad."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _error_classes() -> dict[str, type[GraphMemError]]:
    found: dict[str, type[GraphMemError]] = {}
    pending: list[type[GraphMemError]] = [GraphMemError]
    while pending:
        cls = pending.pop()
        found.setdefault(cls.code, cls)
        pending.extend(cls.__subclasses__())
    return found


def error_from(response: httpx.Response) -> GraphMemError:
    """The API's error body ``{code, message, details}`` as the graphmem error of that code.

    ``details.http_status`` carries the status; an unknown code keeps its text on ``details.code``.
    """
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("code"), str):
        code = CODE_BY_STATUS.get(response.status_code, "internal")
        body = {"code": code, "message": response.text[:200] or response.reason_phrase, "details": {}}
    code = str(body["code"])
    given = body.get("details")
    details: dict[str, Any] = {
        **(given if isinstance(given, dict) else {}),
        "http_status": response.status_code,
    }
    classes = _error_classes()
    cls = classes.get(code)
    if cls is None:
        cls = classes.get(CODE_BY_STATUS.get(response.status_code, "internal"), GraphMemError)
        details["code"] = code
    return cls(str(body.get("message") or code), details=details)


def request_kwargs(call: Call[Any], default_timeout: float) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "params": {k: v for k, v in (call.params or {}).items() if v is not None} or None,
        "headers": call.headers or None,
        "timeout": call.timeout if call.timeout is not None else default_timeout,
    }
    if call.body is not None:
        kwargs["json"] = call.body
    elif call.content is not None:
        kwargs["content"] = call.content
    return kwargs


def parsed(call: Call[T], response: httpx.Response) -> T:
    if response.status_code >= 400:
        raise error_from(response)
    if call.raw:
        return call.parse(response.text)
    return call.parse(response.json() if response.content else None)
