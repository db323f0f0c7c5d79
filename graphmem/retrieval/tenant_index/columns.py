"""Growable numpy columns and the id <-> slot table shared by a target's structures (pure)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np

NEG_INF, POS_INF = float("-inf"), float("inf")


def stamp(when: datetime | None, *, missing: float) -> float:
    """A datetime as epoch seconds; ``missing`` (±inf) for None."""
    return missing if when is None else when.timestamp()


class Column:
    """A 1-d (or 2-d with ``width``) numpy array that doubles its capacity as slots are added."""

    def __init__(self, dtype: Any, fill: Any = 0, width: int | None = None) -> None:
        self.dtype, self.fill, self.width = dtype, fill, width
        self.data = self._alloc(64)

    def _alloc(self, capacity: int) -> np.ndarray:
        shape = (capacity,) if self.width is None else (capacity, self.width)
        return np.full(shape, self.fill, dtype=self.dtype)

    def ensure(self, size: int) -> None:
        if size > len(self.data):
            grown = self._alloc(max(size, 2 * len(self.data)))
            grown[: len(self.data)] = self.data
            self.data = grown

    def __setitem__(self, slot: int, value: Any) -> None:
        self.ensure(slot + 1)
        self.data[slot] = value

    def view(self, size: int) -> np.ndarray:
        self.ensure(size)
        return self.data[:size]


class Slots:
    """Stable slots for node ids: a node keeps its slot for the life of the index."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.index: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def __getstate__(self) -> dict[str, list[str]]:
        return {"ids": self.ids}  # the slot table is rebuilt: a dict unpickles slower than this

    def __setstate__(self, state: dict[str, list[str]]) -> None:
        self.ids = state["ids"]
        self.index = {node_id: slot for slot, node_id in enumerate(self.ids)}

    def slot(self, node_id: str) -> int:
        found = self.index.get(node_id)
        if found is None:
            found = self.index[node_id] = len(self.ids)
            self.ids.append(node_id)
        return found
