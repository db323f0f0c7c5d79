"""Retrieval: channels (bm25, vector, graph), fusion and rerank, recipes, the search pipeline."""
