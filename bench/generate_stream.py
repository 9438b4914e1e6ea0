#!/usr/bin/env python3
"""Generate a realistic modalwatch event stream (NDJSON) for benchmarks.

Many concurrent sessions, the whole mix of event types, about 180 bytes per
event on average. Deterministic for a given --seed.

Two profiles:
- `stress` (the default): presentations at random, about one event in four raises
  a violation.
- `clean`: a well-behaved app. The same sessions and mix of taps, navigation and
  tasks, but a presentation happens only where the guidelines allow it (otherwise
  the person taps instead), with clean texts, styles and transitions; about 1 % of
  events is an alert titled "Error", which raises exactly one violation
  (`alert-title-single-word`).

    python3 bench/generate_stream.py --events 1000000 --sessions 10000 > /tmp/stream.ndjson
    python3 bench/generate_stream.py --profile clean --events 1000000 > /tmp/clean.ndjson
"""
import argparse
import json
import random
import sys

APPS = ["com.example.mail", "com.example.photos", "com.example.notes", "com.example.shop", "com.example.maps"]
TRANSITIONS = ["cover_vertical", "flip_horizontal", "cross_dissolve"]
STYLES = ["automatic", "full_screen", "page_sheet", "form_sheet", "current_context"]
# The clean profile draws from lists of the same lengths (so the same draws), without
# the texts, styles and transitions that break a rule.
CLEAN_TRANSITIONS = ["cover_vertical", "cover_vertical", "cross_dissolve"]
CLEAN_STYLES = ["automatic", "full_screen", "page_sheet", "form_sheet", "automatic"]
CLEAN_TITLES = ["Delete this message?", "Can’t connect", "Message not sent", "Save changes?"]
CLEAN_MESSAGES = ["This action cannot be undone.", "Check the network connection.", None]
# One event in this many (at the first session that may show an alert) is the clean
# profile's violation: an alert titled "Error".
CLEAN_VIOLATION_EVERY = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000, help="events to generate")
    parser.add_argument("--sessions", type=int, default=10_000, help="concurrent sessions")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", choices=["stress", "clean"], default="stress",
                        help="stress: presentations at random (the default); clean: a well-behaved app, ~1%% violations")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    t0 = 1_732_290_000_000
    sessions = {}
    next_id = 0
    keys = []
    written = 0
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    clean = args.profile == "clean"
    owed = 0  # clean profile: violations due (one per CLEAN_VIOLATION_EVERY events)

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
            if clean:
                st.update(alerts=[], shown=[], texts={}, action=None, finished=None)
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
        if clean:
            if written % CLEAN_VIOLATION_EVERY == 0:
                owed += 1
            if owed and may_alert(st, "error"):
                owed -= 1
                present_alert(st, "error")
                emit(dict(base, type="alert.presented", id=f"a{st['n']}", title="Error", message=None,
                          buttons=[{"title": "Cancel", "style": "cancel"}, {"title": "OK", "style": "default"}]))
            else:
                emit(clean_event(rng, st, base))
            continue
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


def in_window(times, ts, window):
    """Drops the times before the trailing window; how many are left."""
    while times and times[0] <= ts - window:
        times.pop(0)
    return len(times)


def may_present(st):
    """At most 10 alerts, sheets and modals in 300 s, and a stack of at most 6."""
    return len(st["stack"]) < 6 and in_window(st["shown"], st["ts"], 300_000) < 10


def may_alert(st, text):
    """At most 3 alerts in 600 s, none within 2 s of a finished task, a text at most twice."""
    return (may_present(st) and in_window(st["alerts"], st["ts"], 600_000) < 3
            and (st["finished"] is None or st["ts"] - st["finished"] > 2_000) and st["texts"].get(text, 0) < 2)


def present_alert(st, text):
    st["alerts"].append(st["ts"])
    st["shown"].append(st["ts"])
    st["texts"][text] = st["texts"].get(text, 0) + 1
    st["stack"].append(("alert", f"a{st['n']}", st["ts"], 0))


def clean_event(rng, st, base):
    """The stress profile's draw, kept to what the guidelines allow; a tap where they do not."""
    r = rng.random()
    stack = st["stack"]
    ts = st["ts"]
    if stack and r < 0.30:
        kind, pid, shown, _ = stack[-1]
        if kind != "alert" or ts - shown >= 1_500:
            stack.pop()
            ev = dict(base, type=f"{kind}.dismissed", id=pid)
            if kind in ("alert", "sheet"):
                ev.update(via="button", button=rng.randrange(0, 2))
            elif kind == "modal":
                ev.update(via=rng.choice(["button", "gesture"]))
                if rng.random() < 0.1:
                    ev.update(unsaved_changes=True, confirmed=True)
                else:
                    ev.update(unsaved_changes=False)
            return ev
    elif r < 0.45:
        pass
    elif r < 0.55:
        title = rng.choice(CLEAN_TITLES)
        message = rng.choice(CLEAN_MESSAGES)
        text = f"{title}\n{message}"
        if may_alert(st, text):
            present_alert(st, text)
            return dict(base, type="alert.presented", id=f"a{st['n']}", title=title, message=message,
                        buttons=[{"title": "Cancel", "style": "cancel"}, {"title": "Delete", "style": "destructive"}])
    elif r < 0.63:
        if may_present(st) and st["action"] is not None and ts - st["action"] < 800:
            pid = f"sh{st['n']}"
            st["shown"].append(ts)
            stack.append(("sheet", pid, ts, 0))
            return dict(base, type="sheet.presented", id=pid,
                        buttons=[{"title": "Delete Message", "style": "destructive"}, {"title": "Cancel", "style": "cancel"}])
    elif r < 0.73:
        style = rng.choice(CLEAN_STYLES)
        transition = rng.choice(CLEAN_TRANSITIONS)
        kinds = [entry[0] for entry in stack]
        if may_present(st) and "popover" not in kinds and kinds.count("modal") < 2:
            pid = f"m{st['n']}"
            st["shown"].append(ts)
            stack.append(("modal", pid, ts, 0))
            return dict(base, type="modal.presented", id=pid, style=style, transition=transition, title="New Message",
                        buttons=[{"title": "Cancel", "role": "cancel"}, {"title": "Send", "role": "done"}])
    elif r < 0.78:
        if len(stack) < 6:
            pid = f"p{st['n']}"
            stack.append(("popover", pid, ts, 0))
            return dict(base, type="popover.presented", id=pid)
    elif r < 0.88:
        kind = rng.choice(["nav.push", "nav.pop"])
        if stack and stack[-1][0] == "modal":
            # Not more than 3 screens deep inside a modal view.
            top = stack[-1]
            if kind == "nav.push" and top[3] >= 3:
                kind = "nav.pop"
            stack[-1] = top[:3] + (top[3] + (1 if kind == "nav.push" else -1),)
        return dict(base, type=kind, screen=rng.choice(["Inbox", "Details", "Settings"]))
    elif r < 0.96:
        task = f"t{rng.randrange(4)}"
        state = rng.choice(["started", "progress", "finished", "failed"])
        if state == "finished":
            st["finished"] = ts
        return dict(base, type="task.progress", task=task, state=state)
    else:
        return dict(base, type=rng.choice(["app.background", "app.foreground"]))
    st["action"] = ts
    return dict(base, type="user.action", control=rng.choice(["button", "toolbar_button", "cell"]),
                label=rng.choice(["Trash", "Share", "Compose", "Reply all", "Edit"]))


if __name__ == "__main__":
    main()
