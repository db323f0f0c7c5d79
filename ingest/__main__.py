"""``python -m ingest ...``: the same command as ``graphmem ingest`` (see ``ingest.cli``)."""

from __future__ import annotations

from ingest.cli import ingest

if __name__ == "__main__":
    ingest(prog_name="python -m ingest")
