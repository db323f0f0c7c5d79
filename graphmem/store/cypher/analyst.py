"""Policy for analysts' read-only Cypher: the ``EXPLAIN`` prefix and what a plan may contain.

A query is run only when its ``EXPLAIN`` plan passes every rule here (see ``graphmem.store.analyst``):
- the server classifies it as read-only (``query_type == "r"``);
- every operator runs against the configured database (no ``USE system``, no administration);
- no operator writes, loads files, runs nested transactions, or administers the server;
- every ``ProcedureCall`` names a procedure on the allow-list below.
Introspection of the schema (``SHOW INDEXES|CONSTRAINTS|PROCEDURES|FUNCTIONS``) is allowed; showing
settings, transactions, users, databases or privileges is not (they describe the server, not the graph).
"""

from __future__ import annotations

import re

EXPLAIN_PREFIX = "EXPLAIN "
READ_ONLY_QUERY_TYPE = "r"

ALLOWED_PROCEDURES: frozenset[str] = frozenset(
    {
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.index.fulltext.listAvailableAnalyzers",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        "db.info",
        "db.ping",
    }
)

ALLOWED_SHOW_OPERATORS: frozenset[str] = frozenset(
    {"ShowIndexes", "ShowConstraints", "ShowProcedures", "ShowFunctions"}
)

# Operator names (without the "@database" suffix) that write, load files, nest transactions or
# administer the server. Matched as prefixes: CreateIndex, SetNodeProperty, DropConstraint, ...
DENIED_OPERATOR = re.compile(
    r"^(Create|Merge|LockingMerge|Delete|DetachDelete|Set|Remove|Foreach|TransactionForeach"
    r"|TransactionApply|LoadCSV|Drop|Alter|Rename|Grant|Deny|Revoke|Start|Stop|Enable|Terminate"
    r"|Wait|Assert|DoNothingIf|EnsureNodeExists|EnsureValidNonSystemDatabase|AdministrationCommand"
    r"|SystemProcedureCall|LockNodes|Lock|Show|Log|Copy|Deallocate|Reallocate|Dry)"
)

DENIED_PLANNERS: frozenset[str] = frozenset({"ADMINISTRATION"})
DENIED_RUNTIMES: frozenset[str] = frozenset({"SCHEMA", "SYSTEM"})

PROCEDURE_NAME = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*\(")
