"""``Annotated`` dependencies: the one ``GraphMemory`` of the app, the caller, and group access.

Every group route takes ``ReadGroup`` or ``WriteGroup``: the path's ``group`` after the caller's key
was checked against it. A group outside the key's groups gets 403 whether or not it exists.

Every dependency is ``async def``: FastAPI runs a plain ``def`` dependency in a worker thread, and
these only read ``app.state``, so a thread round trip each (four a request) cost more CPU than
their work.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from api.auth import LOCAL_ADMIN, KeyRing, Principal, presented_key
from api.metrics import Metrics
from graphmem.config import Settings
from graphmem.errors import StoreUnavailable, UnknownParameter
from graphmem.memory import GraphMemory, changes
from graphmem.models.changes import MAX_CONSENT_ID, MAX_REASON, Actor, ChangeMeta

GROUP_PATTERN = r"^[A-Za-z0-9_.:\-]+$"


async def get_memory(request: Request) -> GraphMemory:
    memory = getattr(request.app.state, "memory", None)
    if memory is None:
        raise StoreUnavailable("the service is starting")
    return memory


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_settings(request: Request) -> Settings:
    return _settings(request)


async def get_metrics(request: Request) -> Metrics:
    metrics: Metrics = request.app.state.metrics
    return metrics


_bearer = HTTPBearer(auto_error=False, description="`Authorization: Bearer <api key>`")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="The API key")


async def get_principal(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    x_api_key: Annotated[str | None, Depends(_api_key)],
) -> Principal:
    """The caller, from ``Authorization: Bearer <key>`` or ``X-API-Key`` (any caller in no-auth mode)."""
    settings = _settings(request)
    if settings.no_auth:
        principal = LOCAL_ADMIN
    else:
        keys: KeyRing = request.app.state.keys
        principal = keys.authenticate(presented_key(bearer.credentials if bearer else None, x_api_key))
    request.state.key_id = principal.key_id
    return principal


def _query_names(dependant: Dependant) -> set[str]:
    names = {p.alias for p in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


_DECLARED: dict[int, frozenset[str]] = {}  # id(route) -> names; routes live as long as the app


def declared_query(route: APIRoute) -> frozenset[str]:
    """The query parameters a route (and its dependencies) declares, by their public names."""
    names = _DECLARED.get(id(route))
    if names is None:
        names = _DECLARED[id(route)] = frozenset(_query_names(route.dependant))
    return names


async def reject_unknown_query(request: Request) -> None:
    """Every route: a query parameter the route does not declare is a 422 ``unknown_parameter``
    naming it, never silently ignored (``facts?since=...`` would otherwise return everything)."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    allowed = declared_query(route)
    for name in request.query_params:
        if name not in allowed:
            raise UnknownParameter(
                f"unknown query parameter {name!r}",
                details={"field": name, "in": "query", "allowed": sorted(allowed)},
            )


MemoryDep = Annotated[GraphMemory, Depends(get_memory)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]

GroupPath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=128,
        pattern=GROUP_PATTERN,
        description="The tenant (`group_id`): letters, digits and `_.:-`.",
        examples=["team-a"],
    ),
]


async def readable_group(request: Request, group: GroupPath, principal: PrincipalDep) -> str:
    principal.require_read(group)
    request.state.group_id = group
    return group


ConsentHeader = Annotated[
    str | None,
    Header(
        alias="X-Consent-Id",
        min_length=1,
        max_length=MAX_CONSENT_ID,
        description="The consent this write is made under; kept on its change-log records.",
    ),
]
ReasonHeader = Annotated[
    str | None,
    Header(
        alias="X-Change-Reason",
        min_length=1,
        max_length=MAX_REASON,
        description="Why this write is made; kept on its change-log records.",
    ),
]


def _record_as(principal: Principal, reason: str | None, consent_id: str | None) -> None:
    """The change log's actor for this request (graphmem.memory.changes; async dependencies run
    in the request's own task, so the context ends with the request)."""
    changes.set_meta(
        ChangeMeta(
            actor=Actor.api_key(principal.key_id, principal.role), reason=reason, consent_id=consent_id
        )
    )


async def writable_group(
    request: Request,
    group: GroupPath,
    principal: PrincipalDep,
    consent_id: ConsentHeader = None,
    reason: ReasonHeader = None,
) -> str:
    principal.require_write(group)
    request.state.group_id = group
    _record_as(principal, reason, consent_id)
    return group


async def admin_group(
    request: Request,
    group: GroupPath,
    principal: PrincipalDep,
    consent_id: ConsentHeader = None,
    reason: ReasonHeader = None,
) -> str:
    principal.require_write(group)
    principal.require_role("admin")
    request.state.group_id = group
    _record_as(principal, reason, consent_id)
    return group


async def analyst(principal: PrincipalDep) -> Principal:
    principal.require_role("analyst", "admin")
    return principal


ReadGroup = Annotated[str, Depends(readable_group)]
WriteGroup = Annotated[str, Depends(writable_group)]
AdminGroup = Annotated[str, Depends(admin_group)]
AnalystDep = Annotated[Principal, Depends(analyst)]
