"""Forget DTOs."""

from __future__ import annotations

from graphmem.models.lifecycle import ForgetReport


class ForgetResponse(ForgetReport):
    """What the forget removed, counted in the graph inside its transaction. Tombstones keep the
    forgotten episodes from being ingested again."""
