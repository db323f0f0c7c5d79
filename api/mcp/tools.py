"""The MCP tools: a small set over the same ``GraphMemory`` operations the HTTP routes call.

Each tool resolves the caller (``ToolEnv.principal``) and its group the way the HTTP API does
(``scoped_group``: the argument narrows, never widens), calls one facade operation, and returns
JSON-ready data. A ``GraphMemError`` becomes a tool error whose text is the API's error body
``{code, message, details}``. ``TOOL_ROLES`` says which roles see and may call each tool.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from functools import wraps
from typing import Annotated, Any, ParamSpec

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from api.auth import Principal, Role
from api.mcp.auth import require_roles, scoped_group, writable_group
from api.routes.episodes import check_batch
from api.schemas.facts import FactPatch
from graphmem.config import Settings
from graphmem.errors import GraphMemError, InvalidInput, StoreUnavailable
from graphmem.memory import GraphMemory
from graphmem.models.browse import SessionDigest, SessionWindow
from graphmem.models.common import UtcDatetime
from graphmem.models.episode import EpisodeIn
from graphmem.models.fact import FactRecord
from graphmem.models.search import SearchRequest

P = ParamSpec("P")

EVERY_ROLE: frozenset[Role] = frozenset({"agent", "analyst", "admin"})
WRITERS: frozenset[Role] = frozenset({"agent", "admin"})
TOOL_ROLES: dict[str, frozenset[Role]] = {
    "add_episodes": WRITERS,
    "search_memory": EVERY_ROLE,
    "get_entity_timeline": EVERY_ROLE,
    "get_fact": EVERY_ROLE,
    "recent_episodes": EVERY_ROLE,
    "correct_fact": WRITERS,
    "forget_episode": frozenset({"admin"}),
    "forget_group": frozenset({"admin"}),
    "cypher_query": frozenset({"analyst", "admin"}),
}

GroupArg = Annotated[
    str | None,
    Field(
        default=None,
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.:\-]+$",
        description="The group (tenant). Optional when the key has exactly one group.",
    ),
]
IdArg = Annotated[str, Field(min_length=1, max_length=200)]

READ = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
ADD = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
CHANGE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
DESTROY = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)


@dataclass(frozen=True)
class ToolEnv:
    """What every tool needs: the app's memory, the current caller, the settings."""

    memory: Callable[[], GraphMemory | None]
    principal: Callable[[], Principal]
    settings: Settings

    def mem(self) -> GraphMemory:
        memory = self.memory()
        if memory is None:
            raise StoreUnavailable("the service is starting")
        return memory

    def caller(self, tool: str) -> Principal:
        principal = self.principal()
        require_roles(principal, TOOL_ROLES[tool])
        return principal


def error_result(error: GraphMemError) -> CallToolResult:
    """A failed call: ``is_error``, the API's error body as structured content and as its text."""
    body = error.to_dict()
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(body, default=str))],
        structured_content=jsonable(body),
        is_error=True,
    )


def tool_errors(
    fn: Callable[P, Awaitable[dict[str, Any]]],
) -> Callable[P, Awaitable[dict[str, Any] | CallToolResult]]:
    """A graphmem error (or a model's validation error) becomes an error result with a stable code."""

    @wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> dict[str, Any] | CallToolResult:
        try:
            return await fn(*args, **kwargs)
        except GraphMemError as exc:
            return error_result(exc)
        except ValidationError as exc:
            problems = [
                {"field": ".".join(str(p) for p in e["loc"]) or "arguments", "message": e["msg"]}
                for e in exc.errors(include_input=False, include_url=False)
            ]
            first = problems[0]
            return error_result(
                InvalidInput(f"{first['field']}: {first['message']}", details={"errors": problems})
            )

    return wrapper


def fact_brief(fact: FactRecord) -> dict[str, Any]:
    """A fact as an agent reads it: the statement, its times, its version and its evidence ids."""
    return {
        "id": fact.id,
        "group_id": fact.group_id,
        "statement": fact.statement,
        "subject": fact.subject,
        "predicate": fact.predicate,
        "value": fact.value,
        "valid_from": fact.valid_from,
        "valid_to": fact.valid_to,
        "recorded_at": fact.recorded_at,
        "expired_at": fact.expired_at,
        "version": fact.version,
        "status": fact.status,
        "supersedes": fact.supersedes,
        "superseded_by": fact.superseded_by,
        "episode_ids": [ev.episode_id for ev in fact.evidence],
        "external_ids": [ev.external_id for ev in fact.evidence if ev.external_id],
    }


def digest_brief(digest: SessionDigest) -> dict[str, Any]:
    """A session digest as an agent reads it: sizes and times, facts and turns by id and text."""

    def turn(episode: Any) -> dict[str, Any]:
        return {
            "id": episode.id,
            "speaker": episode.speaker,
            "reference_time": episode.reference_time,
            "content": episode.content,
        }

    return {
        "group_id": digest.group_id,
        "session_id": digest.session_id,
        "episodes": digest.episodes,
        "first_at": digest.first_at,
        "last_at": digest.last_at,
        "facts": [{"id": f.id, "statement": f.statement, "version": f.version} for f in digest.facts],
        "key_turns": [turn(t.episode) for t in digest.key_turns],
        "recent": [turn(t.episode) for t in digest.recent],
    }


def jsonable(value: Any) -> Any:
    """Datetimes as ISO 8601 strings, everything else as JSON has it."""
    return json.loads(
        json.dumps(value, default=lambda v: v.isoformat() if isinstance(v, datetime) else str(v))
    )


def register_tools(server: MCPServer[Any], env: ToolEnv) -> None:
    """Add every tool to ``server``; which of them a caller sees is ``TOOL_ROLES``'s business."""

    @tool_errors
    async def add_episodes(
        episodes: Annotated[list[EpisodeIn], Field(min_length=1)], group_id: GroupArg = None
    ) -> dict[str, Any]:
        """Store conversation turns or documents and extract facts from them, synchronously: the
        reply lists each episode's id and status and the facts created or changed. Give each
        episode an external_id: a retried call then adds nothing (status "existing")."""
        principal = env.caller("add_episodes")
        group = writable_group(principal, group_id)
        check_batch(len(episodes), env.settings.max_batch, "episodes")
        result = await env.mem().add_episodes(group, episodes)
        return {"group_id": group, **result.model_dump(mode="json")}

    @tool_errors
    async def search_memory(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        group_id: GroupArg = None,
        as_of: Annotated[UtcDatetime | None, Field(description="What was true at this time.")] = None,
        since: Annotated[
            UtcDatetime | None, Field(description="Only episodes said, and facts valid, from this time on.")
        ] = None,
        until: Annotated[
            UtcDatetime | None, Field(description="Only episodes said, and facts valid, before this time.")
        ] = None,
        include_history: Annotated[bool, Field(description="Also superseded and ended facts.")] = False,
        token_budget: Annotated[int, Field(ge=0, le=32_000)] = 1000,
        k: Annotated[int, Field(ge=1, le=100)] = 10,
        groups: Annotated[
            list[str] | None,
            Field(max_length=20, description="Search these groups together instead (each the key's)."),
        ] = None,
        session_id: Annotated[
            str | None,
            Field(min_length=1, max_length=200, description="Also this session's digest (short-term)."),
        ] = None,
        last_n: Annotated[int, Field(ge=0, le=100, description="The session's newest turns to add.")] = 10,
    ) -> dict[str, Any]:
        """Hybrid search of the group's memory. Returns `context` (a text block within
        token_budget, ready for a prompt) and the ranked facts and episodes with their ids. With
        session_id, `session` holds that session's facts and newest turns too (its text opens
        `context`; with groups, the session of the first group): short-term and long-term memory
        in one call."""
        principal = env.caller("search_memory")
        window = SessionWindow(id=session_id, last_n=last_n) if session_id else None
        if window is not None and groups:  # several groups: the session is read from the first
            window = window.model_copy(update={"group_id": groups[0]})
        request = SearchRequest(
            query=query,
            k=k,
            as_of=as_of,
            since=since,
            until=until,
            include_history=include_history,
            token_budget=token_budget,
            session=window,
        )
        if groups:
            if group_id is not None:
                raise InvalidInput("give group_id or groups, not both", details={"field": "groups"})
            searched = [scoped_group(principal, g) for g in groups]
            result = await env.mem().search_groups(searched, request)
            group: str | list[str] = searched
        else:
            group = scoped_group(principal, group_id)
            result = await env.mem().search(group, request)
        return jsonable(
            {
                "group_id": group,
                "context": result.context,
                "facts": [{"score": h.score, **fact_brief(h.fact)} for h in result.facts],
                "episodes": [
                    {
                        "id": h.id,
                        "group_id": h.episode.group_id,
                        "score": h.score,
                        "external_id": h.episode.external_id,
                        "session_id": h.episode.session_id,
                        "speaker": h.episode.speaker,
                        "reference_time": h.episode.reference_time,
                        "content": h.episode.content,
                    }
                    for h in result.episodes
                ],
                "entities": [
                    {"id": h.id, "name": h.entity.name, "kind": h.entity.kind} for h in result.entities
                ],
                **({"session": digest_brief(result.session)} if result.session is not None else {}),
            }
        )

    @tool_errors
    async def get_entity_timeline(
        entity_id: Annotated[str | None, Field(max_length=200, description="The entity's id.")] = None,
        name: Annotated[str | None, Field(max_length=200, description="Or its name.")] = None,
        group_id: GroupArg = None,
    ) -> dict[str, Any]:
        """Every fact about one entity (by id or name), current and past, in valid-time order,
        with supersession links: how what is known about it changed."""
        principal = env.caller("get_entity_timeline")
        group = scoped_group(principal, group_id)
        memory = env.mem()
        if (entity_id is None) == (name is None):
            raise InvalidInput("give exactly one of entity_id and name", details={"field": "entity_id"})
        others: list[str] = []
        if entity_id is None:
            assert name is not None
            found = await memory.find_entities(group, name, limit=5)
            if not found:
                entity_id = ""  # not found below, with the same error as an unknown id
            else:
                entity_id, others = found[0].id, [e.id for e in found[1:]]
        entity = await memory.get_entity(group, entity_id)
        facts = await memory.timeline(group, entity.id)
        return jsonable(
            {
                "group_id": group,
                "entity": entity.model_dump(mode="json"),
                "facts": [fact_brief(f) for f in facts],
                "other_matches": others,
            }
        )

    @tool_errors
    async def get_fact(fact_id: IdArg, group_id: GroupArg = None) -> dict[str, Any]:
        """One fact with its evidence and supersession links; `version` is what correct_fact needs."""
        principal = env.caller("get_fact")
        group = scoped_group(principal, group_id)
        fact = await env.mem().get_fact(group, fact_id)
        return fact.model_dump(mode="json")

    @tool_errors
    async def recent_episodes(
        session_id: IdArg,
        last_n: Annotated[int, Field(ge=1, le=1000)] = 20,
        group_id: GroupArg = None,
    ) -> dict[str, Any]:
        """The last `last_n` turns of a session, oldest first, each with the facts it produced."""
        principal = env.caller("recent_episodes")
        group = scoped_group(principal, group_id)
        turns = await env.mem().session_turns(group, session_id, last_n=last_n)
        return jsonable(
            {
                "group_id": group,
                "session_id": session_id,
                "turns": [
                    {
                        **t.episode.model_dump(mode="json", exclude={"group_id", "content_hash"}),
                        "facts": [{"id": f.id, "statement": f.statement} for f in t.facts],
                    }
                    for t in turns
                ],
            }
        )

    @tool_errors
    async def correct_fact(
        fact_id: IdArg,
        expected_version: Annotated[int, Field(ge=1, description="The fact's current `version`.")],
        value: Annotated[str | None, Field(max_length=2000, description="The right literal value.")] = None,
        object: Annotated[str | None, Field(max_length=500, description="Or the right entity.")] = None,
        valid_from: UtcDatetime | None = None,
        valid_to: Annotated[UtcDatetime | None, Field(description="When it stopped being true.")] = None,
        end: Annotated[bool, Field(description="It is no longer true (now, or at valid_to).")] = False,
        group_id: GroupArg = None,
    ) -> dict[str, Any]:
        """Correct a mistaken fact (the old one is expired, history kept) or end it in the world.
        Refused with code `conflict` when expected_version is stale: read the fact again."""
        principal = env.caller("correct_fact")
        group = writable_group(principal, group_id)
        given = {"value": value, "object": object, "valid_from": valid_from, "valid_to": valid_to}
        patch = FactPatch.model_validate({k: v for k, v in given.items() if v is not None} | {"end": end})
        fact = await env.mem().correct_fact(
            group, fact_id, expected_version=expected_version, **patch.model_dump(exclude_unset=True)
        )
        return fact.model_dump(mode="json")

    @tool_errors
    async def forget_episode(episode_id: IdArg, group_id: GroupArg = None) -> dict[str, Any]:
        """Delete an episode and the facts only it supports (admin keys). It cannot be re-added."""
        principal = env.caller("forget_episode")
        group = writable_group(principal, group_id)
        report = await env.mem().forget_episode(group, episode_id)
        return {"group_id": group, **report.model_dump(mode="json")}

    @tool_errors
    async def forget_group(
        group_id: Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:\-]+$")],
    ) -> dict[str, Any]:
        """Delete every episode, fact and entity of a group (admin keys). Not reversible."""
        principal = env.caller("forget_group")
        principal.require_write(group_id)
        report = await env.mem().forget_group(group_id)
        return {"group_id": group_id, **report.model_dump(mode="json")}

    @tool_errors
    async def cypher_query(
        query: Annotated[str, Field(min_length=1, max_length=100_000)],
        params: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Read-only Cypher over every group (analyst and admin keys); filter by group_id yourself.
        Writes, LOAD CSV, schema and admin commands are refused."""
        env.caller("cypher_query")
        result = await env.mem().cypher(
            query,
            params or {},
            timeout_s=env.settings.cypher_timeout_s,
            row_cap=env.settings.cypher_row_cap,
        )
        return result.model_dump(mode="json")

    annotations = {
        add_episodes: ADD,
        search_memory: READ,
        get_entity_timeline: READ,
        get_fact: READ,
        recent_episodes: READ,
        correct_fact: CHANGE,
        forget_episode: DESTROY,
        forget_group: DESTROY,
        cypher_query: READ,
    }
    for fn, hints in annotations.items():
        server.add_tool(fn, annotations=hints, structured_output=True)
