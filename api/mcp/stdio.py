"""``graphmem mcp``: the MCP tools over stdio, for one caller whose key is read at start-up."""

from __future__ import annotations

from api.auth import LOCAL_ADMIN, KeyRing, Principal
from api.mcp.auth import fixed_principal
from api.mcp.server import build_server
from api.mcp.tools import ToolEnv
from graphmem.config import Settings
from graphmem.errors import Unauthorized
from graphmem.memory import GraphMemory

KEY_ENV = "GRAPHMEM_API_KEY"


def stdio_principal(settings: Settings, key: str | None) -> Principal:
    """The caller: the key's principal under ``GRAPHMEM_API_KEYS``; the local admin in no-auth mode."""
    if settings.no_auth:
        return LOCAL_ADMIN
    if not key or not key.strip():
        raise Unauthorized(
            f"set {KEY_ENV} to an API key of GRAPHMEM_API_KEYS (or GRAPHMEM_NO_AUTH=1 locally)"
        )
    return KeyRing.from_json(settings.api_keys).authenticate(key.strip())


async def serve_stdio(settings: Settings, principal: Principal) -> None:
    """Open the memory, serve MCP on stdin/stdout until the client closes it, close the memory."""
    memory = await GraphMemory.from_settings(settings)
    try:
        memory.ctx.embedder.embed(["warm-up"])  # load the model before the first call
        server = build_server(
            ToolEnv(memory=lambda: memory, principal=fixed_principal(principal), settings=settings)
        )
        await server.run_stdio_async()
    finally:
        await memory.close()
