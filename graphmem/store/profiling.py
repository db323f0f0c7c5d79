"""Reads timed on both sides of the wire, for profiles of where a load's time goes (eval only).

``read_profiled`` is ``Store.read`` plus the server's own account of the query
(``result_available_after``: planning and the first row; ``result_consumed_after``: streaming the
rest), so a caller can split its wall time into the query in Neo4j and the transfer and decoding
in this process.
"""

from __future__ import annotations

import time
from typing import Any

from graphmem.store.driver import Store, map_neo4j_errors, plain


async def read_profiled(
    store: Store, query: str, **params: Any
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Rows as ``Store.read`` returns them, and ``{"wall_ms", "server_ms", "client_ms", "cpu_ms"}``: the
    call's wall time, the server's (first row + streaming) and the rest (transfer, decoding), and
    ``cpu_ms``: this process's CPU time meanwhile (decoding; the rest of the client time is waiting)."""
    began, cpu = time.perf_counter(), time.process_time()
    with map_neo4j_errors():
        async with store._driver.session(database=store.database, default_access_mode="READ") as session:
            result = await session.run(query, params)
            rows = [plain(record) async for record in result]
            summary = await result.consume()
    wall, cpu = (time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000
    server = float((summary.result_available_after or 0) + (summary.result_consumed_after or 0))
    return rows, {"wall_ms": wall, "server_ms": server, "client_ms": max(0.0, wall - server), "cpu_ms": cpu}
