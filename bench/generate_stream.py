#!/usr/bin/env python3
"""Generate a realistic modalwatch event stream (NDJSON) for benchmarks.

Many concurrent sessions, the whole mix of event types, about 180 bytes per
event on average. Deterministic for a given --seed.

    python3 bench/generate_stream.py --events 1000000 --sessions 10000 > /tmp/stream.ndjson
"""
import argparse
import json
import random
import sys

APPS = ["com.example.mail", "com.example.photos", "com.example.notes", "com.example.shop", "com.example.maps"]
TRANSITIONS = ["cover_vertical", "flip_horizontal", "cross_dissolve"]
STYLES = ["automatic", "full_screen", "page_sheet", "form_sheet", "current_context"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000, help="events to generate")
    parser.add_argument("--sessions", type=int, default=10_000, help="concurrent sessions")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    t0 = 1_732_290_000_000
    sessions = {}
    next_id = 0
    keys = []
    written = 0
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

    def emit(event):
        nonlocal written
        out.write(dumps(event))
        out.write("\n")
        written += 1

    while written < args.events:
        if len(sessions) < args.sessions or rng.random() < 0.001:
            sid = f"s{next_id:08d}-{rng.getrandbits(32):08x}"
            next_id += 1
            app = rng.choice(APPS)
            st = {"app": app, "ts": t0 + rng.randrange(0, 60_000), "seq": 1, "stack": [], "n": 0}
            sessions[sid] = st
            keys.append(sid)
            emit({"v": 1, "type": "session.start", "session": sid, "ts": st["ts"], "seq": 1, "app": app,
                  "app_version": "4.2.1", "os": "iOS 18.1", "device": rng.choice(["phone", "phone", "pad"])})
            continue
        sid = keys[rng.randrange(len(keys))]
        st = sessions[sid]
        st["ts"] += rng.randrange(50, 4000)
        st["seq"] += 1
        st["n"] += 1
        base = {"v": 1, "session": sid, "ts": st["ts"], "seq": st["seq"], "app": st["app"]}
        r = rng.random()
        stack = st["stack"]
        if stack and r < 0.30:
            kind, pid = stack.pop()
            ev = dict(base, type=f"{kind}.dismissed", id=pid)
            if kind in ("alert", "sheet"):
                ev.update(via="button", button=rng.randrange(0, 2))
            elif kind == "modal":
                ev.update(via=rng.choice(["button", "gesture"]), unsaved_changes=rng.random() < 0.1)
            emit(ev)
        elif r < 0.45:
            emit(dict(base, type="user.action", control=rng.choice(["button", "toolbar_button", "cell"]),
                      label=rng.choice(["Trash", "Share", "Compose", "Reply all", "Edit"])))
        elif r < 0.55 and len(stack) < 6:
            pid = f"a{st['n']}"
            stack.append(("alert", pid))
            emit(dict(base, type="alert.presented", id=pid,
                      title=rng.choice(["Delete this message?", "Can’t connect", "Error", "Save changes?"]),
                      message=rng.choice(["This action cannot be undone.", "Check your network connection", None]),
                      buttons=[{"title": "Cancel", "style": "cancel"}, {"title": "Delete", "style": "destructive"}]))
        elif r < 0.63 and len(stack) < 6:
            pid = f"sh{st['n']}"
            stack.append(("sheet", pid))
            emit(dict(base, type="sheet.presented", id=pid,
                      buttons=[{"title": "Delete Message", "style": "destructive"}, {"title": "Cancel", "style": "cancel"}]))
        elif r < 0.73 and len(stack) < 6:
            pid = f"m{st['n']}"
            stack.append(("modal", pid))
            emit(dict(base, type="modal.presented", id=pid, style=rng.choice(STYLES),
                      transition=rng.choice(TRANSITIONS), title="New Message",
                      buttons=[{"title": "Cancel", "role": "cancel"}, {"title": "Send", "role": "done"}]))
        elif r < 0.78 and len(stack) < 6:
            pid = f"p{st['n']}"
            stack.append(("popover", pid))
            emit(dict(base, type="popover.presented", id=pid))
        elif r < 0.88:
            emit(dict(base, type=rng.choice(["nav.push", "nav.pop"]), screen=rng.choice(["Inbox", "Details", "Settings"])))
        elif r < 0.96:
            emit(dict(base, type="task.progress", task=f"t{rng.randrange(4)}",
                      state=rng.choice(["started", "progress", "finished", "failed"])))
        else:
            emit(dict(base, type=rng.choice(["app.background", "app.foreground"])))


if __name__ == "__main__":
    main()
