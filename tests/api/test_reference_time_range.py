"""One documented range of reference times (1970-01-01 to 2100-12-31 UTC) for the API and ingest."""

from __future__ import annotations

import pytest

from graphmem.models.episode import REFERENCE_TIME_MAX, REFERENCE_TIME_MIN
from ingest.sources.timestamps import normalize_timestamp
from tests.api.conftest import Api


@pytest.mark.parametrize(
    ("when", "content"),
    [
        ("0001-01-01T00:00:00Z", "I moved to Paris last week."),
        ("9999-12-31T00:00:00Z", "I fly to Rome tomorrow."),
        ("1969-12-31T23:59:59Z", "Alice lives in Berlin."),
        ("2101-01-01T00:00:00Z", "Alice lives in Berlin."),
    ],
)
async def test_a_reference_time_out_of_range_is_422_naming_the_field(
    api: Api, when: str, content: str
) -> None:
    """Regression (issue 16, defect 3): an episode dated year 1 or 9999 with a relative time
    expression answered 500 (OverflowError in the time parser), and the API accepted years 1-9999
    while ``graphmem ingest`` accepted 1970-2100; both now take 1970-01-01..2100-12-31 and the API
    answers 422 with the field and a stable error type."""
    r = await api.call(
        "agent_a",
        "POST",
        f"/v1/groups/{api.group_a}/episodes",
        json={"content": content, "reference_time": when, "speaker": "alice"},
    )
    assert r.status_code == 422, r.text
    error = r.json()["details"]["errors"][0]
    assert error["field"] == "reference_time" and error["type"] == "reference_time_out_of_range"
    batch = await api.call(
        "agent_a",
        "POST",
        f"/v1/groups/{api.group_a}/episodes",
        json={"episodes": [{"content": content, "reference_time": when}]},
    )
    assert batch.status_code == 422
    assert batch.json()["details"]["errors"][0]["field"] == "episodes.0.reference_time"


@pytest.mark.parametrize(
    ("when", "content"),
    [
        ("1970-01-01T00:00:00Z", "I moved to Paris last week."),
        ("2100-12-31T23:59:59Z", "I fly to Rome tomorrow and next year to Oslo."),
    ],
)
async def test_the_ends_of_the_range_ingest_with_relative_times(api: Api, when: str, content: str) -> None:
    """Regression (issue 16, defect 3): at the ends of the accepted range a relative expression
    resolves (or is dropped) and the episode is stored."""
    r = await api.call(
        "agent_a",
        "POST",
        f"/v1/groups/{api.group_a}/episodes",
        json={"content": content, "reference_time": when, "speaker": "alice"},
    )
    assert r.status_code == 201, r.text


def test_ingest_reads_the_same_lower_bound_and_refuses_outside() -> None:
    """Regression (issue 16, defect 3): the ingest reader's bounds are the model's."""
    assert normalize_timestamp(REFERENCE_TIME_MIN.isoformat()) == REFERENCE_TIME_MIN
    with pytest.raises(ValueError, match="before 1970"):
        normalize_timestamp("1969-12-31T23:59:59Z")
    with pytest.raises(ValueError, match=f"after year {REFERENCE_TIME_MAX.year}"):
        normalize_timestamp("2101-01-01T00:00:00Z", now=REFERENCE_TIME_MAX)
