"""Each adapter names its extra when the framework is missing, and graphmem never imports them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.api.servers import ROOT

BLOCK = (
    "import sys\nfor name in {names!r}:\n    sys.modules[name] = None\nimport graphmem_adapters.{module}\n"
)


@pytest.mark.parametrize(
    ("module", "framework", "extra"),
    [
        ("langgraph", "langgraph", "langgraph"),
        ("openai_agents", "agents", "openai-agents"),
        ("llamaindex", "llama_index", "llamaindex"),
    ],
)
def test_an_adapter_without_its_framework_names_the_extra(module: str, framework: str, extra: str) -> None:
    names = [framework, *(n for n in sys.modules if n.startswith(f"{framework}."))]
    code = BLOCK.format(names=names, module=module)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError:") and f"'{extra}' extra" in last and f"graphmem[{extra}]" in last


def test_importing_graphmem_and_its_client_loads_no_framework() -> None:
    code = "import sys, graphmem, graphmem.client\nprint(sorted(m for m in sys.modules if m.split('.')[0] in "
    code += "('langgraph', 'agents', 'llama_index', 'graphmem_adapters')))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr
