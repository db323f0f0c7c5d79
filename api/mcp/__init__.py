"""MCP: the memory operations as tools, at ``/mcp`` (streamable HTTP) and over stdio (docs/mcp.md)."""

from api.mcp.server import McpHttp, build_server

__all__ = ["McpHttp", "build_server"]
