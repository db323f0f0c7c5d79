"""The graphmem MCP server (official ``mcp`` SDK, ``MCPServer``), over streamable HTTP and stdio.

- ``build_server``: the tools, plus a middleware that shows and lets a caller run only the tools of
  its key's role (a hidden tool answers exactly like an unknown one).
- ``McpHttp``: the streamable HTTP endpoint at ``/mcp`` in the FastAPI app: stateless, JSON responses
  (any replica can answer any request), bearer keys checked by ``KeyTokenVerifier`` (401 without a
  valid one, as the SDK answers), the Host/Origin check of ``transport_security``.
- stdio: ``graphmem mcp`` (graphmem_cli/mcp_cmd.py) runs ``build_server`` with a fixed principal.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.auth.settings import AuthSettings
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, TextContent
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from api.auth import KeyRing, Principal
from api.mcp.auth import KeyTokenVerifier, http_principal
from api.mcp.tools import TOOL_ROLES, ToolEnv, register_tools
from api.security import is_loopback
from graphmem.config import Settings
from graphmem.errors import GraphMemError, StoreUnavailable
from graphmem.memory import GraphMemory

PATH = "/mcp"
INSTRUCTIONS = (
    "graphmem: temporal knowledge-graph memory. add_episodes stores turns and extracts facts; "
    "search_memory returns a context block and facts with ids; facts carry valid times and a "
    "version for correct_fact. The group comes from your key; pass group_id only if it has several."
)
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*", "127.0.0.1", "localhost", "[::1]"]
LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


class RoleToolFilter:
    """Server middleware: ``tools/list`` shows the caller's tools only; calling another is 'unknown'."""

    def __init__(self, principal: Callable[[], Principal]) -> None:
        self.principal = principal

    def _visible(self, name: str) -> bool:
        try:
            role = self.principal().role
        except GraphMemError:
            return False
        return role in TOOL_ROLES.get(name, frozenset())

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/call":
            name = (ctx.params or {}).get("name")
            if isinstance(name, str) and name in TOOL_ROLES and not self._visible(name):
                return CallToolResult(
                    content=[TextContent(type="text", text=f"Unknown tool: {name}")], is_error=True
                )
        result = await call_next(ctx)
        if ctx.method == "tools/list" and isinstance(result, dict) and isinstance(result.get("tools"), list):
            result = {**result, "tools": [t for t in result["tools"] if self._visible(t.get("name", ""))]}
        return result


def build_server(
    env: ToolEnv, *, token_verifier: KeyTokenVerifier | None = None, issuer_url: str | None = None
) -> MCPServer[Any]:
    """The MCP server with every tool; ``token_verifier`` turns on bearer-key auth (HTTP)."""
    auth = None
    if token_verifier is not None:
        # A resource server only: keys are checked by the verifier, no OAuth routes are served.
        auth = AuthSettings(issuer_url=issuer_url or "http://127.0.0.1", resource_server_url=None)
    server: MCPServer[Any] = MCPServer(
        "graphmem",
        version="0.1.0",
        instructions=INSTRUCTIONS,
        token_verifier=token_verifier,
        auth=auth,
        middleware=[RoleToolFilter(env.principal)],
        log_level="WARNING",
    )
    register_tools(server, env)
    return server


def split_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def transport_security(settings: Settings) -> TransportSecuritySettings:
    """The Host/Origin check (DNS-rebinding protection) of ``/mcp``.

    ``GRAPHMEM_MCP_ALLOWED_HOSTS``: ``*`` turns the check off; a list (``host``, ``host:port`` or
    ``host:*``) is what a ``Host`` header may be, else 421 Misdirected Request. Unset: the loopback
    names on a loopback bind, and no check on another bind (keys are required there). Origins work
    the same way (``GRAPHMEM_MCP_ALLOWED_ORIGINS``, 403 when refused; no Origin header passes).
    """
    hosts = split_list(settings.mcp_allowed_hosts)
    origins = split_list(settings.mcp_allowed_origins)
    if hosts == ["*"] or (not hosts and not is_loopback(settings.host)):
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    if not hosts:
        hosts = LOOPBACK_HOSTS
    if not origins:
        origins = LOOPBACK_ORIGINS
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


class McpHttp:
    """ASGI endpoint for ``/mcp``. ``running()`` (entered by the app's lifespan) builds the SDK's app
    and runs its session manager; requests before that get 503."""

    def __init__(self, settings: Settings, keys: KeyRing, memory: Callable[[], GraphMemory | None]) -> None:
        self.settings = settings
        self.keys = keys
        self.memory = memory
        self._app: Starlette | None = None

    def route(self) -> Route:
        return Route(PATH, endpoint=self, include_in_schema=False)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Build the SDK's app and run its session manager until the app shuts down.

        The session manager's task group lives in a task of its own, so the lifespan may be entered
        and left from different tasks (as test fixtures do) without crossing anyio cancel scopes.
        """
        server = build_server(
            ToolEnv(
                memory=self.memory, principal=http_principal(self.settings.no_auth), settings=self.settings
            ),
            token_verifier=None if self.settings.no_auth else KeyTokenVerifier(self.keys),
        )
        app = server.streamable_http_app(
            streamable_http_path=PATH,
            stateless_http=True,
            json_response=True,
            transport_security=transport_security(self.settings),
            max_request_body_size=self.settings.max_body_bytes,
            host=self.settings.host,
        )
        started, stop = asyncio.Event(), asyncio.Event()

        async def run() -> None:
            async with server.session_manager.run():
                started.set()
                await stop.wait()

        task = asyncio.create_task(run(), name="mcp-session-manager")
        waiter = asyncio.create_task(started.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if task.done():
            task.result()  # it failed to start: raise why
        self._app = app
        try:
            yield
        finally:
            self._app = None
            stop.set()
            await task

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            raise StoreUnavailable("the service is starting")
        await self._app(scope, receive, send)
