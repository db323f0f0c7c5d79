"""Source readers: every format on generated files, rejections, resume and constant memory."""

from __future__ import annotations

import gzip
import inspect
import json
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidInput
from ingest.sources import FORMATS, SourceItem, open_source
from ingest.sources.base import RAW_LIMIT, iter_lines
from ingest.sources.timestamps import normalize_timestamp
from tests import locomo_synthetic

NOW = datetime(2024, 1, 1, tzinfo=UTC)
T0 = 1_700_000_000  # 2023-11-14T22:13:20Z


def write_lines(path: Path, lines: Sequence[bytes | str]) -> Path:
    data = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(data))
    else:
        path.write_bytes(data)
    return path


def message(i: int, **overrides: Any) -> str:
    record: dict[str, Any] = {
        "session_id": f"s{i % 7}",
        "speaker": "alice" if i % 2 else "bob",
        "content": f"message number {i}",
        "timestamp": T0 + i,
        "external_id": f"m{i}",
    }
    record.update(overrides)
    return json.dumps({k: v for k, v in record.items() if v is not None})


def read_all(path: Path, fmt: str, **kwargs: Any) -> list[SourceItem]:
    kwargs.setdefault("group", "g1")
    return list(open_source(path, fmt, **kwargs))


def test_formats_are_listed() -> None:
    assert FORMATS == ("csv", "jsonl", "locomo", "longmemeval", "openai")


# --- timestamps -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (T0, datetime.fromtimestamp(T0, UTC)),
        (T0 * 1000 + 250, datetime.fromtimestamp(T0 + 0.25, UTC)),
        (str(T0 * 1000), datetime.fromtimestamp(T0, UTC)),
        (T0 * 1_000_000 + 7, datetime.fromtimestamp(T0, UTC).replace(microsecond=7)),
        (f"{T0}.5", datetime.fromtimestamp(T0 + 0.5, UTC)),
        ("2023-05-08T13:56:00Z", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("2023-05-08T13:56:00+08:00", datetime(2023, 5, 8, 5, 56, tzinfo=UTC)),
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("12:48 am on 1 February, 2023", datetime(2023, 2, 1, 0, 48, tzinfo=UTC)),
    ],
)
def test_normalize_timestamp(value: object, expected: datetime) -> None:
    assert normalize_timestamp(value, "UTC", now=NOW) == expected


def test_epoch_seconds_and_milliseconds_agree() -> None:
    assert normalize_timestamp(T0, now=NOW) == normalize_timestamp(T0 * 1000, now=NOW)
    assert normalize_timestamp(str(T0), now=NOW) == normalize_timestamp(f"{T0}000", now=NOW)


@pytest.mark.parametrize("value", [253_402_300_799, 2 * 10**11, "200000000000", 2 * 10**14, 2 * 10**17])
def test_large_epoch_seconds_are_not_read_as_milliseconds(value: object) -> None:
    """Bug: 253402300799 (9999-12-31 in epoch seconds) was read as milliseconds, 1978-01-11, and
    accepted; a number that is a date in two units is refused as ambiguous."""
    with pytest.raises(ValueError, match="ambiguous epoch timestamp"):
        normalize_timestamp(value, now=NOW)


def test_naive_times_are_read_in_the_given_timezone() -> None:
    naive = "2023-05-08T09:30:00"
    assert normalize_timestamp(naive, "Asia/Shanghai", now=NOW) == datetime(2023, 5, 8, 1, 30, tzinfo=UTC)
    assert normalize_timestamp(naive, "America/New_York", now=NOW) == datetime(2023, 5, 8, 13, 30, tzinfo=UTC)
    offset = "2023-05-08T09:30:00+00:00"  # an explicit offset wins over the timezone
    assert normalize_timestamp(offset, "Asia/Shanghai", now=NOW).hour == 9
    locomo = normalize_timestamp("1:56 pm on 8 May, 2023", "Asia/Shanghai", now=NOW)
    assert locomo == datetime(2023, 5, 8, 5, 56, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (-1, "before 1970"),
        ("1969-12-31T23:59:59Z", "before 1970"),
        ("2101-01-01T00:00:00Z", "after year 2100"),
        ("2024-01-02T00:00:01Z", "in the future"),
        (5 * 10**15, "after year 2100"),
        (T0 * 10**12, "out of range"),
        ("yesterday-ish", "unrecognised"),
        ("", "empty"),
        (None, "not a timestamp"),
        (True, "not a timestamp"),
        (float("nan"), "not a timestamp"),
        ("13:10 pm on 8 May, 2023", "12-hour"),
    ],
)
def test_absurd_or_unreadable_timestamps_are_refused(value: object, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        normalize_timestamp(value, now=NOW)


def test_a_day_of_clock_skew_is_tolerated() -> None:
    assert normalize_timestamp("2024-01-01T23:00:00Z", now=NOW).day == 1


def test_unknown_timezone_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown timezone"):
        normalize_timestamp(T0, "Mars/Olympus")


# --- jsonl ------------------------------------------------------------------------------------


def test_jsonl_reads_messages_with_offsets(tmp_path: Path) -> None:
    lines = [
        message(1),
        message(2, speaker=None, role="assistant", group_id="other"),
        "",
        message(3, external_id=None, timestamp="2023-05-08T10:00:00"),
    ]
    path = write_lines(tmp_path / "a.jsonl", lines)
    items = read_all(path, "jsonl", timezone="Europe/Paris")

    assert [i.line for i in items] == [1, 2, 4]
    assert all(i.ok and i.episode for i in items)
    first, second, third = (i.episode for i in items)
    assert first is not None and second is not None and third is not None
    assert (first.content, first.speaker, first.session_id, first.external_id) == (
        "message number 1",
        "alice",
        "s1",
        "m1",
    )
    assert first.reference_time == datetime.fromtimestamp(T0 + 1, UTC)
    assert second.speaker == "assistant"
    assert [i.group_id for i in items] == ["g1", "other", "g1"]
    assert third.external_id is None
    assert third.reference_time == datetime(2023, 5, 8, 8, 0, tzinfo=UTC)
    ends = [sum(len(x.encode()) + 1 for x in lines[:n]) for n in (1, 2, 4)]
    assert [i.offset for i in items] == ends


def test_jsonl_custom_group_field(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", [message(1, tenant="acme")])
    (item,) = read_all(path, "jsonl", group_field="tenant")
    assert item.group_id == "acme"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (message(1, content=None), "missing field: content"),
        (message(1, content="   "), "missing field: content"),
        (message(1, timestamp=None), "missing field: timestamp"),
        (message(1, timestamp="2999-01-01"), "bad timestamp: absurd"),
        (message(1, timestamp="soon"), "bad timestamp: unrecognised"),
        (message(1, content={"a": 1}), "content must be a string"),
        (message(1, group_id="bad group!"), "invalid group_id"),
        ('{"content": "x", "timestamp": 1700000000', "malformed JSON"),
        ("[1, 2]", "expected a JSON object"),
        (b'{"content": "caf\xe9", "timestamp": 1700000000}', "undecodable: invalid"),
    ],
)
def test_jsonl_rejections_name_the_reason(tmp_path: Path, line: str | bytes, reason: str) -> None:
    path = write_lines(tmp_path / "a.jsonl", [message(0), line, message(2)])
    items = read_all(path, "jsonl")
    assert [i.ok for i in items] == [True, False, True]
    bad = items[1]
    assert bad.episode is None and bad.error is not None and reason in bad.error
    assert bad.line == 2 and bad.raw


def test_jsonl_without_any_group_is_rejected(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", [message(1), message(2, group_id="g2")])
    items = read_all(path, "jsonl", group=None)
    assert items[0].error is not None and "group_id" in items[0].error
    assert items[1].group_id == "g2"


def test_raw_is_truncated(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", ["{" + "x" * 5000])
    (item,) = read_all(path, "jsonl")
    assert item.raw is not None and len(item.raw) == RAW_LIMIT


def test_over_long_lines_are_rejected_without_being_kept(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", ["a" * 100, "b" * 5000, "c"])
    lines = list(iter_lines(path, max_line_bytes=1000))
    assert [(x.number, x.too_long, len(x.data)) for x in lines] == [
        (1, False, 101),
        (2, True, 1000),
        (3, False, 2),
    ]
    assert lines[-1].end == path.stat().st_size


def broken_corpus(path: Path, total: int = 10_000) -> Counter[str]:
    """Write ``total`` lines, exactly 1% broken in four ways; return the broken kinds."""
    kinds = ["malformed", "missing", "undecodable", "absurd"]
    lines: list[bytes | str] = []
    broken: Counter[str] = Counter()
    for i in range(total):
        if i % 100 != 37:
            lines.append(message(i))
            continue
        kind = kinds[(i // 100) % 4]
        broken[kind] += 1
        variants: dict[str, bytes | str] = {
            "malformed": message(i)[:-5],
            "missing": message(i, content=None),
            "undecodable": message(i).encode().replace(b"message", b"mess\xffage"),
            "absurd": message(i, timestamp=-86400),
        }
        lines.append(variants[kind])
    write_lines(path, lines)
    return broken


@pytest.mark.parametrize("name", ["big.jsonl", "big.jsonl.gz"])
def test_ten_thousand_lines_with_one_percent_broken(tmp_path: Path, name: str) -> None:
    broken = broken_corpus(tmp_path / name)
    items = list(open_source(tmp_path / name, "jsonl", group="g"))
    good = [i for i in items if i.ok]
    bad = [i for i in items if not i.ok]
    assert (len(good), len(bad)) == (9_900, 100)
    assert broken == Counter(malformed=25, missing=25, undecodable=25, absurd=25)
    reasons = Counter((i.error or "").split(":")[0] for i in bad)
    assert reasons == Counter(
        {"malformed JSON": 25, "missing field": 25, "undecodable": 25, "bad timestamp": 25}
    )
    assert all(i.line % 100 == 38 for i in bad)
    assert len({i.episode.external_id for i in good if i.episode}) == 9_900


def test_gzip_reads_like_plain(tmp_path: Path) -> None:
    lines: list[bytes | str] = [message(i) for i in range(50)]
    plain = read_all(write_lines(tmp_path / "a.jsonl", lines), "jsonl")
    packed = read_all(write_lines(tmp_path / "a.jsonl.gz", lines), "jsonl")
    assert [(i.line, i.offset, i.episode) for i in plain] == [(i.line, i.offset, i.episode) for i in packed]


@pytest.mark.parametrize("name", ["r.jsonl", "r.jsonl.gz"])
def test_resume_from_an_offset_yields_exactly_the_rest(tmp_path: Path, name: str) -> None:
    broken_corpus(tmp_path / name, total=1_000)
    everything = list(open_source(tmp_path / name, "jsonl", group="g"))
    for cut in (0, 1, 36, 37, 500, len(everything) - 1):
        offset, line = everything[cut].resume_from
        rest = list(open_source(tmp_path / name, "jsonl", group="g", start_offset=offset, start_line=line))
        assert rest == everything[cut + 1 :]


# --- openai chat --------------------------------------------------------------------------------


def conversation(cid: str | None, n: int, **extra: Any) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "be nice"}]
    for k in range(n):
        messages.append(
            {
                "role": "user" if k % 2 == 0 else "assistant",
                "content": f"{cid} turn {k}",
                "timestamp": T0 + k,
            }
        )
    result: dict[str, Any] = {"messages": messages, **extra}
    if cid:
        result["id"] = cid
    return result


def test_openai_jsonl_one_conversation_per_line(tmp_path: Path) -> None:
    convs = [conversation("c1", 3, session_id="sess"), conversation(None, 2)]
    convs[1]["messages"][1]["name"] = "Ann"
    path = write_lines(tmp_path / "chat.jsonl", [json.dumps(c) for c in convs])
    items = read_all(path, "openai")

    assert all(i.ok for i in items)
    episodes = [i.episode for i in items if i.episode]
    assert [e.external_id for e in episodes] == ["c1:1", "c1:2", "c1:3", "2:1", "2:2"]
    assert [e.speaker for e in episodes] == ["user", "assistant", "user", "Ann", "assistant"]
    assert [e.session_id for e in episodes][:3] == ["sess"] * 3
    assert [i.line for i in items] == [1, 1, 1, 2, 2]
    line_one = len(json.dumps(convs[0])) + 1
    assert [i.offset for i in items] == [0, 0, line_one, line_one, path.stat().st_size]


def test_openai_timestamps_fall_back_to_the_conversation_else_reject(tmp_path: Path) -> None:
    conv = {
        "id": "c",
        "timestamp": "2023-05-08T10:00:00Z",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello", "timestamp": T0},
            {"role": "user", "content": [{"type": "text", "text": "multi"}, {"type": "image"}]},
        ],
    }
    no_time = {"id": "d", "messages": [{"role": "user", "content": "when?"}]}
    no_content = {"id": "e", "timestamp": T0, "messages": [{"role": "tool", "content": None}]}
    path = write_lines(tmp_path / "c.jsonl", [json.dumps(x) for x in (conv, no_time, no_content)])
    items = read_all(path, "openai")
    times = [i.episode.reference_time for i in items[:3] if i.episode]
    assert times[0] == datetime(2023, 5, 8, 10, tzinfo=UTC)
    assert times[1] == datetime.fromtimestamp(T0, UTC)
    assert items[2].episode is not None and items[2].episode.content == "multi"
    assert items[3].error is not None and "missing field: timestamp" in items[3].error
    assert items[3].raw is not None and "when?" in items[3].raw
    assert items[4].error == "missing field: content"


def test_openai_malformed_lines_are_rejected(tmp_path: Path) -> None:
    lines = [json.dumps(conversation("a", 1)), '{"messages": 3}', "{oops", '"text"']
    items = read_all(write_lines(tmp_path / "c.jsonl", lines), "openai")
    assert [i.ok for i in items] == [True, False, False, False]
    assert [i.line for i in items] == [1, 2, 3, 4]


@pytest.mark.parametrize("pretty", [True, False])
def test_openai_whole_file_list(tmp_path: Path, pretty: bool) -> None:
    convs = [conversation("c1", 2), conversation(None, 3), "junk"]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(convs, indent=2 if pretty else None))
    items = read_all(path, "openai")
    ids = [i.episode.external_id for i in items if i.episode]
    assert ids == ["c1:1", "c1:2", "2:1", "2:2", "2:3"]
    assert items[-1].error is not None and "conversation object" in items[-1].error
    assert [i.line for i in items] == [2, 3, 5, 6, 7, 8]  # running message index
    assert all(i.offset == 0 for i in items)


def test_openai_whole_file_single_pretty_object(tmp_path: Path) -> None:
    path = tmp_path / "one.json.gz"
    path.write_bytes(gzip.compress(json.dumps(conversation("x", 2), indent=2).encode()))
    items = read_all(path, "openai")
    assert [i.episode.external_id for i in items if i.episode] == ["x:1", "x:2"]


def test_openai_resume_whole_file_by_record_index(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([conversation(f"c{n}", 4) for n in range(5)]))
    everything = read_all(path, "openai")
    for cut in range(len(everything)):
        offset, line = everything[cut].resume_from
        rest = read_all(path, "openai", start_offset=offset, start_line=line)
        assert rest == everything[cut + 1 :]


def test_openai_resume_mid_conversation_rereads_the_line(tmp_path: Path) -> None:
    lines = [json.dumps(conversation(None, 3)) for _ in range(3)]
    path = write_lines(tmp_path / "chat.jsonl", lines)
    everything = read_all(path, "openai")
    for cut in range(len(everything)):
        offset, line = everything[cut].resume_from
        rest = read_all(path, "openai", start_offset=offset, start_line=line)
        first_of_line = cut - (cut % 3) + 3 if cut % 3 == 2 else cut - (cut % 3)
        assert rest == everything[first_of_line:]  # at least once, same ids and line numbers


@pytest.mark.parametrize("first", ['{"messages": [}', '{"messages": [', b"{\xff}"])
def test_openai_jsonl_with_a_broken_first_line_is_still_read_by_line(
    tmp_path: Path, first: str | bytes
) -> None:
    path = write_lines(tmp_path / "c.jsonl", [first, json.dumps(conversation("b", 2))])
    items = read_all(path, "openai")
    assert [(i.line, i.ok) for i in items] == [(1, False), (2, True), (2, True)]


# --- locomo -------------------------------------------------------------------------------------


def locomo_sample(sample_id: str, sessions: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    conv: dict[str, Any] = {"speaker_a": "A", "speaker_b": "B"}
    for n, turns in sessions.items():
        conv[f"session_{n}_date_time"] = f"1:5{n} pm on {n} May, 2023"
        conv[f"session_{n}"] = turns
    return {"sample_id": sample_id, "conversation": conv, "qa": []}


def test_locomo_synthetic(tmp_path: Path) -> None:
    turns_1 = [
        {"speaker": "A", "dia_id": "D1:1", "text": "Look!", "blip_caption": "a photo of a dog"},
        {"speaker": "B", "dia_id": "D1:2", "text": "Cute."},
    ]
    turns_2 = [{"speaker": "A", "dia_id": "D2:1", "text": "Hello again"}, {"text": "no id"}]
    sample = locomo_sample("conv-1", {2: turns_2, 1: turns_1})
    sample["conversation"]["session_3"] = [{"speaker": "B", "dia_id": "D3:1", "text": "x"}]
    path = tmp_path / "loco.json"
    path.write_text(json.dumps([sample, {"sample_id": "conv-2"}]))
    items = read_all(path, "locomo", group="eval")

    good = [i.episode for i in items if i.episode]
    assert [e.external_id for e in good] == ["D1:1", "D1:2", "D2:1"]
    assert good[0].content == "Look! [image: a photo of a dog]"
    assert good[0].session_id == "conv-1:session_1"
    assert good[0].reference_time == datetime(2023, 5, 1, 13, 51, tzinfo=UTC)
    assert good[2].reference_time == datetime(2023, 5, 2, 13, 52, tzinfo=UTC)
    assert {i.group_id for i in items if i.ok} == {"eval-conv-1"}
    reasons = [i.error for i in items if not i.ok]
    assert reasons[0] == "missing field: dia_id"
    assert reasons[1] == "missing field: session_3_date_time"
    assert reasons[2] == "missing field: conversation"
    assert [i.line for i in items] == [1, 2, 3, 4, 5, 6]


def test_locomo_malformed_document_is_one_rejection(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"sample_id": ')
    (item,) = read_all(path, "locomo")
    assert item.error is not None and item.error.startswith("malformed JSON document")


def test_locomo_multi_conversation_file(tmp_path: Path) -> None:
    """A whole file in the real format (several conversations, photo turns, QA, summary keys): one
    item per turn in file order, one group per conversation, and a resume keeps the line numbers."""
    path = tmp_path / "locomo_like.json"
    data = locomo_synthetic.write(path, conversations=3, sessions=3, turns=4)
    turns = [t for c in data for s in range(1, 4) for t in c["conversation"][f"session_{s}"]]
    items = list(open_source(path, "locomo"))
    assert len(items) == len(turns) == 36
    assert all(i.ok for i in items)
    assert [i.group_id for i in items[::12]] == ["syn-1", "syn-2", "syn-3"]
    assert [i.line for i in items] == list(range(1, 37))
    first = items[0].episode
    assert first is not None
    assert (items[0].group_id, first.external_id, first.session_id) == ("syn-1", "D1:1", "syn-1:session_1")
    assert first.reference_time == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert items[4].episode is not None and items[4].episode.reference_time == datetime(
        2023, 6, 27, 10, 37, tzinfo=UTC
    )
    photos = sum("blip_caption" in t for t in turns)
    assert photos > 0 and sum("[image: " in (i.episode.content if i.episode else "") for i in items) == photos
    prefixed = list(open_source(path, "locomo", group="dev", start_line=31))
    assert [i.line for i in prefixed] == list(range(32, 37))
    assert all(i.group_id == "dev-syn-3" for i in prefixed)


# --- csv ----------------------------------------------------------------------------------------


def test_csv_with_defaults_and_multiline_fields(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_bytes(
        b"\xef\xbb\xbfcontent,timestamp,speaker,session_id,external_id\r\n"
        b"hello,1700000000,alice,s1,e1\r\n"
        b'"two\r\nlines, and ""quotes""",1700000001000,bob,,e2\r\n'
        b"\r\n"
        b",1700000002,carol,s1,e3\r\n"
        b"x,1700000003,too,many,columns,here\r\n"
        b"caf\xe9,1700000004,dan,s1,e5\r\n"
        b"last,2023-05-08 10:00,erin,s2,e6\r\n"
    )
    items = read_all(path, "csv", timezone="Asia/Tokyo")
    assert [i.line for i in items] == [2, 3, 6, 7, 8, 9]
    good = [i.episode for i in items if i.episode]
    assert [e.external_id for e in good] == ["e1", "e2", "e6"]
    assert good[1].content == 'two\r\nlines, and "quotes"' and good[1].session_id is None
    assert good[1].reference_time == datetime.fromtimestamp(T0 + 1, UTC)
    assert good[2].reference_time == datetime(2023, 5, 8, 1, 0, tzinfo=UTC)
    assert items[1].resume_from[1] == 4
    errors = [i.error for i in items if not i.ok]
    assert errors[0] == "missing field: content"
    assert errors[1] == "expected 5 columns, got 6"
    assert errors[2] is not None and errors[2].startswith("undecodable")
    assert items[-1].offset == path.stat().st_size


def test_csv_column_mapping(tmp_path: Path) -> None:
    path = tmp_path / "m.csv.gz"
    path.write_bytes(gzip.compress(b"text,when,who,tenant\nhi,1700000000,al,acme\n"))
    mapping = {"content": "text", "timestamp": "when", "speaker": "who"}
    (item,) = read_all(path, "csv", csv_mapping=mapping, group_field="tenant")
    assert item.episode is not None and item.episode.speaker == "al"
    assert item.group_id == "acme"


def test_csv_bad_mapping_or_header_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("text,when\nhi,1\n")
    with pytest.raises(InvalidInput, match="lacks column"):
        read_all(path, "csv")
    with pytest.raises(InvalidInput, match="unknown CSV mapping"):
        read_all(path, "csv", csv_mapping={"body": "text"})
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert read_all(empty, "csv") == []


@pytest.mark.parametrize("name", ["r.csv", "r.csv.gz"])
def test_csv_resume(tmp_path: Path, name: str) -> None:
    rows = ["content,timestamp,external_id"]
    rows += [
        f'"row {i}\nsecond line",{T0 + i},r{i}' if i % 5 == 0 else f"row {i},{T0 + i},r{i}" for i in range(60)
    ]
    path = write_lines(tmp_path / name, rows)
    everything = read_all(path, "csv")
    assert len(everything) == 60 and all(i.ok for i in everything)
    for cut in (0, 4, 5, 6, 30, 59):
        offset, line = everything[cut].resume_from
        rest = read_all(path, "csv", start_offset=offset, start_line=line)
        assert rest == everything[cut + 1 :]


# --- open_source --------------------------------------------------------------------------------


def test_open_source_validates_its_arguments(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "a.jsonl", [message(1)])
    with pytest.raises(InvalidInput, match="unknown format"):
        open_source(path, "xml")
    with pytest.raises(InvalidInput, match="unknown timezone"):
        open_source(path, "jsonl", timezone="Nowhere/Land")
    with pytest.raises(InvalidInput, match="no such file"):
        open_source(tmp_path / "missing.jsonl", "jsonl")
    with pytest.raises(InvalidInput, match=">= 0"):
        open_source(path, "jsonl", start_offset=-1)


@pytest.mark.parametrize("name", ["c.jsonl", "c.jsonl.gz"])
def test_resume_offset_that_no_longer_fits_the_file_is_an_error(tmp_path: Path, name: str) -> None:
    path = write_lines(tmp_path / name, [message(1), message(2)])
    size = len(message(1)) + len(message(2)) + 2
    with pytest.raises(InvalidInput, match="not at a line start"):
        list(open_source(path, "jsonl", group="g", start_offset=5))
    with pytest.raises(InvalidInput, match="past the end"):
        list(open_source(path, "jsonl", group="g", start_offset=size + 10))
    assert list(open_source(path, "jsonl", group="g", start_offset=size)) == []


@pytest.mark.slow
def test_reading_a_large_file_streams_in_constant_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("w") as fh:
        for i in range(50_000):
            fh.write(message(i) + "\n")
    reader = open_source(path, "jsonl", group="g")
    streams = inspect.isgenerator(reader)  # not a list built up front
    assert streams
    count = sum(1 for item in islice(reader, 1_000) if item.ok)
    tracemalloc.start()  # traced on a 20k-record window only: tracing makes reading 5x slower
    try:
        count += sum(1 for item in islice(reader, 20_000) if item.ok)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    count += sum(1 for item in reader if item.ok)
    assert count == 50_000
    assert path.stat().st_size > 6_000_000
    # a reader that kept its 20k records would peak near 28 MB; pydantic caches cap near 1 MB
    assert peak < 4_000_000, f"peak {peak} bytes over 20k records: the reader holds records"
