"""OpenAI Agents SDK adapters over graphmem (extra ``openai-agents``).

- ``memory_tools(client, group)``: ``search_memory`` and ``add_memory`` as the SDK's function tools
  (``agents.function_tool``). The group is fixed by the integrator, never a tool argument, and the
  client's API key decides what it may reach; a refused call comes back to the model as
  ``graphmem error <code>: <message>``.
- ``GraphMemSession(session_id, client, group)``: an SDK ``Session`` kept as the episodes of one
  graphmem session. ``get_items(limit)`` is the newest ``limit`` items, oldest first; ``add_items``
  stores each item as an episode (plain ``{"role", "content"}`` messages as ``message`` episodes,
  spoken by the role, so facts are extracted from them; any other item as a ``json`` episode);
  ``pop_item`` and ``clear_session`` forget episodes.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from graphmem.client import AsyncGraphMemClient
from graphmem.errors import GraphMemError
from graphmem_adapters import missing_extra

try:
    from agents import FunctionTool, RunContextWrapper, function_tool
    from agents.items import TResponseInputItem
    from agents.memory.session import SessionABC
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise missing_extra("openai-agents", exc) from exc

ITEM_PREFIX = "oai:"
SCAN_TURNS = 1000  # the most turns the API returns for one session


def tool_error(_context: RunContextWrapper[Any], error: Exception) -> str:
    """What the model reads when a tool call fails: the stable code for graphmem's errors."""
    if isinstance(error, GraphMemError):
        return f"graphmem error {error.code}: {error}"
    return f"tool error: {error}"


def memory_tools(client: AsyncGraphMemClient, group: str) -> list[FunctionTool]:
    """``search_memory`` and ``add_memory`` over ``group``, through ``client`` (its key's scope)."""

    @function_tool(failure_error_function=tool_error)
    async def search_memory(query: str, as_of: str | None = None, k: int = 5) -> str:
        """Search long-term memory: facts with the episodes they come from, and a context block.

        Args:
            query: What to look for, in natural language.
            as_of: An ISO 8601 time to ask what was true then (default: now).
            k: How many hits of each kind to return (1-100).
        """
        options: dict[str, Any] = {"k": k, **({"as_of": as_of} if as_of else {})}
        found = await client.search(group, query, **options)
        facts = [
            {
                "fact_id": h.fact.id,
                "statement": h.fact.statement,
                "valid_from": h.fact.valid_from.isoformat() if h.fact.valid_from else None,
                "valid_to": h.fact.valid_to.isoformat() if h.fact.valid_to else None,
                "episode_ids": [e.episode_id for e in h.fact.evidence],
                "external_ids": [e.external_id for e in h.fact.evidence if e.external_id],
                "score": h.score,
            }
            for h in found.facts
        ]
        episodes = [
            {"episode_id": h.episode.id, "content": h.episode.content, "score": h.score}
            for h in found.episodes
        ]
        return json.dumps({"context": found.context, "facts": facts, "episodes": episodes})

    @function_tool(failure_error_function=tool_error)
    async def add_memory(
        content: str,
        speaker: str | None = None,
        session_id: str | None = None,
        external_id: str | None = None,
        reference_time: str | None = None,
    ) -> str:
        """Remember something said or learned. Retrying with the same external_id adds nothing.

        Args:
            content: The text to remember (a chat turn, a note).
            speaker: Who said it; first-person statements are about the speaker.
            session_id: The conversation it belongs to.
            external_id: A stable id for it, so a retried call stores it once.
            reference_time: When it was said, ISO 8601 (default: now).
        """
        episode = {
            "content": content,
            "speaker": speaker,
            "session_id": session_id,
            "external_id": external_id,
            "reference_time": reference_time or datetime.now(UTC).isoformat(),
        }
        result = await client.add_episodes(group, [{k: v for k, v in episode.items() if v is not None}])
        return json.dumps(
            {
                "episodes": [{"id": e.id, "status": e.status} for e in result.episodes],
                "facts": [f.statement for f in result.facts],
            }
        )

    return [search_memory, add_memory]


def _is_plain_message(item: Any) -> bool:
    """A ``{"role", "content"}`` message whose text survives as an episode unchanged."""
    if not isinstance(item, dict) or set(item) != {"role", "content"}:
        return False
    content = item["content"]
    return isinstance(content, str) and bool(content) and content == content.strip()


class GraphMemSession(SessionABC):
    """An Agents SDK session stored in graphmem: ``Runner.run(agent, text, session=...)``."""

    def __init__(self, session_id: str, client: AsyncGraphMemClient, group: str) -> None:
        self.session_id = session_id
        self.client = client
        self.group = group

    async def _turns(self, limit: int = SCAN_TURNS) -> list[Any]:
        turns = await self.client.session_episodes(self.group, self.session_id, last_n=limit)
        return [t.episode for t in turns if (t.episode.external_id or "").startswith(ITEM_PREFIX)]

    @staticmethod
    def _item(episode: Any) -> TResponseInputItem:
        if episode.source == "message":
            return cast(TResponseInputItem, {"role": episode.speaker, "content": episode.content})
        return cast(TResponseInputItem, json.loads(episode.content))

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        episodes = await self._turns(min(limit, SCAN_TURNS) if limit else SCAN_TURNS)
        return [self._item(e) for e in episodes]

    async def add_items(self, items: Sequence[TResponseInputItem]) -> None:
        if not items:
            return
        start, batch = datetime.now(UTC), uuid.uuid4().hex
        episodes = []
        for i, item in enumerate(items):
            raw = cast(dict[str, Any], item)
            plain = _is_plain_message(raw)
            episode: dict[str, Any] = {
                "content": raw["content"] if plain else json.dumps(raw, ensure_ascii=False),
                "source": "message" if plain else "json",
                "session_id": self.session_id,
                "external_id": f"{ITEM_PREFIX}{batch}:{i:05d}",  # a retried call stores nothing twice
                "reference_time": (start + timedelta(microseconds=i)).isoformat(),
            }
            if plain:
                episode["speaker"] = raw["role"]
            episodes.append(episode)
        await self.client.add_episodes(self.group, episodes)

    async def pop_item(self) -> TResponseInputItem | None:
        episodes = await self._turns(1)
        if not episodes:
            return None
        await self.client.forget_episode(self.group, episodes[-1].id)
        return self._item(episodes[-1])

    async def clear_session(self) -> None:
        seen: set[str] = set()
        while episodes := [e for e in await self._turns() if e.id not in seen]:
            for episode in episodes:  # SCAN_TURNS at a time
                await self.client.forget_episode(self.group, episode.id)
                seen.add(episode.id)
