"""graphmem.client's retry rule and typed errors, through httpx's MockTransport (no server).

The rule: a request that never left, 408 and 429 are retried for any call; 503 and a lost answer
only for idempotent calls (reads, writes with external ids); 409/412 never.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from graphmem.client import AsyncGraphMemClient, GraphMemClient, RetryPolicy, error_from, retry_after_s
from graphmem.errors import Conflict, IdempotencyConflict, InvalidInput, NotFound, StoreUnavailable

EPISODE = {"content": "Alice moved to Paris.", "reference_time": "2024-06-01T09:00:00Z"}
FACT = {
    "id": "f1",
    "group_id": "g",
    "subject": "Alice",
    "subject_id": "e1",
    "predicate": "lives_in",
    "value": "Paris",
    "statement": "Alice lives in Paris",
    "recorded_at": "2024-06-01T09:00:00Z",
}
INGESTED = {"episodes": [{"id": "ep1", "external_id": "m1", "status": "created"}], "facts": []}


class Script:
    """Answers in order (a status with optional headers, or an exception to raise); records requests."""

    def __init__(self, *answers: int | tuple[int, dict[str, str]] | Exception, body: object = None) -> None:
        self.answers = list(answers)
        self.body = body
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        status, headers = answer if isinstance(answer, tuple) else (answer, {})
        if status >= 400:
            code = {409: "conflict", 404: "not_found", 503: "store_unavailable", 429: "too_many_requests"}
            body = {"code": code.get(status, "internal"), "message": "scripted", "details": {"x": 1}}
            return httpx.Response(status, json=body, headers=headers)
        return httpx.Response(status, json=self.body, headers=headers)


def client(script: Script, sleeps: list[float]) -> GraphMemClient:
    return GraphMemClient(
        "http://memory.test",
        api_key="k",
        transport=httpx.MockTransport(script),
        retry=RetryPolicy(attempts=4, backoff_s=0.5, max_wait_s=10),
        sleep=sleeps.append,
    )


def lost(kind: Callable[..., httpx.TransportError]) -> httpx.TransportError:
    return kind("scripted", request=httpx.Request("GET", "http://memory.test"))


def test_a_read_waits_for_retry_after_and_succeeds() -> None:
    script, sleeps = Script((503, {"Retry-After": "2"}), 200, body=FACT), []
    fact = client(script, sleeps).get_fact("g", "f1")
    assert fact.statement == "Alice lives in Paris"
    assert sleeps == [2.0] and len(script.requests) == 2
    assert script.requests[0].headers["Authorization"] == "Bearer k"


def test_backoff_doubles_without_retry_after_and_is_capped() -> None:
    script, sleeps = Script(503, 503, 503, 200, body=FACT), []
    client(script, sleeps).get_fact("g", "f1")
    assert sleeps == [0.5, 1.0, 2.0]
    assert RetryPolicy(max_wait_s=10).wait_s(0, httpx.Response(429, headers={"Retry-After": "3600"})) == 10


def test_exhausted_retries_raise_the_typed_error() -> None:
    script, sleeps = Script(503, body=FACT), []
    with pytest.raises(StoreUnavailable) as raised:
        client(script, sleeps).get_fact("g", "f1")
    assert len(script.requests) == 4 and raised.value.details["http_status"] == 503


def test_a_write_without_external_ids_is_not_retried_after_503_or_a_lost_answer() -> None:
    script, sleeps = Script(503, body=INGESTED), []
    with pytest.raises(StoreUnavailable):
        client(script, sleeps).add_episodes("g", [EPISODE])
    assert len(script.requests) == 1
    script = Script(lost(httpx.ReadTimeout), body=INGESTED)
    with pytest.raises(httpx.ReadTimeout):
        client(script, sleeps).add_episodes("g", [EPISODE])
    assert len(script.requests) == 1


def test_a_write_with_external_ids_or_a_key_is_retried_after_a_lost_answer() -> None:
    for kwargs, episode in (({}, {**EPISODE, "external_id": "m1"}), ({"idempotency_key": "k1"}, EPISODE)):
        script, sleeps = Script(lost(httpx.ReadTimeout), 503, 200, body=INGESTED), []
        result = client(script, sleeps).add_episodes("g", [episode], **kwargs)
        assert result.episodes[0].id == "ep1" and len(script.requests) == 3
    assert script.requests[0].headers["Idempotency-Key"] == "k1"


def test_unprocessed_refusals_are_retried_for_any_call() -> None:
    """429, 408 and a request that never left the client cannot have been applied."""
    for first in ((429, {"Retry-After": "1"}), 408, lost(httpx.ConnectError), lost(httpx.ConnectTimeout)):
        script, sleeps = Script(first, 201, body=INGESTED), []
        client(script, sleeps).add_facts("g", [{"subject": "Alice", "predicate": "likes", "value": "tea"}])
        assert len(script.requests) == 2, first


def test_409_is_raised_at_once_typed() -> None:
    script, sleeps = Script(409, body=FACT), []
    with pytest.raises(Conflict) as raised:
        client(script, sleeps).correct_fact("g", "f1", expected_version=3, object="Lyon")
    assert len(script.requests) == 1 and sleeps == []
    assert script.requests[0].headers["If-Match"] == '"3"'
    assert raised.value.details == {"x": 1, "http_status": 409}


def test_errors_are_typed_from_the_code_and_fall_back_to_the_status() -> None:
    body = {"code": "idempotency_conflict", "message": "m", "details": {}}
    assert isinstance(error_from(httpx.Response(409, json=body)), IdempotencyConflict)
    odd = error_from(httpx.Response(404, json={"code": "gone_fishing", "message": "m", "details": {}}))
    assert isinstance(odd, NotFound) and odd.details["code"] == "gone_fishing"
    proxy = error_from(httpx.Response(503, text="<html>bad gateway</html>"))
    assert isinstance(proxy, StoreUnavailable) and proxy.details["http_status"] == 503


def test_bad_input_is_refused_before_sending() -> None:
    script, sleeps = Script(201, body=INGESTED), []
    with pytest.raises(InvalidInput) as raised:
        client(script, sleeps).add_episodes("g", [{"content": "no time"}])
    assert raised.value.details["field"] == "reference_time" and script.requests == []


def test_each_call_has_its_own_timeout_and_60_s_by_default() -> None:
    script, sleeps = Script(200, body=FACT), []
    c = client(script, sleeps)
    c.get_fact("g", "f1")
    c.get_fact("g", "f1", timeout=2.5)
    timeouts = [r.extensions["timeout"]["read"] for r in script.requests]
    assert timeouts == [60.0, 2.5]


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after_s("7") == 7.0
    assert retry_after_s("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert retry_after_s("soon") is None and retry_after_s(None) is None


async def test_the_async_client_follows_the_same_rule() -> None:
    script, sleeps = Script((503, {"Retry-After": "1"}), 200, body=FACT), []

    async def record(seconds: float) -> None:
        sleeps.append(seconds)

    async with AsyncGraphMemClient(
        "http://memory.test", transport=httpx.MockTransport(script), sleep=record
    ) as memory:
        fact = await memory.get_fact("g", "f1")
        with pytest.raises(Conflict):
            script.answers = [409]
            await memory.correct_fact("g", "f1", expected_version=1, value="x")
    assert fact.id == "f1" and sleeps == [1.0] and len(script.requests) == 3
