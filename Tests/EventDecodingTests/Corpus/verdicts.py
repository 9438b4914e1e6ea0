"""Judges corpus files by event.schema.json, for the decoder's corpus test.

usage: python3 verdicts.py SCHEMA FILE...

Prints one line per file, in order: `VERDICT<TAB>FILE<TAB>WHY`, where VERDICT is
  valid     strict JSON, and the schema (Draft 2020-12) accepts it
  invalid   strict JSON, and the schema rejects it
  not-json  not strict JSON (RFC 8259): not UTF-8, a byte order mark, NaN or
            Infinity, a lone surrogate escape, or anything json.loads refuses
"""
import json
import sys

from jsonschema import Draft202012Validator


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def check_scalars(value):
    """Lone surrogates (json.loads accepts them) cannot be encoded as UTF-8: not JSON."""
    if isinstance(value, str):
        value.encode("utf-8")
    elif isinstance(value, list):
        for item in value:
            check_scalars(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            key.encode("utf-8")
            check_scalars(item)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            data = f.read()
        try:
            text = data.decode("utf-8")  # strict; a BOM stays and json.loads refuses it
            instance = json.loads(text, parse_constant=refuse_constant)
            check_scalars(instance)
        except (ValueError, UnicodeError, RecursionError) as error:
            print(f"not-json\t{path}\t{type(error).__name__}: {str(error)[:100]}")
            continue
        error = next(iter(validator.iter_errors(instance)), None)
        if error is None:
            print(f"valid\t{path}\t")
        else:
            print(f"invalid\t{path}\t{error.message[:100]}")


if __name__ == "__main__":
    main()
