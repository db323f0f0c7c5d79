"""``TenantIndexes``: the process's tenant indexes — loading, catching up, rebuilding, evicting.

Freshness: each search reads the tenant's ``GroupState`` (one round trip, concurrent with the query
embedding). Every write transaction bumps ``Group.lock_seq`` and stamps the nodes it creates or
changes with ``rev`` = that value, so nodes with ``rev`` above the index's ``seq`` are exactly what
it has not seen; deletions and bulk rewrites set ``reset_seq``, which rebuilds the index. A search
therefore sees every write acknowledged before it began, from any process.

Every load runs as a background task, never under the tenant's lock: a small tenant's first search
(``sync_limit`` nodes) waits for it, a bigger one's is answered by the Neo4j source (the same
ranking: ``retrieval.sources``) while it loads; past ``max_nodes`` nodes or ``max_bytes`` bytes in all
(``tenant_index.memory``'s estimate) indexes are dropped, the coldest first and of the cold the
biggest (``memory.victim``: bytes x idle time over the least recently used few), and a tenant
whose index alone would not fit the byte budget is searched in Neo4j. The byte budget counts a
load in flight as well, at a generous estimate of what it will hold (``_node_bytes``), reserved
before it starts: a load that cannot make room is not started (Neo4j answers, a later search
retries), so held plus reserved bytes never exceed the budget. A load reads each label's
pages as columns (``snapshot.load_columns``: one record a page). A stale index keeps serving while its replacement builds: its hits are
re-read and re-checked in Neo4j, so it can miss fresh nodes but never return forgotten ones. The
three labels are read side by side, each page applied as it arrives (one at a time, each label's
in id order: a label's slots do not depend on the others', and an episode's facts field is
recomputed whichever side comes first), at most ``PAGES_HELD`` pages held.

Snapshots (``tenant_index.persist``, when a directory is configured): a load first reads the
group's snapshot file and catches it up from the change feed (``rev`` above its ``seq``), the same
catch-up a warm index makes; without a usable one (none, another form, corrupt, a reset since) it
loads from Neo4j and saves the result: a tenant a search waits for (``sync_limit``) right after
installing it (``_write_later``: encoded before, written after, then the state read again for a
forget that raced the write), a bigger one before installing it. A restore of a file of
``PREFETCH_MIN_BYTES`` or more begins beside the group-state read that precedes it (``_prefetch``). A restored index that had to catch up
on many nodes (``RESAVE_NODES``, ``RESAVE_SHARE``) is saved again. A tenant past ``sync_limit``
with a snapshot file is waited for while it restores (milliseconds), so its first search is the
index's too; on a miss the Neo4j source answers it while the load goes on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from graphmem.retrieval.tenant_index import warmup
from graphmem.retrieval.tenant_index.index import TARGETS, TenantIndex
from graphmem.retrieval.tenant_index.memory import EVICTION_WINDOW, index_bytes, victim
from graphmem.retrieval.tenant_index.persist import Encoded, Expected, SnapshotError, Snapshots, encode
from graphmem.retrieval.tenant_index.vectors import PRECISION
from graphmem.store import search, snapshot
from graphmem.store.driver import Store
from graphmem.store.snapshot import GroupState

log = logging.getLogger(__name__)
PAGE = 5_000
DELTA_LIMIT = 1_000_000
# a restored snapshot that had to catch up on more than this many nodes (or this share of its
# size) is saved again, so the next cold load starts from a nearer revision
RESAVE_NODES, RESAVE_SHARE = 1_000, 0.25
# pages of a load read and not yet applied, over its three labels (each page ``PAGE`` nodes: at
# 384 dimensions about 60-80 MB of Python rows)
PAGES_HELD = 3
WARM_CONNECTIONS = 4  # Neo4j connections a worker opens before it serves (a search reads 1-3 at once)
# A speculative restore (``_prefetch``, beside a cold search's state read) reserves this many times
# its file's bytes until the state says how many nodes to reserve for: a restored index holds about
# 1.5x its file, the per-node reservation (``_node_bytes``) about 3x.
PREFETCH_RESERVE = 3
# Only files of this size on (about 600 nodes) are restored speculatively: a smaller one restores in
# about a millisecond, less than the thread hand-off beside the state read costs (measured: 10-50
# node tenants 4.9 ms wall / 2.2 ms CPU with it against 3.6 / 1.9 without; 19,608 nodes 5.3 / 1.9
# against 6.2 / 2.2, p90 9.5 against 24.2 ms; fresh registries, dev VM at load 11-12).
PREFETCH_MIN_BYTES = 1 << 20
# the time the warm-up's access-count write sends (it names no node: nothing is written)
_WARM_NOW = datetime(2000, 1, 1, tzinfo=UTC)
PREFETCH_HOLD_S = 10.0  # a speculative restore no load claimed is let go (its bytes freed) after this


class TenantIndexes:
    def __init__(
        self,
        store: Store,
        *,
        dimension: int,
        max_nodes: int = 1_000_000,
        sync_limit: int = 5_000,
        ann_threshold: int = 10_000,
        max_bytes: int | None = None,
        vector_precision: str = PRECISION,
        snapshots: Snapshots | None = None,
    ) -> None:
        self.store, self.dimension = store, dimension
        self.max_nodes, self.sync_limit, self.ann_threshold = max_nodes, sync_limit, ann_threshold
        self.max_bytes = max_bytes
        self.vector_precision = vector_precision
        self.snapshots = snapshots  # the snapshot directory (tenant_index.persist); None: off
        self.snapshot_stats = {"restored": 0, "missed": 0, "saved": 0, "rejected": 0, "too_big": 0}
        self.bytes: dict[str, int] = {}  # group -> its index's estimated bytes
        self.reserved: dict[str, int] = {}  # group -> bytes set aside for its load in flight
        self.evictions = 0
        self.tick = 0  # one per use of an index
        self.used: dict[str, int] = {}  # group -> the tick its index was last used at
        self.entries: OrderedDict[str, TenantIndex] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.builds: dict[str, asyncio.Task[None]] = {}
        self.restores: dict[str, asyncio.Future[bool]] = {}  # a build's restore: True if restored
        # speculative restores begun beside a state read (``_prefetch``), until a load claims one
        self.prefetches: dict[str, asyncio.Future[TenantIndex | None]] = {}
        self.prefetch_min_bytes = PREFETCH_MIN_BYTES
        self.writes: dict[str, asyncio.Task[None]] = {}  # snapshot writes after an install

    async def state(self, group_id: str) -> GroupState | None:
        """The group's revision state (one round trip). A group with a snapshot file and no index
        held or loading starts restoring it beside this read (``_prefetch``)."""
        self._prefetch(group_id)
        return await snapshot.group_state(self.store, group_id=group_id)

    @asynccontextmanager
    async def acquire(self, group_id: str, state: GroupState | None) -> AsyncIterator[TenantIndex | None]:
        """The tenant's index, current as of ``state`` and locked against updates while held; None
        when the tenant has no index (yet): search Neo4j directly. The lock is held while the index
        catches up with the change feed (awaited reads of what changed since its revision) and
        while the caller uses it; a load or reload never runs under it: it is a background task,
        which a tenant of up to ``sync_limit`` nodes waits for here, before the lock is taken."""
        await self._await_small_build(group_id, state)
        self._release_prefetch(group_id)  # begun for a load that did not start (none needed, no room)
        lock = self.locks.setdefault(group_id, asyncio.Lock())
        async with lock:
            index = await self._current(group_id, state)
            if index is not None:
                self.entries.move_to_end(group_id)
                self.tick += 1
                self.used[group_id] = self.tick
            yield index

    async def ready(self, group_id: str) -> TenantIndex | None:
        """Load (or finish loading) the tenant's index now, however big; for warm-up and benchmarks."""
        state = await self.state(group_id)
        if state is None or not self._fits(state):
            self._release_prefetch(group_id)
            return None
        if group_id not in self.entries:
            self._build_later(group_id, state)
        build = self.builds.get(group_id)
        if build is not None:
            await asyncio.shield(build)
        write = self.writes.get(group_id)
        if write is not None:  # ready means saved too
            await asyncio.shield(write)
        async with self.acquire(group_id, await self.state(group_id)) as index:
            return index

    async def warm_up(self, connections: int = WARM_CONNECTIONS) -> dict[str, float]:
        """Make a fresh worker ready for its first cold search before it serves: run the index's
        code paths over a small synthetic one (``tenant_index.warmup``: a save, a read and a mapped
        restore, an HNSW view, every channel, a catch-up, a full exact-scan block; in a thread),
        open ``connections`` Neo4j connections with the search's first read (a group's state),
        side by side, and send the cold path's Neo4j reads (``warm_reads``) for a group id of each
        size bucket, so that Neo4j has planned them. Returns each step's ms. Nothing is kept: no
        index, no file."""
        ms = await asyncio.to_thread(warmup.warm_up, self.dimension, self.vector_precision)
        began = time.perf_counter()
        await asyncio.gather(*(self.state(warmup.GROUP) for _ in range(connections)))
        ms["connections"] = round((time.perf_counter() - began) * 1000, 2)
        began = time.perf_counter()
        await asyncio.gather(*(self.warm_reads(group_id) for group_id in warmup.GROUP_IDS))
        ms["reads"] = round((time.perf_counter() - began) * 1000, 2)
        return ms

    async def warm_reads(self, group_id: str) -> None:
        """The Neo4j reads of a cold search and of a load, as they send them (the same functions,
        so the same statements and parameter types), for ``group_id`` (one that names no tenant:
        nothing is found). Neo4j plans a statement the first time it meets its text with those
        parameter types: a fresh database's first cold search paid 0.7-1.0 s for planning its
        hydration (issue 22). Planned once per database, so a later worker's warm-up costs a few
        milliseconds a read."""
        await self.state(group_id)
        ids = {target: [warmup.NO_ID] for target in TARGETS}
        await search.hydrate(self.store, group_id=group_id, ids=ids, as_of=None, history=False)
        await snapshot.load_small(self.store, group_id=group_id, limit=PAGE)
        await search.touch(self.store, group_id=group_id, ids=[warmup.NO_ID], now=_WARM_NOW)
        for label in TARGETS:
            await snapshot.changed(self.store, group_id=group_id, label=label, since=0, limit=1)
            for after in ("", warmup.NO_ID):  # a load's first page, then the pages after an id
                await snapshot.load_columns(
                    self.store, group_id=group_id, label=label, after_id=after, limit=1
                )

    def drop(self, group_id: str) -> None:
        self.entries.pop(group_id, None)
        self.bytes.pop(group_id, None)
        self.used.pop(group_id, None)

    def nbytes(self) -> int:
        """The estimated bytes of every index this process holds (``tenant_index.memory``) and
        the bytes reserved for the loads in flight."""
        return sum(self.bytes.values()) + sum(self.reserved.values())

    async def close(self) -> None:
        for task in self.builds.values():
            task.cancel()
        await asyncio.gather(*self.builds.values(), *self.prefetches.values(), return_exceptions=True)
        await asyncio.gather(*self.writes.values(), return_exceptions=True)  # let them finish

    def _prefetch(self, group_id: str) -> None:
        """Begin restoring the group's snapshot now, in a thread, when it has a file and no index is
        held, loading or restoring (and the file is ``prefetch_min_bytes`` or more): a cold search reads the group's state first, and the restore
        it then starts (``_load``) claims this one instead of reading the file after that round
        trip. Its bytes are reserved first (``PREFETCH_RESERVE`` x the file's), as a load's are,
        and it is not begun when eviction cannot make room; the load that claims it reserves by
        the state's node count instead, and one not claimed (no load started) is let go by
        ``_release_prefetch`` or after ``PREFETCH_HOLD_S``. The state decides as before whether
        the restored index is used (``_restore``): reading the file before the state is as exact
        as after it, since any file is caught up from the state or refused."""
        if self.snapshots is None or group_id in self.entries or group_id in self.builds:
            return
        if group_id in self.prefetches:
            return
        try:
            size = self.snapshots.path(group_id).stat().st_size
        except OSError:  # no file (the usual case for a tenant never saved)
            return
        if size < self.prefetch_min_bytes:
            return
        self.reserved[group_id] = size * PREFETCH_RESERVE
        if not self._make_room(keep=group_id):
            self.reserved.pop(group_id, None)
            return
        expected = Expected(self.dimension, self.vector_precision, self.ann_threshold)
        task = asyncio.ensure_future(asyncio.to_thread(_restore, self.snapshots, group_id, expected))
        task.add_done_callback(_retrieved)
        self.prefetches[group_id] = task
        asyncio.get_running_loop().call_later(PREFETCH_HOLD_S, self._release_prefetch, group_id, task)

    def _release_prefetch(self, group_id: str, task: asyncio.Future[Any] | None = None) -> None:
        """Let an unclaimed speculative restore go (``task``: only that one) and free its bytes,
        unless a load owns the group's reservation by now."""
        held = self.prefetches.get(group_id)
        if held is None or (task is not None and held is not task):
            return
        del self.prefetches[group_id]
        if group_id not in self.builds:
            self.reserved.pop(group_id, None)

    async def _await_small_build(self, group_id: str, state: GroupState | None) -> None:
        """Start the (re)load a small tenant needs and wait for it, outside the tenant's lock. A
        bigger tenant with a snapshot file is waited for too, while its snapshot restores: when
        it does not (a miss), the load goes on in the background and Neo4j answers."""
        if state is None or not self._fits(state):
            return
        big = _nodes(state) > self.sync_limit
        if big and (self.snapshots is None or not self.snapshots.path(group_id).exists()):
            return
        index = self.entries.get(group_id)
        if index is not None and not index.stale and not _reset(index, state):
            return
        self._build_later(group_id, state)
        build = self.builds.get(group_id)
        if build is None:
            return
        restore = self.restores.get(group_id)
        if big and (restore is None or not await asyncio.shield(restore)):
            return
        await asyncio.shield(build)

    # --- internals (the tenant's lock is held) -----------------------------------------------
    async def _current(self, group_id: str, state: GroupState | None) -> TenantIndex | None:
        if state is None:
            self.drop(group_id)
            self.discard_snapshot(group_id)  # the group is gone (forgotten)
            return None
        index = self.entries.get(group_id)
        if index is not None and not self._fits(state):  # grew past a budget: Neo4j from now on
            self.drop(group_id)
            index = None
        if index is not None and (index.stale or _reset(index, state)):
            index.stale = True  # it keeps serving (hits are re-checked in Neo4j) until replaced
            self._build_later(group_id, state)
        if index is None:
            if self._fits(state):
                self._build_later(group_id, state)
            return None
        if state.seq > index.seq:
            before = index.size
            await self._catch_up(index, state.seq)
            if group_id in self.bytes:  # scaled, not recounted: a recount walks every posting
                self.bytes[group_id] = self.bytes[group_id] * index.size // max(before, 1)
            if not self._make_room(keep=group_id):  # grown past the budget alone: Neo4j from now on
                self.drop(group_id)
                return None
        return index

    def _fits(self, state: GroupState) -> bool:
        """Whether the tenant's index may be held: at most ``max_nodes`` nodes and, by a generous
        per-node estimate, at most ``max_bytes``."""
        if _nodes(state) > self.max_nodes:
            return False
        return self.max_bytes is None or _nodes(state) * _node_bytes(self.dimension) <= self.max_bytes

    def discard_snapshot(self, group_id: str) -> None:
        """Remove the group's snapshot file (forget: no copy of forgotten text stays on disk)."""
        if self.snapshots is not None:
            self.snapshots.discard(group_id)

    async def read_snapshot(self, group_id: str) -> TenantIndex | None:
        """The group's snapshot as saved (for the proof of forgetting; never installed); None when
        there is no file. An unreadable file raises ``SnapshotError``."""
        if self.snapshots is None:
            return None
        expected = Expected(self.dimension, self.vector_precision, self.ann_threshold)
        return await asyncio.to_thread(self.snapshots.load, group_id, expected)

    async def _restore(self, group_id: str, state: GroupState) -> TenantIndex | None:
        """The group's snapshot when one exists that ``state`` can be caught up from (no reset
        since it was saved, the same group incarnation, not ahead of the group); else None."""
        if self.snapshots is None:
            return None
        expected = Expected(self.dimension, self.vector_precision, self.ann_threshold)
        prefetched = self.prefetches.pop(group_id, None)  # begun beside the state read
        try:
            if prefetched is not None:
                index = await prefetched
            elif not self.snapshots.path(group_id).exists():  # no file: no thread to read none
                index = None
            else:
                index = await asyncio.to_thread(_restore, self.snapshots, group_id, expected)
        except (SnapshotError, OSError) as exc:
            log.warning(
                "the tenant index snapshot of %s is not usable (%s): loading from Neo4j", group_id, exc
            )
            self.snapshot_stats["rejected"] += 1
            return None
        if index is None or _reset(index, state):
            self.snapshot_stats["missed"] += 1
            return None
        self.snapshot_stats["restored"] += 1
        return index

    async def _save(self, index: TenantIndex) -> bool:
        """Write ``index`` as the group's snapshot (it is this load's alone: not installed yet);
        whether a file was written."""
        if self.snapshots is None or index.stale:
            return False
        try:
            written = await asyncio.to_thread(_save, self.snapshots, index)
        except OSError:  # a full disk or a read-only directory: serve, and log it
            log.exception("saving the tenant index snapshot of %s failed", index.group_id)
            return False
        self.snapshot_stats["saved" if written else "too_big"] += 1
        return written > 0

    async def _encode(self, index: TenantIndex) -> Encoded | None:
        """``index`` as its snapshot's bytes (buffers copied: it may change once installed), to
        write after it is installed (``_write_later``); None without snapshots or on a failure."""
        if self.snapshots is None or index.stale:
            return None
        try:
            return await asyncio.to_thread(_encode, index)
        except Exception:  # serve without a file
            log.exception("encoding the tenant index snapshot of %s failed", index.group_id)
            return None

    def _write_later(self, encoded: Encoded) -> None:
        """Write a loaded index's snapshot in the background, then read the group's state: a forget
        that ran meanwhile (its removal of the file possibly before this write) or a rewrite makes
        it remove the file again, so no file of forgotten text stays."""
        snapshots, group_id = self.snapshots, encoded.group_id
        if snapshots is None:
            return

        async def write() -> None:
            try:
                written = await asyncio.to_thread(snapshots.write, encoded)
                self.snapshot_stats["saved" if written else "too_big"] += 1
                if written:
                    latest = await snapshot.group_state(self.store, group_id=group_id)
                    if latest is None or _reset_since(encoded.seq, encoded.created_at, latest):
                        self.discard_snapshot(group_id)
            except Exception:  # a full disk, a read-only directory, Neo4j gone: serve, and log it
                log.exception("saving the tenant index snapshot of %s failed", group_id)

        task = asyncio.create_task(write())
        self.writes[group_id] = task
        task.add_done_callback(
            lambda done: self.writes.pop(group_id, None) if self.writes.get(group_id) is done else None
        )

    async def _load(
        self, group_id: str, state: GroupState, *, save: bool = True
    ) -> tuple[TenantIndex, bool, bool]:
        """The group's index, not yet installed, whether it was restored and whether a snapshot was
        saved: from its snapshot and the change feed since it up to ``state``, when it has a usable
        one, else from Neo4j (and then, with ``save``, saved as its snapshot)."""
        index = await self._restore(group_id, state)
        restore = self.restores.get(group_id)
        if restore is not None and not restore.done():
            restore.set_result(index is not None)
        saved = False
        if index is not None:
            if state.seq > index.seq:  # the rest (written since ``state``) is caught up on install
                applied = await self._catch_up(index, state.seq)
                if applied > max(RESAVE_NODES, RESAVE_SHARE * index.size):
                    saved = await self._save(index)
            if not index.stale:  # stale: more changed than a catch-up reads, load it whole
                return index, True, saved
        index = await self._build(group_id, state)
        return index, False, await self._save(index) if save else False

    async def _build(self, group_id: str, state: GroupState) -> TenantIndex:
        def empty() -> TenantIndex:
            return TenantIndex(
                group_id,
                self.dimension,
                self.ann_threshold,
                state.seq,
                state.created_at,
                vector_precision=self.vector_precision,
            )

        index = empty()
        if _nodes(state) <= PAGE:  # a small group: one round trip, one thread hand-off
            rows = await snapshot.load_small(self.store, group_id=group_id, limit=PAGE)
            if all(len(found) < PAGE for found in rows.values()):  # else more than counted: page
                await asyncio.to_thread(_apply_all, index, rows)
                return index
            index = empty()
        room = asyncio.Semaphore(PAGES_HELD)
        applying = asyncio.Lock()  # one apply at a time: the index is not thread-safe
        async with asyncio.TaskGroup() as labels:  # the three labels are read side by side
            for label in TARGETS:
                labels.create_task(self._pages(index, label, room, applying))
        await asyncio.to_thread(index.finish)
        return index

    async def _pages(
        self, index: TenantIndex, label: str, room: asyncio.Semaphore, applying: asyncio.Lock
    ) -> None:
        """Read one label's pages in id order and apply each as it arrives. A page is read only
        with room for it (``PAGES_HELD`` pages read and not yet applied, over all labels): holding
        every page until all were read kept the whole tenant as Python rows (a 384-d embedding as
        floats is ~12 KB a node: ~4 GB at 100k episodes + 155k facts)."""
        after = ""
        while True:
            async with room:
                rows = await snapshot.load_columns(
                    self.store, group_id=index.group_id, label=label, after_id=after, limit=PAGE
                )
                if rows:
                    after = rows[-1]["id"]
                    async with applying:
                        await asyncio.to_thread(index.apply, label, rows)
                full = len(rows) >= PAGE
                del rows  # not held while the next page is read
            if not full:
                return

    async def _catch_up(self, index: TenantIndex, seq: int) -> int:
        """Apply the nodes changed since the index's revision; returns how many."""
        changed: dict[str, list[dict[str, Any]]] = {}
        for label in TARGETS:
            changed[label] = await snapshot.changed(
                self.store, group_id=index.group_id, label=label, since=index.seq, limit=DELTA_LIMIT
            )

        def apply() -> None:
            for label, rows in changed.items():
                index.apply(label, rows)
            index.finish()

        await asyncio.to_thread(apply)
        index.seq = max(index.seq, seq)
        if any(len(rows) >= DELTA_LIMIT for rows in changed.values()):
            index.stale = True  # more changed than one read returns: reload rather than miss any
        return sum(len(rows) for rows in changed.values())

    def _build_later(self, group_id: str, state: GroupState) -> None:
        """Start loading the tenant's index in the background, once its bytes are reserved."""
        if group_id in self.builds:
            return
        self.reserved[group_id] = _nodes(state) * _node_bytes(self.dimension)
        if not self._make_room(keep=group_id):  # the loads in flight hold the rest: not now
            self.reserved.pop(group_id, None)
            return
        self.restores[group_id] = asyncio.get_running_loop().create_future()

        # a search waits for a small tenant's load: its snapshot is written after it is installed
        # (``_write_later``), and each search catches up from its own state (the index's ``seq``
        # is the state the load began at), so that search waits for neither the write nor another
        # state read; a big tenant's load (Neo4j answers meanwhile) saves first, as before
        waited = _nodes(state) <= self.sync_limit

        async def run() -> None:
            try:
                index, restored, saved = await self._load(group_id, state, save=not waited)
                encoded = await self._encode(index) if waited and not restored else None
                async with self.locks.setdefault(group_id, asyncio.Lock()):
                    if (not restored and not waited) or saved:  # a load takes seconds: catch up
                        latest = await self.state(group_id)
                        if latest is None or _reset(index, latest):
                            # forgotten from while it loaded (the forget's discard may have come
                            # before this save): no file of forgotten text stays, and load again
                            self.discard_snapshot(group_id)
                            if latest is None:
                                return
                            index.stale = True
                        if latest.seq > index.seq:
                            await self._catch_up(index, latest.seq)
                    self._install(index)  # (a restore took milliseconds: each search catches up)
                if encoded is not None:
                    self._write_later(encoded)
            except Exception:  # the Neo4j channels keep serving; the next search retries
                log.exception("building the tenant index of %s failed", group_id)
            finally:
                self.reserved.pop(group_id, None)
                self.builds.pop(group_id, None)
                restore = self.restores.pop(group_id, None)
                if restore is not None and not restore.done():
                    restore.set_result(False)

        self.builds[group_id] = asyncio.create_task(run())

    def _install(self, index: TenantIndex) -> None:
        """Hold ``index`` as the most recently used (its reservation becomes its bytes), then drop
        others until the node and byte budgets hold again; an index that does not fit alone (its
        estimate beat the reservation's) is not kept."""
        group_id = index.group_id
        self.reserved.pop(group_id, None)
        self.entries[group_id] = index
        self.entries.move_to_end(group_id)
        self.bytes[group_id] = index_bytes(index)
        self.tick += 1
        self.used[group_id] = self.tick
        if not self._make_room(keep=group_id):
            self.drop(group_id)

    def _make_room(self, *, keep: str) -> bool:
        """Drop indexes other than ``keep`` until the budgets hold; False when they cannot."""
        while self._over():
            if not any(g != keep for g in self.entries):
                return False
            self._evict(keep=keep)
        return True

    def _evict(self, *, keep: str) -> None:
        """Drop one index: of the ``EVICTION_WINDOW`` least recently used (never ``keep``), the one
        with the most bytes x idle ticks (``memory.victim``)."""
        coldest = (g for g in islice(self.entries, EVICTION_WINDOW + 1) if g != keep)
        window = [(g, self.bytes.get(g, 0), self.used.get(g, 0)) for g in islice(coldest, EVICTION_WINDOW)]
        self.drop(victim(window, self.tick))
        self.evictions += 1

    def _over(self) -> bool:
        if sum(i.size for i in self.entries.values()) > self.max_nodes:
            return True
        return self.max_bytes is not None and self.nbytes() > self.max_bytes


def _node_bytes(dimension: int) -> int:
    """A generous estimate of one node's index bytes (its vector twice, for column growth, plus
    text, postings and ids), to refuse a tenant too big for the budget before loading it."""
    return 8 * dimension + 2_000


def _nodes(state: GroupState) -> int:
    return state.episodes + state.facts + state.entities


def _reset(index: TenantIndex, state: GroupState) -> bool:
    """Deleted or rewritten in bulk since the index was built, or a different group of that name."""
    return _reset_since(index.seq, index.created_at, state)


def _reset_since(seq: int, created_at: datetime | None, state: GroupState) -> bool:
    return state.reset_seq > seq or state.seq < seq or state.created_at != created_at


def _apply_all(index: TenantIndex, rows: dict[str, list[dict[str, Any]]]) -> None:
    """A small group's whole load applied (each label in id order, as its pages would be) and finished."""
    for label in TARGETS:
        if rows[label]:
            index.apply(label, rows[label])
    index.finish()


def _save(snapshots: Snapshots, index: TenantIndex) -> int:
    """Save with the episode fields' postings built (what the first field-weighted search would
    build anyway), so a restored index answers its first search without building them."""
    index.fields.activate()
    return snapshots.save(index)


def _encode(index: TenantIndex) -> Encoded:
    """As ``_save`` encodes it, with the buffers copied."""
    index.fields.activate()
    return encode(index, copy=True)


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Mark a speculative restore's failure as seen: its claimer (if any) handles it again."""
    if not task.cancelled():
        task.exception()


def _restore(snapshots: Snapshots, group_id: str, expected: Expected) -> TenantIndex | None:
    """The group's snapshot, its file marked as used (the directory's eviction goes by last use)."""
    index = snapshots.load(group_id, expected)
    if index is not None:
        snapshots.touch(group_id)
    return index
