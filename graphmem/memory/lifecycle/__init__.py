"""The memory lifecycle (docs/lifecycle.md): forget, export/import, re-embed, decay, backup."""

from graphmem.memory.lifecycle.backup import backup, restore
from graphmem.memory.lifecycle.decay import maintain
from graphmem.memory.lifecycle.forget import forget_before, forget_entity, forget_episode, forget_group
from graphmem.memory.lifecycle.reembed import reembed
from graphmem.memory.lifecycle.transfer import export_group, import_records

__all__ = [
    "backup",
    "export_group",
    "forget_before",
    "forget_entity",
    "forget_episode",
    "forget_group",
    "import_records",
    "maintain",
    "reembed",
    "restore",
]
