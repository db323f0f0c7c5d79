"""Baseline retrievers the LoCoMo metric is run against: rank_bm25 over turns, graphiti-core."""
