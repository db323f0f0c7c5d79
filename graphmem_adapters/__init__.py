"""Framework adapters over ``graphmem.client``, each an optional extra.

- ``graphmem_adapters.langgraph`` (extra ``langgraph``): ``GraphMemStore``, a LangGraph ``BaseStore``.
- ``graphmem_adapters.openai_agents`` (extra ``openai-agents``): ``memory_tools`` (function tools) and
  ``GraphMemSession`` (an Agents SDK ``Session``).
- ``graphmem_adapters.llamaindex`` (extra ``llamaindex``): ``GraphMemRetriever`` (a ``BaseRetriever``)
  and ``GraphMemMemoryBlock`` (a memory block).

Every adapter speaks the HTTP API through a ``GraphMemClient``: the scope is the client's API key,
and no adapter argument can widen it (a group the key is not bound to answers ``Forbidden``).
Importing a module without its extra raises an ``ImportError`` naming the extra to install.
"""

from __future__ import annotations


def missing_extra(extra: str, error: ImportError) -> ImportError:
    """The ``ImportError`` an adapter raises when its framework is missing: it names the extra."""
    return ImportError(
        f"{error.name or 'a framework package'} is not installed: this adapter needs graphmem's "
        f"'{extra}' extra (pip install 'graphmem[{extra}]')",
        name=error.name,
    )
