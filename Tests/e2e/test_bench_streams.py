"""bench/generate_stream.py's two profiles, judged by the real `modalwatch check`: the
stress stream is unchanged and raises many violations, the clean one about 1 %, each
an `alert-title-single-word`."""
from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

import e2e_support as support

GENERATOR = support.PACKAGE_ROOT / "bench" / "generate_stream.py"
# The stress profile's first 3,000 events (seed 7, 10,000 sessions): the bench's
# stream, which the figures in docs/PERFORMANCE.md were measured on, must not change.
STRESS_3000_MD5 = "2e060e5f5bb03a4b023f9e419ac91342"


def generate(path: Path, profile: str | None, events: int) -> bytes:
    args = [sys.executable, str(GENERATOR), "--events", str(events), "--seed", "7"]
    if profile:
        args += ["--profile", profile]
    data = subprocess.run(args, check=True, capture_output=True, timeout=60).stdout
    path.write_bytes(data)
    return data


def test_stress_is_the_default_and_unchanged(tmp_path: Path) -> None:
    default = generate(tmp_path / "default.ndjson", None, 3000)
    stress = generate(tmp_path / "stress.ndjson", "stress", 3000)
    assert default == stress
    assert hashlib.md5(stress).hexdigest() == STRESS_3000_MD5


@pytest.mark.needs_rules("alert-title-single-word", "alert-frequency", "modal-depth")
def test_clean_profile_raises_about_one_percent(tmp_path: Path) -> None:
    events = 30_000
    clean = tmp_path / "clean.ndjson"
    generate(clean, "clean", events)
    code, violations, stderr = support.check_json(clean)
    assert code == 1, stderr
    rules = {v["rule"] for v in violations}
    assert rules == {"alert-title-single-word"}, rules
    share = len(violations) / events
    assert 0.005 <= share <= 0.015, f"{len(violations)} violations in {events} events"
    # Each is one of the owed "Error" alerts, one violation apiece.
    titled_error = clean.read_text(encoding="utf-8").count('"title":"Error"')
    assert len(violations) == titled_error


@pytest.mark.needs_rules("alert-title-single-word", "alert-frequency", "modal-depth")
def test_stress_profile_raises_many_more(tmp_path: Path) -> None:
    stress = tmp_path / "stress.ndjson"
    generate(stress, "stress", 30_000)
    code, violations, stderr = support.check_json(stress)
    assert code == 1, stderr
    assert len(violations) / 30_000 > 0.10
    assert len({v["rule"] for v in violations}) >= 10
