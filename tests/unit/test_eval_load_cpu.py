"""CPU accounting of ``graphmem eval load`` (eval.proc_cpu): /proc readings and the per-kind split."""

from __future__ import annotations

import os
import socket
import threading
import time

from eval import load
from eval.proc_cpu import Reading, Sampler, TreeCpu, listening_pid, per_request_ms, tree_cpu


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_tree_cpu_splits_main_thread_from_the_others() -> None:
    before = tree_cpu(os.getpid())
    worker = threading.Thread(target=_spin, args=(0.08,))
    worker.start()
    worker.join()
    _spin(0.04)
    spent = tree_cpu(os.getpid()) - before
    assert spent.threads >= 0.05  # the worker's CPU is not the loop's (/proc counts 10 ms ticks)
    assert spent.loop >= 0.02
    assert spent.total == spent.loop + spent.threads


def test_listening_pid_finds_this_process_by_port() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert listening_pid(s.getsockname()[1]) == os.getpid()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    assert listening_pid(free) is None  # bound, not listening


def test_cpu_per_request_and_the_split_by_kind() -> None:
    before = Reading(TreeCpu(1.0, 2.0), 10.0)
    after = Reading(TreeCpu(1.6, 2.4), 11.0)  # 1.0 s of server CPU, 1.0 s of Neo4j's
    mix = load._cpu(before, after, elapsed=2.0, searches=80, writes=20)
    assert mix["server_ms_per_request"] == 10.0
    assert mix["server_loop_ms_per_request"] == 6.0
    assert mix["server_cores"] == 0.5
    assert mix["neo4j_ms_per_request"] == 10.0
    alone = {"server_ms_per_request": 5.0, "neo4j_ms_per_request": 2.5, "load_average": [1.0, 1.0]}
    stats, searches = load.Stats(), load.Stats()
    stats.latencies = {"search": [0.1] * 80, "write": [0.1] * 20}
    split = load._split(mix, alone, stats, searches)
    # the mix's 1000 ms less 80 searches at 5 ms leaves 600 ms for 20 writes
    assert split["server_ms_per_search"] == 5.0
    assert split["server_ms_per_write"] == 30.0
    assert split["neo4j_ms_per_write"] == 40.0


def test_sampler_without_pids_reads_nothing() -> None:
    sampler = Sampler(None, None)
    assert not sampler.active
    assert sampler.read() == Reading(TreeCpu(), None)
    assert per_request_ms(1.0, 0) is None


def test_group_commit_counts_writes_per_transaction_over_the_run() -> None:
    before = {"transactions": 10.0, "writes": 12.0, "fallbacks": 0.0}
    after = {"transactions": 40.0, "writes": 72.0, "fallbacks": 1.0}
    assert load._group_commit(before, after) == {
        "transactions": 30,
        "writes": 60,
        "fallbacks": 1,
        "writes_per_transaction": 2.0,
    }
    assert load._group_commit(before, before)["writes_per_transaction"] is None


def test_neo4j_cpu_is_net_of_its_background_rate() -> None:
    before = Reading(TreeCpu(0.0, 0.0), 10.0)
    after = Reading(TreeCpu(0.5, 0.5), 13.0)  # 3 s of Neo4j CPU over 10 s, 1 s of it background
    cpu = load._cpu(before, after, elapsed=10.0, searches=100, writes=0, background=0.1)
    assert cpu["neo4j_gross_ms_per_request"] == 30.0
    assert cpu["neo4j_ms_per_request"] == 20.0
    assert cpu["neo4j_background_cores"] == 0.1
    idle = load._cpu(before, Reading(TreeCpu(), 10.5), elapsed=10.0, searches=1, writes=0, background=0.2)
    assert idle["neo4j_ms_per_request"] == 0.0  # never below zero
