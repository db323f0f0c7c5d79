"""SlotIndex.get_many: one vectorised lookup of many ids answers exactly what get answers id by id."""

from __future__ import annotations

import pickle
import random
import uuid

from graphmem.retrieval.tenant_index.columns import SlotIndex, Slots, slots_of


def _restored(ids: list[str]) -> Slots:
    slots = Slots()
    for i in ids:
        slots.slot(i)
    return pickle.loads(pickle.dumps(slots))


def test_get_many_equals_get_for_uuids_missing_and_added() -> None:
    rng = random.Random(3)
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(2000)]
    slots = _restored(ids)
    assert isinstance(slots.index, SlotIndex)
    added = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(5)]
    for i in added:
        slots.slot(i)
    probe = rng.sample(ids, 300) + added + [str(uuid.uuid4()), "short", "x" * 36, ids[0] + "0", ""]
    rng.shuffle(probe)
    assert slots.index.get_many(probe) == [slots.index.get(i) for i in probe]
    assert slots_of(slots.index, probe) == [slots.index.get(i) for i in probe]
    assert [slots.ids[s] for s in slots_of(slots.index, ids[:50]) if s is not None] == ids[:50]


def test_get_many_with_ids_of_several_widths_falls_back_to_get() -> None:
    ids = [f"ep-{n}" for n in range(500)]  # widths 4 to 6
    slots = _restored(ids)
    probe = ["ep-7", "ep-499", "ep-500", "ep-77", "nope"]
    assert slots.index.get_many(probe) == [7, 499, None, 77, None]


def test_slots_of_a_built_table() -> None:
    slots = Slots()
    for i in ("a", "bb", "ccc"):
        slots.slot(i)
    assert slots_of(slots.index, ["ccc", "zz", "a"]) == [2, None, 0]
