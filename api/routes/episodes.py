"""Episodes: ingest (one or a batch, idempotent), list (filtered, cursor-paginated), read with
supported facts, forget."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Header, Path, Query, Response

from api.deps import MemoryDep, MetricsDep, ReadGroup, SettingsDep, WriteGroup
from api.schemas.browse import EpisodeList
from api.schemas.common import errors
from api.schemas.episodes import EpisodeBody, EpisodeCreate, EpisodeDetail, IngestResponse
from api.schemas.lifecycle import ForgetResponse
from graphmem.errors import PayloadTooLarge
from graphmem.models.common import UtcDatetime

router = APIRouter(prefix="/v1/groups/{group}", tags=["episodes"])

EpisodeId = Annotated[str, Path(min_length=1, max_length=200, description="Episode id (UUID).")]
IdempotencyKey = Annotated[
    str | None,
    Header(
        min_length=1,
        max_length=180,
        description="Makes a retried POST safe: used as `external_id` of an episode that has none "
        "(in a batch, `<key>:<index>`).",
    ),
]

OnConflict = Annotated[
    Literal["reject", "replace"],
    Query(
        description="An `external_id` stored with other content: `reject` (409 "
        "`idempotency_conflict`, the default) or `replace` the stored episode."
    ),
]


def check_batch(size: int, limit: int, field: str) -> None:
    if size > limit:
        raise PayloadTooLarge(
            f"at most {limit} {field} per request", details={"field": field, "limit": limit, "got": size}
        )


def with_idempotency_key(episodes: list[EpisodeCreate], key: str | None) -> list[EpisodeCreate]:
    if not key:
        return episodes
    if len(episodes) == 1:
        names = [key]
    else:
        names = [f"{key}:{i}" for i in range(len(episodes))]
    return [
        ep if ep.external_id else ep.model_copy(update={"external_id": name})
        for ep, name in zip(episodes, names, strict=True)
    ]


@router.post(
    "/episodes",
    operation_id="add_episodes",
    summary="Ingest one episode or a batch",
    description=(
        "Stores the episode(s), extracts entities and facts, resolves them against the group's "
        "history (dedupe, supersede, slot into the past) in one transaction, and returns the episode "
        "ids and the facts created or changed. Idempotent by `external_id` or the `Idempotency-Key` "
        "header: a retry with the same content returns the same ids with status `existing` (HTTP 200 "
        "instead of 201). The same `external_id` with other content is a 409 `idempotency_conflict` "
        "(`details.conflicts`: index, external_id, episode_id, `stored_content_hash`, "
        "`content_hash`; nothing is written) unless `on_conflict=replace`: the stored episode is then "
        "forgotten (as `DELETE .../episodes/{id}` does) and the new content ingested in its place, "
        "in the same transaction, with a new id. "
        "A batch holds at most `GRAPHMEM_MAX_BATCH` (default 500) episodes; more gets 413."
    ),
    status_code=201,
    responses={200: {"model": IngestResponse, "description": "Nothing new was stored"}, **errors(404, 409)},
)
async def add_episodes(
    group: WriteGroup,
    body: Annotated[EpisodeBody, Body()],
    memory: MemoryDep,
    settings: SettingsDep,
    metrics: MetricsDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    on_conflict: OnConflict = "reject",
) -> IngestResponse:
    episodes = [body] if isinstance(body, EpisodeCreate) else list(body.episodes)
    check_batch(len(episodes), settings.max_batch, "episodes")
    result = await memory.add_episodes(
        group, with_idempotency_key(episodes, idempotency_key), replace=on_conflict == "replace"
    )
    metrics.observe_ingest(result)
    if result.created == 0:
        response.status_code = 200
    return IngestResponse.model_validate(result.model_dump())


@router.get(
    "/episodes",
    operation_id="list_episodes",
    summary="List episodes",
    description=(
        "The group's episodes in reference-time order (then id; `order=desc` newest first), each "
        "with the ids of the facts it is evidence for. Filters: `session_id`, `speaker`, and "
        "`since <= reference_time < until`. Cursor-paginated: pass `next_cursor` back as `cursor` "
        "(with the same `order`) while `has_more`."
    ),
    responses=errors(),
)
async def list_episodes(
    group: ReadGroup,
    memory: MemoryDep,
    session_id: Annotated[
        str | None, Query(min_length=1, max_length=200, description="Only this session.")
    ] = None,
    speaker: Annotated[
        str | None, Query(min_length=1, max_length=200, description="Only this speaker.")
    ] = None,
    since: Annotated[UtcDatetime | None, Query(description="reference_time >= since (ISO 8601).")] = None,
    until: Annotated[UtcDatetime | None, Query(description="reference_time < until (ISO 8601).")] = None,
    order: Annotated[Literal["asc", "desc"], Query(description="Oldest (`asc`) or newest first.")] = "asc",
    cursor: Annotated[
        str | None, Query(min_length=1, max_length=2000, description="The previous page's `next_cursor`.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Episodes per page.")] = 100,
) -> EpisodeList:
    page = await memory.list_episodes(
        group,
        session_id=session_id,
        speaker=speaker,
        since=since,
        until=until,
        order=order,
        cursor=cursor,
        limit=limit,
    )
    return EpisodeList.model_validate(page.model_dump())


@router.get(
    "/episodes/{episode_id}",
    operation_id="get_episode",
    summary="Read an episode and the facts it supports",
    description="The stored episode (immutable evidence) and every fact it is evidence for.",
    responses=errors(404),
)
async def get_episode(group: ReadGroup, episode_id: EpisodeId, memory: MemoryDep) -> EpisodeDetail:
    episode, facts = await memory.get_episode(group, episode_id)
    return EpisodeDetail.model_validate(
        {"episode": episode.model_dump(), "facts": [f.model_dump() for f in facts]}
    )


@router.delete(
    "/episodes/{episode_id}",
    operation_id="forget_episode",
    summary="Forget an episode",
    description=(
        "Deletes the episode and everything only it supports: facts left without evidence are "
        "deleted, others lose this evidence and are re-resolved; orphaned entities go too. A "
        "tombstone keeps the same episode from being ingested again."
    ),
    responses=errors(404),
)
async def forget_episode(group: WriteGroup, episode_id: EpisodeId, memory: MemoryDep) -> ForgetResponse:
    report = await memory.forget_episode(group, episode_id)
    return ForgetResponse.model_validate(report.model_dump())
