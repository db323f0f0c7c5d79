"""Chinese time words the extractor meets in chat: vague recent days, weekends, parts of a month or
year, half units and ranges (reference: Wednesday 2024-06-12)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.providers.extractors.timeparse import find_times

REF = datetime(2024, 6, 12, 15, 30, tzinfo=UTC)

CASES = [
    ("我前几天搬到了上海", "前几天", datetime(2024, 6, 9, tzinfo=UTC)),
    ("我几天前搬到了上海", "几天前", datetime(2024, 6, 9, tzinfo=UTC)),
    ("我前阵子搬到了上海", "前阵子", datetime(2024, 5, 29, tzinfo=UTC)),
    ("我前不久搬到了上海", "前不久", datetime(2024, 6, 5, tzinfo=UTC)),
    ("我上周末搬到了上海", "上周末", datetime(2024, 6, 8, tzinfo=UTC)),
    ("我周末搬到了上海", "周末", datetime(2024, 6, 8, tzinfo=UTC)),
    ("我半年前搬到了上海", "半年前", datetime(2023, 12, 12, tzinfo=UTC)),
    ("我半个月前搬到了上海", "半个月前", datetime(2024, 5, 28, tzinfo=UTC)),
    ("我去年年底搬到了上海", "去年年底", datetime(2023, 12, 1, tzinfo=UTC)),
    ("我今年初搬到了上海", "今年初", datetime(2024, 1, 1, tzinfo=UTC)),
    ("我上个月底搬到了上海", "上个月底", datetime(2024, 5, 28, tzinfo=UTC)),
    ("我这个月初搬到了上海", "这个月初", datetime(2024, 6, 1, tzinfo=UTC)),
    ("我两三天前搬到了上海", "两三天前", datetime(2024, 6, 10, tzinfo=UTC)),
]


@pytest.mark.parametrize(("text", "phrase", "when"), CASES)
def test_chinese_time_words(text: str, phrase: str, when: datetime) -> None:
    """Regression: 两三天前 read as 23 days back, and 上周末 left 末 in the sentence."""
    (found,) = find_times(text, REF)
    assert (found.text, found.when) == (phrase, when)
