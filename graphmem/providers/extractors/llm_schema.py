"""What the ``llm`` extractor asks for and accepts: a strict JSON schema and its validator.

``JSON_SCHEMA`` goes to the endpoint as ``response_format`` (OpenAI strict mode: every property
required, ``additionalProperties: false``, nullable fields typed ``[T, "null"]``). ``parse_extraction``
does not trust the endpoint to have honoured it: it parses the reply, validates it with pydantic
(predicate present, exactly one of object/value, ISO 8601 times, known claim kind, ``correct`` names what
it ``replaces``, ``valid_from <= valid_to``) and builds an :class:`Extraction`, or raises
:class:`InvalidOutput` with a short reason that names fields, never their content.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from graphmem.clock import parse_iso
from graphmem.models.extraction import ClaimKind, ExtractedEntity, ExtractedFact, Extraction

KINDS = ("person", "place", "organization", "thing")
SOURCE_KINDS = ("user_stated", "extracted", "inferred")
FIRST_PERSON = frozenset({"i", "me", "my", "myself", "mine", "we", "us", "our", "speaker", "我", "我们"})
"""Subjects that mean the speaker; bound to the speaker's name even when the model forgets to."""

_PREDICATE_SEPARATORS = re.compile(r"[\s\-]+")
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
_MAX_ERRORS = 5


class InvalidOutput(Exception):
    """The endpoint replied, but not with a valid extraction; ``reason`` says why (no user content)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------- JSON schema


def _string(description: str, *, nullable: bool = False, enum: tuple[str, ...] = ()) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": ["string", "null"] if nullable else "string", "description": description}
    if enum:
        spec["enum"] = list(enum)
    return spec


def _object(properties: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }


_ENTITY = _object(
    {
        "name": _string("The name as written in the text (the speaker's name for first person)."),
        "kind": _string("What the entity is.", enum=KINDS),
    }
)

_FACT = _object(
    {
        "subject": _string("Who or what the claim is about; the speaker's name for I/me/my."),
        "subject_kind": _string("What the subject is.", enum=KINDS),
        "predicate": _string("A vocabulary predicate, attribute:<key>, or a new snake_case verb."),
        "object": _string("The entity the claim points to (places, organizations, people).", nullable=True),
        "object_kind": _string("What the object is ('thing' when object is null).", enum=KINDS),
        "value": _string("A literal value (job titles, ages, plans...) when object is null.", nullable=True),
        "qualifier": _string("Topic for prefers, relation for knows, else the empty string."),
        "claim": _string(
            "assert, end (no longer holds) or correct (fixes a mistaken value).",
            enum=("assert", "end", "correct"),
        ),
        "replaces": _string(
            "For claim=correct: the mistaken value being replaced; else null.", nullable=True
        ),
        "valid_from": _string(
            "ISO 8601 UTC time the claim starts (or ends, for end); null = said now.", nullable=True
        ),
        "valid_to": _string(
            "ISO 8601 UTC time the claim stops holding, when stated; else null.", nullable=True
        ),
        "confidence": {"type": "number", "description": "0 to 1."},
        "source_kind": _string(
            "user_stated (speaker about themself), extracted (about others), inferred (hedged or implied).",
            enum=SOURCE_KINDS,
        ),
        "quote": _string("The sentence the claim comes from, copied verbatim.", nullable=True),
    }
)

JSON_SCHEMA: dict[str, Any] = _object(
    {
        "entities": {"type": "array", "items": _ENTITY},
        "facts": {"type": "array", "items": _FACT},
    }
)
SCHEMA_NAME = "graphmem_extraction"


# --------------------------------------------------------------------------- validation


def _blank_to_none(value: object) -> object:
    if isinstance(value, str) and not value.strip():
        return None
    return value


def _kind(value: object) -> object:
    if value is None:
        return "thing"
    if isinstance(value, str):
        kind = value.strip().lower()
        return kind if kind in KINDS else "thing"
    return value


def _iso_time(value: object) -> datetime | None:
    value = _blank_to_none(value)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("must be an ISO 8601 timestamp string or null")
    try:
        return parse_iso(value)
    except ValueError:
        raise ValueError("is not a valid ISO 8601 timestamp") from None


def _predicate(value: object) -> object:
    if isinstance(value, str):
        return _PREDICATE_SEPARATORS.sub("_", value.strip().lower())
    return value


def _none_to_empty(value: object) -> object:
    return "" if value is None else value


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


OptionalText = Annotated[Annotated[str, Field(max_length=1000)] | None, BeforeValidator(_blank_to_none)]
Kind = Annotated[str, BeforeValidator(_kind)]
IsoTime = Annotated[datetime | None, BeforeValidator(_iso_time)]


class WireEntity(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=200)
    kind: Kind = "thing"


class WireFact(BaseModel):
    """One fact as the model writes it; checked here, then turned into an ``ExtractedFact``."""

    model_config = ConfigDict(str_strip_whitespace=True)

    subject: str = Field(min_length=1, max_length=200)
    subject_kind: Kind = "person"
    predicate: Annotated[str, BeforeValidator(_predicate), Field(min_length=1, max_length=100)]
    object: Annotated[Annotated[str, Field(max_length=200)] | None, BeforeValidator(_blank_to_none)] = None
    object_kind: Kind = "thing"
    value: OptionalText = None
    qualifier: Annotated[str, BeforeValidator(_none_to_empty), Field(max_length=200)] = ""
    claim: Annotated[ClaimKind, BeforeValidator(_lower)] = "assert"
    replaces: OptionalText = None
    valid_from: IsoTime = None
    valid_to: IsoTime = None
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    source_kind: Annotated[Literal["user_stated", "extracted", "inferred"], BeforeValidator(_lower)] = (
        "extracted"
    )
    quote: OptionalText = None

    @model_validator(mode="after")
    def _consistent(self) -> WireFact:
        if (self.object is None) == (self.value is None):
            raise ValueError("exactly one of object and value must be set")
        if self.claim == "correct" and self.replaces is None:
            raise ValueError("claim 'correct' needs 'replaces' (the mistaken value)")
        if self.valid_from and self.valid_to and self.valid_from > self.valid_to:
            raise ValueError("valid_from is after valid_to")
        return self


class WireExtraction(BaseModel):
    entities: list[WireEntity]
    facts: list[WireFact]


def _load_json(text: str) -> object:
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    try:
        return json.loads(fenced.group(1) if fenced else stripped)
    except ValueError as exc:
        raise InvalidOutput(f"malformed JSON: {exc}") from None


def describe(error: ValidationError) -> str:
    """Field paths and messages of a validation error, without the offending input values."""
    parts = []
    for item in error.errors()[:_MAX_ERRORS]:
        where = ".".join(str(p) for p in item["loc"]) or "(root)"
        parts.append(f"{where}: {item['msg']}")
    more = error.error_count() - _MAX_ERRORS
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def parse_extraction(text: str, *, content: str, speaker: str) -> Extraction:
    """Validate the model's reply for one episode and bind it to ``content`` and ``speaker``."""
    data = _load_json(text)
    try:
        wire = WireExtraction.model_validate(data)
    except ValidationError as exc:
        raise InvalidOutput(f"schema violation: {describe(exc)}") from None
    facts = [_fact(f, content=content, speaker=speaker) for f in wire.facts]
    entities: dict[str, ExtractedEntity] = {}
    for ent in wire.entities:
        name = _bind(ent.name, speaker)
        entities.setdefault(name.casefold(), ExtractedEntity(name=name, kind=ent.kind))
    return Extraction(entities=list(entities.values()), facts=facts)


def _bind(name: str, speaker: str) -> str:
    name = name.strip()
    return speaker if name.casefold() in FIRST_PERSON else name


def _fact(wire: WireFact, *, content: str, speaker: str) -> ExtractedFact:
    quote, start, end = wire.quote, None, None
    if quote is not None:
        found = content.find(quote)
        if found < 0:
            quote = None  # a paraphrase is not evidence
        else:
            start, end = found, found + len(quote)
    return ExtractedFact(
        subject=_bind(wire.subject, speaker),
        subject_kind=wire.subject_kind,
        predicate=wire.predicate,
        object=wire.object,
        object_kind=wire.object_kind,
        value=wire.value,
        qualifier=wire.qualifier,
        claim=wire.claim,
        replaces=wire.replaces if wire.claim == "correct" else None,
        valid_from=wire.valid_from,
        valid_to=wire.valid_to,
        confidence=wire.confidence,
        source_kind=wire.source_kind,
        quote=quote,
        start=start,
        end=end,
    )
