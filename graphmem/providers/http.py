"""What the providers that call OpenAI-compatible endpoints share (the ``llm`` extractor, the
``openai`` embedder): one TLS context, the error code of an OpenAI-style error body, the
``Retry-After`` rule of graphmem's own client (`graphmem.client.retry_after_s`), and how one POST
is classified into an answer, a failed attempt worth repeating (``Retry``) or one that retrying
cannot fix (``Fatal``), with the backoff between attempts."""

from __future__ import annotations

import ssl
from functools import cache
from typing import Any

import httpx

from graphmem.client import retry_after_s
from graphmem.errors import ConfigError


class Retry(Exception):
    """A failed attempt worth repeating: timeouts, dropped connections, 429 and 5xx, bad answers.
    ``wait_s`` is what the server asked for (``Retry-After``); ``followup`` is what the next attempt
    adds to its request (the ``llm`` extractor's corrective messages)."""

    def __init__(
        self,
        reason: str,
        *,
        status: int | None = None,
        wait_s: float | None = None,
        followup: list[Any] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.wait_s = wait_s
        self.followup = followup or []


class Fatal(Exception):
    """A failed attempt that retrying cannot fix (bad key, unknown model, bad request, bad URL)."""

    def __init__(self, reason: str, *, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def post(client: httpx.Client, url: str, body: dict[str, Any], *, timeout_s: float) -> httpx.Response:
    """POST ``body``; a transport failure, 429 or 5xx raises ``Retry`` (a bad URL ``Fatal``), any
    other answer is returned for the caller to read."""
    try:
        response = client.post(url, json=body)
    except httpx.TimeoutException:
        raise Retry(f"timed out after {timeout_s:g}s") from None
    except httpx.UnsupportedProtocol:
        raise Fatal("base_url is not an http(s) URL") from None
    except httpx.RequestError as exc:
        raise Retry(f"request failed: {type(exc).__name__}") from None
    status = response.status_code
    if status == 429 or status >= 500:
        raise Retry(f"HTTP {status}{error_code(response)}", status=status, wait_s=retry_after(response))
    return response


def backoff_s(attempt: int, wait_s: float | None, *, base_s: float, max_s: float) -> float:
    """The wait before attempt ``attempt + 1``: what the server asked for, else exponential from
    ``base_s``; never more than ``max_s``."""
    delay = wait_s if wait_s is not None else base_s * 2 ** (attempt - 1)
    return min(delay, max_s)


@cache
def tls_context() -> ssl.SSLContext:
    """One TLS context per process: building one (loading the CA bundle) costs ~0.25 s per client."""
    return httpx.create_ssl_context()


def error_code(response: httpx.Response) -> str:
    """`` (code)`` from an OpenAI-style error body; the message itself is not kept (it may echo input)."""
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        return ""
    code = error.get("code") or error.get("type") if isinstance(error, dict) else None
    return f" ({str(code)[:60]})" if code else ""


def retry_after(response: httpx.Response) -> float | None:
    """Seconds the response's ``Retry-After`` asks for (seconds or an HTTP date); None when absent or bad."""
    return retry_after_s(response.headers.get("retry-after"))


def endpoint_problems(
    prefix: str, *, base_url: str, model: str, timeout_s: float, max_retries: int
) -> dict[str, bool]:
    """Which of an endpoint's common settings are wrong, by environment variable (``prefix_*``)."""
    return {
        f"{prefix}_BASE_URL": not base_url.startswith(("http://", "https://")),
        f"{prefix}_MODEL": not model.strip(),
        f"{prefix}_TIMEOUT_S": not timeout_s > 0,
        f"{prefix}_MAX_RETRIES": max_retries < 0,
    }


def refuse_bad_settings(what: str, problems: dict[str, bool], rule: str) -> None:
    """ConfigError naming every wrong setting (``details.field`` the first, ``fields`` all)."""
    bad = [field for field, wrong in problems.items() if wrong]
    if bad:
        raise ConfigError(
            f"invalid {what} settings: {', '.join(bad)} ({rule})", details={"field": bad[0], "fields": bad}
        )
