"""Quality and speed measurement: `graphmem eval temporal|locomo|speed` (EVAL.md)."""
