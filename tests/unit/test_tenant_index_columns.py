"""Ids and texts by slot as packed columns (``tenant_index.columns``): a restored slot table and
text column read in place answer as the lists and the dict they were saved from, before and after
writes, and pickle again to the same."""

from __future__ import annotations

import pickle

import pytest

from graphmem.retrieval.tenant_index.columns import SlotIndex, Slots, StringColumn, Strings

IDS = ["b-2", "a-1", "é-3", "c-0", "Z-9", "日本-4", "a-10", ""]


def _restored(slots: Slots) -> Slots:
    return pickle.loads(pickle.dumps(slots, protocol=5))


def _built(ids: list[str]) -> Slots:
    slots = Slots()
    for node_id in ids:
        slots.slot(node_id)
    return slots


def test_a_restored_slot_table_finds_every_id_and_no_other() -> None:
    built = _built(IDS)
    restored = _restored(built)
    assert isinstance(restored.index, SlotIndex) and isinstance(restored.ids, StringColumn)
    assert len(restored) == len(built) == len(IDS)
    assert list(restored.ids) == built.ids
    for node_id in IDS:
        assert restored.index.get(node_id) == built.index[node_id]
        assert restored.index[node_id] == built.index[node_id]
        assert node_id in restored.index
    for absent in ("a", "a-2", "zz", "b-2 ", "日"):
        assert restored.index.get(absent) is None
        assert absent not in restored.index
        with pytest.raises(KeyError):
            restored.index[absent]


def test_ids_added_after_a_restore_take_new_slots_and_known_ids_keep_theirs() -> None:
    restored = _restored(_built(IDS))
    assert restored.slot("a-1") == 1
    assert restored.slot("new-1") == len(IDS)
    assert restored.slot("new-2") == len(IDS) + 1
    assert restored.slot("new-1") == len(IDS)
    assert restored.ids[len(IDS) + 1] == "new-2" and restored.ids[-1] == "new-2"
    again = _restored(restored)  # saved again after the writes: the same table
    assert list(again.ids) == [*IDS, "new-1", "new-2"]
    assert {i: again.index.get(i) for i in again.ids} == {i: n for n, i in enumerate(again.ids)}


def test_a_text_column_reads_in_place_and_takes_rewrites_and_appends() -> None:
    texts = ["the cat sat", "", "café au lait", "多言語"]
    column = pickle.loads(pickle.dumps(StringColumn.of(texts)))
    assert isinstance(column.base, Strings) and not column.extra
    assert list(column) == texts and len(column) == 4
    column[1] = "rewritten"
    column.append("added")
    column[4] = "added again"
    assert list(column) == ["the cat sat", "rewritten", "café au lait", "多言語", "added again"]
    assert list(pickle.loads(pickle.dumps(column))) == list(column)
    assert column.nbytes() > column.base.nbytes()


def test_an_empty_table_and_column_restore_empty() -> None:
    slots = _restored(Slots())
    assert len(slots) == 0 and slots.index.get("x") is None
    assert slots.slot("x") == 0 and slots.ids[0] == "x"
    assert list(pickle.loads(pickle.dumps(StringColumn.of([])))) == []
