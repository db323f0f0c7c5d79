"""The LlamaIndex adapters against the real API: GraphMemRetriever's nodes carry graphmem's hits
with provenance, and GraphMemMemoryBlock works inside llama_index's own ``Memory``."""

from __future__ import annotations

import uuid

import pytest
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import Memory
from sqlalchemy.ext.asyncio import create_async_engine

from graphmem.client import AsyncGraphMemClient
from graphmem.errors import Forbidden
from graphmem_adapters.llamaindex import GraphMemMemoryBlock, GraphMemRetriever
from tests.adapters.conftest import Served
from tests.api.conftest import KEYS

pytestmark = pytest.mark.slow


def async_client(served: Served, who: str) -> AsyncGraphMemClient:
    return AsyncGraphMemClient(served.server.url, api_key=KEYS[who], timeout=60)


async def test_the_retriever_returns_hits_with_provenance(served: Served) -> None:
    group = served.group_a
    with served.client("agent_a") as memory:
        added = memory.add_episodes(
            group,
            [
                {
                    "content": "I live in Madrid.",
                    "speaker": "Gina",
                    "session_id": "li-1",
                    "external_id": "li-e1",
                    "reference_time": "2024-02-01T09:00:00Z",
                },
            ],
        )
        retriever = GraphMemRetriever(memory, group, k=5)
        nodes = retriever.retrieve("Where does Gina live?")
        top = next(n for n in nodes if n.node.get_content() == "Gina lives in Madrid")
        assert (top.score or 0) > 0
        meta = top.node.metadata
        assert meta["type"] == "fact" and meta["group_id"] == group and meta["predicate"] == "lives_in"
        assert meta["episode_ids"] == [added.episodes[0].id] and meta["external_ids"] == ["li-e1"]
        assert meta["session_ids"] == ["li-1"] and meta["speakers"] == ["Gina"]
        episodes = [n for n in nodes if n.node.metadata["type"] == "episode"]
        own = next(n for n in episodes if n.node.get_content() == "I live in Madrid.")
        assert own.node.metadata["external_ids"] == ["li-e1"] and own.node.metadata["speakers"] == ["Gina"]

        async with async_client(served, "agent_a") as amemory:
            again = await GraphMemRetriever(memory, group, async_client=amemory, k=5).aretrieve("Gina Madrid")
        assert "Gina lives in Madrid" in [n.node.get_content() for n in again]
        threaded = await retriever.aretrieve("Gina Madrid")
        assert [n.node.node_id for n in threaded] == [n.node.node_id for n in again]


async def test_the_memory_block_serves_and_fills_llama_index_memory(served: Served) -> None:
    group, session = served.group_a, f"li-mem-{uuid.uuid4().hex[:8]}"
    engine = create_async_engine("sqlite+aiosqlite:///:memory:")  # Memory's short-term store
    try:
        async with async_client(served, "agent_a") as memory:
            block = GraphMemMemoryBlock(
                client=memory, group=group, session_id=session, speakers={"user": "Hana"}
            )
            chat = Memory.from_defaults(
                session_id=session,
                token_limit=60,
                chat_history_token_ratio=0.5,
                token_flush_size=20,
                memory_blocks=[block],
                async_engine=engine,
            )
            await chat.aput(ChatMessage(role=MessageRole.USER, content="I work at Umbrella Corp."))
            await chat.aput(
                ChatMessage(role=MessageRole.ASSISTANT, content="Noted, thank you for telling me.")
            )
            for n in range(4):  # enough turns to push the first ones out of short-term memory
                await chat.aput(
                    ChatMessage(role=MessageRole.USER, content=f"Filler message number {n} here.")
                )
            turns = await memory.session_episodes(group, session)
            assert (turns[0].episode.speaker, turns[0].episode.content) == (
                "Hana",
                "I work at Umbrella Corp.",
            )

            await chat.aput(ChatMessage(role=MessageRole.USER, content="Where does Hana work?"))
            messages = await chat.aget()
            system = [m for m in messages if m.role == MessageRole.SYSTEM]
            assert system and "Umbrella Corp" in (system[0].content or "")
            assert await block.aget([ChatMessage(role=MessageRole.ASSISTANT, content="hi")]) == ""
    finally:
        await engine.dispose()


async def test_an_agent_a_key_cannot_reach_group_b_through_llama_index(served: Served) -> None:
    async with async_client(served, "agent_b") as memory_b:
        await memory_b.add_episodes(
            served.group_b,
            [{"content": "I live in Quito.", "speaker": "Ivan", "reference_time": "2024-01-01T00:00:00Z"}],
        )
    with served.client("agent_a") as memory:
        with pytest.raises(Forbidden):
            GraphMemRetriever(memory, served.group_b).retrieve("Quito")
        own = GraphMemRetriever(memory, served.group_a).retrieve("Where does Ivan live? Quito")
        assert all(n.node.metadata["group_id"] == served.group_a for n in own)
        assert not any("Quito" in n.node.get_content() for n in own)
    async with async_client(served, "agent_a") as amemory:
        block = GraphMemMemoryBlock(client=amemory, group=served.group_b)
        with pytest.raises(Forbidden):
            await block.aget([ChatMessage(role=MessageRole.USER, content="Where does Ivan live?")])
        with pytest.raises(Forbidden):
            await block.aput([ChatMessage(role=MessageRole.USER, content="I live in Lima.")])
