"""The ``rules`` extractor in worker processes: batches of episodes go out, extractions come back.

``PooledExtractor`` wraps a ``RulesExtractor`` and has its interface (``extract``,
``extract_batch``). Its workers are started once (``spawn``: no fork of a process holding
ONNX Runtime's and the driver's threads), each building its own ``RulesExtractor`` and loading the
English pipeline in its initializer, so a batch pays no model load. ``extract_batch`` cuts a batch
into one contiguous chunk per worker; a chunk's requests and extractions cross the process
boundary pickled (a few strings and a datetime out; pydantic models back). Extraction of an
episode reads nothing but its request and the parse of its sentences, and the parse of a sentence
does not depend on the batch it is parsed with, so the result is the in-process result
(``tests/unit/test_ingest_pool.py`` compares them).

Why a process: the extractor is Python over spaCy objects and holds the GIL while it runs; in a
thread beside the event loop it shares one interpreter with the batch writer and the driver. In a
worker it shares nothing, and the parser's memory (model, vocabulary, memo tables) lives there.

``cpu_seconds`` adds up the workers' CPU time spent on batches (each reply carries its worker's
``time.process_time`` delta): ``eval.ingest_speed`` counts it with the ingesting process's own, so a
pool cannot make ingestion look cheaper than it is.

A worker that dies (killed, out of memory) breaks the pool: the batch in hand is extracted in
process, and the pool is started again for the next one. ``close`` stops the workers.

As with any ``spawn`` pool, the program's main module must be safe to import (its work under
``if __name__ == "__main__":``): a worker imports it first. Console scripts (``graphmem``), ``-m``
modules with the guard, pytest and uvicorn are; a bare script that starts work at import would
run again in each worker.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import TYPE_CHECKING

from graphmem.models.extraction import Extraction

if TYPE_CHECKING:
    from graphmem.providers.extractors.rules import ExtractRequest, RulesExtractor

log = logging.getLogger(__name__)

_worker: RulesExtractor | None = None


def _start_worker() -> None:
    """A worker's initializer: its extractor, with the English pipeline and its tables loaded."""
    global _worker
    from graphmem.providers.extractors import en_parse
    from graphmem.providers.extractors.rules import RulesExtractor

    _worker = RulesExtractor()
    en_parse.warm()


def _extract_chunk(requests: Sequence[ExtractRequest]) -> tuple[list[Extraction], float]:
    """In a worker: the chunk's extractions and the CPU seconds they took."""
    began = time.process_time()
    assert _worker is not None, "the pool's initializer did not run"
    out = _worker.extract_batch(requests)
    return out, time.process_time() - began


def chunks(n: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous (start, end) ranges over ``n`` items, sizes differing by at most one;
    no empty range (fewer ranges when ``n < parts``)."""
    parts = max(1, min(parts, n))
    size, extra = divmod(n, parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append((start, end))
        start = end
    return out if n else []


class PooledExtractor:
    """A ``RulesExtractor`` whose batches run in ``processes`` worker processes (module docstring)."""

    def __init__(self, inner: RulesExtractor, processes: int = 1) -> None:
        if processes < 1:
            raise ValueError("processes must be >= 1")
        self.inner = inner
        self.name = inner.name
        self.processes = processes
        self.cpu_seconds = 0.0
        self.fallbacks = 0
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the workers now (they load the English pipeline while the caller goes on)."""
        self._executor()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                )
                for _ in range(self.processes):  # spawn them all now, not one per submit
                    self._pool.submit(time.process_time)
            return self._pool

    def extract(
        self,
        *,
        content: str,
        speaker: str | None,
        reference_time: datetime,
        other_speaker: str | None = None,
    ) -> Extraction:
        from graphmem.providers.extractors.rules import ExtractRequest

        return self.extract_batch([ExtractRequest(content, speaker, reference_time, other_speaker)])[0]

    def extract_batch(self, requests: Sequence[ExtractRequest]) -> list[Extraction]:
        """The batch's extractions, in order, as ``RulesExtractor.extract_batch`` gives them."""
        requests = list(requests)
        if not requests:
            return []
        pool = self._executor()
        try:
            futures: list[Future[tuple[list[Extraction], float]]] = [
                pool.submit(_extract_chunk, requests[a:b]) for a, b in chunks(len(requests), self.processes)
            ]
            out: list[Extraction] = []
            for future in futures:
                part, cpu = future.result()
                out.extend(part)
                self.cpu_seconds += cpu
            return out
        except BrokenProcessPool:
            log.warning("an extraction worker died; this batch is extracted in process, the pool restarts")
            self.fallbacks += 1
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            return self.inner.extract_batch(requests)

    def close(self) -> None:
        """Stop the workers (a later batch starts them again)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
