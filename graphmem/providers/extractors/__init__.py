"""Extractors turn an episode's text into entities and claims (see ``graphmem.ports.Extractor``)."""
