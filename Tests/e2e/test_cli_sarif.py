"""`modalwatch check --format sarif` validates against the official SARIF 2.1.0 JSON schema (Tests/Fixtures/sarif; nothing is
fetched) and carries the rules as reportingDescriptors and the violations as results."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import jsonschema
from jsonschema import validators

import e2e_support as support
import streams
from streams import T0

APP = "com.example.sarif"


def local_only(cls, schema: dict) -> dict:
    """Keyword arguments for `cls` that resolve references in the local schema only: anything else fails, unfetched."""
    uri = schema.get("$id") or schema["id"]
    try:
        from referencing import Registry, Resource
        from referencing.exceptions import NoSuchResource
        from referencing.jsonschema import specification_with
    except ImportError:  # jsonschema before 4.18
        def refuse(url: str):
            raise AssertionError(f"the schema refers to {url}; nothing is fetched")
        return {"resolver": jsonschema.RefResolver(uri, schema, handlers={"http": refuse, "https": refuse})}

    def refuse_resource(url: str):
        raise NoSuchResource(ref=url)

    resource = Resource(contents=schema, specification=specification_with(schema["$schema"]))
    return {"registry": Registry(retrieve=refuse_resource).with_resource(uri, resource)}


@pytest.fixture(scope="module")
def validator():
    path = support.sarif_schema_path()
    assert path.is_file(), f"the SARIF 2.1.0 schema is not at {path} (Tests/Fixtures/sarif)"
    schema = json.loads(path.read_text())
    cls = validators.validator_for(schema)
    cls.check_schema(schema)
    # Only the local schema: a reference to anything else fails instead of being fetched.
    return cls(schema, format_checker=cls.FORMAT_CHECKER, **local_only(cls, schema))


def sarif(*args: str) -> tuple[int, dict, str]:
    result = support.run_cli(["check", "--format", "sarif", *support.rules_dir_args(), *args])
    return result.returncode, json.loads(result.stdout), result.stderr.decode()


def assert_valid(validator, log: dict) -> None:
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


@pytest.mark.needs_rules("alert-frequency", "modal-depth")
def test_sarif_validates_and_maps_rules_and_results(validator, tmp_path):
    events = streams.alert_frequency_session("SA", APP) + streams.modal_depth_session("SM", APP, T0 + 100_000)
    stream = support.write_stream(tmp_path / "two rules.ndjson", events)
    code, log, stderr = sarif(str(stream))
    assert code == 1, stderr
    assert_valid(validator, log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "modalwatch"
    listed, _ = support.available_rules()
    assert {r["id"] for r in driver["rules"]} == listed, "every loaded rule is a reportingDescriptor"
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"], rule
        assert rule["help"]["text"] or rule.get("helpUri"), rule
        assert rule["defaultConfiguration"]["level"] in {"note", "warning", "error"}, rule
    by_id = {r["id"]: r for r in driver["rules"]}
    assert by_id["alert-frequency"]["shortDescription"]["text"] == "Minimize alerts"
    assert by_id["alert-frequency"]["defaultConfiguration"]["level"] == "warning"

    _, expected, _ = support.check_json(stream)
    results = run["results"]
    assert [(r["ruleId"], r["message"]["text"]) for r in results] == [(v["rule"], v["message"]) for v in expected]
    lines = (tmp_path / "two rules.ndjson").read_text().splitlines()
    for result, violation in zip(results, expected):
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == {"info": "note", "warning": "warning", "error": "error"}[violation["severity"]]
        assert result["fingerprints"]["modalwatch/v1"] == violation["fingerprint"]
        location = result["locations"][0]
        names = [(l["kind"], l["name"]) for l in location["logicalLocations"]]
        assert names == [("module", APP), ("namespace", violation["session"]), ("object", violation["subject"])], names
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "file://" + str(stream).replace(" ", "%20")
        line = json.loads(lines[physical["region"]["startLine"] - 1])
        assert (line["ts"], line.get("id")) == (violation["ts"], violation["subject"]), "the line of the triggering event"


def test_sarif_names_a_relative_file_relatively(validator, tmp_path):
    support.write_stream(tmp_path / "rel ative.ndjson", streams.alert_frequency_session("RL", APP))
    result = support.subprocess.run(
        [str(support.cli_path()), "check", "--format", "sarif", *support.rules_dir_args(), "rel ative.ndjson"],
        cwd=tmp_path, capture_output=True, timeout=20)
    log = json.loads(result.stdout)
    assert_valid(validator, log)
    assert log["runs"][0]["artifacts"] == [{"location": {"uri": "rel%20ative.ndjson"}}]
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "rel%20ative.ndjson", "index": 0}


def test_sarif_of_a_clean_stream_and_of_stdin_is_valid(validator, tmp_path):
    clean = support.write_stream(tmp_path / "clean.ndjson", streams.quiet_session("Q", APP))
    code, log, stderr = sarif(str(clean))
    assert code == 0, stderr
    assert_valid(validator, log)
    assert log["runs"][0]["results"] == []
    payload = b"".join(support.encode(e) + b"\n" for e in streams.alert_frequency_session("IN", APP))
    result = support.run_cli(["check", "--format", "sarif", *support.rules_dir_args(), "-"], stdin=payload)
    log = json.loads(result.stdout)
    assert_valid(validator, log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["alert-frequency"]
    assert "physicalLocation" not in log["runs"][0]["results"][0]["locations"][0], "stdin has no file to point at"


def test_sarif_reports_rejected_lines_as_notifications(validator, tmp_path):
    stream = tmp_path / "bad.ndjson"
    stream.write_bytes(b'{"v":1,"type":"session.start","session":"X"\n' + support.encode(streams.start("Y", APP, T0)) + b"\n")
    code, log, stderr = sarif(str(stream))
    assert code == 0, stderr
    assert_valid(validator, log)
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 1 and "bad.ndjson:1" in notes[0]["message"]["text"] and "malformed_json" in notes[0]["message"]["text"]


def test_the_validator_is_not_a_rubber_stamp(validator, tmp_path):
    stream = support.write_stream(tmp_path / "a.ndjson", streams.alert_frequency_session("R", APP))
    _, log, _ = sarif(str(stream))
    log["runs"][0]["results"][0]["level"] = "severe"
    assert list(validator.iter_errors(log)), "a result level outside SARIF's is refused"


def test_sarif_results_carry_the_suggestion_in_markdown_and_properties(validator, tmp_path):
    demo = support.PACKAGE_ROOT / "demo" / "stream.ndjson"
    code, log, stderr = sarif(str(demo))
    assert code == 1, stderr
    assert_valid(validator, log)
    _, expected, _ = support.check_json(demo)
    results = log["runs"][0]["results"]
    assert len(results) == len(expected) > 0
    for result, violation in zip(results, expected):
        assert violation["suggestion"], violation
        assert result["properties"]["suggestion"] == violation["suggestion"]
        assert result["message"]["text"] == violation["message"]
        markdown = result["message"]["markdown"]
        assert "\n\n**Suggestion:** " in markdown, markdown
        plain = markdown.replace("\\", "")
        assert plain.endswith(violation["suggestion"]), (markdown, violation["suggestion"])
        assert "fixes" not in result, "fixes are for file edits"
