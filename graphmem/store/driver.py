"""One async driver per process, transactions owned by the caller, driver errors translated once."""

from __future__ import annotations

import asyncio
import builtins
import importlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, AsyncTransaction, Record
from neo4j.exceptions import (
    AuthError,
    ClientError,
    ConstraintError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)
from neo4j.time import Date, DateTime

from graphmem.errors import (
    AlreadyExists,
    ConfigError,
    GraphMemError,
    InvalidQuery,
    StoreUnavailable,
)

Tx = AsyncTransaction | AsyncManagedTransaction
T = TypeVar("T")
STORE_ATTEMPTS = 6  # Store.execute's tries on a transient error (deadlock), where the caller has none
_outer_retries: ContextVar[bool] = ContextVar("graphmem_outer_retries", default=False)


@contextmanager
def caller_retries() -> Iterator[None]:
    """Inside this block the caller owns retrying (the ingest runner's ``--retries``):
    ``Store.execute`` tries once, so retries are one layer, never nested."""
    token = _outer_retries.set(True)
    try:
        yield
    finally:
        _outer_retries.reset(token)


@contextmanager
def map_neo4j_errors() -> Iterator[None]:
    """Translate driver exceptions into graphmem errors (the single boundary)."""
    try:
        yield
    except GraphMemError:
        raise
    except (ServiceUnavailable, SessionExpired, OSError) as exc:
        raise StoreUnavailable("Neo4j is not reachable", details={"reason": type(exc).__name__}) from exc
    except TransientError as exc:
        raise StoreUnavailable(
            "Neo4j reported a transient error; retry", details={"neo4j_code": exc.code, "transient": True}
        ) from exc
    except AuthError as exc:
        raise ConfigError("Neo4j rejected the credentials", details={"neo4j_code": exc.code}) from exc
    except ConstraintError as exc:
        raise AlreadyExists("a uniqueness constraint was violated", details={"neo4j_code": exc.code}) from exc
    except ClientError as exc:
        code = exc.code or ""
        raise InvalidQuery(_first_line(exc.message), details={"neo4j_code": code}) from exc
    except (Neo4jError, DriverError) as exc:
        raise StoreUnavailable("Neo4j request failed", details={"reason": type(exc).__name__}) from exc


# The driver (neo4j 5.x/6.x, every Bolt version's ``run``) logs each RUN as
# ``log.debug("... RUN %s", " ".join(map(repr, (query, parameters, extra))))``: the join is built
# before ``debug`` can see that debug logging is off, so every statement paid the repr of all its
# parameters (embedding lists, row maps): about 0.28 ms of the event loop a statement under load.
# ``repr`` in those modules names nothing else, so it is shadowed there by one that formats only
# while the driver's ``neo4j.io`` logger has debug on (the log line is then the driver's own).
_BOLT_MODULES = tuple(f"neo4j._async.io._bolt._bolt{v}" for v in (3, 4, 5, 6))
_IO_LOG = logging.getLogger("neo4j.io")
QUIET = "<params>"  # what a RUN's fields format as while debug logging is off (nobody sees it)


def _run_field_repr(obj: object) -> str:
    return builtins.repr(obj) if _IO_LOG.isEnabledFor(logging.DEBUG) else QUIET


def quiet_run_logging() -> list[str]:
    """Stop the driver formatting every RUN's parameters for a debug line nobody logs; returns
    the modules guarded (a driver without one of them is left as it is)."""
    guarded: list[str] = []
    for name in _BOLT_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        module.repr = _run_field_repr  # type: ignore[attr-defined]
        guarded.append(name)
    return guarded


def _first_line(message: str | None) -> str:
    return (message or "query failed").strip().splitlines()[0][:500]


class Store:
    """Owns the async driver. ``async with store.transaction() as tx`` commits or rolls back."""

    def __init__(self, driver: AsyncDriver, *, database: str) -> None:
        self._driver = driver
        self.database = database

    @classmethod
    def connect(cls, uri: str, *, auth: tuple[str, str] | None, database: str, max_pool: int = 50) -> Store:
        quiet_run_logging()
        driver = AsyncGraphDatabase.driver(
            uri,
            auth=auth,
            max_connection_pool_size=max_pool,
            connection_acquisition_timeout=30.0,
            notifications_min_severity="OFF",
        )
        return cls(driver, database=database)

    async def close(self) -> None:
        await self._driver.close()

    async def ping(self) -> None:
        """One round trip, no managed-transaction retries: answers now or raises StoreUnavailable."""
        with map_neo4j_errors():
            async with self._driver.session(database=self.database) as session:
                result = await session.run("RETURN 1")
                await result.consume()

    @asynccontextmanager
    async def transaction(
        self, *, write: bool = True, timeout: float | None = None
    ) -> AsyncIterator[AsyncTransaction]:
        with map_neo4j_errors():
            mode = "WRITE" if write else "READ"
            async with self._driver.session(database=self.database, default_access_mode=mode) as session:
                tx = await session.begin_transaction(timeout=timeout)
                try:
                    yield tx
                    await tx.commit()
                except BaseException:
                    if not tx.closed():
                        await tx.rollback()
                    raise

    async def execute(
        self,
        work: Callable[[AsyncTransaction], Awaitable[T]],
        *,
        write: bool = True,
        attempts: int = STORE_ATTEMPTS,
    ) -> T:
        """Run ``work(tx)`` in one transaction, retrying it on transient errors (deadlocks); once
        only inside ``caller_retries()``, where the caller retries."""
        if _outer_retries.get():
            attempts = 1
        for attempt in range(attempts):
            try:
                async with self.transaction(write=write) as tx:
                    return await work(tx)
            except StoreUnavailable as exc:
                if not exc.details.get("transient") or attempt == attempts - 1:
                    raise
                await asyncio.sleep(0.05 * (2**attempt) * (1 + random.random()))
        raise AssertionError("unreachable")

    async def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        """One auto-routed read query; returns plain dict rows. An auto-commit transaction in a READ
        session: one round trip (RUN and PULL pipelined) where an explicit one takes three."""
        with map_neo4j_errors():
            async with self._driver.session(database=self.database, default_access_mode="READ") as session:
                result = await session.run(query, params)
                return [plain(record) async for record in result]

    async def read_values(self, query: str, **params: Any) -> list[list[Any]]:
        """``read``, each record as its list of values as the driver decoded them: no temporal
        conversion, no walk of nested lists (for queries that return plain values only)."""
        with map_neo4j_errors():
            async with self._driver.session(database=self.database, default_access_mode="READ") as session:
                result = await session.run(query, params)
                return [record.values() async for record in result]

    async def write(self, query: str, **params: Any) -> list[dict[str, Any]]:
        """One write query in its own transaction, retried like ``execute`` on a transient error (a
        deadlock: a search's access-count ``TOUCH`` against a group commit on the same facts); the
        failed try was rolled back, so a retry is the only one that counts."""

        async def work(tx: AsyncTransaction) -> list[dict[str, Any]]:
            result = await tx.run(query, params)
            return [plain(record) async for record in result]

        return await self.execute(work)


async def run(tx: Tx, query: str, **params: Any) -> list[dict[str, Any]]:
    """Run one query inside the caller's transaction and return plain dict rows."""
    with map_neo4j_errors():
        result = await tx.run(query, params)
        return [plain(record) async for record in result]


_TEMPORAL = (DateTime, Date)


def _floats(value: Any) -> bool:
    return isinstance(value, list) and all(type(v) is float for v in value)


def plain(record: Record) -> dict[str, Any]:
    """``native(record.data())`` (nodes as property maps, Python datetimes), except that a column
    holding a list of floats (an embedding) is taken as it is: the driver's walk of it element by
    element cost 1.4 ms a 384-d row, most of a full load of a tenant (graphmem.store.snapshot)."""
    return {key: value if _floats(value) else native(record.data(key)[key]) for key, value in record.items()}


def native(value: Any) -> Any:
    """Neo4j temporal values → Python datetimes, recursively through lists and dicts."""
    if isinstance(value, _TEMPORAL):
        return value.to_native()
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    if isinstance(value, list):
        return value if _floats(value) else [native(v) for v in value]
    return value
