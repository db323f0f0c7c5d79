"""docs/agents.md runs as written: its Python examples against a real API process (with the doc's
key, in a fresh group), and its client configurations name a real command and valid keys."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest

from api.auth import KeyRing
from graphmem.config import Settings
from graphmem_cli.main import COMMANDS
from tests.api.servers import ROOT, Server, start_server

pytestmark = pytest.mark.slow

DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
KEY, GROUP, URL = "my-agent-key", "team-a", "http://127.0.0.1:8000"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, flags=re.S)


@pytest.fixture(scope="module")
def doc_server(settings: Settings) -> Iterator[tuple[Server, str]]:
    assert settings.neo4j_uri
    group = f"doc-{uuid.uuid4().hex[:10]}"
    keys = [{"key": KEY, "role": "agent", "groups": [group]}, {"key": "doc-admin-key-1", "role": "admin"}]
    server = start_server(settings.neo4j_uri, {"GRAPHMEM_API_KEYS": json.dumps(keys)})
    yield server, group
    from graphmem.client import GraphMemClient

    with GraphMemClient(server.url, api_key="doc-admin-key-1") as admin:
        admin.forget_group(group, purge_tombstones=True)
    server.stop()


# One interpreter runs every example, each as a script of its own: a fresh ``__main__`` namespace (so
# a name another block defined or imported is not there), its output captured; the first failure
# stops the run. Importing the SDKs once, not once per block, is most of the cost saved.
RUN_EACH = """
import contextlib, io, json, sys, traceback
done = []
for code in json.load(sys.stdin):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<docs/agents.md>", "exec"), {"__name__": "__main__"})
    except BaseException:
        done.append({"stdout": out.getvalue(), "error": traceback.format_exc()})
        break
    done.append({"stdout": out.getvalue(), "error": None})
print("RESULTS " + json.dumps(done))
"""


def test_the_python_examples_run(doc_server: tuple[Server, str]) -> None:
    server, group = doc_server
    examples = blocks("python")
    assert len(examples) >= 3
    runnable = [code.replace(URL, server.url).replace(f'"{GROUP}"', f'"{group}"') for code in examples]
    ran = subprocess.run(
        [sys.executable, "-c", RUN_EACH],
        input=json.dumps(runnable),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    [line] = [x for x in ran.stdout.splitlines() if x.startswith("RESULTS ")]
    results = json.loads(line.removeprefix("RESULTS "))
    for code, result in zip(examples, results, strict=False):
        assert result["error"] is None, (code[:200], result["error"][-2000:])
        assert result["stdout"].strip(), code[:200]
    assert len(results) == len(examples)
    # what the examples wrote landed in the key's group
    from graphmem.client import GraphMemClient

    with GraphMemClient(server.url, api_key=KEY) as memory:
        turns = memory.session_episodes(group, "doc-chat")
    assert {t.episode.external_id for t in turns} == {"doc-mcp-1", "doc-client-1"}


def test_the_client_configurations_are_valid() -> None:
    configs = [json.loads(b)["mcpServers"]["graphmem"] for b in blocks("json")]
    stdio = next(c for c in configs if "command" in c)
    assert stdio["command"].endswith("/graphmem") and stdio["args"] == ["mcp"]
    assert stdio["args"][0] in COMMANDS
    ring = KeyRing.from_json(stdio["env"]["GRAPHMEM_API_KEYS"])
    assert ring.authenticate(stdio["env"]["GRAPHMEM_API_KEY"]).groups == frozenset({GROUP})
    http = next(c for c in configs if "url" in c)
    assert http["url"] == f"{URL}/mcp" and http["headers"]["Authorization"] == f"Bearer {KEY}"
