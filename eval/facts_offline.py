"""A fast, database-free estimate of ``graphmem eval facts`` for iterating on the rules extractor.

``python -m eval.facts_offline --data ../shared/data/locomo/locomo_dev.json [--limit N]
[--conversations conv-26] [--uncovered N]`` runs ``RulesExtractor.extract_batch`` over each
conversation's turns in the batches the eval ingests (200 turns, "you" the other speaker of a
two-party session) and scores the facts with ``eval.facts_metrics.score``. No group is written:
every fact counts as current (only functional predicates could be superseded in the graph), so
coverage reads a little high next to the real eval. ``--uncovered N`` prints N observed turns that
no fact cites, with the turn text, for reading (LoCoMo is CC BY-NC: print, never store).
``--draw-sample PATH --seed N --size N`` draws a fresh label set the way v4-v8 were drawn:
``eval.facts_metrics.stratified_sample(seed, size)`` over the facts that no committed label set
judges (topped up from the judged ones when too few are new), written to PATH (a scratch file outside the repository: it holds the turn text) with an
empty ``label`` to fill in; only keys and labels are committed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from eval.facts_data import FactsConversation, load_conversations
from eval.facts_metrics import ConversationFacts, label_of, mid_sentence_names, score, stratified_sample
from graphmem.models.episode import EpisodeIn
from graphmem.providers.extractors.rules import ExtractRequest, RulesExtractor
from graphmem.temporal.normalize import statement

BATCH = 200


def other_speakers(episodes: list[EpisodeIn]) -> list[str | None]:
    """For each episode, the other speaker of its session when the batch shows exactly two."""
    names: dict[str, set[str]] = {}
    for ep in episodes:
        if ep.session_id and ep.speaker:
            names.setdefault(ep.session_id, set()).add(ep.speaker)
    out: list[str | None] = []
    for ep in episodes:
        seen = names.get(ep.session_id or "", set())
        rest = seen - {ep.speaker} if len(seen) == 2 else set()
        out.append(next(iter(rest)) if rest else None)
    return out


def conversation_rows(extractor: RulesExtractor, conv: FactsConversation) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for start in range(0, len(conv.episodes), BATCH):
        batch = conv.episodes[start : start + BATCH]
        requests = [
            ExtractRequest(e.content, e.speaker, e.reference_time, o)
            for e, o in zip(batch, other_speakers(batch), strict=True)
        ]
        for ep, extraction in zip(batch, extractor.extract_batch(requests), strict=True):
            for n, f in enumerate(extraction.facts):
                rows.append(
                    {
                        "id": f"{ep.external_id}:{n}",
                        "subject": f.subject,
                        "predicate": f.predicate,
                        "value": f.literal,
                        "statement": statement(f.subject, f.predicate, f.literal),
                        "source_kind": f.source_kind,
                        "current": f.claim != "end",
                        "external_ids": [ep.external_id],
                        "quote": f.quote,
                        "valid_from": f.valid_from.isoformat() if f.valid_from else None,
                    }
                )
    return rows


def run(data: Path, limit: int | None, conversations: list[str] | None) -> tuple[dict[str, Any], list[Any]]:
    convs = load_conversations(data, group_prefix="offline", conversations=conversations, limit=limit)
    extractor = RulesExtractor()
    collected = []
    for conv in convs:
        names = mid_sentence_names(e.content for e in conv.episodes)
        rows = conversation_rows(extractor, conv)
        collected.append(
            (
                conv,
                ConversationFacts(
                    conv.sample_id, len(conv.episodes), conv.speakers, names, conv.observed, rows
                ),
            )
        )
    return score([c for _, c in collected], {}), collected


def draw_sample(collected: list[Any], path: Path, seed: int, size: int) -> int:
    """A stratified sample (``seed``, ``size``) of the facts no committed label set judges, with
    the cited turn, for judging; when fewer than ``size`` are new, all of them plus a stratified
    sample of the judged facts (judged afresh, their old labels unseen); returns how many."""
    from eval.facts import label_sets, read_labels

    judged: dict[Any, str] = {}
    for labels in label_sets():
        judged.update(read_labels(labels))
    rows = [r for _, facts in collected for r in facts.rows]
    fresh = [r for r in rows if label_of(r, judged) is None]
    sample = stratified_sample(fresh, size, seed=seed)
    if len(sample) < size:  # too few new facts: the rest drawn again, blind, from the judged ones
        again = [r for r in rows if label_of(r, judged) is not None]
        sample += stratified_sample(again, size - len(sample), seed=seed)
    turns = {conv.sample_id: conv.turns for conv, _ in collected}
    with path.open("w", encoding="utf-8") as fh:
        for row in sample:
            dia = row["external_ids"][0]
            turn = turns[row["conversation"]][dia]
            out = {
                "conversation": row["conversation"],
                "dia_id": dia,
                "predicate": row["predicate"],
                "statement": row["statement"],
                "family": row["_family"],
                "speaker": turn.speaker,
                "turn": turn.content,
                "new": label_of(row, judged) is None,
                "label": "",
            }
            fh.write(json.dumps(out, ensure_ascii=False) + "\n")
    return len(sample)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--conversations", default=None)
    parser.add_argument("--uncovered", type=int, default=0)
    parser.add_argument("--facts", action="store_true", help="print every fact with its quote")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--draw-sample", type=Path, default=None, help="scratch JSONL of a fresh label set")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--size", type=int, default=130)
    args = parser.parse_args()
    chosen = args.conversations.split(",") if args.conversations else None
    result, collected = run(args.data, args.limit, chosen)
    from eval.facts import table

    for name in ("by_conversation",):
        result.pop(name, None)
    print(table(result))
    if args.draw_sample is not None:
        print(
            f"drew {draw_sample(collected, args.draw_sample, args.seed, args.size)} facts to {args.draw_sample}"
        )
    for conv, facts in collected:
        if args.facts:
            for r in facts.rows:
                flag = f" [{r['_malformed']}]" if r.get("_malformed") else ""
                print(
                    f"{r['external_ids'][0]:>7} {r['source_kind'][:4]} {r['statement']}{flag}  <<{r['quote']}>>"
                )
        cited = {d for r in facts.rows for d in r["external_ids"]}
        missing = sorted(
            conv.observed - cited, key=lambda d: (int(d[1:].split(":")[0]), int(d.split(":")[1]))
        )
        for dia in missing[: args.uncovered]:
            print(f"-- {dia} {conv.turns[dia].speaker}: {conv.turns[dia].content}")
    if args.json:
        print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
