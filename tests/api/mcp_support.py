"""MCP test helpers: a real uvicorn server in the test's event loop, the SDK's client, tool calls."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import uvicorn
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests.api.servers import free_port

CONVERSATION = [
    {
        "content": "I live in Berlin. I work at Acme.",
        "reference_time": "2024-01-10T09:00:00Z",
        "speaker": "Alice",
        "session_id": "chat-1",
        "external_id": "turn-1",
    },
    {
        "content": "I moved to Paris.",
        "reference_time": "2024-06-01T09:00:00Z",
        "speaker": "Alice",
        "session_id": "chat-1",
        "external_id": "turn-2",
    },
]
B_CONVERSATION = [
    {
        "content": "I live in Quito. I work at Quasarcorp.",
        "reference_time": "2024-01-01T00:00:00Z",
        "speaker": "Zoltan",
        "session_id": "b-chat",
        "external_id": "b-turn-1",
    }
]
B_WORDS = ("Zoltan", "Quito", "Quasarcorp", "b-chat", "b-turn-1")
AGENT_TOOLS = {
    "add_episodes",
    "search_memory",
    "get_entity_timeline",
    "get_fact",
    "recent_episodes",
    "correct_fact",
}
ANALYST_TOOLS = {"search_memory", "get_entity_timeline", "get_fact", "recent_episodes", "cypher_query"}
ADMIN_TOOLS = AGENT_TOOLS | {"forget_episode", "forget_group", "cypher_query"}


@asynccontextmanager
async def serve(app: FastAPI) -> AsyncIterator[str]:
    """``app`` under uvicorn on a free loopback port (its lifespan runs); yields the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def mcp_client(url: str, key: str | None, *, mode: str = "auto") -> AsyncIterator[Client]:
    """The SDK's client over streamable HTTP, presenting ``key`` as a bearer token."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=120) as http:
        async with Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode) as client:
            yield client


async def tool_names(client: Client) -> set[str]:
    return {t.name for t in (await client.list_tools()).tools}


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call ``tool``; return its structured result (success) or its error body (``is_error``)."""
    result: CallToolResult = await client.call_tool(tool, arguments)
    if result.structured_content is not None:
        body = dict(result.structured_content)
    else:
        text = result.content[0].text if result.content and hasattr(result.content[0], "text") else ""
        body = (
            {"code": "unknown_tool", "message": text} if text.startswith("Unknown tool") else {"text": text}
        )
    if result.is_error:
        body["is_error"] = True
    return body


async def ok(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    body = await call(client, tool, **arguments)
    assert not body.get("is_error"), (tool, body)
    return body


def text_of(body: Any) -> str:
    return json.dumps(body, default=str)
