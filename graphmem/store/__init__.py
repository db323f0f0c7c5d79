"""The only package that imports ``neo4j``. All Cypher lives in ``graphmem/store/cypher/``."""
