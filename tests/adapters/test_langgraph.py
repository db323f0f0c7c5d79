"""GraphMemStore (a LangGraph BaseStore) inside a real LangGraph graph, against the real API."""

from __future__ import annotations

from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

from graphmem.client import AsyncGraphMemClient
from graphmem.errors import Forbidden
from graphmem_adapters.langgraph import GraphMemStore, external_id, session_of
from tests.adapters.conftest import Served
from tests.api.conftest import KEYS

pytestmark = pytest.mark.slow


class State(TypedDict, total=False):
    user: str
    fact: str
    question: str
    recalled: list[dict[str, Any]]


def remember(state: State, runtime: Runtime[None]) -> State:
    assert runtime.store is not None
    runtime.store.put((state["user"], "profile"), "home", {"content": state["fact"], "kind": "home"})
    return {}


def recall(state: State, runtime: Runtime[None]) -> State:
    assert runtime.store is not None
    hits = runtime.store.search((state["user"], "profile"), query=state["question"], limit=3)
    return {"recalled": [{"key": h.key, **h.value, "score": h.score} for h in hits]}


def graph(store: BaseStore) -> Any:
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    return builder.compile(store=store)


def test_namespaces_map_to_a_group_and_a_session() -> None:
    assert session_of(("g1",)) == ("g1", "langgraph")
    assert session_of(("g1", "user", "notes")) == ("g1", "user.notes")
    assert external_id(("g1", "a"), "k") == external_id(("g1", "a"), "k") != external_id(("g1", "b"), "k")
    with pytest.raises(ValueError):
        session_of(())


def test_a_graph_run_writes_and_recalls_through_the_store(served: Served) -> None:
    with served.client("agent_a") as client:
        app = graph(GraphMemStore(client))
        out = app.invoke(
            {"user": served.group_a, "fact": "Alice lives in Paris.", "question": "Where does Alice live?"}
        )
    assert out["recalled"][0]["key"] == "home"
    assert out["recalled"][0]["content"] == "Alice lives in Paris." and out["recalled"][0]["score"] > 0


async def test_the_store_round_trips_items(served: Served) -> None:
    group, ns = served.group_a, (served.group_a, "notes", "u2")
    with served.client("agent_a") as client:
        store = GraphMemStore(client)
        store.put(ns, "pet", {"content": "Bob has a dog named Rex.", "topic": "pets"})
        store.put(ns, "job", {"content": "Bob works at Initech.", "topic": "work"})
        store.put(ns, "pet", {"content": "Bob has a dog named Rex.", "topic": "pets"})  # a retry
        item = store.get(ns, "pet")
        assert item is not None and item.value == {"content": "Bob has a dog named Rex.", "topic": "pets"}
        assert item.namespace == ns

        store.put(ns, "job", {"content": "Bob works at Globex.", "topic": "work"})  # a new value
        job = await store.aget(ns, "job")
        assert job is not None and job.value["content"] == "Bob works at Globex."
        turns = client.session_episodes(group, "notes.u2")
        assert len(turns) == 2  # the put replaced the old episode, the retry added nothing

        assert {i.key for i in store.search(ns)} == {"pet", "job"}
        assert [i.key for i in store.search(ns, filter={"topic": "work"})] == ["job"]
        hits = store.search((group, "notes"), query="Globex")
        assert hits and hits[0].key == "job" and hits[0].namespace == ns
        assert store.list_namespaces() == [(group,)]
        store.put((group, "elsewhere"), "job", {"content": "Bob once applied to Globex."})
        assert {h.namespace for h in store.search((group, "notes"), query="Globex")} == {ns}

        store.delete(ns, "pet")
        assert store.get(ns, "pet") is None
        assert [i.key for i in await store.asearch(ns)] == ["job"]


def test_an_agent_a_store_cannot_reach_group_b(served: Served) -> None:
    with served.client("agent_b") as client_b:
        GraphMemStore(client_b).put((served.group_b, "secret"), "s", {"content": "Carol lives in Oslo."})
    with served.client("agent_a") as client:
        store = GraphMemStore(client)
        with pytest.raises(Forbidden):
            store.get((served.group_b, "secret"), "s")
        with pytest.raises(Forbidden):
            store.search((served.group_b,), query="Oslo")
        with pytest.raises(Forbidden):
            store.put((served.group_b, "secret"), "s", {"content": "overwritten"})
        with pytest.raises(Forbidden):
            store.delete((served.group_b, "secret"), "s")
        with pytest.raises(Forbidden):
            graph(store).invoke({"user": served.group_b, "fact": "x", "question": "Oslo"})
        assert (served.group_b,) not in store.list_namespaces()
        assert all(h.namespace[0] == served.group_a for h in store.search((served.group_a,), query="Oslo"))


async def aremember(state: State, runtime: Runtime[None]) -> State:
    assert runtime.store is not None
    await runtime.store.aput((state["user"], "profile"), "job", {"content": state["fact"]})
    return {}


async def arecall(state: State, runtime: Runtime[None]) -> State:
    assert runtime.store is not None
    hits = await runtime.store.asearch((state["user"], "profile"), query=state["question"], limit=3)
    return {"recalled": [{"key": h.key, **h.value} for h in hits]}


async def test_an_async_graph_run_goes_through_abatch_on_the_async_client(served: Served) -> None:
    async with AsyncGraphMemClient(served.server.url, api_key=KEYS["agent_a"]) as aclient:
        builder = StateGraph(State)
        builder.add_node("remember", aremember)
        builder.add_node("recall", arecall)
        builder.add_edge(START, "remember")
        builder.add_edge("remember", "recall")
        sync = served.client("agent_b")  # only the async client may be used here: B's key would fail
        app = builder.compile(store=GraphMemStore(sync, async_client=aclient))
        out = await app.ainvoke(
            {"user": served.group_a, "fact": "Zoe works at Hooli.", "question": "Where does Zoe work?"}
        )
        sync.close()
        assert out["recalled"][0] == {"key": "job", "content": "Zoe works at Hooli."}
        with pytest.raises(Forbidden):
            await GraphMemStore(sync, async_client=aclient).aget((served.group_b, "secret"), "s")
