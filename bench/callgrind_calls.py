#!/usr/bin/env python3
"""Total instructions and call counts per function from a callgrind output file.

    python3 bench/callgrind_calls.py callgrind.out [NAME ...]

Prints `total Ir` and, for each NAME (a function name or its prefix; default: malloc,
free, swift_allocObject, swift_retain, swift_release), how often it was called.
"""
import re
import sys


def main() -> None:
    path = sys.argv[1]
    wanted = sys.argv[2:] or ["malloc", "free", "swift_allocObject", "swift_retain", "swift_release"]
    names = {}
    calls = {}
    total = 0
    callee = None
    pending_calls = False
    for line in open(path, errors="replace"):
        if line.startswith("summary:") or line.startswith("totals:"):
            total = max(total, int(line.split()[1]))
            continue
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            kind, ident, name = m.groups()
            if name:
                names[ident] = name.strip()
            if kind == "cfn":
                callee = names.get(ident)
            continue
        if line.startswith("calls="):
            count = int(line[6:].split()[0])
            calls[callee] = calls.get(callee, 0) + count
    print(f"total Ir {total}")
    for want in wanted:
        n = sum(c for name, c in calls.items() if name == want or (name and name.split("'")[0] == want))
        print(f"calls {want} {n}")


if __name__ == "__main__":
    main()
