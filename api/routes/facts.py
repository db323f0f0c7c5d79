"""Facts: explicit create, list/read, correct (PATCH with If-Match), retract (DELETE)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header, HTTPException, Path, Query, Response

from api.deps import MemoryDep, MetricsDep, ReadGroup, SettingsDep, WriteGroup
from api.routes.episodes import check_batch
from api.schemas.common import errors
from api.schemas.episodes import IngestResponse
from api.schemas.facts import FactBody, FactCreate, FactList, FactPatch, FactPublic
from graphmem.errors import InvalidInput
from graphmem.models.common import UtcDatetime
from graphmem.models.fact import FactRecord

router = APIRouter(prefix="/v1/groups/{group}", tags=["facts"])

FactId = Annotated[str, Path(min_length=1, max_length=200, description="Fact id (UUID).")]
IfMatch = Annotated[
    str | None,
    Header(
        max_length=40,
        pattern=r'^(W/)?"?[0-9]{1,12}"?$',
        description='The fact\'s `version` (as returned, or its `ETag`), e.g. `3` or `"3"`.',
    ),
]


def parse_version(if_match: str | None) -> int | None:
    if if_match is None:
        return None
    text = if_match.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise InvalidInput("If-Match must be the fact's version number", details={"field": "If-Match"})
    return int(text)


def _public(fact: FactRecord, response: Response) -> FactPublic:
    response.headers["ETag"] = f'"{fact.version}"'
    return FactPublic.model_validate(fact.model_dump())


@router.post(
    "/facts",
    operation_id="add_facts",
    summary="Write explicit facts",
    description=(
        "For agents that already extracted facts. Each fact is resolved like an extracted one: "
        "a duplicate adds evidence, a new value of a functional predicate supersedes the current "
        "one, an older one is slotted into the past. At most `GRAPHMEM_MAX_BATCH` facts per call."
    ),
    status_code=201,
    responses=errors(404),
)
async def add_facts(
    group: WriteGroup,
    body: Annotated[FactBody, Body()],
    memory: MemoryDep,
    settings: SettingsDep,
    metrics: MetricsDep,
) -> IngestResponse:
    facts = [body] if isinstance(body, FactCreate) else list(body.facts)
    check_batch(len(facts), settings.max_batch, "facts")
    result = await memory.add_facts(group, facts)
    metrics.observe_ingest(result)
    return IngestResponse.model_validate(result.model_dump())


@router.get(
    "/facts",
    operation_id="list_facts",
    summary="List facts (current, at a time, or with history)",
    description=(
        "Facts of the group, or of one `subject`, optionally one `predicate`. Default: what is true "
        "now. `as_of`: what was true at that time; `known_at`: as the system knew it then; "
        "`include_history`: every version, including superseded and ended ones."
    ),
    responses=errors(),
)
async def list_facts(
    group: ReadGroup,
    memory: MemoryDep,
    subject: Annotated[str | None, Query(min_length=1, max_length=200, examples=["alice"])] = None,
    predicate: Annotated[str | None, Query(min_length=1, max_length=100, examples=["lives_in"])] = None,
    as_of: Annotated[UtcDatetime | None, Query(description="World time (ISO 8601).")] = None,
    known_at: Annotated[UtcDatetime | None, Query(description="System time (ISO 8601).")] = None,
    include_history: bool = False,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> FactList:
    options = {
        "predicate": predicate,
        "as_of": as_of,
        "known_at": known_at,
        "include_history": include_history,
    }
    if subject is not None:
        facts = (await memory.facts_about(group, subject, **options))[:limit]
    else:
        facts = await memory.list_facts(group, limit=limit, **options)
    return FactList.model_validate({"facts": [f.model_dump() for f in facts]})


@router.get(
    "/facts/{fact_id}",
    operation_id="get_fact",
    summary="Read one fact",
    description="The fact with its evidence and supersession links; `ETag` carries its version.",
    responses=errors(404),
)
async def get_fact(group: ReadGroup, fact_id: FactId, memory: MemoryDep, response: Response) -> FactPublic:
    return _public(await memory.get_fact(group, fact_id), response)


@router.patch(
    "/facts/{fact_id}",
    operation_id="correct_fact",
    summary="Correct or end a fact (If-Match required)",
    description=(
        "A new `value`/`object` corrects a mistake: the old fact is expired (system time) and the new "
        "one takes its place. `end: true` or `valid_to` ends it in the world. Optimistic "
        "concurrency: `If-Match` must carry the fact's current `version` (428 when missing, 409 "
        "`conflict` when stale). Returns the resulting fact."
    ),
    responses=errors(404, 409, 428),
)
async def correct_fact(
    group: WriteGroup,
    fact_id: FactId,
    patch: FactPatch,
    memory: MemoryDep,
    response: Response,
    if_match: IfMatch = None,
) -> FactPublic:
    version = parse_version(if_match)
    if version is None:
        raise HTTPException(status_code=428, detail="If-Match: <version> is required")
    fact = await memory.correct_fact(
        group, fact_id, expected_version=version, **patch.model_dump(exclude_unset=True)
    )
    return _public(fact, response)


@router.delete(
    "/facts/{fact_id}",
    operation_id="retract_fact",
    summary="Retract a fact",
    description=(
        "The fact was never true: it is expired (system time, history is kept) and its slot is "
        "re-resolved, so a fact it had superseded holds again. `If-Match` is optional here."
    ),
    responses=errors(404, 409),
)
async def retract_fact(
    group: WriteGroup, fact_id: FactId, memory: MemoryDep, response: Response, if_match: IfMatch = None
) -> FactPublic:
    fact = await memory.retract_fact(group, fact_id, expected_version=parse_version(if_match))
    return _public(fact, response)
