"""Pluggable providers: embedders, extractors and LLM clients."""
