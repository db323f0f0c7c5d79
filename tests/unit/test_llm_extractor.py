"""The ``llm`` extractor against a local OpenAI-compatible stub: valid, malformed, schema-invalid, slow,
5xx and 4xx replies; retries, corrective follow-ups, the request's shape and all-or-nothing failure."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.errors import ConfigError, ExtractionFailed
from graphmem.models.extraction import ExtractedEntity, ExtractedFact, Extraction
from graphmem.ports import Extractor
from graphmem.providers.extractors.factory import build_extractor
from graphmem.providers.extractors.llm import LLMExtractor
from graphmem.providers.extractors.llm_schema import JSON_SCHEMA, InvalidOutput, parse_extraction
from tests.stubs.openai_stub import (
    OpenAIStub,
    completion,
    error,
    extraction,
    fact,
    malformed,
    schema_invalid,
    slow,
)

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)
TEXT = "I moved to Berlin last May. Actually I work at Siemens, not Bosch."


@pytest.fixture
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub() as server:
        yield server
    assert server.errors == []


def make(stub: OpenAIStub, **options: Any) -> LLMExtractor:
    settings: dict[str, Any] = {
        "model": "test-model",
        "api_key": "sk-test",
        "timeout_s": 5.0,
        "max_retries": 2,
        "backoff_s": 0,
    }
    return LLMExtractor(base_url=stub.base_url, **(settings | options))


def run(extractor: LLMExtractor, text: str = TEXT, speaker: str | None = "Alice") -> Extraction:
    return extractor.extract(content=text, speaker=speaker, reference_time=REF)


BERLIN = fact(
    "I",
    "lives_in",
    obj="Berlin",
    object_kind="place",
    valid_from="2024-05-01T00:00:00Z",
    quote="I moved to Berlin last May.",
)
SIEMENS = fact(
    "Alice",
    "works_at",
    obj="Siemens",
    object_kind="organization",
    claim="correct",
    replaces="Bosch",
    quote="Actually I work at Siemens, not Bosch.",
)
ENTITIES = [{"name": "Alice", "kind": "person"}, {"name": "Berlin", "kind": "place"}]
VALID = extraction(ENTITIES, [BERLIN, SIEMENS])
EXPECTED = Extraction(
    entities=[ExtractedEntity(name="Alice", kind="person"), ExtractedEntity(name="Berlin", kind="place")],
    facts=[
        ExtractedFact(
            subject="Alice",
            predicate="lives_in",
            object="Berlin",
            object_kind="place",
            valid_from=datetime(2024, 5, 1, tzinfo=UTC),
            confidence=0.9,
            source_kind="user_stated",
            quote="I moved to Berlin last May.",
            start=0,
            end=27,
        ),
        ExtractedFact(
            subject="Alice",
            predicate="works_at",
            object="Siemens",
            object_kind="organization",
            claim="correct",
            replaces="Bosch",
            confidence=0.9,
            source_kind="user_stated",
            quote="Actually I work at Siemens, not Bosch.",
            start=28,
            end=66,
        ),
    ],
)


# --------------------------------------------------------------------------- success paths


def test_valid_reply_becomes_the_expected_extraction(stub: OpenAIStub) -> None:
    stub.script(VALID)
    extractor: Extractor = make(stub)
    assert extractor.name == "llm"
    assert extractor.extract(content=TEXT, speaker="Alice", reference_time=REF) == EXPECTED
    assert len(stub.requests) == 1


def test_request_shape(stub: OpenAIStub) -> None:
    stub.script(VALID)
    run(make(stub))
    (req,) = stub.requests
    body = req.json()
    assert (req.method, req.path) == ("POST", "/v1/chat/completions")
    assert req.headers["authorization"] == "Bearer sk-test"
    assert req.headers["content-type"] == "application/json"
    assert body["model"] == "test-model" and body["temperature"] == 0
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "graphmem_extraction", "strict": True, "schema": JSON_SCHEMA},
    }
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    for words in ("located_at", "temporary", "functional", "replaces", "speaker", "ISO 8601"):
        assert words in system["content"]
    assert json.loads(user["content"]) == {
        "speaker": "Alice",
        "reference_time": "2024-06-12T15:30:00Z",
        "weekday": "Wednesday",
        "text": TEXT,
    }


def test_no_key_sends_no_authorization_and_no_speaker_binds_to_user(stub: OpenAIStub) -> None:
    stub.script(extraction(facts=[fact("me", "likes", obj="jazz")]))
    result = run(make(stub, api_key=None), "I like jazz.", speaker=None)
    assert [(f.subject, f.object) for f in result.facts] == [("user", "jazz")]
    assert "authorization" not in stub.requests[0].headers
    assert json.loads(stub.requests[0].messages[1]["content"])["speaker"] == "user"


def test_malformed_then_valid_retries_with_a_corrective_message(stub: OpenAIStub) -> None:
    stub.script(malformed(), VALID)
    assert run(make(stub)) == EXPECTED
    first, second = stub.requests
    assert len(first.messages) == 2
    assert second.messages[:2] == first.messages
    bad = json.loads(malformed().body)["choices"][0]["message"]["content"]
    assert second.messages[2] == {"role": "assistant", "content": bad}
    assert second.messages[3]["role"] == "user" and "malformed JSON" in second.messages[3]["content"]


def test_schema_invalid_then_valid_names_the_violation(stub: OpenAIStub) -> None:
    stub.script(schema_invalid(), VALID)
    assert run(make(stub)) == EXPECTED
    corrective = stub.requests[1].messages[3]["content"]
    assert "schema violation" in corrective
    assert "facts.0.claim" in corrective and "facts.0.valid_from" in corrective


def test_server_error_then_valid_resends_the_same_request(stub: OpenAIStub) -> None:
    stub.script(error(500), VALID)
    assert run(make(stub)) == EXPECTED
    first, second = stub.requests
    assert first.body == second.body


def test_rate_limit_honours_retry_after(stub: OpenAIStub) -> None:
    stub.script(error(429, "rate_limit_exceeded", retry_after=0), VALID)
    assert run(make(stub, backoff_s=30)) == EXPECTED  # Retry-After: 0 wins over the 30 s backoff
    assert len(stub.requests) == 2


@pytest.mark.parametrize("reply", [completion(None), completion("", refusal="no"), error(503)])
def test_empty_refused_or_unavailable_replies_are_retried(stub: OpenAIStub, reply: Any) -> None:
    stub.script(reply, VALID)
    assert run(make(stub)) == EXPECTED


def test_json_in_a_code_fence_is_accepted(stub: OpenAIStub) -> None:
    content = json.loads(VALID.body)["choices"][0]["message"]["content"]
    stub.script(completion(f"```json\n{content}\n```"))
    assert run(make(stub)) == EXPECTED


# --------------------------------------------------------------------------- failures


def test_always_malformed_fails_after_exactly_max_retries_plus_one_calls(stub: OpenAIStub) -> None:
    stub.otherwise(malformed())
    with pytest.raises(ExtractionFailed) as info:
        run(make(stub, max_retries=2))
    assert len(stub.requests) == 3
    assert info.value.code == "extraction_failed"
    assert info.value.details["attempts"] == 3 and info.value.details["model"] == "test-model"
    assert info.value.details["reason"].startswith("malformed JSON")


def test_zero_retries_means_one_call(stub: OpenAIStub) -> None:
    stub.otherwise(schema_invalid())
    with pytest.raises(ExtractionFailed, match="after 1 attempt: schema violation"):
        run(make(stub, max_retries=0))
    assert len(stub.requests) == 1


def test_slow_endpoint_times_out_within_bounded_time(stub: OpenAIStub) -> None:
    stub.otherwise(slow(30))
    started = time.monotonic()
    with pytest.raises(ExtractionFailed) as info:
        run(make(stub, timeout_s=0.3, max_retries=1))
    assert time.monotonic() - started < 3
    assert len(stub.requests) == 2
    assert info.value.details["reason"] == "timed out after 0.3s" and info.value.details["attempts"] == 2


@pytest.mark.parametrize(
    ("status", "code"), [(401, "invalid_api_key"), (400, "bad_request"), (404, "model_not_found")]
)
def test_client_errors_fail_fast(stub: OpenAIStub, status: int, code: str) -> None:
    stub.otherwise(error(status, code))
    with pytest.raises(ExtractionFailed) as info:
        run(make(stub, max_retries=3))
    assert len(stub.requests) == 1
    assert info.value.details == {
        "extractor": "llm",
        "model": "test-model",
        "attempts": 1,
        "reason": f"HTTP {status} ({code})",
        "status": status,
    }


def test_persistent_server_errors_report_the_last_status(stub: OpenAIStub) -> None:
    stub.otherwise(error(502, "bad_gateway"))
    with pytest.raises(ExtractionFailed) as info:
        run(make(stub, max_retries=1))
    assert len(stub.requests) == 2 and info.value.details["status"] == 502


def test_unreachable_endpoint_fails_after_retries() -> None:
    with OpenAIStub() as server:
        url = server.base_url
    extractor = LLMExtractor(base_url=url, model="m", timeout_s=1, max_retries=1, backoff_s=0)
    with pytest.raises(ExtractionFailed, match="request failed: ConnectError") as info:
        run(extractor)
    assert info.value.details["attempts"] == 2


def test_failures_do_not_echo_episode_text(stub: OpenAIStub) -> None:
    secret = "my passport number is X1234567"
    stub.otherwise(extraction(facts=[fact("Alice", "attribute:passport", value=secret, claim="nope")]))
    with pytest.raises(ExtractionFailed) as info:
        run(make(stub, max_retries=0), secret)
    assert "X1234567" not in json.dumps(info.value.to_dict())


# --------------------------------------------------------------------------- validation (no server)


def parse(facts: list[dict[str, Any]] | object, entities: object = ()) -> Extraction:
    payload = {"entities": list(entities) if isinstance(entities, tuple) else entities, "facts": facts}
    return parse_extraction(json.dumps(payload), content=TEXT, speaker="Alice")


@pytest.mark.parametrize(
    ("facts", "reason"),
    [
        ([fact("Alice", "lives_in", obj="Paris", value="Paris")], "exactly one of object and value"),
        ([fact("Alice", "lives_in")], "exactly one of object and value"),
        ([fact("Alice", "lives_in", obj=" ", value="")], "exactly one of object and value"),
        ([fact("Alice", "  ", obj="Paris")], "facts.0.predicate"),
        ([fact("", "lives_in", obj="Paris")], "facts.0.subject"),
        ([fact("Alice", "lives_in", obj="Paris", claim="maybe")], "facts.0.claim"),
        ([fact("Alice", "lives_in", obj="Lyon", claim="correct")], "needs 'replaces'"),
        ([fact("Alice", "lives_in", obj="Paris", valid_from="last May")], "not a valid ISO 8601"),
        ([fact("Alice", "lives_in", obj="Paris", valid_from=1714521600)], "ISO 8601 timestamp string"),
        (
            [fact("Alice", "lives_in", obj="Paris", valid_from="2024-06-01", valid_to="2024-01-01")],
            "valid_from is after valid_to",
        ),
        ([fact("Alice", "lives_in", obj="Paris", confidence=2)], "facts.0.confidence"),
        ([fact("Alice", "lives_in", obj="Paris", source_kind="imported")], "facts.0.source_kind"),
        ("none", "facts:"),
    ],
)
def test_schema_violations_are_invalid_output(facts: object, reason: str) -> None:
    with pytest.raises(InvalidOutput, match="schema violation") as info:
        parse(facts)
    assert reason in info.value.reason


@pytest.mark.parametrize("text", ['{"facts": []}', "[]", "null", '{"entities": [], "facts": [', "Sure! Here"])
def test_missing_keys_and_non_objects_are_invalid_output(text: str) -> None:
    with pytest.raises(InvalidOutput):
        parse_extraction(text, content=TEXT, speaker="Alice")


def test_normalisation_binds_first_person_and_keeps_only_verbatim_quotes() -> None:
    result = parse(
        [
            fact(
                "我",
                "Lives In",
                obj="Berlin",
                quote="I moved to Berlin last May.",
                valid_from="2024-05-01T02:00:00+02:00",
            ),
            fact(
                "Mia",
                "job_title",
                value="nurse",
                claim="END",
                replaces="x",
                quote="a paraphrase",
                object_kind="robot",
            ),
        ],
        [
            {"name": "I", "kind": "person"},
            {"name": "alice", "kind": "person"},
            {"name": "Berlin", "kind": "city"},
        ],
    )
    first, second = result.facts
    assert (first.subject, first.predicate, first.valid_from) == (
        "Alice",
        "lives_in",
        datetime(2024, 5, 1, tzinfo=UTC),
    )
    assert (first.start, first.end) == (0, 27)
    assert (second.claim, second.replaces, second.quote, second.object_kind) == ("end", None, None, "thing")
    assert result.entities == [
        ExtractedEntity(name="Alice", kind="person"),
        ExtractedEntity(name="Berlin", kind="thing"),
    ]


def test_schema_is_strict_mode_compatible() -> None:
    """OpenAI strict mode: every object lists all its properties as required and forbids extras."""

    def objects(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            if node.get("type") == "object":
                yield node
            for child in node.values():
                yield from objects(child)

    found = list(objects(JSON_SCHEMA))
    assert len(found) == 3
    for node in found:
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])


# --------------------------------------------------------------------------- configuration


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"base_url": "localhost:11434"}, "GRAPHMEM_LLM_BASE_URL"),
        ({"model": " "}, "GRAPHMEM_LLM_MODEL"),
        ({"timeout_s": 0}, "GRAPHMEM_LLM_TIMEOUT_S"),
        ({"max_retries": -1}, "GRAPHMEM_LLM_MAX_RETRIES"),
    ],
)
def test_bad_settings_are_config_errors(options: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError) as info:
        LLMExtractor(**({"base_url": "http://127.0.0.1:1/v1", "model": "m"} | options))
    assert info.value.details["field"] == field


def test_factory_builds_the_llm_extractor_without_leaking_the_key() -> None:
    settings = Settings(extractor="llm", llm_base_url="http://127.0.0.1:11434/v1/", llm_api_key="sk-secret")
    extractor = build_extractor(settings)
    assert isinstance(extractor, LLMExtractor)
    assert extractor.url == "http://127.0.0.1:11434/v1/chat/completions"
    assert "sk-secret" not in repr(extractor)
