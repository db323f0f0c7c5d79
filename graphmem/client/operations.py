"""The API's operations as ``Call`` values, built once for both clients (one function per route).

Inputs are the project's own models (``EpisodeIn``, ``FactIn``, ``SearchRequest``) or dicts of the
same shape, validated here before anything is sent; answers are parsed into the same models the
server returns (``IngestResult``, ``SearchResult``, ``FactRecord``...).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal
from urllib.parse import quote

from pydantic import BaseModel, TypeAdapter, ValidationError

from graphmem.client._core import Call, Pages
from graphmem.client.models import CypherResult, EpisodeDetail, GroupSummary, SessionTurn, Timeline
from graphmem.errors import InvalidInput
from graphmem.models.browse import (
    EpisodeItem,
    EpisodePage,
    GroupPage,
    SessionDigest,
    SessionPage,
    SessionSummary,
)
from graphmem.models.entity import EntityRecord
from graphmem.models.episode import EpisodeIn, IngestResult
from graphmem.models.fact import FactIn, FactRecord
from graphmem.models.lifecycle import ForgetReport, ImportReport
from graphmem.models.search import SearchRequest, SearchResult

EpisodeLike = EpisodeIn | Mapping[str, Any]
FactLike = FactIn | Mapping[str, Any]


def _seg(value: str) -> str:
    return quote(value, safe="")


def _group(group: str) -> str:
    return f"/v1/groups/{_seg(group)}"


def _validated(model: type[BaseModel], item: Any) -> Any:
    """``item`` as ``model``'s JSON: a clear ``InvalidInput`` (field named) instead of a request."""
    try:
        value = item if isinstance(item, model) else model.model_validate(item)
    except ValidationError as exc:
        first = exc.errors(include_input=False, include_url=False)[0]
        field = ".".join(str(p) for p in first["loc"]) or model.__name__
        raise InvalidInput(f"{field}: {first['msg']}", details={"field": field}) from None
    return value.model_dump(mode="json", exclude_none=True)


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _list_of(model: type[BaseModel], key: str) -> Any:
    adapter = TypeAdapter(list[model])  # type: ignore[valid-type]
    return lambda body: adapter.validate_python(body[key])


def add_episodes(
    group: str,
    episodes: Sequence[EpisodeLike],
    *,
    idempotency_key: str | None = None,
    on_conflict: Literal["reject", "replace"] = "reject",
    timeout: float | None = None,
) -> Call[IngestResult]:
    """Ingest episodes (one transaction). Retried after a lost answer only when every episode has
    an ``external_id`` or ``idempotency_key`` is given: then a retry stores nothing twice."""
    body = [_validated(EpisodeIn, e) for e in episodes]
    if not body:
        raise InvalidInput("give at least one episode", details={"field": "episodes"})
    headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
    return Call(
        "POST",
        f"{_group(group)}/episodes",
        IngestResult.model_validate,
        params={"on_conflict": on_conflict} if on_conflict != "reject" else None,
        body={"episodes": body},
        headers=headers,
        idempotent=bool(idempotency_key) or all(e.get("external_id") for e in body),
        timeout=timeout,
    )


def add_facts(group: str, facts: Sequence[FactLike], *, timeout: float | None = None) -> Call[IngestResult]:
    """Write explicit facts (not retried once sent: a second copy would add evidence)."""
    body = [_validated(FactIn, f) for f in facts]
    if not body:
        raise InvalidInput("give at least one fact", details={"field": "facts"})
    return Call(
        "POST", f"{_group(group)}/facts", IngestResult.model_validate, body={"facts": body}, timeout=timeout
    )


def search(
    group: str, query: str | SearchRequest, *, timeout: float | None = None, **options: Any
) -> Call[SearchResult]:
    """Hybrid search; ``options`` are ``SearchRequest`` fields (k, as_of, include_history...)."""
    request = query if isinstance(query, SearchRequest) else {"query": query, **options}
    return Call(
        "POST",
        f"{_group(group)}/search",
        SearchResult.model_validate,
        body=_validated(SearchRequest, request),
        idempotent=True,
        timeout=timeout,
    )


def search_groups(
    query: str | SearchRequest,
    groups: Sequence[str] | None = None,
    *,
    timeout: float | None = None,
    **options: Any,
) -> Call[SearchResult]:
    """One search over several groups (default: every group of an agent key), fused by rank; each
    hit carries its ``group_id``."""
    request = query if isinstance(query, SearchRequest) else {"query": query, **options}
    body = _validated(SearchRequest, request)
    if groups is not None:
        body["groups"] = list(groups)
    return Call(
        "POST", "/v1/search", SearchResult.model_validate, body=body, idempotent=True, timeout=timeout
    )


def get_fact(group: str, fact_id: str, *, timeout: float | None = None) -> Call[FactRecord]:
    return Call(
        "GET",
        f"{_group(group)}/facts/{_seg(fact_id)}",
        FactRecord.model_validate,
        idempotent=True,
        timeout=timeout,
    )


def list_facts(
    group: str,
    *,
    subject: str | None = None,
    predicate: str | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    include_history: bool = False,
    limit: int = 100,
    timeout: float | None = None,
) -> Call[list[FactRecord]]:
    params = {
        "subject": subject,
        "predicate": predicate,
        "as_of": _time(as_of),
        "known_at": _time(known_at),
        "include_history": "true" if include_history else None,
        "limit": limit,
    }
    return Call(
        "GET",
        f"{_group(group)}/facts",
        _list_of(FactRecord, "facts"),
        params=params,
        idempotent=True,
        timeout=timeout,
    )


def correct_fact(
    group: str,
    fact_id: str,
    *,
    expected_version: int,
    value: str | None = None,
    object: str | None = None,
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
    end: bool = False,
    timeout: float | None = None,
) -> Call[FactRecord]:
    """Correct or end a fact if it is still at ``expected_version`` (``Conflict`` when stale)."""
    patch = {
        "value": value,
        "object": object,
        "valid_from": _time(valid_from),
        "valid_to": _time(valid_to),
        "end": end or None,
    }
    return Call(
        "PATCH",
        f"{_group(group)}/facts/{_seg(fact_id)}",
        FactRecord.model_validate,
        body={k: v for k, v in patch.items() if v is not None},
        headers={"If-Match": f'"{expected_version}"'},
        timeout=timeout,
    )


def retract_fact(
    group: str, fact_id: str, *, expected_version: int | None = None, timeout: float | None = None
) -> Call[FactRecord]:
    headers = {"If-Match": f'"{expected_version}"'} if expected_version is not None else {}
    return Call(
        "DELETE",
        f"{_group(group)}/facts/{_seg(fact_id)}",
        FactRecord.model_validate,
        headers=headers,
        timeout=timeout,
    )


def find_entities(
    group: str, name: str | None = None, *, limit: int = 50, timeout: float | None = None
) -> Call[list[EntityRecord]]:
    return Call(
        "GET",
        f"{_group(group)}/entities",
        _list_of(EntityRecord, "entities"),
        params={"name": name, "limit": limit},
        idempotent=True,
        timeout=timeout,
    )


def get_entity(group: str, entity_id: str, *, timeout: float | None = None) -> Call[EntityRecord]:
    return Call(
        "GET",
        f"{_group(group)}/entities/{_seg(entity_id)}",
        EntityRecord.model_validate,
        idempotent=True,
        timeout=timeout,
    )


def timeline(group: str, entity_id: str, *, timeout: float | None = None) -> Call[Timeline]:
    return Call(
        "GET",
        f"{_group(group)}/entities/{_seg(entity_id)}/timeline",
        Timeline.model_validate,
        idempotent=True,
        timeout=timeout,
    )


def get_episode(group: str, episode_id: str, *, timeout: float | None = None) -> Call[EpisodeDetail]:
    return Call(
        "GET",
        f"{_group(group)}/episodes/{_seg(episode_id)}",
        EpisodeDetail.model_validate,
        idempotent=True,
        timeout=timeout,
    )


def session_episodes(
    group: str, session_id: str, *, last_n: int = 100, timeout: float | None = None
) -> Call[list[SessionTurn]]:
    """The newest ``last_n`` turns of a session, oldest first."""
    return Call(
        "GET",
        f"{_group(group)}/sessions/{_seg(session_id)}/episodes",
        _list_of(SessionTurn, "turns"),
        params={"last_n": last_n},
        idempotent=True,
        timeout=timeout,
    )


def list_sessions(
    group: str, *, cursor: str | None = None, limit: int = 100, timeout: float | None = None
) -> Call[SessionPage]:
    """One page of the group's sessions in id order (``iter_sessions`` walks every page)."""
    return Call(
        "GET",
        f"{_group(group)}/sessions",
        SessionPage.model_validate,
        params={"cursor": cursor, "limit": limit},
        idempotent=True,
        timeout=timeout,
    )


def every_session(group: str, *, page_size: int = 100, timeout: float | None = None) -> Pages[SessionSummary]:
    """Every session of the group, in id order, ``page_size`` per request (``iter_sessions``)."""
    return Pages(
        lambda cursor: list_sessions(group, cursor=cursor, limit=page_size, timeout=timeout),
        lambda page: page.sessions,
    )


def list_episodes(
    group: str,
    *,
    session_id: str | None = None,
    speaker: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    order: Literal["asc", "desc"] = "asc",
    cursor: str | None = None,
    limit: int = 100,
    timeout: float | None = None,
) -> Call[EpisodePage]:
    """One page of the group's episodes by reference time, ``since <= reference_time < until``, of
    one session and/or speaker when given (``iter_episodes`` walks on)."""
    params = {
        "session_id": session_id,
        "speaker": speaker,
        "since": _time(since),
        "until": _time(until),
        "order": order if order != "asc" else None,
        "cursor": cursor,
        "limit": limit,
    }
    return Call(
        "GET",
        f"{_group(group)}/episodes",
        EpisodePage.model_validate,
        params=params,
        idempotent=True,
        timeout=timeout,
    )


def every_episode(
    group: str,
    *,
    session_id: str | None = None,
    speaker: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    order: Literal["asc", "desc"] = "asc",
    page_size: int = 100,
    timeout: float | None = None,
) -> Pages[EpisodeItem]:
    """Every episode that ``list_episodes`` with these filters pages through (``iter_episodes``)."""

    def call(cursor: str | None) -> Call[EpisodePage]:
        return list_episodes(
            group,
            session_id=session_id,
            speaker=speaker,
            since=since,
            until=until,
            order=order,
            cursor=cursor,
            limit=page_size,
            timeout=timeout,
        )

    return Pages(
        call,
        lambda page: page.episodes,
    )


def session_digest(
    group: str,
    session_id: str,
    *,
    last_n: int = 10,
    facts: int = 20,
    key_turns: int = 3,
    token_budget: int = 400,
    timeout: float | None = None,
) -> Call[SessionDigest]:
    """A session's current facts, key turns and newest turns, and their text (``context``)."""
    params = {"last_n": last_n, "facts": facts, "key_turns": key_turns, "token_budget": token_budget}
    return Call(
        "GET",
        f"{_group(group)}/sessions/{_seg(session_id)}/digest",
        SessionDigest.model_validate,
        params=params,
        idempotent=True,
        timeout=timeout,
    )


def _jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def export_group(
    group: str, *, since: datetime | None = None, timeout: float | None = None
) -> Call[list[dict[str, Any]]]:
    """The group's export records (admin keys), the JSONL of ``graphmem export``, one dict each."""
    return Call(
        "GET",
        f"{_group(group)}/export",
        _jsonl,
        params={"since": _time(since)},
        idempotent=True,
        timeout=timeout,
        raw=True,
    )


def import_records(
    group: str,
    records: Iterable[Mapping[str, Any]] | str | bytes,
    *,
    allow_forgotten: bool = False,
    timeout: float | None = None,
) -> Call[ImportReport]:
    """Import export records (dicts, or the JSONL text) into ``group`` (admin keys). Imports are
    idempotent, so a lost answer is retried."""
    if isinstance(records, bytes):
        content = records
    elif isinstance(records, str):
        content = records.encode("utf-8")
    else:
        lines = [json.dumps(dict(r), ensure_ascii=False, separators=(",", ":")) for r in records]
        content = ("\n".join(lines) + "\n").encode("utf-8")
    return Call(
        "POST",
        f"{_group(group)}/import",
        ImportReport.model_validate,
        params={"allow_forgotten": "true"} if allow_forgotten else None,
        headers={"Content-Type": "application/x-ndjson"},
        content=content,
        idempotent=True,
        timeout=timeout,
    )


def list_groups(
    *, cursor: str | None = None, limit: int = 1000, timeout: float | None = None
) -> Call[list[GroupSummary]]:
    """The groups this key can read (one page; ``iter_groups`` walks every page)."""
    return Call(
        "GET",
        "/v1/groups",
        _list_of(GroupSummary, "groups"),
        params={"cursor": cursor, "limit": limit},
        idempotent=True,
        timeout=timeout,
    )


def group_page(
    *, cursor: str | None = None, limit: int = 1000, timeout: float | None = None
) -> Call[GroupPage]:
    """One page of the groups this key can read, with ``next_cursor`` and ``has_more``."""
    return Call(
        "GET",
        "/v1/groups",
        GroupPage.model_validate,
        params={"cursor": cursor, "limit": limit},
        idempotent=True,
        timeout=timeout,
    )


def every_group(*, page_size: int = 1000, timeout: float | None = None) -> Pages[GroupSummary]:
    """Every group this key can read, in id order, ``page_size`` per request (``iter_groups``)."""
    return Pages(
        lambda cursor: group_page(cursor=cursor, limit=page_size, timeout=timeout), lambda page: page.groups
    )


def forget_episode(group: str, episode_id: str, *, timeout: float | None = None) -> Call[ForgetReport]:
    return Call(
        "DELETE", f"{_group(group)}/episodes/{_seg(episode_id)}", ForgetReport.model_validate, timeout=timeout
    )


def forget_group(
    group: str, *, purge_tombstones: bool = False, timeout: float | None = None
) -> Call[ForgetReport]:
    params = {"purge_tombstones": "true"} if purge_tombstones else None
    return Call("DELETE", _group(group), ForgetReport.model_validate, params=params, timeout=timeout)


def cypher(
    query: str, params: Mapping[str, Any] | None = None, *, timeout: float | None = None
) -> Call[CypherResult]:
    """Read-only Cypher (analyst and admin keys)."""
    return Call(
        "POST",
        "/v1/cypher",
        CypherResult.model_validate,
        body={"query": query, "params": dict(params or {})},
        idempotent=True,
        timeout=timeout,
    )


def ready(*, timeout: float | None = None) -> Call[dict[str, Any]]:
    """``/readyz``: Neo4j reachable, schema migrated, embedder loaded."""
    return Call("GET", "/readyz", dict, idempotent=True, timeout=timeout)
