"""The real translated alerts of Tests/Corpus/localized-alerts.json judged as their English originals
are (Tests/Corpus/README.md, "The measurement"): `bench/localized_corpus.py` runs `modalwatch check`
on every original and translation in both editions, and the text rules' false positives, the
structural verdicts and the findings kept in translation stay within their bounds."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import e2e_support as support


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    out = tmp_path_factory.mktemp("localized") / "figures.json"
    args = [sys.executable, str(support.PACKAGE_ROOT / "bench" / "localized_corpus.py"),
            "--modalwatch", str(support.bin_dir() / "modalwatch"), "--json", str(out), *support.rules_dir_args()]
    result = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return json.loads(out.read_text())["editions"]


@pytest.mark.parametrize("edition", ["current", "ios7"])
def test_at_most_one_percent_of_translated_sessions_have_a_text_rule_false_positive(figures, edition):
    every = figures[edition]["all"]
    assert every["sessions"] > 3000
    assert every["text_fp_rate"] <= 0.01, figures[edition]["top_false_positive_rules"]


@pytest.mark.parametrize("edition", ["current", "ios7"])
def test_structural_verdicts_are_the_english_originals(figures, edition):
    structural = figures[edition]["all"]["structural"]
    assert structural["precision"] >= 0.995 and structural["recall"] >= 0.995, structural


@pytest.mark.parametrize("edition", ["current", "ios7"])
def test_a_yes_no_pair_and_a_single_word_title_are_still_found_once_translated(figures, edition):
    every = figures[edition]["all"]
    assert every["alert-button-yes-no"]["share"] >= 0.9, every["alert-button-yes-no"]
    # A single-word English title is kept where its translation is itself one word in its language
    # (`Abmelden` for `Logout`); `Se déconnecter` is two, and a finding there would be false.
    assert every["alert-title-single-word"]["one_word_share"] >= 0.9, every["alert-title-single-word"]
