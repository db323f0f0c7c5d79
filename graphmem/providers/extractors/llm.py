"""The ``llm`` extractor: any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM) with JSON-schema output.

One episode → one ``POST {base_url}/chat/completions`` at temperature 0, with the fixed system prompt
(``llm_prompt``) and ``response_format`` set to the strict JSON schema (``llm_schema``). The reply is
parsed and validated before anything is returned:

    attempt ─┬─ 200 + valid extraction ───────────────→ Extraction
             ├─ invalid output (malformed JSON, schema) → retry, resending the bad reply + the error
             ├─ timeout, connection error, 429, 5xx ───→ retry the same request
             └─ any other status (400, 401, 403, 404) ─→ ExtractionFailed at once

Retries are bounded by ``max_retries`` (so at most ``max_retries + 1`` requests) with a short
exponential backoff (``Retry-After`` honoured, capped); when they run out, ``ExtractionFailed`` carries
the attempts and the last reason. A partial extraction is never returned. Synchronous by design: the
pipeline runs extractors in a worker thread. Errors name fields and statuses, never episode text.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any, NoReturn

import httpx

from graphmem.clock import as_utc
from graphmem.errors import ExtractionFailed
from graphmem.models.extraction import Extraction
from graphmem.providers.extractors.llm_prompt import corrective_message, system_prompt, user_message
from graphmem.providers.extractors.llm_schema import (
    JSON_SCHEMA,
    SCHEMA_NAME,
    InvalidOutput,
    parse_extraction,
)
from graphmem.providers.http import (
    Fatal,
    Retry,
    backoff_s,
    endpoint_problems,
    error_code,
    post,
    refuse_bad_settings,
    tls_context,
)

USER = "user"
"""Subject for first-person claims when the episode has no speaker (as in the rules extractor)."""

Message = dict[str, str]


class LLMExtractor:
    """Extracts entities and facts with a chat model; validated, retried, all or nothing."""

    name = "llm"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        backoff_s: float = 0.5,
        max_backoff_s: float = 8.0,
    ) -> None:
        _check_config(base_url=base_url, model=model, timeout_s=timeout_s, max_retries=max_retries)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = max(0.0, backoff_s)
        self.max_backoff_s = max(0.0, max_backoff_s)
        self._api_key = api_key or None

    def __repr__(self) -> str:  # never shows the key
        return f"LLMExtractor(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def extract(self, *, content: str, speaker: str | None, reference_time: datetime) -> Extraction:
        who = (speaker or "").strip()[:200] or USER
        prompt: list[Message] = [
            {"role": "system", "content": system_prompt()},
            {
                "role": "user",
                "content": user_message(content=content, speaker=who, reference_time=as_utc(reference_time)),
            },
        ]
        messages = prompt
        attempts = self.max_retries + 1
        with httpx.Client(timeout=self.timeout_s, headers=self._headers(), verify=tls_context()) as client:
            for attempt in range(1, attempts + 1):
                try:
                    return self._attempt(client, messages, content=content, speaker=who)
                except Fatal as exc:
                    self._fail(attempt, exc.reason, exc.status)
                except Retry as exc:
                    last = exc
                messages = [*prompt, *last.followup]
                if attempt < attempts:
                    time.sleep(
                        backoff_s(attempt, last.wait_s, base_s=self.backoff_s, max_s=self.max_backoff_s)
                    )
        self._fail(attempts, last.reason, last.status)

    # ------------------------------------------------------------------ one attempt

    def _attempt(
        self, client: httpx.Client, messages: list[Message], *, content: str, speaker: str
    ) -> Extraction:
        reply = self._complete(client, messages)
        try:
            return parse_extraction(reply, content=content, speaker=speaker)
        except InvalidOutput as exc:
            followup = [
                {"role": "assistant", "content": reply},
                {"role": "user", "content": corrective_message(exc.reason)},
            ]
            raise Retry(exc.reason, followup=followup) from None

    def _complete(self, client: httpx.Client, messages: list[Message]) -> str:
        response = post(client, self.url, self._body(messages), timeout_s=self.timeout_s)
        status = response.status_code
        if status != 200:
            raise Fatal(f"HTTP {status}{error_code(response)}", status=status)
        return _message_content(response)

    def _body(self, messages: list[Message]) -> dict[str, Any]:
        return {
            "model": self.model,
            "temperature": 0,
            "messages": messages,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": JSON_SCHEMA},
            },
        }

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", "User-Agent": "graphmem"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _fail(self, attempts: int, reason: str, status: int | None) -> NoReturn:
        details: dict[str, Any] = {
            "extractor": self.name,
            "model": self.model,
            "attempts": attempts,
            "reason": reason,
        }
        if status is not None:
            details["status"] = status
        noun = "attempt" if attempts == 1 else "attempts"
        raise ExtractionFailed(f"llm extraction failed after {attempts} {noun}: {reason}", details=details)


# ---------------------------------------------------------------------- helpers


def _check_config(*, base_url: str, model: str, timeout_s: float, max_retries: int) -> None:
    problems = endpoint_problems(
        "GRAPHMEM_LLM", base_url=base_url, model=model, timeout_s=timeout_s, max_retries=max_retries
    )
    rule = "base_url must be http(s), model non-empty, timeout > 0, retries >= 0"
    refuse_bad_settings("llm extractor", problems, rule)


def _message_content(response: httpx.Response) -> str:
    """``choices[0].message.content`` of a chat completion; anything else is worth another try."""
    try:
        body = response.json()
    except ValueError:
        raise Retry("response body is not JSON") from None
    try:
        message = body["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        raise Retry("response has no choices[0].message") from None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str) and content.strip():
        return content
    refused = isinstance(message, dict) and message.get("refusal")
    raise Retry("the model refused" if refused else "empty message content")
