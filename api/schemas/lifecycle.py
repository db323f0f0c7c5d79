"""Forget DTOs."""

from __future__ import annotations

from graphmem.models.lifecycle import ForgetReport, ImportReport


class ForgetResponse(ForgetReport):
    """What the forget removed, counted in the graph inside its transaction. Tombstones keep the
    forgotten episodes from being ingested again."""


class ImportResponse(ImportReport):
    """What an import wrote: nodes and relationships, nodes re-embedded, and what it left out
    (relationships without both ends, tombstones that cannot follow a group rename, forgotten
    episodes and the facts only they supported)."""
