"""Growable numpy columns and the id <-> slot table shared by a target's structures (pure).

Strings by slot (a target's ids and texts) pickle as ``Strings``, one UTF-8 array with offsets, and a
restored index reads them in place (``StringColumn``): unpickling 20,000 ids and texts as Python
strings and rebuilding the id -> slot dict cost about 8 ms of a 20,000-node restore's 14. A restored
``Slots`` finds an id by binary search over the ids' sorted order (saved with them); ids added
later go to a dict beside it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
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


class Strings:
    """Strings as one UTF-8 array with ``bounds`` (string i is ``data[bounds[i]:bounds[i + 1]]``,
    decoded when read): a sequence that pickles as two arrays, whatever its length."""

    def __init__(self, values: list[str]) -> None:
        encoded = [v.encode() for v in values]
        lengths = np.fromiter((len(v) for v in encoded), dtype=np.int64, count=len(encoded))
        self.bounds = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum(lengths, out=self.bounds[1:])
        self.data = np.frombuffer(b"".join(encoded), dtype=np.uint8)

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def __getitem__(self, i: int) -> str:
        return self.data[int(self.bounds[i]) : int(self.bounds[i + 1])].tobytes().decode()

    def raw(self, i: int) -> bytes:
        """String i's UTF-8 bytes (UTF-8 orders as the code points do: sorting by either agrees)."""
        return self.data[int(self.bounds[i]) : int(self.bounds[i + 1])].tobytes()

    def nbytes(self) -> int:
        return self.bounds.nbytes + self.data.nbytes


STR_BYTES = 49 + 8  # a Python str's header and its list pointer, besides one byte per ASCII character


class StringColumn:
    """Strings by slot: a packed base (``Strings``, read in place) and Python strings for the slots
    appended or rewritten since it was packed. Pickles as one ``Strings`` of every slot."""

    def __init__(self) -> None:
        self.base: Strings | None = None
        self.extra: list[str] = []  # slots len(base) onwards
        self.changed: dict[int, str] = {}  # base slots rewritten

    @classmethod
    def of(cls, values: list[str]) -> StringColumn:
        column = cls()
        column.extra = list(values)
        return column

    def _n(self) -> int:
        return 0 if self.base is None else len(self.base)

    def __len__(self) -> int:
        return self._n() + len(self.extra)

    def __getitem__(self, slot: int) -> str:
        n = self._n()
        if slot < 0:
            slot += n + len(self.extra)
        if slot >= n:
            return self.extra[slot - n]
        if self.changed:
            found = self.changed.get(slot)
            if found is not None:
                return found
        assert self.base is not None
        return self.base[slot]

    def __setitem__(self, slot: int, value: str) -> None:
        n = self._n()
        if slot >= n:
            self.extra[slot - n] = value
        else:
            self.changed[slot] = value

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))

    def append(self, value: str) -> None:
        self.extra.append(value)

    def __getstate__(self) -> dict[str, Any]:
        return {"base": Strings(list(self)) if len(self) else None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.base, self.extra, self.changed = state["base"], [], {}

    def nbytes(self) -> int:
        """An estimate of the memory held: the packed base, and the Python strings beside it."""
        held = 0 if self.base is None else self.base.nbytes()
        return (
            held
            + sum(STR_BYTES + 50 + len(t) for t in self.changed.values())
            + sum(STR_BYTES + len(t) for t in self.extra)
        )


class _Sorted:
    """The packed ids in sorted order, as bytes: what ``bisect`` searches."""

    def __init__(self, ids: Strings, order: np.ndarray) -> None:
        self.ids, self.order = ids, order
        self._width: int | None = None  # every id's byte length when all are one length, else 0

    def fixed(self) -> np.ndarray | None:
        """The packed ids as one fixed-width bytes array by slot (a view, no copy) when every id
        has the same byte length (uuids), else None: what ``np.searchsorted`` searches through
        ``order`` in one call for many ids."""
        if self._width is None:
            lengths = np.diff(self.ids.bounds)
            self._width = int(lengths[0]) if len(lengths) and (lengths == lengths[0]).all() else 0
        if not self._width:
            return None
        return self.ids.data[int(self.ids.bounds[0]) : int(self.ids.bounds[-1])].view(f"S{self._width}")

    def __len__(self) -> int:
        return len(self.order)

    def __getitem__(self, i: int) -> bytes:
        return self.ids.raw(int(self.order[i]))


class SlotIndex:
    """id -> slot: the packed ids' sorted order (binary search) and a dict of the ids added since."""

    def __init__(self, ids: Strings | None = None, order: np.ndarray | None = None) -> None:
        self.sorted = None if ids is None or order is None else _Sorted(ids, order)
        self.added: dict[str, int] = {}

    def get(self, node_id: str, default: int | None = None) -> int | None:
        found = self.added.get(node_id)
        if found is not None:
            return found
        if self.sorted is not None and len(self.sorted):
            key = node_id.encode()
            i = bisect_left(self.sorted, key)
            if i < len(self.sorted) and self.sorted[i] == key:
                return int(self.sorted.order[i])
        return default

    def get_many(self, node_ids: list[str]) -> list[int | None]:
        """``get`` of each id, the packed ones by one vectorised binary search where the ids are of
        one width (a candidate list of a 100k-slot tenant: bisect in Python costs ~20 us an id)."""
        fixed = self.sorted.fixed() if self.sorted is not None and len(self.sorted) else None
        if fixed is None or self.sorted is None:
            return [self.get(i) for i in node_ids]
        width = fixed.dtype.itemsize
        keys = [i.encode() for i in node_ids]
        probe = [k for k in keys if len(k) == width]
        found: dict[bytes, int] = {}
        if probe:
            wanted = np.array(probe, dtype=fixed.dtype)
            order = self.sorted.order
            at = np.minimum(np.searchsorted(fixed, wanted, sorter=order), len(order) - 1)
            slots = order[at]
            hit = fixed[slots] == wanted
            found = {k: int(s) for k, s, h in zip(probe, slots.tolist(), hit.tolist(), strict=True) if h}
        out: list[int | None] = []
        for node_id, key in zip(node_ids, keys, strict=True):
            added = self.added.get(node_id)
            out.append(added if added is not None else found.get(key))
        return out

    def __getitem__(self, node_id: str) -> int:
        found = self.get(node_id)
        if found is None:
            raise KeyError(node_id)
        return found

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, str) and self.get(node_id) is not None

    def __setitem__(self, node_id: str, slot: int) -> None:
        self.added[node_id] = slot

    def __len__(self) -> int:
        return len(self.added) + (0 if self.sorted is None else len(self.sorted))


def slots_of(index: dict[str, int] | SlotIndex, node_ids: list[str]) -> list[int | None]:
    """Each id's slot (None: not in the index), by ``SlotIndex.get_many`` where the table is packed."""
    if isinstance(index, SlotIndex):
        return index.get_many(node_ids)
    return [index.get(i) for i in node_ids]


class Slots:
    """Stable slots for node ids: a node keeps its slot for the life of the index. Built, the ids
    are a list and the table a dict; restored, both are read from the packed ids (module docstring)."""

    def __init__(self) -> None:
        self.ids: list[str] | StringColumn = []
        self.index: dict[str, int] | SlotIndex = {}

    def __len__(self) -> int:
        return len(self.ids)

    def __getstate__(self) -> dict[str, Any]:
        ids = list(self.ids)
        order = np.asarray(sorted(range(len(ids)), key=ids.__getitem__), dtype=np.int64)
        return {"ids": Strings(ids), "order": order}

    def __setstate__(self, state: dict[str, Any]) -> None:
        column = StringColumn()
        column.base = state["ids"]
        self.ids = column
        self.index = SlotIndex(state["ids"], state["order"])

    def slot(self, node_id: str) -> int:
        found = self.index.get(node_id)
        if found is None:
            found = len(self.ids)
            self.index[node_id] = found
            self.ids.append(node_id)
        return found

    def nbytes(self) -> int:
        """An estimate of the memory the table holds (``tenant_index.memory``)."""
        if isinstance(self.ids, list):
            return len(self.ids) * (STR_BYTES + 50 + 36)
        assert isinstance(self.index, SlotIndex) and self.index.sorted is not None
        return self.ids.nbytes() + self.index.sorted.order.nbytes + len(self.index.added) * 50
