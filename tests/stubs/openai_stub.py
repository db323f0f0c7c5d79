"""A local OpenAI-compatible chat endpoint for tests.

A real HTTP server (stdlib ``ThreadingHTTPServer``) on 127.0.0.1 at a free port, serving in a background
thread. ``POST .../chat/completions`` answers with the next scripted :class:`Reply` (then the
``otherwise`` reply or responder; with neither, HTTP 500 ``stub_exhausted``); every request is
recorded so tests can assert its shape. Use it as a context manager; leaving it stops the server, wakes
any reply still sleeping and joins the handler threads, so a test never leaves a thread behind::

    with OpenAIStub() as stub:
        stub.script(malformed(), extraction(facts=[...]))
        LLMExtractor(base_url=stub.base_url, model="m", max_retries=1, backoff_s=0).extract(...)
        assert len(stub.requests) == 2
"""

from __future__ import annotations

import json
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    delay_s: float = 0.0
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def messages(self) -> list[dict[str, str]]:
        messages: list[dict[str, str]] = self.json()["messages"]
        return messages


Responder = Callable[[Recorded], Reply]


# --------------------------------------------------------------------------- scripted replies


def _json(status: int, payload: object, headers: tuple[tuple[str, str], ...] = ()) -> Reply:
    return Reply(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"), headers=headers)


def completion(content: str | None, *, refusal: str | None = None) -> Reply:
    """A chat completion whose message content is ``content`` (verbatim, valid JSON or not)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if refusal is not None:
        message["refusal"] = refusal
    return _json(
        200,
        {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": 0,
            "model": "stub-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        },
    )


def extraction(entities: Sequence[dict[str, Any]] = (), facts: Sequence[dict[str, Any]] = ()) -> Reply:
    """A valid reply: ``{"entities": ..., "facts": ...}`` as the message content."""
    return completion(json.dumps({"entities": list(entities), "facts": list(facts)}, ensure_ascii=False))


def fact(
    subject: str, predicate: str, *, obj: str | None = None, value: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A schema-complete fact dict (every property present, as strict mode writes it)."""
    base: dict[str, Any] = {
        "subject": subject,
        "subject_kind": "person",
        "predicate": predicate,
        "object": obj,
        "object_kind": "thing",
        "value": value,
        "qualifier": "",
        "claim": "assert",
        "replaces": None,
        "valid_from": None,
        "valid_to": None,
        "confidence": 0.9,
        "source_kind": "user_stated",
        "quote": None,
    }
    return base | extra


def malformed() -> Reply:
    """Content that is not JSON (cut off mid-object)."""
    return completion('{"entities": [{"name": "Alice", "kind": "person"}], "facts": [{"subject": ')


def schema_invalid() -> Reply:
    """Well-formed JSON that breaks the schema: both object and value, an unknown claim kind, a bad time."""
    bad = fact("Alice", "lives_in", obj="Paris", value="Paris", claim="maybe", valid_from="last May")
    return extraction(facts=[bad])


def slow(delay_s: float, reply: Reply | None = None) -> Reply:
    """``reply`` (default: an empty valid extraction) after sleeping ``delay_s``."""
    return replace(reply or extraction(), delay_s=delay_s)


def error(status: int, code: str = "stub_error", *, retry_after: float | None = None) -> Reply:
    headers = (("Retry-After", f"{retry_after:g}"),) if retry_after is not None else ()
    return _json(status, {"error": {"message": f"stub error {status}", "type": code, "code": code}}, headers)


# --------------------------------------------------------------------------- server


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    timeout = 10  # a stuck client cannot hold a handler thread for long

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _serve(self) -> None:
        stub = self.server.stub
        length = int(self.headers.get("Content-Length") or 0)
        rec = Recorded(
            self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length)
        )
        if self.command != "POST" or not self.path.rstrip("/").endswith(stub.route):
            reply = error(404, "not_found")
        else:
            reply = stub._take(rec)
        if reply.delay_s and stub._stopping.wait(reply.delay_s):
            return  # shutting down: drop the connection unanswered
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
        except OSError:  # the client gave up (e.g. timed out) before the reply
            stub.dropped += 1


class _Server(ThreadingHTTPServer):
    stub: OpenAIStub
    daemon_threads = True
    block_on_close = True  # server_close() joins the handler threads

    def handle_error(self, request: Any, client_address: Any) -> None:
        self.stub.errors.append(repr(sys.exc_info()[1]))


class OpenAIStub:
    """A scripted OpenAI-compatible endpoint; see the module docstring."""

    route = "/chat/completions"  # the one path served (tests/stubs/embeddings_stub.py: /embeddings)
    port = 0  # any free port

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.errors: list[str] = []  # exceptions raised inside handlers
        self.dropped = 0  # replies the client was no longer there to read
        self._queue: deque[Reply | Responder] = deque()
        self._otherwise: Reply | Responder | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the stub is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *replies: Reply | Responder) -> OpenAIStub:
        """Queue replies, one per request, in order."""
        with self._lock:
            self._queue.extend(replies)
        return self

    def otherwise(self, reply: Reply | Responder) -> OpenAIStub:
        """What to answer once the script is used up (a fixed reply or a function of the request)."""
        self._otherwise = reply
        return self

    def _take(self, rec: Recorded) -> Reply:
        with self._lock:
            self.requests.append(rec)
            nxt = self._queue.popleft() if self._queue else self._otherwise
        if nxt is None:
            return error(500, "stub_exhausted")
        return nxt if isinstance(nxt, Reply) else nxt(rec)

    def start(self) -> OpenAIStub:
        server = _Server(("127.0.0.1", self.port), _Handler)
        server.stub = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="openai-stub", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> OpenAIStub:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
