"""Who is calling over MCP: the API key behind the bearer token, as the HTTP API sees it.

``KeyTokenVerifier`` is the SDK's ``TokenVerifier`` over the app's ``KeyRing``: a valid key becomes
an ``AccessToken`` carrying the key's role and groups, and ``principal_of`` turns that token back
into the same ``Principal`` the HTTP routes check. The scope therefore comes from the key alone; no
tool argument can widen it.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken

from api.auth import LOCAL_ADMIN, KeyRing, Principal, Role
from graphmem.errors import Forbidden, GraphMemError, InvalidInput, Unauthorized
from graphmem.memory import changes
from graphmem.models.changes import Actor, ChangeMeta

ROLES: tuple[Role, ...] = ("agent", "analyst", "admin")


class KeyTokenVerifier:
    """``TokenVerifier``: the bearer token is an API key of ``GRAPHMEM_API_KEYS``."""

    def __init__(self, keys: KeyRing) -> None:
        self._keys = keys

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            principal = self._keys.authenticate(token.strip())
        except GraphMemError:
            return None
        groups = sorted(principal.groups) if principal.groups is not None else None
        return AccessToken(
            token="",  # never kept: the key's hash already named the principal
            client_id=principal.key_id,
            scopes=[principal.role],
            claims={"role": principal.role, "groups": groups},
        )


def principal_of(token: AccessToken | None) -> Principal:
    """The ``Principal`` a verified token stands for (``Unauthorized`` without one)."""
    if token is None or token.claims is None:
        raise Unauthorized("an API key is required (Authorization: Bearer <key>)")
    role = token.claims.get("role")
    if role not in ROLES:
        raise Unauthorized("the API key is not valid")
    groups = token.claims.get("groups")
    return Principal(token.client_id, role, frozenset(groups) if groups is not None else None)


def http_principal(no_auth: bool) -> Callable[[], Principal]:
    """The caller of the current HTTP request: from its bearer key, or the local admin in no-auth mode."""
    if no_auth:
        return lambda: LOCAL_ADMIN
    return lambda: principal_of(get_access_token())


def fixed_principal(principal: Principal) -> Callable[[], Principal]:
    """stdio: one process, one caller, authenticated once at start-up."""
    return lambda: principal


def scoped_group(principal: Principal, group_id: str | None) -> str:
    """The group a tool works on: the argument, or the key's only group when it has one.

    The argument only narrows: it is checked against the key like a path's group in the HTTP API.
    """
    if group_id is not None:
        principal.require_read(group_id)
        return group_id
    if principal.groups is not None and len(principal.groups) == 1:
        return next(iter(principal.groups))
    count = "every group" if principal.groups is None else f"{len(principal.groups)} groups"
    raise InvalidInput(f"group_id is required: this key can read {count}", details={"field": "group_id"})


def writable_group(principal: Principal, group_id: str | None) -> str:
    """The group a write tool may write, and the key as the change log's actor of the call."""
    group = scoped_group(principal, group_id)
    principal.require_write(group)
    changes.set_meta(ChangeMeta(actor=Actor.api_key(principal.key_id, principal.role)))
    return group


def require_roles(principal: Principal, roles: frozenset[Role]) -> None:
    if principal.role not in roles:
        raise Forbidden("this key's role may not do that", details={"role": principal.role})
