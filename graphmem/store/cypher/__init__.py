"""All Cypher text of graphmem: named constants and small builders. Values travel as $parameters."""
