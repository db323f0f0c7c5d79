"""LlamaIndex adapters over graphmem (extra ``llamaindex``).

- ``GraphMemRetriever(client, group)``: a ``BaseRetriever`` whose nodes are graphmem's search hits
  in fused rank order: a fact's node holds its statement, an episode's node its content, and the
  metadata carries the provenance (``episode_ids``, ``external_ids``, ``session_ids``, ``speakers``
  on every node; a fact's ``quotes``, validity interval, ``source_kind``...). Use it in a query engine like any retriever.
- ``GraphMemMemoryBlock(client=..., group=...)``: a memory block of ``llama_index.core.memory.Memory``.
  ``aget`` searches with the latest user message and returns graphmem's context block; ``aput``
  (messages flushed from short-term memory) ingests each message with text as an episode, spoken
  by its role (or the name ``speakers`` maps the role to, so first-person facts get a subject).

The client's API key is the scope: a group it is not bound to answers ``Forbidden``.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.client import AsyncGraphMemClient, GraphMemClient
from graphmem.models.search import SearchResult
from graphmem_adapters import missing_extra

try:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.memory.memory import BaseMemoryBlock
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from pydantic import Field
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise missing_extra("llamaindex", exc) from exc


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def nodes_from(result: SearchResult) -> list[NodeWithScore]:
    """The fact and episode hits of a search as scored nodes, in the search's fused order."""
    nodes: dict[tuple[str, str], NodeWithScore] = {}
    for f in result.facts:
        fact, evidence = f.fact, f.fact.evidence
        metadata = {
            "type": "fact",
            "group_id": f.group_id or fact.group_id,
            "fact_id": fact.id,
            "subject": fact.subject,
            "predicate": fact.predicate,
            "value": fact.value,
            "valid_from": _iso(fact.valid_from),
            "valid_to": _iso(fact.valid_to),
            "recorded_at": _iso(fact.recorded_at),
            "source_kind": fact.source_kind,
            "confidence": fact.confidence,
            "version": fact.version,
            "episode_ids": [e.episode_id for e in evidence],
            "external_ids": [e.external_id for e in evidence if e.external_id],
            "session_ids": sorted({e.session_id for e in evidence if e.session_id}),
            "speakers": sorted({e.speaker for e in evidence if e.speaker}),
            "quotes": [e.quote for e in evidence if e.quote],
        }
        node = TextNode(id_=fact.id, text=fact.statement, metadata=metadata)
        nodes[("fact", fact.id)] = NodeWithScore(node=node, score=f.score)
    for h in result.episodes:
        episode = h.episode
        metadata = {
            "type": "episode",
            "group_id": h.group_id or episode.group_id,
            "episode_id": episode.id,
            "external_id": episode.external_id,
            "session_id": episode.session_id,
            "speaker": episode.speaker,
            "reference_time": _iso(episode.reference_time),
            # the provenance keys of a fact's node, so every node can be cited the same way
            "episode_ids": [episode.id],
            "external_ids": [episode.external_id] if episode.external_id else [],
            "session_ids": [episode.session_id] if episode.session_id else [],
            "speakers": [episode.speaker] if episode.speaker else [],
        }
        node = TextNode(id_=episode.id, text=episode.content, metadata=metadata)
        nodes[("episode", episode.id)] = NodeWithScore(node=node, score=h.score)
    ordered = [nodes.pop((r.type, r.id)) for r in result.ranked if (r.type, r.id) in nodes]
    return ordered + sorted(nodes.values(), key=lambda n: -(n.score or 0.0))


class GraphMemRetriever(BaseRetriever):
    """Retrieve graphmem facts and episodes for a query (``search_options``: k, as_of, recipe...).

    ``aretrieve`` uses ``async_client`` when one is given, else the sync client in a thread.
    """

    def __init__(
        self,
        client: GraphMemClient,
        group: str,
        *,
        async_client: AsyncGraphMemClient | None = None,
        **search_options: Any,
    ) -> None:
        super().__init__()
        self.client = client
        self.async_client = async_client
        self.group = group
        self.search_options = {"k": 5, **search_options}

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return nodes_from(self.client.search(self.group, query_bundle.query_str, **self.search_options))

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if self.async_client is None:
            return await asyncio.to_thread(self._retrieve, query_bundle)
        found = await self.async_client.search(self.group, query_bundle.query_str, **self.search_options)
        return nodes_from(found)


def _text(message: ChatMessage) -> str:
    return (message.content or "").strip()


class GraphMemMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory for ``Memory.from_defaults(memory_blocks=[...])``, kept in graphmem."""

    name: str = "graphmem"
    description: str | None = "Facts and episodes from graphmem relevant to the conversation"
    client: AsyncGraphMemClient = Field(description="The graphmem client (its key is the scope).")
    group: str = Field(description="The graphmem group to read and write.")
    session_id: str | None = Field(default=None, description="The session flushed messages join.")
    speakers: dict[str, str] = Field(default_factory=dict, description="Role -> speaker name.")
    k: int = Field(default=5, description="Hits of each kind the search returns.")

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        asked = [_text(m) for m in messages or [] if m.role == MessageRole.USER and _text(m)]
        if not asked:
            return ""
        found = await self.client.search(self.group, asked[-1][:2000], k=self.k)
        return found.context

    async def _aput(self, messages: list[ChatMessage]) -> None:
        start, batch = datetime.now(UTC), uuid.uuid4().hex
        episodes: list[dict[str, Any]] = []
        for i, message in enumerate(m for m in messages if _text(m)):
            role = str(message.role.value)
            session = message.additional_kwargs.get("session_id") or self.session_id
            episode = {
                "content": _text(message),
                "speaker": self.speakers.get(role, role),
                "external_id": f"llamaindex:{batch}:{i:05d}",  # a retried call stores nothing twice
                "reference_time": (start + timedelta(microseconds=i)).isoformat(),
                **({"session_id": str(session)} if session else {}),
            }
            episodes.append(episode)
        if episodes:
            await self.client.add_episodes(self.group, episodes)
