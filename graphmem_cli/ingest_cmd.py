"""``graphmem ingest``: batch ingestion of conversation logs.

The command is defined in ``ingest.cli`` so that ``python -m ingest`` (which must not import the
CLI layer above it) runs exactly the same code; this module is the CLI registry's entry for it.
"""

from __future__ import annotations

from ingest.cli import ingest

__all__ = ["ingest"]
