"""The ``graphmem`` command line: the outermost layer (it may use api, ingest and eval)."""
