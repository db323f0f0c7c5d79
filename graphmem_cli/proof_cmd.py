"""``graphmem proof``: the proof of forgetting of a group or an external id (docs/lifecycle.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from graphmem.memory import GraphMemory
from graphmem.models.privacy import ForgetProof
from graphmem_cli.common import ensure_server, fail, guarded, run_async, settings, with_memory


@click.command("proof")
@click.option("--group", "group_id", required=True, help="The tenant (group id).")
@click.option("--external-id", default=None, help="Prove one external id forgotten, not the group.")
@click.option("--probe", "probes", multiple=True, help="A text known to be forgotten (repeatable).")
@click.option("--export-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also scan the JSONL exports and backups here (default: GRAPHMEM_EXPORT_DIR).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@guarded
def proof(
    group_id: str, external_id: str | None, probes: tuple[str, ...], export_dir: Path | None, as_json: bool
) -> None:
    """Report what every store still holds of a forgotten group or external id.

    Stores: graph, full-text, vector indexes, the tenant index, change log, PII vault, the export
    directory, and tombstones (keys and hashes only). Exits 1 when content was found.

    \b
    Example:
      graphmem forget --group alice --yes && graphmem proof --group alice
      graphmem proof --group alice --external-id msg-17 --probe "I live in Paris"
    """
    cfg = settings()
    ensure_server(cfg)
    where = export_dir or cfg.export_dir

    async def work(memory: GraphMemory) -> ForgetProof:
        return await memory.forget_proof(group_id, external_id=external_id, probes=probes, export_dir=where)

    report: ForgetProof = run_async(with_memory(cfg, work))
    if as_json:
        click.echo(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        subject = f"external id {external_id} of group {group_id}" if external_id else f"group {group_id}"
        click.echo(f"proof of forgetting: {subject} at {report.checked_at.isoformat()}")
        for s in report.stores:
            state = "not checked" if not s.checked else f"{s.found} found"
            click.echo(f"  {s.store:<13} {state:<12} {s.detail}")
            for item in s.ids[:10] if s.holds_content else []:
                click.echo(f"      {item}")
        click.echo("forgotten" if report.forgotten else "NOT forgotten")
    if not report.forgotten:
        fail("content was found (see the report)")


__all__ = ["proof"]
