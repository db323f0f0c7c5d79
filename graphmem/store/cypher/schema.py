"""Schema migrations: ordered, idempotent statements (``IF NOT EXISTS``), recorded in the graph."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    id: str
    description: str
    statements: tuple[str, ...]


def vector_index(name: str, label: str, dimension: int) -> str:
    return (
        f"CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.embedding) "
        f"OPTIONS {{indexConfig: {{`vector.dimensions`: {int(dimension)}, "
        f"`vector.similarity_function`: 'cosine'}}}}"
    )


def migrations(dimension: int) -> tuple[Migration, ...]:
    return (
        Migration(
            "0001_constraints",
            "uniqueness constraints",
            (
                "CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE",
                "CREATE CONSTRAINT episode_key IF NOT EXISTS FOR (n:Episode) REQUIRE n.key IS UNIQUE",
                "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE",
                "CREATE CONSTRAINT entity_name IF NOT EXISTS FOR (n:Entity) "
                "REQUIRE (n.group_id, n.normalized_name) IS UNIQUE",
                "CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE",
                "CREATE CONSTRAINT group_id IF NOT EXISTS FOR (n:Group) REQUIRE n.id IS UNIQUE",
                "CREATE CONSTRAINT tombstone_key IF NOT EXISTS FOR (n:Tombstone) REQUIRE n.key IS UNIQUE",
            ),
        ),
        Migration(
            "0002_range_indexes",
            "range indexes for tenant-scoped lookups",
            (
                "CREATE INDEX episode_group_time IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.reference_time)",
                "CREATE INDEX episode_group_session IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.session_id)",
                "CREATE INDEX episode_group_external IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.external_id)",
                "CREATE INDEX fact_group_slot IF NOT EXISTS FOR (n:Fact) ON (n.group_id, n.slot)",
                "CREATE INDEX fact_group_predicate IF NOT EXISTS FOR (n:Fact) ON (n.group_id, n.predicate)",
                "CREATE INDEX fact_group_recorded IF NOT EXISTS FOR (n:Fact) ON (n.group_id, n.recorded_at)",
                "CREATE INDEX entity_group IF NOT EXISTS FOR (n:Entity) ON (n.group_id)",
                "CREATE INDEX tombstone_group IF NOT EXISTS FOR (n:Tombstone) ON (n.group_id)",
            ),
        ),
        Migration(
            "0003_fulltext",
            "full-text indexes (group token inside the Lucene query)",
            (
                "CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH "
                "[n.search_text, n.group_token] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}",
                "CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH "
                "[n.search_text, n.group_token] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}",
                "CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH "
                "[n.search_text, n.group_token] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}",
            ),
        ),
        Migration(
            f"0004_vector_{int(dimension)}",
            "vector indexes sized from the embedder",
            (
                vector_index("episode_embedding", "Episode", dimension),
                vector_index("fact_embedding", "Fact", dimension),
                vector_index("entity_embedding", "Entity", dimension),
            ),
        ),
        Migration(
            "0005_alias_index",
            "entities that carry aliases",
            ("CREATE INDEX aliased_group IF NOT EXISTS FOR (n:Aliased) ON (n.group_id)",),
        ),
        Migration(
            "0006_revision_indexes",
            "change feed: nodes a group's writes stamped after a revision",
            (
                "CREATE INDEX episode_group_rev IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.rev)",
                "CREATE INDEX fact_group_rev IF NOT EXISTS FOR (n:Fact) ON (n.group_id, n.rev)",
                "CREATE INDEX entity_group_rev IF NOT EXISTS FOR (n:Entity) ON (n.group_id, n.rev)",
            ),
        ),
        Migration(
            "0007_change_log",
            "change log: records in group order (graphmem.store.cypher.changes)",
            (
                "CREATE CONSTRAINT change_id IF NOT EXISTS FOR (n:Change) REQUIRE n.id IS UNIQUE",
                "CREATE INDEX change_group_seq IF NOT EXISTS FOR (n:Change) ON (n.group_id, n.seq)",
            ),
        ),
        Migration(
            "0008_pii_vault",
            "PII vault: one entry per group and token (graphmem.store.cypher.privacy)",
            (
                "CREATE CONSTRAINT pii_vault_key IF NOT EXISTS FOR (n:PiiVault) REQUIRE n.key IS UNIQUE",
                "CREATE INDEX pii_vault_group_token IF NOT EXISTS FOR (n:PiiVault) ON (n.group_id, n.token)",
            ),
        ),
    )


APPLIED_MIGRATIONS = "MATCH (m:SchemaMigration) RETURN m.id AS id ORDER BY id"
RECORD_MIGRATION = (
    "MERGE (m:SchemaMigration {id: $id}) "
    "ON CREATE SET m.description = $description, m.applied_at = datetime()"
)
INDEX_STATES = "SHOW INDEXES YIELD name, state, populationPercent RETURN name, state, populationPercent"
GET_EMBEDDING_META = (
    "MATCH (m:GraphmemMeta {key: 'embedding'}) RETURN m.model AS model, m.dimension AS dimension"
)
SET_EMBEDDING_META = (
    "MERGE (m:GraphmemMeta {key: 'embedding'}) SET m.model = $model, m.dimension = $dimension, "
    "m.updated_at = datetime()"
)
DROP_VECTOR_INDEXES = (
    "DROP INDEX episode_embedding IF EXISTS",
    "DROP INDEX fact_embedding IF EXISTS",
    "DROP INDEX entity_embedding IF EXISTS",
)
SCHEMA_SNAPSHOT = (
    "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options "
    "RETURN name, type, labelsOrTypes, properties ORDER BY name"
)
