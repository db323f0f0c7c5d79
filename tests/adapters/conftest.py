"""One real API process (uvicorn over the real Neo4j) for the adapter tests, with the API tests'
four keys: agent A bound to group A, agent B to group B, an analyst and an admin."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from graphmem.client import GraphMemClient
from graphmem.config import Settings
from tests.api.conftest import KEYS, key_config
from tests.api.servers import Server, start_server


@dataclass
class Served:
    server: Server
    group_a: str
    group_b: str

    def client(self, who: str) -> GraphMemClient:
        return GraphMemClient(self.server.url, api_key=KEYS[who], timeout=60)


@pytest.fixture(scope="session")
def served(settings: Settings) -> Iterator[Served]:
    assert settings.neo4j_uri
    group_a, group_b = f"ada-{uuid.uuid4().hex[:10]}", f"adb-{uuid.uuid4().hex[:10]}"
    server = start_server(settings.neo4j_uri, {"GRAPHMEM_API_KEYS": key_config(group_a, group_b)})
    yield Served(server, group_a, group_b)
    with GraphMemClient(server.url, api_key=KEYS["admin"]) as admin:
        for group in (group_a, group_b):
            admin.forget_group(group, purge_tombstones=True)
    server.stop()
