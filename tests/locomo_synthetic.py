"""A made-up multi-conversation file in LoCoMo's ``locomo10.json`` format, for tests that must run
where the dev split (``../shared/data/locomo``, CC BY-NC) is absent. Every sentence is our own.

The shape follows the real file: a list of conversations with ``sample_id``, ``conversation``
(``speaker_a``/``speaker_b``, ``session_N_date_time`` like "1:56 pm on 8 May, 2023", ``session_N``
turns ``{speaker, dia_id, text}`` and photo turns with ``img_url``/``blip_caption``/``query``), ``qa``
(evidence dia_ids, category ids 1-5, ``adversarial_answer`` for 5) and the summary keys the file also
carries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SPEAKERS = (("Ines", "Tomas"), ("Mara", "Joel"), ("Priya", "Olek"), ("Nadia", "Kofi"))
DATES = (
    "1:56 pm on 8 May, 2023",
    "10:37 am on 27 June, 2023",
    "8:05 pm on 14 August, 2023",
    "9:12 am on 2 October, 2023",
)
LINES = (
    "I finally finished painting the spare room green.",
    "Nice! I spent the weekend fixing my old bicycle.",
    "My cousin is visiting from Valparaiso next month.",
    "I started a night class in pottery on Tuesdays.",
    "We adopted a grey cat from the shelter.",
    "The orchestra asked me to play viola at the spring concert.",
    "I ran my first ten kilometre race on Saturday.",
    "My team moved offices to the harbour district.",
)
PHOTO = ("a photo of a bowl on a wheel", "a photo of a cat on a sofa", "a photo of a bicycle")


def _turn(conv: int, session: int, turn: int, speakers: tuple[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "speaker": speakers[(turn - 1) % 2],
        "dia_id": f"D{session}:{turn}",
        "text": LINES[(conv + session + turn) % len(LINES)],
    }
    if turn % 3 == 0:  # a shared photo, as the real file marks one
        caption = PHOTO[(conv + turn) % len(PHOTO)]
        entry = {**entry, "img_url": [f"https://example.invalid/{conv}/{session}/{turn}.jpg"]}
        entry |= {"blip_caption": caption, "query": caption.removeprefix("a photo of ")}
    return entry


def _qa(sessions: int) -> list[dict[str, Any]]:
    qa: list[dict[str, Any]] = []
    for s in range(1, sessions + 1):
        qa.append(
            {"question": f"What happened in chat {s}?", "answer": "x", "evidence": [f"D{s}:1"], "category": 4}
        )
        qa.append(
            {
                "question": f"What links chats {s} and 1?",
                "answer": "y",
                "evidence": [f"D{s}:2", "D1:3"],
                "category": 1 + s % 3,
            }
        )
    qa.append({"question": "What was never said?", "answer": "z", "evidence": [], "category": 4})
    qa.append({"question": "Whose cat?", "adversarial_answer": "w", "evidence": ["D1:2"], "category": 5})
    return qa


def conversation(n: int, *, sessions: int, turns: int) -> dict[str, Any]:
    """Conversation ``syn-<n>`` with ``sessions`` dated sessions of ``turns`` turns each."""
    speakers = SPEAKERS[n % len(SPEAKERS)]
    conv: dict[str, Any] = {"speaker_a": speakers[0], "speaker_b": speakers[1]}
    for s in range(1, sessions + 1):
        conv[f"session_{s}_date_time"] = DATES[(s - 1) % len(DATES)]
        conv[f"session_{s}"] = [_turn(n, s, t, speakers) for t in range(1, turns + 1)]
    return {
        "qa": _qa(sessions),
        "conversation": conv,
        "event_summary": {},
        "observation": {},
        "session_summary": {},
        "sample_id": f"syn-{n}",
    }


def write(path: Path, *, conversations: int = 3, sessions: int = 3, turns: int = 4) -> list[dict[str, Any]]:
    """Write the file to ``path``; returns the data written, for tests to derive their expectations."""
    data = [conversation(n, sessions=sessions, turns=turns) for n in range(1, conversations + 1)]
    path.write_text(json.dumps(data), encoding="utf-8")
    return data
