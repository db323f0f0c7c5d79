"""What an ingestion run did: counts, timing, where the rejects went, and the exit code.

Exit codes (the CLI's contract, documented in docs/ingest.md):

    0  every record read was ingested or already present
    3  the run finished but some records were rejected (see the dead-letter file)
    1  the run stopped on a fatal error (``error`` says why); ``--resume`` continues it
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from graphmem.models.episode import IngestResult

EXIT_OK = 0
EXIT_FATAL = 1
EXIT_REJECTED = 3


@dataclass(frozen=True)
class BatchTimes:
    """When one batch went through the runner's stages, seconds since the run started: waiting for
    a prepare slot (``prepare_from`` - ``dispatched``), prepare (``prepared`` - ``prepare_from``),
    waiting for its group's previous batch (``commit_from`` - ``prepared``), commit (``committed``
    - ``commit_from``)."""

    group: str
    size: int
    dispatched: float
    prepare_from: float
    prepared: float
    commit_from: float
    committed: float
    stages: dict[str, float] = field(default_factory=dict)  # the sink's own (``PreparedBatch.stage_seconds``)


@dataclass
class Summary:
    """Counts of one run. ``read`` counts every record taken from the sources this run.

    ``ingested`` episodes were created, ``duplicates`` were already stored (a re-run or a
    resume), ``forgotten`` were skipped because they had been forgotten (see
    ``--allow-forgotten``), ``rejected`` went to the dead-letter file. ``prepare_seconds`` and
    ``commit_seconds`` are the wall time during which some batch was preparing (extracting,
    embedding) or committing: a batch prepares while the one before it commits, so the stage whose
    time comes close to ``seconds`` is the one that bounds the rate.
    """

    checkpoint: str = ""
    dead_letter: str = ""
    read: int = 0
    ingested: int = 0
    duplicates: int = 0
    forgotten: int = 0
    rejected: int = 0
    dead_letters_written: int = 0
    batches: int = 0
    retries: int = 0
    seconds: float = 0.0
    prepare_seconds: float = 0.0  # wall time some batch was preparing (extract + embed)
    commit_seconds: float = 0.0  # wall time some batch was committing
    facts: Counter[str] = field(default_factory=Counter)
    timeline: list[BatchTimes] = field(default_factory=list)  # committed batches, in commit order
    error: str | None = None

    def add_result(self, result: IngestResult) -> None:
        """Count one committed batch."""
        self.batches += 1
        for outcome in result.episodes:
            if outcome.status == "created":
                self.ingested += 1
            elif outcome.status == "existing":
                self.duplicates += 1
            else:
                self.forgotten += 1
        self.facts.update(change.change for change in result.facts)

    @property
    def handled(self) -> int:
        """Good records the store accepted or already had."""
        return self.ingested + self.duplicates + self.forgotten

    @property
    def episodes_per_s(self) -> float:
        return self.handled / self.seconds if self.seconds > 0 else 0.0

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return EXIT_FATAL
        return EXIT_REJECTED if self.rejected else EXIT_OK

    def to_dict(self) -> dict[str, Any]:
        return {
            "read": self.read,
            "ingested": self.ingested,
            "duplicates_skipped": self.duplicates,
            "forgotten_skipped": self.forgotten,
            "rejected": self.rejected,
            "facts_created": self.facts["created"],
            "facts_superseded": self.facts["superseded"],
            "fact_changes": dict(sorted(self.facts.items())),
            "batches": self.batches,
            "retries": self.retries,
            "seconds": round(self.seconds, 3),
            "prepare_seconds": round(self.prepare_seconds, 3),
            "commit_seconds": round(self.commit_seconds, 3),
            "episodes_per_s": round(self.episodes_per_s, 2),
            "checkpoint": self.checkpoint,
            "dead_letter": self.dead_letter,
            "dead_letters_written": self.dead_letters_written,
            "error": self.error,
            "exit_code": self.exit_code,
        }

    def render(self) -> str:
        """The human summary printed at the end of a run."""
        head = "ingest stopped" if self.error else "ingest finished"
        lines = [
            f"{head}: {self.read:,} read · {self.ingested:,} ingested · "
            f"{self.duplicates:,} duplicates skipped · {self.rejected:,} rejected",
            f"facts: {self.facts['created']:,} created · {self.facts['superseded']:,} superseded",
            f"time: {self.seconds:,.1f} s · {self.episodes_per_s:,.1f} episodes/s "
            f"({self.batches:,} batches, {self.retries:,} retries)",
            f"busy: preparing {self.prepare_seconds:,.1f} s · committing {self.commit_seconds:,.1f} s",
        ]
        if self.forgotten:
            lines.append(f"forgotten episodes not re-added: {self.forgotten:,} (see --allow-forgotten)")
        if self.rejected:
            lines.append(f"rejected records: {self.dead_letter}")
        lines.append(f"checkpoint: {self.checkpoint}")
        if self.error:
            lines.append(f"error: {self.error} (run again with --resume to continue)")
        return "\n".join(lines)
