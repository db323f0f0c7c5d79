"""Pure ASGI middleware: request context (id, metrics, access log) and the request body limit."""

from __future__ import annotations

import json
import re
import traceback
import uuid
from time import perf_counter
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_body
from api.logs import logger
from api.metrics import Metrics

REQUEST_ID_HEADER = "x-request-id"
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,64}$")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def send_json(send: Send, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
    payload = json.dumps(body).encode("utf-8")
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    raw += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})


class RequestContextMiddleware:
    """Request id in and out (``X-Request-ID``), latency metrics by route template, one JSON log line.

    An exception that escapes the app becomes a JSON 500 here (with the request id), logged with its
    type and innermost frame only: messages can quote user content.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, REQUEST_ID_HEADER.encode())
        request_id = incoming if incoming and _SAFE_ID.match(incoming) else uuid.uuid4().hex
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id
        began = perf_counter()
        response: dict[str, Any] = {"status": 500, "started": False}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                response.update(status=message["status"], started=True)
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            state["error_code"] = "internal"
            self._log_crash(scope, request_id, exc)
            if response["started"]:
                raise
            await send_json(
                send_with_id, 500, error_body("internal", "internal error"), {"X-Request-ID": request_id}
            )
        finally:
            self._finish(scope, state, int(response["status"]), perf_counter() - began)

    def _finish(self, scope: Scope, state: dict[str, Any], status: int, elapsed: float) -> None:
        route = getattr(scope.get("route"), "path", None) or "unmatched"
        self.metrics.requests.labels(method=scope["method"], route=route, status=str(status)).observe(elapsed)
        code = state.get("error_code")
        if code:
            self.metrics.errors.labels(code=code).inc()
        logger.info(
            "request",
            extra={
                "request_id": state.get("request_id"),
                "method": scope["method"],
                "route": route,
                "status": status,
                "duration_ms": round(elapsed * 1000, 2),
                "group_id": state.get("group_id"),
                "key_id": state.get("key_id"),
                "error_code": code,
            },
        )

    @staticmethod
    def _log_crash(scope: Scope, request_id: str, exc: Exception) -> None:
        frames = traceback.extract_tb(exc.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else None
        logger.error(
            "unhandled_error",
            extra={"request_id": request_id, "error_type": type(exc).__name__, "where": where},
        )


class BodyLimitMiddleware:
    """Refuse request bodies over ``max_bytes`` with 413, by ``Content-Length`` and by counting.

    The body is buffered (up to the limit) and replayed to the app, so a chunked or lying upload is
    cut off at the limit instead of being read whole.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await self._refuse(scope, send, 400, "bad_request", "invalid Content-Length")
                return
            if int(declared) > self.max_bytes:
                await self._too_large(scope, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([], message, receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(chunks, None, receive), send)

    async def _too_large(self, scope: Scope, send: Send) -> None:
        await self._refuse(
            scope, send, 413, "payload_too_large", "request body too large", {"max_bytes": self.max_bytes}
        )

    @staticmethod
    async def _refuse(
        scope: Scope, send: Send, status: int, code: str, message: str, details: dict[str, Any] | None = None
    ) -> None:
        scope.setdefault("state", {})["error_code"] = code
        await send_json(send, status, error_body(code, message, details), {"Connection": "close"})


def _replay(chunks: list[bytes], pending: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that returns the buffered body once, then defers to the real one."""
    first: list[Message] = (
        [pending] if pending is not None else [{"type": "http.request", "body": b"".join(chunks)}]
    )

    async def replay() -> Message:
        if first:
            return first.pop()
        return await receive()

    return replay
