"""The memory layer: the ``GraphMemory`` facade over ingestion, reads, search and lifecycle."""

from graphmem.memory.facade import GraphMemory

__all__ = ["GraphMemory"]
