"""Read-only Cypher for analysts: the one place that runs caller-written Cypher.

Defence in depth, each layer enough on its own for the cases it covers:
1. one statement only (a lexer that skips strings, identifiers and comments finds no inner ``;``);
2. an ``EXPLAIN`` plan check (``graphmem.store.cypher.analyst``): read-only query type, this database
   only, no writing / file-loading / admin operators, procedures from an allow-list;
3. a READ access-mode transaction (the server refuses writes in it) with a timeout, and a
   client-side deadline a little past it (``QueryTimeout``, 504, either way);
4. a row cap: at most ``row_cap`` rows come back, with ``truncated`` set when there were more.
Refusals raise ``Forbidden`` (403) with ``details.reason``; invalid Cypher raises ``InvalidQuery``, as
does a query past the per-transaction memory limit (``details.reason: memory_limit``); a result nested
deeper than ``MAX_RESULT_DEPTH`` raises ``ResultTooDeep`` (422).
"""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import math
from collections.abc import Iterator, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from neo4j.graph import Node, Path, Relationship
from neo4j.spatial import Point
from neo4j.time import Date, DateTime, Duration, Time
from pydantic import BaseModel

from graphmem.errors import (
    Forbidden,
    GraphMemError,
    InvalidInput,
    InvalidQuery,
    QueryTimeout,
    ResultTooDeep,
    StoreUnavailable,
)
from graphmem.store.cypher import analyst as policy
from graphmem.store.driver import Store, map_neo4j_errors

HIDDEN_PROPERTIES = frozenset({"embedding"})
MAX_QUERY_CHARS = 100_000


class AnalystResult(BaseModel):
    """Rows as objects keyed by column, in column order; ``truncated`` when the row cap cut them."""

    columns: list[str]
    rows: list[dict[str, Any]]
    row_count: int
    truncated: bool

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        for row in self.rows:
            writer.writerow([_csv_cell(row.get(c)) for c in self.columns])
        return out.getvalue()


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# --- 1. one statement ---------------------------------------------------------------------------


def _code_chars(query: str) -> Iterator[tuple[int, str]]:
    """Yield (index, char) for characters outside strings, backtick names and comments."""
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch in "'\"`":
            i = _skip_quoted(query, i, ch)
        elif query.startswith("//", i):
            end = query.find("\n", i)
            i = n if end < 0 else end + 1
        elif query.startswith("/*", i):
            end = query.find("*/", i + 2)
            if end < 0:
                raise Forbidden("unterminated comment", details={"reason": "unterminated_comment"})
            i = end + 2
        else:
            yield i, ch
            i += 1


def _skip_quoted(query: str, start: int, quote: str) -> int:
    i = start + 1
    while i < len(query):
        ch = query[i]
        if ch == "\\" and quote != "`":
            i += 2
            continue
        if ch == quote:
            if quote == "`" and query.startswith("``", i):
                i += 2
                continue
            return i + 1
        i += 1
    raise Forbidden("unterminated string or name", details={"reason": "unterminated_literal"})


def check_single_statement(query: str) -> str:
    """Return the query without a trailing ``;``; refuse empty, oversized or multi-statement text."""
    if not query.strip():
        raise InvalidInput("query is empty", details={"field": "query"})
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput("query is too long", details={"field": "query", "max": MAX_QUERY_CHARS})
    code = [(i, ch) for i, ch in _code_chars(query) if not ch.isspace()]
    if code and code[-1][1] == ";":
        query = query[: code[-1][0]]
        code.pop()
    if not code:
        raise InvalidInput("query has no statement", details={"field": "query"})
    if any(ch == ";" for _, ch in code):
        raise Forbidden("only one statement per query", details={"reason": "multiple_statements"})
    return query


# --- 2. plan check ------------------------------------------------------------------------------


def _operators(plan: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    yield plan
    for child in plan.get("children") or []:
        yield from _operators(child)


def _refuse(reason: str, message: str, **details: Any) -> Forbidden:
    return Forbidden(message, details={"reason": reason, **details})


def check_plan(plan: Mapping[str, Any] | None, *, query_type: str | None, database: str) -> None:
    """Raise ``Forbidden`` unless every operator of the ``EXPLAIN`` plan is allowed."""
    if not plan:
        raise _refuse("no_plan", "the query has no plan to check")
    for op in _operators(plan):
        _check_operator(op, database)
    if query_type != policy.READ_ONLY_QUERY_TYPE:
        raise _refuse("not_read_only", "the query is not read-only", query_type=query_type)


def _check_operator(op: Mapping[str, Any], database: str) -> None:
    name, _, db = str(op.get("operatorType", "")).partition("@")
    args = op.get("args") or {}
    if db and db != database:
        raise _refuse("other_database", "queries may only read the configured database", operator=name)
    if args.get("planner") in policy.DENIED_PLANNERS or args.get("runtime") in policy.DENIED_RUNTIMES:
        raise _refuse("administration", "schema and administration commands are not allowed", operator=name)
    if name in policy.ALLOWED_SHOW_OPERATORS:
        return
    if policy.DENIED_OPERATOR.match(name):
        raise _refuse("write_operator", f"operator {name} is not allowed", operator=name)
    if name == "ProcedureCall":
        _check_procedure(str(args.get("Details", "")))


def _check_procedure(details: str) -> None:
    match = policy.PROCEDURE_NAME.match(details)
    procedure = match.group(1) if match else ""
    if procedure not in policy.ALLOWED_PROCEDURES:
        raise _refuse(
            "procedure_not_allowed",
            f"procedure {procedure or '?'} is not on the allow-list",
            procedure=procedure,
            allowed=sorted(policy.ALLOWED_PROCEDURES),
        )


# --- 3 + 4. run ---------------------------------------------------------------------------------


def check_params(params: Mapping[str, Any] | None) -> dict[str, Any]:
    if params is None:
        return {}
    if not all(isinstance(k, str) and k for k in params):
        raise InvalidInput("parameter names must be non-empty strings", details={"field": "params"})
    return dict(params)


# The client-side deadline is the server's timeout plus this: the server's own answer (a timed-out
# transaction) wins when it comes, and a query that never yields (one expression looping) is
# abandoned here; the launcher's reaper stops its thread on the server.
CLIENT_DEADLINE_GRACE_S = 1.0


async def run_readonly(
    store: Store,
    query: str,
    params: Mapping[str, Any] | None = None,
    *,
    timeout_s: float,
    row_cap: int,
) -> AnalystResult:
    """Check, then run ``query`` in a READ transaction; at most ``row_cap`` rows come back. Past
    ``timeout_s`` (server-side transaction timeout, then a client-side deadline) ``QueryTimeout``."""
    text = check_single_statement(query)
    values = check_params(params)
    try:
        async with asyncio.timeout(timeout_s + CLIENT_DEADLINE_GRACE_S):
            return await _run(store, text, values, timeout_s=timeout_s, row_cap=row_cap)
    except TimeoutError as exc:
        raise _timed_out(timeout_s, {"deadline": "client"}) from exc
    except (InvalidQuery, StoreUnavailable) as exc:
        raise _explain_failure(exc, timeout_s) from exc


async def _run(
    store: Store, text: str, values: dict[str, Any], *, timeout_s: float, row_cap: int
) -> AnalystResult:
    async with store.transaction(write=False, timeout=timeout_s) as tx:
        with map_neo4j_errors():
            summary = await (await tx.run(policy.EXPLAIN_PREFIX + text, values)).consume()
        check_plan(summary.plan, query_type=summary.query_type, database=store.database)
        with map_neo4j_errors():
            result = await tx.run(text, values)
            columns = list(result.keys())
            rows: list[dict[str, Any]] = []
            truncated = False
            async for record in result:
                if len(rows) >= row_cap:
                    truncated = True
                    break
                rows.append({k: to_json(v) for k, v in zip(columns, record.values(), strict=True)})
    return AnalystResult(columns=columns, rows=rows, row_count=len(rows), truncated=truncated)


def _timed_out(timeout_s: float, details: dict[str, Any]) -> QueryTimeout:
    return QueryTimeout(
        f"the query ran past the {timeout_s:g} s timeout and was stopped",
        details={"timeout_s": timeout_s, **details},
    )


def _explain_failure(exc: InvalidQuery | StoreUnavailable, timeout_s: float) -> GraphMemError:
    code = str(exc.details.get("neo4j_code", ""))
    if "TransactionTimedOut" in code:
        return _timed_out(timeout_s, {"deadline": "server", **exc.details})
    if "MemoryPoolOutOfMemoryError" in code:
        return InvalidQuery(
            "the query needs more memory than a transaction may use (db.memory.transaction.max)",
            details={"reason": "memory_limit", **exc.details},
        )
    if isinstance(exc, StoreUnavailable):
        return exc
    if code.endswith("AccessMode") or "Forbidden" in code or "Security" in code:
        return Forbidden("the query tried to write", details={"reason": "access_mode", **exc.details})
    return exc


# --- serialisation ------------------------------------------------------------------------------


# Deepest nesting of lists and maps a result value may have: deeper values (``reduce(l=[], i IN
# range(1, 300) | [l])``) are refused with ``ResultTooDeep`` rather than failing in a JSON encoder.
MAX_RESULT_DEPTH = 100


def _properties(entity: Node | Relationship, depth: int) -> dict[str, Any]:
    return {k: to_json(v, depth + 1) for k, v in sorted(entity.items()) if k not in HIDDEN_PROPERTIES}


def _node(node: Node, depth: int) -> dict[str, Any]:
    return {
        "id": node.get("id"),
        "element_id": node.element_id,
        "labels": sorted(node.labels),
        "properties": _properties(node, depth),
    }


def _relationship(rel: Relationship, depth: int) -> dict[str, Any]:
    return {
        "element_id": rel.element_id,
        "type": rel.type,
        "start": rel.start_node.element_id if rel.start_node is not None else None,
        "end": rel.end_node.element_id if rel.end_node is not None else None,
        "properties": _properties(rel, depth),
    }


def to_json(value: Any, depth: int = 0) -> Any:
    """A Neo4j value as JSON: graph values as objects, temporal values as ISO strings. Lists and
    maps nested more than ``MAX_RESULT_DEPTH`` deep raise ``ResultTooDeep``."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, DateTime | Date | Time | Duration):
        return value.iso_format()
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    if depth >= MAX_RESULT_DEPTH:
        raise ResultTooDeep(
            f"the result nests values more than {MAX_RESULT_DEPTH} levels deep",
            details={"field": "query", "max_depth": MAX_RESULT_DEPTH},
        )
    return _container(value, depth)


def _container(value: Any, depth: int) -> Any:
    if isinstance(value, Node):
        return _node(value, depth)
    if isinstance(value, Relationship):
        return _relationship(value, depth)
    if isinstance(value, Path):
        return {
            "nodes": [_node(n, depth + 1) for n in value.nodes],
            "relationships": [_relationship(r, depth + 1) for r in value],
        }
    if isinstance(value, Point):
        return {"srid": value.srid, "coordinates": [to_json(c, depth + 1) for c in value]}
    if isinstance(value, Mapping):
        return {str(k): to_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v, depth + 1) for v in value]
    return str(value)
