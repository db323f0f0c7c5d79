"""The ``openai`` embedder against a real local HTTP stub: good, slow, 429 + Retry-After, 5xx and
wrong-dimension responses, batching, bounded concurrency, and the settings it is built from."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.errors import ConfigError, EmbedderUnavailable, EmbeddingMismatch
from graphmem.providers.embedders.coalescing import CoalescingEmbedder
from graphmem.providers.embedders.factory import build_embedder, embedder_from_settings
from graphmem.providers.embedders.hashing import HashingEmbedder
from graphmem.providers.embedders.openai_compat import OpenAIEmbedder
from tests.stubs.embeddings_stub import EmbeddingsStub, embeddings, error, hashed, pooled, slow
from tests.stubs.openai_stub import Recorded, Reply

DIM = 16
TEXTS = ["Alice lives in Paris.", "Bob works at Acme.", "我昨天去了北京。", ""]


@pytest.fixture
def stub() -> Iterator[EmbeddingsStub]:
    with EmbeddingsStub(dimension=DIM) as s:
        yield s


def make(stub: EmbeddingsStub, **overrides: Any) -> OpenAIEmbedder:
    options: dict[str, Any] = {
        "base_url": stub.base_url,
        "model": "stub-embedder",
        "dimension": DIM,
        "api_key": "sk-test-secret",
        "max_retries": 2,
        "backoff_s": 0,
        "timeout_s": 5,
    } | overrides
    return OpenAIEmbedder(**options)


def test_good_response_gives_the_endpoints_vectors_in_input_order(stub: EmbeddingsStub) -> None:
    got = make(stub).embed(TEXTS)
    want = HashingEmbedder(DIM).embed(TEXTS)
    assert got.shape == (len(TEXTS), DIM) and got.dtype == np.float32
    assert np.allclose(got, want, atol=1e-6)
    rec = stub.requests[0]
    assert rec.path == "/v1/embeddings"
    assert rec.json() == {"model": "stub-embedder", "input": TEXTS, "encoding_format": "base64"}
    assert rec.headers["authorization"] == "Bearer sk-test-secret"


def test_data_items_are_placed_by_their_index(stub: EmbeddingsStub) -> None:
    vectors = np.eye(DIM, dtype=np.float32)[:3]
    stub.script(embeddings(vectors.tolist(), shuffled=True))
    assert np.array_equal(make(stub).embed(["a", "b", "c"]), vectors)


def test_float_lists_are_read_too(stub: EmbeddingsStub) -> None:
    """A server that ignores encoding_format and sends floats (or was asked for floats)."""
    vectors = np.eye(DIM, dtype=np.float32)[:2]
    stub.script(embeddings(vectors.tolist()))
    assert np.array_equal(make(stub).embed(["a", "b"]), vectors)
    make(stub, encoding="float").embed(["c"])
    assert stub.requests[-1].json()["encoding_format"] == "float"


def test_a_server_refusing_base64_is_asked_for_floats_from_then_on(stub: EmbeddingsStub) -> None:
    inner = hashed(DIM)

    def float_only(rec: Recorded) -> Reply:
        if rec.json()["encoding_format"] != "float":
            return error(400, "invalid_encoding_format")
        return inner(rec)

    stub.otherwise(float_only)
    embedder = make(stub, max_retries=1)
    assert np.allclose(embedder.embed(TEXTS), HashingEmbedder(DIM).embed(TEXTS), atol=1e-6)
    embedder.embed(["again"])
    assert [r.json()["encoding_format"] for r in stub.requests] == ["base64", "float", "float"]


def test_a_client_error_after_base64_worked_is_not_blamed_on_the_encoding(stub: EmbeddingsStub) -> None:
    embedder = make(stub)
    embedder.embed(["fine"])
    stub.script(error(400, "context_length_exceeded"))
    with pytest.raises(EmbedderUnavailable) as info:
        embedder.embed(["too long"])
    assert info.value.details["status"] == 400 and len(stub.requests) == 2
    assert embedder.encoding == "base64"


def test_vectors_are_l2_normalised(stub: EmbeddingsStub) -> None:
    stub.script(embeddings([[3.0, 4.0] + [0.0] * (DIM - 2)]))
    assert np.allclose(make(stub).embed(["x"])[0, :2], [0.6, 0.8])


def test_no_texts_sends_nothing(stub: EmbeddingsStub) -> None:
    assert make(stub).embed([]).shape == (0, DIM)
    assert stub.requests == []


def test_texts_are_sent_in_batches_and_reassembled(stub: EmbeddingsStub) -> None:
    texts = [f"note {i} about topic {i % 7}" for i in range(23)]
    got = make(stub, batch_size=5, concurrency=3).embed(texts)
    assert np.allclose(got, HashingEmbedder(DIM).embed(texts), atol=1e-6)
    sizes = sorted(len(batch) for batch in stub.inputs())
    assert sizes == [3, 5, 5, 5, 5]
    assert sorted(t for batch in stub.inputs() for t in batch) == sorted(texts)


def test_concurrency_bounds_requests_in_flight(stub: EmbeddingsStub) -> None:
    """Requests overlap up to the configured concurrency and never beyond, also across callers."""
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}
    inner = hashed(DIM)

    def counting(rec: Recorded) -> Reply:
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return inner(rec)

    stub.otherwise(counting)
    embedder = make(stub, batch_size=1, concurrency=3)
    callers = [
        threading.Thread(target=embedder.embed, args=([f"t{i}-{j}" for j in range(6)],)) for i in range(2)
    ]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert len(stub.requests) == 12
    assert state["peak"] == 3


def test_rate_limit_honours_retry_after(stub: EmbeddingsStub) -> None:
    stub.script(error(429, "rate_limit_exceeded", retry_after=0))
    got = make(stub, backoff_s=30).embed(["hello"])  # Retry-After: 0 wins over the 30 s backoff
    assert len(stub.requests) == 2 and got.shape == (1, DIM)


def test_retry_after_as_an_http_date_is_honoured(stub: EmbeddingsStub) -> None:
    past = format_datetime(datetime.now(UTC) - timedelta(seconds=5), usegmt=True)
    stub.script(Reply(503, b"{}", headers=(("Retry-After", past),)))
    assert make(stub, backoff_s=30).embed(["x"]).shape == (1, DIM)  # the date has passed: no wait
    assert len(stub.requests) == 2


def test_server_errors_are_retried_then_succeed(stub: EmbeddingsStub) -> None:
    stub.script(error(503, "overloaded"), error(500))
    assert make(stub).embed(["x"]).shape == (1, DIM)
    assert len(stub.requests) == 3


def test_persistent_server_errors_say_what_was_tried(stub: EmbeddingsStub) -> None:
    stub.otherwise(error(502, "bad_gateway"))
    with pytest.raises(EmbedderUnavailable) as info:
        make(stub, max_retries=2).embed(["secret words"])
    exc = info.value
    assert exc.code == "embedder_unavailable" and exc.retryable
    assert len(stub.requests) == 3
    assert exc.details == {
        "embedder": "openai",
        "url": f"{stub.base_url}/embeddings",
        "model": "stub-embedder",
        "attempts": 3,
        "reason": "HTTP 502 (bad_gateway)",
        "status": 502,
    }
    assert "secret words" not in str(exc.to_dict()) and "sk-test-secret" not in str(exc.to_dict())


@pytest.mark.parametrize("status", [400, 401, 404])
def test_client_errors_fail_at_once_and_are_not_retryable(stub: EmbeddingsStub, status: int) -> None:
    embedder = make(stub)
    embedder.embed(["answered once"])  # (a first 400 is also tried once more, asking for floats)
    stub.otherwise(error(status, "nope"))
    with pytest.raises(EmbedderUnavailable) as info:
        embedder.embed(["x"])
    assert len(stub.requests) == 2
    assert info.value.details["status"] == status and not info.value.retryable


def test_slow_endpoint_times_out_and_is_retried(stub: EmbeddingsStub) -> None:
    stub.script(slow(3.0, embeddings([[1.0] * DIM])))
    got = make(stub, timeout_s=0.3).embed(["x"])  # the first try times out, the second is answered
    assert got.shape == (1, DIM) and len(stub.requests) == 2


def test_slow_endpoint_that_never_answers_fails_with_the_timeout(stub: EmbeddingsStub) -> None:
    stub.otherwise(slow(3.0, embeddings([[1.0] * DIM])))
    with pytest.raises(EmbedderUnavailable) as info:
        make(stub, timeout_s=0.2, max_retries=1).embed(["x"])
    assert info.value.details["reason"] == "timed out after 0.2s" and info.value.details["attempts"] == 2


def test_wrong_dimension_is_a_clear_mismatch_at_the_first_response(stub: EmbeddingsStub) -> None:
    stub.otherwise(hashed(DIM * 2))
    with pytest.raises(EmbeddingMismatch) as info:
        make(stub).embed(["x"])
    assert len(stub.requests) == 1  # not retried: the endpoint serves another model
    assert info.value.details["configured"] == DIM and info.value.details["received"] == [DIM * 2]
    assert info.value.details["field"] == "GRAPHMEM_EMBED_DIMENSION"


def shortening(native: int) -> Any:
    """An endpoint like OpenAI's text-embedding-3-*: ``native``-d vectors unless the request asks
    for ``dimensions`` (the leading values, renormalised), and 400 to a ``dimensions`` it cannot give."""

    def respond(rec: Recorded) -> Reply:
        body = rec.json()
        size = body.get("dimensions", native)
        if not isinstance(size, int) or not 1 <= size <= native:
            return error(400, "invalid_dimensions")
        full = HashingEmbedder(native).embed(list(body["input"]))[:, :size]
        return embeddings((full / np.linalg.norm(full, axis=1, keepdims=True)).tolist())

    return respond


def test_dimensions_are_requested_only_when_configured(stub: EmbeddingsStub) -> None:
    make(stub).embed(["x"])
    make(stub, send_dimensions=True).embed(["y"])
    assert "dimensions" not in stub.requests[0].json() and stub.requests[1].json()["dimensions"] == DIM


def test_a_model_that_shortens_its_vectors_answers_the_configured_dimension(stub: EmbeddingsStub) -> None:
    """Without the parameter a text-embedding-3-style model answers its native size, which the
    dimension check refuses; with it, the configured size, which the check accepts."""
    stub.otherwise(shortening(native=DIM * 4))
    with pytest.raises(EmbeddingMismatch) as info:
        make(stub).embed(["x"])
    assert info.value.details["received"] == [DIM * 4]
    got = make(stub, send_dimensions=True).embed(TEXTS)
    assert got.shape == (len(TEXTS), DIM)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_a_refused_dimensions_parameter_names_the_setting(stub: EmbeddingsStub) -> None:
    stub.otherwise(shortening(native=DIM // 2))  # cannot give more than its native size
    with pytest.raises(EmbedderUnavailable) as info:
        make(stub, send_dimensions=True).embed(["x"])
    assert info.value.details["status"] == 400 and not info.value.retryable
    assert "GRAPHMEM_EMBED_SEND_DIMENSIONS" in info.value.message
    assert len(stub.requests) == 2  # the first 400 is tried once more with float lists


@pytest.mark.parametrize(
    "reply",
    [
        Reply(200, b"not json"),
        Reply(200, b'{"data": "nope"}'),
        embeddings([[1.0] * DIM, [1.0] * DIM]),  # two vectors for one input
        Reply(200, b'{"data": [{"index": 0, "embedding": "AAAA"}]}'),  # base64 of 3 bytes
        Reply(200, b'{"data": [{"index": 0, "embedding": "not base64!"}]}'),
        Reply(200, b'{"data": [{"index": 0, "embedding": {"x": 1}}]}'),
        Reply(200, b'{"data": [{"index": 0, "embedding": [' + b",".join([b'"x"'] * DIM) + b"]}]}"),
    ],
)
def test_malformed_bodies_are_retried(stub: EmbeddingsStub, reply: Reply) -> None:
    stub.script(reply)
    assert make(stub).embed(["x"]).shape == (1, DIM)
    assert len(stub.requests) == 2


def test_unreachable_endpoint_fails_after_retries() -> None:
    with EmbeddingsStub() as gone:
        url = gone.base_url  # a port nobody listens on once the stub is closed
    embedder = OpenAIEmbedder(base_url=url, model="m", dimension=DIM, max_retries=1, backoff_s=0, timeout_s=1)
    with pytest.raises(EmbedderUnavailable) as info:
        embedder.embed(["x"])
    assert info.value.details["attempts"] == 2 and info.value.details["reason"].startswith("request failed")


def test_one_failed_batch_fails_the_call(stub: EmbeddingsStub) -> None:
    inner = hashed(DIM)
    stub.otherwise(lambda rec: error(400, "too_long") if "bad" in rec.json()["input"] else inner(rec))
    with pytest.raises(EmbedderUnavailable):
        make(stub, batch_size=1, concurrency=2).embed(["a", "b", "bad", "c"])


def test_prefixes_for_e5_style_models(stub: EmbeddingsStub) -> None:
    embedder = make(stub, passage_prefix="passage: ", query_prefix="query: ")
    embedder.embed(["Alice lives in Paris."])
    embedder.embed_query("where does Alice live?")
    assert stub.inputs() == [["passage: Alice lives in Paris."], ["query: where does Alice live?"]]


def test_coalesced_queries_are_sent_with_the_query_prefix_only(stub: EmbeddingsStub) -> None:
    embedder = make(stub, passage_prefix="passage: ", query_prefix="query: ")
    CoalescingEmbedder(embedder, window_s=0).embed_query("where does Alice live?")
    assert stub.inputs() == [["query: where does Alice live?"]]


def test_model_name_names_the_provider_and_repr_hides_the_key(stub: EmbeddingsStub) -> None:
    embedder = make(stub)
    assert embedder.model_name == "openai:stub-embedder" and embedder.dimension == DIM
    assert "sk-test-secret" not in repr(embedder)


# ------------------------------------------------------------------ settings


def test_settings_build_the_endpoint_embedder(stub: EmbeddingsStub) -> None:
    settings = Settings(
        embedder="openai",
        embed_base_url=stub.base_url,
        embed_model="stub-embedder",
        embedding_dimension=DIM,
        embed_batch_size=2,
        embed_concurrency=2,
    )
    embedder = embedder_from_settings(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.embed(TEXTS).shape == (len(TEXTS), DIM)
    assert [len(batch) for batch in stub.inputs()] == [2, 2]


def test_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "GRAPHMEM_EMBEDDER": "openai",
        "GRAPHMEM_EMBED_BASE_URL": "http://127.0.0.1:9/v1",
        "GRAPHMEM_EMBED_MODEL": "nomic-embed-text",
        "GRAPHMEM_EMBED_API_KEY": "k",
        "GRAPHMEM_EMBED_DIMENSION": "768",
        "GRAPHMEM_EMBED_CONCURRENCY": "8",
        "GRAPHMEM_EMBED_SEND_DIMENSIONS": "true",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    embedder = embedder_from_settings(Settings())
    assert isinstance(embedder, OpenAIEmbedder)
    assert (embedder.model_name, embedder.dimension, embedder.concurrency, embedder.send_dimensions) == (
        "openai:nomic-embed-text",
        768,
        8,
        True,
    )


def test_missing_settings_are_named() -> None:
    with pytest.raises(ConfigError) as info:
        embedder_from_settings(Settings(embedder="openai"))
    assert info.value.details["fields"] == [
        "GRAPHMEM_EMBED_BASE_URL",
        "GRAPHMEM_EMBED_MODEL",
        "GRAPHMEM_EMBED_DIMENSION",
    ]


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"base_url": "ftp://x"}, "GRAPHMEM_EMBED_BASE_URL"),
        ({"model": " "}, "GRAPHMEM_EMBED_MODEL"),
        ({"dimension": 0}, "GRAPHMEM_EMBED_DIMENSION"),
        ({"batch_size": 0}, "GRAPHMEM_EMBED_BATCH_SIZE"),
        ({"concurrency": 0}, "GRAPHMEM_EMBED_CONCURRENCY"),
        ({"timeout_s": 0}, "GRAPHMEM_EMBED_TIMEOUT_S"),
        ({"max_retries": -1}, "GRAPHMEM_EMBED_MAX_RETRIES"),
        ({"encoding": "utf8"}, "GRAPHMEM_EMBED_ENCODING"),
    ],
)
def test_bad_settings_are_refused_by_name(override: dict[str, Any], field: str) -> None:
    options: dict[str, Any] = {"base_url": "http://127.0.0.1:9/v1", "model": "m", "dimension": 8} | override
    with pytest.raises(ConfigError) as info:
        OpenAIEmbedder(**options)
    assert info.value.details["field"] == field


def test_build_embedder_by_name_points_to_the_settings_for_endpoint_and_local() -> None:
    for name in ("openai", "local"):
        with pytest.raises(ConfigError, match="GRAPHMEM_EMBED_"):
            build_embedder(name)
    with pytest.raises(ConfigError, match="choose one of minilm, local, openai, hashing"):
        build_embedder("word2vec")


def test_the_benchmark_stubs_latency_is_per_request_plus_per_text() -> None:
    """`python -m tests.stubs.embeddings_stub --delay-ms D --per-text-ms T` (docs/evals.md §7): each answer
    waits D + T x inputs, and carries one unit vector per input."""
    respond = pooled(DIM, delay_s=0.02, per_text_s=0.001)
    for n in (1, 32):
        body = json.dumps({"model": "m", "input": ["t"] * n, "encoding_format": "float"}).encode()
        reply = respond(Recorded("POST", "/v1/embeddings", {}, body))
        assert reply.delay_s == pytest.approx(0.02 + 0.001 * n)
        vectors = np.array([d["embedding"] for d in json.loads(reply.body)["data"]])
        assert vectors.shape == (n, DIM) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
