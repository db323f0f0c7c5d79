"""Write and escape attempts that analysts' Cypher must refuse (test_cypher.py runs each one).

Targets are the test's own group (``$g``), marker names (``Pwned``) or things that do not exist, so a
check that failed open would be visible in the test's dump without harming anything else.
403: refused by the plan check or the statement lexer; 400: not valid Cypher on this server
(unknown procedure or function, syntax error), so never run either.
"""

from __future__ import annotations

CORPUS: list[tuple[str, int]] = [
    # plain writes, in every case
    ("CREATE (n:Pwned {group_id: $g}) RETURN n", 403),
    ("create (n:Pwned) return n", 403),
    ("CrEaTe (:Pwned)", 403),
    ("MERGE (n:Pwned {group_id: $g})", 403),
    ("OPTIONAL MATCH (n {group_id: $g}) WITH n LIMIT 1 MERGE (m:Pwned) RETURN m", 403),
    ("MATCH (n {group_id: $g}) SET n.pwned = true", 403),
    ("MATCH (n {group_id: $g}) SET n:Pwned", 403),
    ("MATCH (n {group_id: $g}) SET n += {pwned: 1}", 403),
    ("MATCH (n {group_id: $g}) SET n = {}", 403),
    ("MATCH (n:Fact {group_id: $g}) SET n.version = n.version + 1 RETURN n", 403),
    ("MATCH (n {group_id: $g}) DELETE n", 403),
    ("MATCH (n {group_id: $g}) DETACH DELETE n", 403),
    ("MATCH (n {group_id: $g})-[r]->() DELETE r", 403),
    ("MATCH (n {group_id: $g}) REMOVE n.content", 403),
    ("MATCH (n:Episode {group_id: $g}) REMOVE n:Episode", 403),
    ("MATCH (a {group_id: $g}), (b {group_id: $g}) WITH a, b LIMIT 1 CREATE (a)-[:PWNED]->(b)", 403),
    ("RETURN 1 AS x UNION CREATE (p:Pwned) RETURN 2 AS x", 403),
    # FOREACH and subqueries
    ("MATCH (n {group_id: $g}) WITH collect(n) AS ns FOREACH (x IN ns | SET x.pwned = 1)", 403),
    ("FOREACH (i IN range(1, 3) | CREATE (:Pwned))", 403),
    ("UNWIND [1, 2] AS i CALL (i) { CREATE (:Pwned {i: i}) } RETURN i", 403),
    ("CALL () { CREATE (:Pwned) }", 403),
    ("CALL db.labels() YIELD label CALL (label) { CREATE (:Pwned {l: label}) } RETURN label", 403),
    ("MATCH (n {group_id: $g}) CALL (n) { SET n.pwned = 1 } IN TRANSACTIONS RETURN count(*) AS c", 403),
    ("MATCH (n {group_id: $g}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10 ROWS", 403),
    # LOAD CSV (reads files or the network)
    ("LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", 403),
    ("LOAD CSV WITH HEADERS FROM 'http://127.0.0.1:1/x.csv' AS row RETURN row", 403),
    ("LOAD CSV FROM $url AS row RETURN row", 403),
    # schema and administration
    ("CREATE INDEX pwned_idx FOR (n:Pwned) ON (n.x)", 403),
    ("CREATE CONSTRAINT pwned_c FOR (n:Pwned) REQUIRE n.x IS UNIQUE", 403),
    ("CREATE FULLTEXT INDEX pwned_ft FOR (n:Pwned) ON EACH [n.x]", 403),
    ("CREATE VECTOR INDEX pwned_v IF NOT EXISTS FOR (n:Pwned) ON (n.e)", 403),
    ("DROP INDEX pwned_nonexistent IF EXISTS", 403),
    ("DROP CONSTRAINT pwned_nonexistent IF EXISTS", 403),
    ("CREATE USER pwned SET PASSWORD 'pwned-pwned' CHANGE NOT REQUIRED", 403),
    ("SHOW USERS", 403),
    ("SHOW DATABASES", 403),
    ("SHOW SETTINGS", 403),
    ("SHOW TRANSACTIONS", 403),
    ("TERMINATE TRANSACTIONS 'neo4j-transaction-1'", 403),
    ("STOP DATABASE pwned_nonexistent", 400),
    # procedures outside the allow-list (writing, dbms.*, db.create.*, apoc.*)
    ("CALL db.createLabel('Pwned')", 403),
    ("CALL db.createProperty('pwned')", 403),
    ("CALL db.createRelationshipType('PWNED')", 403),
    ("MATCH (n:Episode {group_id: $g}) CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0])", 403),
    ("CALL db.clearQueryCaches()", 403),
    ("CALL db.awaitIndexes()", 403),
    ("CALL tx.setMetaData({pwned: true})", 403),
    ("CALL dbms.components()", 403),
    ("CALL dbms.security.createUser('pwned', 'pwned-pwned', false)", 400),
    ("CALL dbms.setConfigValue('db.logs.query.enabled', 'OFF')", 400),
    ("CALL apoc.create.node(['Pwned'], {})", 400),
    ("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DETACH DELETE n', {})", 400),
    ("RETURN apoc.version() AS v", 400),
    # multi-statement strings, comment and case tricks, unicode
    ("RETURN 1; CREATE (:Pwned)", 403),
    ("MATCH (n) RETURN n LIMIT 1; MATCH (n {group_id: $g}) DETACH DELETE n", 403),
    ("RETURN 'a;b' AS s; CREATE (:Pwned)", 403),
    ("RETURN 1 /* ; */; CREATE (:Pwned)", 403),
    ("RETURN `x;y` AS s;\nCREATE (:Pwned);", 403),
    ("// just a comment\nCREATE (:Pwned)", 403),
    ("/* harmless */ MERGE (:Pwned)", 403),
    ("MATCH (n {group_id: $g}) /* no write here */ DETACH /* really */ DELETE n", 403),
    ("RETURN 1 /* unterminated ; CREATE (:Pwned)", 403),
    ("CREATE (:`Pwn\\u0065d`)", 403),
    ("CREATE\u00a0(:Pwned)", 403),
    ("\uff23\uff32\uff25\uff21\uff34\uff25 (:Pwned)", 400),
    ("EXPLAIN CREATE (:Pwned)", 403),
    ("PROFILE CREATE (:Pwned)", 400),
    ("CYPHER runtime=slotted CREATE (:Pwned)", 403),
    ("USE system SHOW USERS", 400),
]

# Tricky but harmless: these are reads (the ';' and the CREATE are inside literals or comments).
HARMLESS: list[tuple[str, object]] = [
    ("RETURN '\\'; CREATE (:Pwned) //' AS s", "'; CREATE (:Pwned) //"),
    ('RETURN "a;b" AS s // ; CREATE (:Pwned)', "a;b"),
    ("RETURN 1 AS s /* ; CREATE (:Pwned) */ ;", 1),
    ("WITH 1 AS `x;y` RETURN `x;y` AS s", 1),
]
