"""The ``openai`` embedder: any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (OpenAI,
Ollama, vLLM, Text Embeddings Inference, LM Studio).

``embed(texts)`` cuts the texts into requests of ``batch_size`` and sends up to ``concurrency`` of
them at once (one bound for the whole embedder, shared by concurrent callers), so a batch of 256
episodes costs about ``256 / batch_size / concurrency`` round trips of the endpoint, not of this
machine's CPU. Vectors travel as base64 float32 (``encoding_format``, as OpenAI's own client asks:
decoding a batch of 32 takes ~4 ms where parsing the same floats from JSON takes ~50 ms on this
busy 2-core host, with the GIL held); a server that refuses base64 with 400/422 before answering
once is asked for floats from then on, and one that ignores it and sends floats is read as well.
Each request:

    attempt ─┬─ 200 + one vector per text, of the configured dimension ─→ vectors (L2-normalised)
             ├─ vectors of another dimension ─────────────────────────→ EmbeddingMismatch at once
             ├─ timeout, connection error, 429, 5xx, malformed body ──→ retry, backoff
             ├─ 400/422 to base64 before any answer ──────────────────→ retry asking for floats
             └─ any other status (400, 401, 403, 404) ──────────────────→ EmbedderUnavailable at once

Retries are bounded by ``max_retries`` (so at most ``max_retries + 1`` requests per batch) with
exponential backoff; a ``Retry-After`` header (seconds or an HTTP date) sets the wait instead, capped
at ``max_backoff_s``. When they run out, ``EmbedderUnavailable`` names the URL, model, attempts and the
last reason; it is ``retryable`` unless the endpoint refused the request itself (a 4xx other than
429). No partial result is returned: one failed batch fails the call. Errors and logs carry
statuses and error codes, never the texts or the key.

Models that can shorten their vectors (OpenAI's ``text-embedding-3-*``, served Matryoshka models) are
asked for ``GRAPHMEM_EMBED_DIMENSION`` of them with ``send_dimensions`` (``GRAPHMEM_EMBED_SEND_DIMENSIONS``):
each request then carries ``"dimensions": <dimension>``, and the answer is still checked against it.
A model that refuses the parameter (OpenAI answers 400) fails at once, naming the setting.

The model name recorded in the graph is ``openai:<model>``, so switching to or from another provider
is refused until ``graphmem reembed`` has run (``graphmem.store.migrations.check_embedding_model``).
"""

from __future__ import annotations

import base64
import binascii
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NoReturn

import httpx
import numpy as np

from graphmem.errors import EmbedderUnavailable, EmbeddingMismatch
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

PROVIDER = "openai"


class OpenAIEmbedder:
    """Embeds through an OpenAI-compatible endpoint; batched, concurrent, retried, all or nothing."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        dimension: int,
        api_key: str | None = None,
        batch_size: int = 32,
        concurrency: int = 4,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
        passage_prefix: str = "",
        query_prefix: str = "",
        encoding: str = "base64",
        send_dimensions: bool = False,
    ) -> None:
        check_settings(
            base_url=base_url,
            model=model,
            dimension=dimension,
            batch_size=batch_size,
            concurrency=concurrency,
            timeout_s=timeout_s,
            max_retries=max_retries,
            encoding=encoding,
        )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._dimension = dimension
        self.batch_size = batch_size
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = max(0.0, backoff_s)
        self.max_backoff_s = max(0.0, max_backoff_s)
        self.passage_prefix = passage_prefix
        self.query_prefix = query_prefix
        self._api_key = api_key or None
        self.encoding = encoding
        self.send_dimensions = send_dimensions
        self._answered = False  # a 200 seen: the server takes our encoding_format
        self._slots = threading.BoundedSemaphore(concurrency)
        self._lock = threading.Lock()
        self._client: httpx.Client | None = None

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIEmbedder(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def model_name(self) -> str:
        return f"{PROVIDER}:{self.model}"

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def url(self) -> str:
        return f"{self.base_url}/embeddings"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed([self.passage_prefix + t for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        """One query's vector (1 x dimension), with the query prefix of e5-style models."""
        return self.embed_queries([text])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Search queries' vectors, with the query prefix (and not the passage prefix)."""
        return self._embed([self.query_prefix + t for t in texts])

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    # ------------------------------------------------------------------ batching

    def _embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        batches = [texts[i : i + self.batch_size] for i in range(0, len(texts), self.batch_size)]
        if len(batches) == 1:
            return self._batch(batches[0])
        pool = ThreadPoolExecutor(min(self.concurrency, len(batches)), thread_name_prefix="embed")
        try:
            parts = list(pool.map(self._batch, batches))  # in order; the first failure raises
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return np.concatenate(parts)

    def _batch(self, texts: list[str]) -> np.ndarray:
        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                with self._slots:
                    return self._request(texts)
            except Fatal as exc:
                self._fail(attempt, exc.reason, exc.status, retryable=False)
            except Retry as exc:
                last = exc
            if attempt < attempts:
                time.sleep(backoff_s(attempt, last.wait_s, base_s=self.backoff_s, max_s=self.max_backoff_s))
        self._fail(attempts, last.reason, last.status, retryable=True)

    # ------------------------------------------------------------------ one request

    def _request(self, texts: list[str]) -> np.ndarray:
        body: dict[str, Any] = {"model": self.model, "input": texts, "encoding_format": self.encoding}
        if self.send_dimensions:
            body["dimensions"] = self._dimension
        response = post(self._http(), self.url, body, timeout_s=self.timeout_s)
        status = response.status_code
        if status in (400, 422) and self.encoding == "base64" and not self._answered:
            # a server that refuses base64 (or encoding_format): plain floats from now on
            self.encoding = "float"
            raise Retry(f"HTTP {status}{error_code(response)} to base64; asking for floats", wait_s=0)
        if status != 200:
            hint = ""
            if status in (400, 422) and self.send_dimensions:
                hint = (
                    f" (the request asked for dimensions={self._dimension}: a model that cannot "
                    "shorten its vectors refuses it; unset GRAPHMEM_EMBED_SEND_DIMENSIONS)"
                )
            raise Fatal(f"HTTP {status}{error_code(response)}{hint}", status=status)
        vectors = self._vectors(response, len(texts))
        self._answered = True
        return vectors

    def _vectors(self, response: httpx.Response, n: int) -> np.ndarray:
        rows = _data_rows(response, n)
        width = {len(r) for r in rows}
        if width != {self._dimension}:
            got = ", ".join(str(w) for w in sorted(width))
            raise EmbeddingMismatch(
                f"the endpoint answered {got}-d vectors for model {self.model!r} but "
                f"GRAPHMEM_EMBED_DIMENSION is {self._dimension}; set it to the model's dimension",
                details={
                    "field": "GRAPHMEM_EMBED_DIMENSION",
                    "url": self.url,
                    "model": self.model,
                    "configured": self._dimension,
                    "received": sorted(width),
                },
            )
        try:
            out = np.stack([np.asarray(r, dtype=np.float32) for r in rows])
        except (TypeError, ValueError):
            raise Retry("embedding values are not numbers") from None
        if not np.isfinite(out).all():
            raise Retry("embedding values are not finite")
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.clip(norms, 1e-12, None)

    def _http(self) -> httpx.Client:
        client = self._client
        if client is not None:
            return client
        with self._lock:
            if self._client is None:
                limits = httpx.Limits(
                    max_connections=self.concurrency, max_keepalive_connections=self.concurrency
                )
                self._client = httpx.Client(
                    timeout=self.timeout_s, headers=self._headers(), verify=tls_context(), limits=limits
                )
            return self._client

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", "User-Agent": "graphmem"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _fail(self, attempts: int, reason: str, status: int | None, *, retryable: bool) -> NoReturn:
        details: dict[str, Any] = {
            "embedder": PROVIDER,
            "url": self.url,
            "model": self.model,
            "attempts": attempts,
            "reason": reason,
        }
        if status is not None:
            details["status"] = status
        noun = "attempt" if attempts == 1 else "attempts"
        exc = EmbedderUnavailable(
            f"embedding endpoint {self.url} (model {self.model!r}) failed after {attempts} {noun}: {reason}",
            details=details,
        )
        exc.retryable = retryable
        raise exc


# ---------------------------------------------------------------------- helpers


def check_settings(
    *, base_url: str, model: str, dimension: int, batch_size: int, concurrency: int, timeout_s: float,
    max_retries: int, encoding: str = "base64",
) -> None:  # fmt: skip
    """ConfigError naming every bad setting (by its environment variable)."""
    prefix = "GRAPHMEM_EMBED"
    problems = endpoint_problems(
        prefix, base_url=base_url, model=model, timeout_s=timeout_s, max_retries=max_retries
    )
    problems |= {
        f"{prefix}_DIMENSION": dimension < 1,
        f"{prefix}_BATCH_SIZE": batch_size < 1,
        f"{prefix}_CONCURRENCY": concurrency < 1,
        f"{prefix}_ENCODING": encoding not in ("base64", "float"),
    }
    rule = "base URL http(s), model non-empty, timeout > 0, retries >= 0, encoding base64 or float, the rest >= 1"
    refuse_bad_settings("openai embedder", problems, rule)


def _data_rows(response: httpx.Response, n: int) -> list[Any]:
    """``data[*].embedding`` in input order (by ``index`` when given), each a list of floats or, from
    base64, a float32 array; anything else is retried."""
    try:
        data = response.json()["data"]
    except (ValueError, KeyError, TypeError):
        raise Retry("response has no data list") from None
    if not isinstance(data, list) or len(data) != n:
        got = len(data) if isinstance(data, list) else "no"
        raise Retry(f"response has {got} embeddings for {n} inputs")
    try:
        if all(isinstance(d.get("index"), int) for d in data):
            data = sorted(data, key=lambda d: d["index"])
        rows = [d["embedding"] for d in data]
    except (AttributeError, KeyError, TypeError):
        raise Retry("response items have no embedding") from None
    return [_decoded(r) for r in rows]


def _decoded(row: object) -> Any:
    if isinstance(row, list):
        return row
    if isinstance(row, str):
        try:
            return np.frombuffer(base64.b64decode(row, validate=True), dtype="<f4")
        except (binascii.Error, ValueError):
            raise Retry("an embedding is not base64 of float32 values") from None
    raise Retry("embeddings are neither float lists nor base64")
