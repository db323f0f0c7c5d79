"""``graphiti``: graphiti-core's own hybrid search over the same episodes and facts, without any LLM.

graphiti-core (pinned in the ``eval`` extra, installed in the project venv: it needs neo4j>=5.26,
pydantic>=2.11, numpy>=1 — no downgrade of our pins) normally builds its graph by prompting an LLM.
Here the graph is loaded through its LLM-free bulk path (``add_nodes_and_edges_bulk``), from what
graphmem already holds for the tenant (see ``graphiti_load``), with our MiniLM vectors.
Search is ``Graphiti.search_`` with ``COMBINED_HYBRID_SEARCH_RRF`` (edges: BM25 + cosine, fused by RRF;
episodes: BM25; graphiti's defaults otherwise, e.g. cosine ``sim_min_score`` 0.6). The LLM client and
cross-encoder are stubs that raise if ever called. Telemetry is off (``GRAPHITI_TELEMETRY_ENABLED``).

graphiti writes its own labels (``Episodic``, ``Entity`` with ``uuid``, ``RELATES_TO``) and its own
indexes into the same Neo4j database; its group ids are distinct (``graphiti_...``) and ``drop``
deletes them. A copy already complete (same counts as the source) is reused rather than reloaded and
left in place (a 100k-episode tenant takes ~8 minutes to copy); ``close`` drops only what a run wrote.
Note that graphiti's edge cosine search scans every ``RELATES_TO`` edge of the database (its query
filters on group after the expansion), so a large copy left in place slows graphiti's search on
every other group of the same database. Its ``Entity`` nodes carry no ``id``/``normalized_name``/``embedding``, so graphmem's
constraints and vector indexes ignore them.
"""

from __future__ import annotations

import logging
import os
import re
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphmem.config import Settings
from graphmem.ports import Embedder
from graphmem.store.driver import Store

os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")

_GROUP_SAFE = re.compile(r"[^A-Za-z0-9_-]")


class GraphitiUnavailable(RuntimeError):
    """graphiti-core is not installed or cannot run here (the message says why)."""


def graphiti_group(name: str) -> str:
    """graphiti accepts only ``[A-Za-z0-9_-]`` in group ids."""
    return _GROUP_SAFE.sub("_", name)[:120]


def _import_graphiti() -> None:
    """Import graphiti-core once, quietly: its pydantic models use the deprecated class-based config,
    which warns at class creation (and the test suite turns warnings into errors)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import graphiti_core
            import graphiti_core.driver.neo4j_driver
            import graphiti_core.search.search_config_recipes
            import graphiti_core.utils.bulk_utils  # noqa: F401
    except ImportError as exc:  # depends on the environment
        raise GraphitiUnavailable(
            f"graphiti-core is not installed ({exc}); pip install -e '.[eval]'"
        ) from exc


def _clients(embedder: Embedder) -> tuple[Any, Any, Any]:
    _import_graphiti()
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.embedder.client import EmbedderClient
    from graphiti_core.llm_client.client import LLMClient

    class MiniLMClient(EmbedderClient):  # type: ignore[misc]
        """graphiti's embedder interface over graphmem's MiniLM (same vectors as graphmem)."""

        def __init__(self, inner: Embedder) -> None:
            self.inner = inner

        async def create(self, input_data: Any) -> list[float]:
            text = input_data if isinstance(input_data, str) else next(iter(input_data))
            return [float(x) for x in self.inner.embed([str(text)])[0]]

        async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
            return [[float(x) for x in row] for row in self.inner.embed(list(input_data_list))]

    class NoLLM(LLMClient):  # type: ignore[misc]
        async def _generate_response(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            raise RuntimeError("the graphiti baseline must not call an LLM")

    class NoReranker(CrossEncoderClient):  # type: ignore[misc]
        async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
            raise RuntimeError("the graphiti baseline must not call a cross-encoder")

    return MiniLMClient(embedder), NoLLM(None), NoReranker()


@dataclass
class GraphitiRun:
    """One connection to graphiti-core plus the uuid -> external id map of the episodes it loaded."""

    graphiti: Any
    embedder: Embedder
    external_ids: dict[str, str] = field(default_factory=dict)  # episode uuid -> external id
    groups: set[str] = field(default_factory=set)

    @classmethod
    async def connect(cls, settings: Settings, embedder: Embedder) -> GraphitiRun:
        emb, llm, reranker = _clients(embedder)
        # graphiti's driver reports server notices (e.g. "property fact_embedding does not exist" on an
        # empty graph) through the neo4j logger; graphmem's own driver turns them off at the source.
        logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
        from graphiti_core import Graphiti
        from graphiti_core.driver.neo4j_driver import Neo4jDriver

        user, password = settings.neo4j_auth_tuple or (settings.neo4j_user, "")
        driver = Neo4jDriver(settings.effective_uri, user, password, database=settings.neo4j_database)
        graphiti = Graphiti(graph_driver=driver, llm_client=llm, embedder=emb, cross_encoder=reranker)
        init = getattr(driver, "_init_task", None)
        if init is not None:
            await init  # its own indexes (IF NOT EXISTS), scheduled by the driver's constructor
        else:
            await graphiti.build_indices_and_constraints()
        return cls(graphiti, embedder)

    async def load(
        self, store: Store, source_group: str, group: str, *, reuse: bool = True
    ) -> dict[str, Any]:
        """Copy graphmem's episodes, entities and facts of ``source_group`` into graphiti ``group``.

        First counts what graphiti holds for ``group`` against what a complete copy holds: equal (and
        ``reuse``), nothing is written (``reused: true``; only the episode id map is read) and the
        group is not dropped by ``close``; fewer, the copy resumes, writing only the missing items;
        more (a stale copy), the group is dropped and copied afresh. ``complete`` says whether the
        counts agree afterwards. ``close`` drops the groups this run wrote."""
        from eval.baselines.graphiti_load import (
            copy_group,
            external_id_map,
            graphiti_counts,
            source_counts,
        )

        began = time.perf_counter()
        expected = await source_counts(store, source_group)
        held = await graphiti_counts(store, group)
        if reuse and held == expected and any(expected.values()):
            await external_id_map(store, source_group, group, self.external_ids)
            return {"reused": True, **held, "seconds": round(time.perf_counter() - began, 3)}
        stale = any(held[k] > expected[k] for k in held)
        if stale:
            await self.drop(group)
        resume = reuse and not stale and any(held.values())
        stats = await copy_group(
            self.graphiti, store, self.embedder, source_group, group, self.external_ids, resume=resume
        )
        self.groups.add(group)
        after = await graphiti_counts(store, group)
        stats.update(reused=False, resumed=resume, dropped_stale=stale, complete=after == expected)
        if after != expected:
            stats.update(graphiti_counts=after, expected_counts=expected)
        stats["seconds"] = round(time.perf_counter() - began, 3)
        return stats

    async def search(self, group: str, query: str, k: int) -> list[str]:
        """External ids (dia_ids) of the evidence of graphiti's results, best first, de-duplicated.

        graphiti ranks edges (facts) and episodes in separate lists; they are merged by rank
        (edge 1, episode 1, edge 2, ...), each edge contributing the episodes it cites."""
        from graphiti_core.search.search_config_recipes import COMBINED_HYBRID_SEARCH_RRF

        config = COMBINED_HYBRID_SEARCH_RRF.model_copy(deep=True)
        config.node_config = None  # entities carry no provenance to a turn
        config.community_config = None
        config.limit = k
        results = await self.graphiti.search_(query, config=config, group_ids=[group])
        return self.ranked_external_ids(
            ([e for e in edge.episodes] for edge in results.edges),
            (ep.uuid for ep in results.episodes),
        )

    def ranked_external_ids(self, edges: Iterable[Sequence[str]], episodes: Iterable[str]) -> list[str]:
        out: dict[str, None] = {}
        edge_list, episode_list = list(edges), list(episodes)
        for i in range(max(len(edge_list), len(episode_list))):
            if i < len(edge_list):
                for uuid in edge_list[i]:
                    ext = self.external_ids.get(uuid)
                    if ext:
                        out.setdefault(ext, None)
            if i < len(episode_list):
                ext = self.external_ids.get(episode_list[i])
                if ext:
                    out.setdefault(ext, None)
        return list(out)

    async def drop(self, group: str) -> None:
        from graphiti_core.nodes import Node

        await Node.delete_by_group_id(self.graphiti.driver, group, batch_size=2000)
        self.groups.discard(group)

    async def close(self) -> None:
        for group in list(self.groups):
            await self.drop(group)
        await self.graphiti.close()
