"""What the providers that call OpenAI-compatible endpoints share (the ``llm`` extractor, the
``openai`` embedder): one TLS context, the error code of an OpenAI-style error body, and the
``Retry-After`` rule of graphmem's own client (`graphmem.client.retry_after_s`)."""

from __future__ import annotations

import ssl
from functools import cache

import httpx

from graphmem.client import retry_after_s
from graphmem.errors import ConfigError


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
