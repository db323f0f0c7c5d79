"""Batch ingestion: streaming source readers, durable checkpoints and dead letters.

``ingest.sources.open_source`` turns a file (JSONL, OpenAI chat, LoCoMo, CSV; plain or ``.gz``)
into a stream of :class:`ingest.sources.base.SourceItem`; ``ingest.checkpoint.Checkpoint`` records
how far each file got so a run can resume; ``ingest.deadletter.DeadLetterWriter`` keeps the rejects.
"""
