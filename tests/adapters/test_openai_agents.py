"""The OpenAI Agents SDK adapters against the real API: the function tools through the SDK's own
tool invocation and through ``Runner.run`` with a scripted model (no network, no LLM), and
``GraphMemSession`` as the run's session."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, FunctionTool, ModelResponse, RunConfig, Runner, Usage
from agents.models.interface import Model
from agents.tool_context import ToolContext
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from graphmem.client import AsyncGraphMemClient
from graphmem.errors import Forbidden
from graphmem_adapters.openai_agents import GraphMemSession, memory_tools
from tests.adapters.conftest import Served
from tests.api.conftest import KEYS

pytestmark = pytest.mark.slow


def client(served: Served, who: str) -> AsyncGraphMemClient:
    return AsyncGraphMemClient(served.server.url, api_key=KEYS[who], timeout=60)


async def invoke(tool: FunctionTool, **arguments: Any) -> str:
    """One call through the SDK's tool-calling path (argument parsing, validation, error handling)."""
    raw = json.dumps(arguments)
    context = ToolContext(
        context=None, tool_name=tool.name, tool_call_id=uuid.uuid4().hex, tool_arguments=raw
    )
    return str(await tool.on_invoke_tool(context, raw))


class Scripted(Model):
    """A model that calls the given tools in turn, then answers with the last tool output it saw."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = list(calls)
        self.inputs: list[Any] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        self.inputs.append(input)
        if self.calls:
            name, arguments = self.calls.pop(0)
            call_id = f"call-{uuid.uuid4().hex[:8]}"
            out: Any = ResponseFunctionToolCall(
                type="function_call",
                id=f"fc-{call_id}",
                call_id=call_id,
                name=name,
                arguments=json.dumps(arguments),
                status="completed",
            )
        else:
            seen = [
                i["output"] for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"
            ]
            text = str(seen[-1]) if seen else "nothing"
            out = ResponseOutputMessage(
                id=f"msg-{uuid.uuid4().hex[:8]}",
                type="message",
                role="assistant",
                status="completed",
                content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
            )
        return ModelResponse(output=[out], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the scripted model does not stream")


async def test_the_tools_round_trip_through_the_sdk_invocation(served: Served) -> None:
    async with client(served, "agent_a") as memory:
        search, add = memory_tools(memory, served.group_a)
        assert {search.name, add.name} == {"search_memory", "add_memory"}
        assert "group" not in json.dumps(search.params_json_schema) + json.dumps(add.params_json_schema)
        args = {
            "content": "I work at Initech.",
            "speaker": "Dana",
            "session_id": "oa-1",
            "external_id": "oa-e1",
            "reference_time": "2024-05-01T09:00:00Z",
        }
        added = json.loads(await invoke(add, **args))
        assert added["episodes"][0]["status"] == "created" and "Dana works at Initech" in added["facts"]
        again = json.loads(await invoke(add, **args))  # a retry after a timeout
        assert again["episodes"][0]["status"] == "existing"

        found = json.loads(await invoke(search, query="Where does Dana work?", k=10))
        top = next(f for f in found["facts"] if f["statement"] == "Dana works at Initech")
        assert top["statement"] == "Dana works at Initech" and top["external_ids"] == ["oa-e1"]
        assert top["episode_ids"] == [added["episodes"][0]["id"]] and "Initech" in found["context"]
        bad = await invoke(search, query="")
        assert bad.startswith("graphmem error invalid_input")


async def test_a_runner_run_calls_the_tools_and_keeps_the_session(served: Served) -> None:
    async with client(served, "agent_a") as memory:
        session = GraphMemSession(f"run-{uuid.uuid4().hex[:8]}", memory, served.group_a)
        model = Scripted(
            [
                (
                    "add_memory",
                    {
                        "content": "I moved to Lisbon.",
                        "speaker": "Eve",
                        "external_id": "oa-run-1",
                        "reference_time": "2024-07-01T09:00:00Z",
                    },
                ),
                ("search_memory", {"query": "Where does Eve live?"}),
            ]
        )
        agent = Agent(
            name="memo", instructions="Use memory.", model=model, tools=memory_tools(memory, served.group_a)
        )
        result = await Runner.run(
            agent, "Where does Eve live?", session=session, run_config=RunConfig(tracing_disabled=True)
        )
        assert "Eve lives in Lisbon" in result.final_output

        items = await session.get_items()
        assert items[0] == {"role": "user", "content": "Where does Eve live?"}
        assert [i.get("type") for i in items[1:]] == [
            "function_call",
            "function_call_output",
            "function_call",
            "function_call_output",
            "message",
        ]
        assert await session.get_items(limit=2) == items[-2:]

        follow_up = Scripted([])
        agent = agent.clone(model=follow_up)
        await Runner.run(agent, "And now?", session=session, run_config=RunConfig(tracing_disabled=True))
        assert follow_up.inputs[0][: len(items)] == items  # the model saw the stored history first


async def test_the_session_adds_pops_and_clears(served: Served) -> None:
    async with client(served, "agent_a") as memory:
        session = GraphMemSession(f"s-{uuid.uuid4().hex[:8]}", memory, served.group_a)
        turns = [
            {"role": "user", "content": "I have a cat."},
            {"role": "assistant", "content": "Nice! "},
            {"role": "user", "content": "Her name is Tom."},
        ]
        await session.add_items(turns)  # type: ignore[arg-type]
        assert await session.get_items() == turns
        assert await session.pop_item() == turns[-1]
        assert await session.get_items() == turns[:2]
        await session.clear_session()
        assert await session.get_items() == [] and await session.pop_item() is None


async def test_an_agent_a_key_cannot_reach_group_b_through_tools_or_session(served: Served) -> None:
    async with client(served, "agent_b") as memory_b:
        await memory_b.add_episodes(
            served.group_b,
            [
                {
                    "content": "I live in Oslo.",
                    "speaker": "Finn",
                    "session_id": "b-s",
                    "reference_time": "2024-01-01T00:00:00Z",
                }
            ],
        )
    async with client(served, "agent_a") as memory:
        search, add = memory_tools(memory, served.group_b)
        assert (await invoke(search, query="Oslo")).startswith("graphmem error forbidden")
        assert (await invoke(add, content="I live in Rome.")).startswith("graphmem error forbidden")
        session = GraphMemSession("b-s", memory, served.group_b)
        for attempt in (
            session.get_items(),
            session.add_items([{"role": "user", "content": "hi"}]),
            session.pop_item(),
            session.clear_session(),
        ):
            with pytest.raises(Forbidden):
                await attempt
        own = json.loads(
            await invoke(memory_tools(memory, served.group_a)[0], query="Where does Finn live? Oslo")
        )
        assert "Oslo" not in json.dumps(own)
