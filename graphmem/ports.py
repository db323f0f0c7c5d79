"""Protocols the core depends on; providers implement them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from graphmem.models.extraction import Extraction


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def model_name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class Extractor(Protocol):
    """Finds entities and claims in one episode's text."""

    name: str

    def extract(self, *, content: str, speaker: str | None, reference_time: datetime) -> Extraction: ...
