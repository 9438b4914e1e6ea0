#!/usr/bin/env python3
"""Generate a held-out modalwatch event stream (NDJSON): the streams the engine is not tuned on.

`bench/generate_stream.py` makes the streams `bench/engine_cost.sh` measures by default. This
one makes streams of another shape, for the same measurement
(`bash bench/engine_cost.sh --held-out`), so that a figure tuned on the first cannot hold only
for its texts and proportions:

- another mix: more action sheets and popovers, fewer alerts, alerts with text fields,
  sheets of two to five buttons (some `in_popover` on a pad), modal views in six styles, tasks
  that fail or are cancelled, popovers dismissed;
- other texts and button labels (some not ASCII), other screens and action labels;
- 40 apps (the common `com.example.*` ones and others, some long, one not ASCII) and
  other devices and size classes;
- fewer concurrent sessions (6,000 by default) that end (`session.end`) after 8 to 120 events
  and are replaced by new ones; one session id in eight is longer than 24 bytes (a UUID with
  a prefix, up to 45 bytes), the others 14 to 22 bytes.

Two profiles, as generate_stream.py's:
- `stress` (the default): presentations and their texts at random; about a third of the
  events raise a violation (in the first 100,000: 34,440 violations of 32 rules);
- `clean`: presentations only where the guidelines of the `current` edition allow them, with
  clean texts, buttons, styles and transitions; about 1 % of events is a modal view without a
  title or an alert with a `Yes` button, each of which raises exactly one violation
  (`modal-missing-title`, `alert-button-yes-no`); in the first 100,000 events 932 (0.93 %),
  nothing else.

Deterministic for a given --seed (default 20261127; generate_stream.py's is 7).

    python3 bench/held_out_stream.py --profile clean --events 100000 > /tmp/held-out-clean.ndjson
"""
import argparse
import json
import random
import sys

APPS = (["com.example.mail", "com.example.photos", "com.example.notes", "com.example.shop", "com.example.maps"]
        + [f"org.heldout.{name}" for name in ("calendar", "weather", "music", "podcasts", "files", "health",
                                              "wallet", "news", "stocks", "books", "camera", "clock")]
        + [f"io.vendor{n}.app" for n in range(12)]
        + ["com.a-very-long-company-name.enterprise.field-service.inspections",
           "net.example.kiosk", "de.beispiel.bücherei", "com.example.reader.pro",
           "com.example.travel.bookings.companion", "app.x", "co.example.tv-remote",
           "com.example.mail.share-extension", "org.example.game-center.leaderboards",
           "com.example.accessibility.magnifier", "com.example.healthkit.sleep-tracker"])
DEVICES = ["phone", "phone", "phone", "pad", "pad", "mac", "vision"]
SCREENS = ["Albums", "Album Detail", "Playlist", "Account", "Checkout", "Kalender", "Search results", "Preferences"]
ACTION_LABELS = ["Remove", "Add to Cart", "Archive", "Filter", "Sort by Date", "Download", "Löschen", "Pin"]
CONTROLS = ["button", "bar_button", "toolbar_button", "cell", "gesture", "key", "other"]
# Clean alert texts (current edition): sentence-style titles of two words or more and at most
# 40 characters, no pronouns, messages that begin with a capital and end with a full stop.
CLEAN_TITLES = ["Remove this album?", "Unable to sync calendars", "Download failed", "Discard this draft?",
                "Storage almost full", "Payment couldn’t be completed", "Leave this meeting?",
                "Archiv konnte nicht geladen werden", "Sign in to continue", "Replace existing file?"]
CLEAN_MESSAGES = ["Items in this album stay in the library.", "The server could not be reached. Try again later.",
                  "Changes made since the last save will be lost.", "Free up space in Settings.",
                  "The card was declined by the bank.", None, None]
# Two-button alerts: a cancel button titled Cancel on the left, the other in title style.
CLEAN_ACTIONS = [("Remove", "destructive"), ("Discard", "destructive"), ("Retry", "default"), ("Leave", "default"),
                 ("Replace", "destructive"), ("Sign In", "default"), ("Manage Storage", "default")]
# Sheets: the destructive button first, the cancel button last.
CLEAN_SHEETS = [
    [("Delete Album", "destructive"), ("Cancel", "cancel")],
    [("Remove Download", "destructive"), ("Share", "default"), ("Cancel", "cancel")],
    [("Move to Trash", "destructive"), ("Duplicate", "default"), ("Rename", "default"), ("Cancel", "cancel")],
    [("Copy Link", "default"), ("Open in Maps", "default"), ("Add to Favorites", "default"), ("Print", "default"),
     ("Cancel", "cancel")],
]
CLEAN_MODAL_TITLES = ["New Event", "Edit Playlist", "Compose", "Neue Notiz", "Filters", "Add Payment Method"]
CLEAN_MODAL_BUTTONS = [[("Cancel", "cancel"), ("Done", "done")], [("Cancel", "cancel"), ("Add", "done")],
                       [("Close", "cancel")], [("Cancel", "cancel"), ("Save", "confirm"), ("Done", "done")]]
CLEAN_STYLES = ["automatic", "page_sheet", "form_sheet", "full_screen", "over_full_screen", "custom"]
TRANSITIONS = ["cover_vertical", "flip_horizontal", "cross_dissolve", "partial_curl", "custom"]
# Stress texts: the clean ones and ones that break the content rules.
BAD_TITLES = ["Warning", "Error!", "Are You Sure You Want to Leave?", None, "",
              "Your subscription has expired and needs to be renewed now.", "Tap “Retry” to try again",
              "Delete the file.", "my photos"]
BAD_MESSAGES = ["you will lose your changes", "Press Retry to reconnect", "x" * 130, "Something went wrong"]
BAD_ACTIONS = [("Yes", "default"), ("No", "cancel"), ("Delete forever and ever", "destructive"), ("ok.", "default"),
               ("Dismiss", "cancel")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=100_000, help="events to generate")
    parser.add_argument("--sessions", type=int, default=6_000, help="concurrent sessions")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--profile", choices=["stress", "clean"], default="stress",
                        help="stress: presentations at random (the default); clean: by the guidelines, ~1%% violations")
    args = parser.parse_args()
    Generator(args, sys.stdout).run()


class Generator:
    """The state of the sessions of one stream, and the events drawn from it."""

    def __init__(self, args, out):
        self.rng = random.Random(args.seed)
        self.out = out
        self.events = args.events
        self.concurrent = args.sessions
        self.clean = args.profile == "clean"
        self.sessions = {}
        self.keys = []
        self.next_id = 0
        self.written = 0
        self.owed = 0
        self.t0 = 1_764_200_000_000
        self.dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
        # Each app's two transitions (the clean profile keeps an app to them).
        pick = random.Random(args.seed + 1)
        self.app_transitions = {app: pick.sample(TRANSITIONS, 2) for app in APPS}

    def emit(self, event):
        self.out.write(self.dumps(event))
        self.out.write("\n")
        self.written += 1

    def session_id(self):
        rng = self.rng
        n = self.next_id
        self.next_id += 1
        if rng.random() < 0.125:
            hexes = f"{rng.getrandbits(128):032x}"
            return f"device-{n:06d}:{hexes[:8]}-{hexes[8:12]}-{hexes[12:16]}-{hexes[16:20]}-{hexes[20:]}"
        return f"h{n:07d}.{rng.getrandbits(24 + 4 * rng.randrange(3)):x}"

    def start_session(self):
        rng = self.rng
        sid = self.session_id()
        app = rng.choice(APPS)
        device = rng.choice(DEVICES)
        st = {"app": app, "ts": self.t0 + rng.randrange(0, 120_000), "seq": 1, "stack": [], "n": 0,
              "left": rng.randrange(8, 121), "device": device, "alerts": [], "shown": [], "texts": {},
              "action": None, "finished": None}
        self.sessions[sid] = st
        self.keys.append(sid)
        event = {"v": 1, "type": "session.start", "session": sid, "ts": st["ts"], "seq": 1, "app": app,
                 "app_version": f"{rng.randrange(1, 30)}.{rng.randrange(10)}", "os": rng.choice(["iOS 17.5", "iPadOS 18.2", "visionOS 2.1"]),
                 "device": device}
        if rng.random() < 0.2:
            event["size_class"] = rng.choice(["compact", "regular"])
        st["compact"] = event.get("size_class", "compact" if device == "phone" else "regular") == "compact"
        self.emit(event)

    def end_session(self, index):
        sid = self.keys[index]
        st = self.sessions.pop(sid)
        self.keys[index] = self.keys[-1]
        self.keys.pop()
        st["ts"] += self.rng.randrange(100, 3000)
        self.emit({"v": 1, "type": "session.end", "session": sid, "ts": st["ts"], "seq": st["seq"] + 1})

    def run(self):
        rng = self.rng
        while self.written < self.events:
            if len(self.sessions) < self.concurrent:
                self.start_session()
                continue
            index = rng.randrange(len(self.keys))
            sid = self.keys[index]
            st = self.sessions[sid]
            if st["left"] == 0:
                self.end_session(index)
                continue
            st["left"] -= 1
            st["ts"] += rng.randrange(30, 6000)
            st["seq"] += 1
            st["n"] += 1
            base = {"v": 1, "session": sid, "ts": st["ts"], "seq": st["seq"]}
            if rng.random() < 0.7:
                base["app"] = st["app"]
            if self.clean:
                if self.written % 100 == 0:
                    self.owed += 1
                event = self.owed and self.clean_violation(st, base)
                if event:
                    self.owed -= 1
                else:
                    event = self.clean_event(st, base)
            else:
                event = self.stress_event(st, base)
            self.emit(event)

    # The clean profile.

    def may_present(self, st):
        return len(st["stack"]) < 6 and in_window(st["shown"], st["ts"], 300_000) < 10

    def may_alert(self, st, text):
        return (self.may_present(st) and in_window(st["alerts"], st["ts"], 600_000) < 3
                and (st["finished"] is None or st["ts"] - st["finished"] > 2_500) and st["texts"].get(text, 0) < 2)

    def may_modal(self, st):
        kinds = [entry[0] for entry in st["stack"]]
        return self.may_present(st) and "popover" not in kinds and kinds.count("modal") < 2

    def clean_violation(self, st, base):
        """An event that raises exactly one violation, if the session allows it now; else None."""
        pid = f"v{st['n']}"
        if self.rng.random() < 0.5:
            if not self.may_modal(st):
                return None
            st["shown"].append(st["ts"])
            st["stack"].append(["modal", pid, st["ts"], 0])
            return dict(base, type="modal.presented", id=pid, style="page_sheet",
                        transition=self.app_transitions[st["app"]][0], title=None,
                        buttons=[{"title": "Done", "role": "done"}])
        text = "Keep the new layout?\nNone"
        if not self.may_alert(st, text):
            return None
        self.present_alert(st, pid, text)
        return dict(base, type="alert.presented", id=pid, title="Keep the new layout?", message=None,
                    buttons=[{"title": "Cancel", "style": "cancel"}, {"title": "Yes", "style": "default"}])

    def present_alert(self, st, pid, text):
        st["alerts"].append(st["ts"])
        st["shown"].append(st["ts"])
        st["texts"][text] = st["texts"].get(text, 0) + 1
        st["stack"].append(["alert", pid, st["ts"], 0])

    def clean_event(self, st, base):
        rng = self.rng
        stack = st["stack"]
        ts = st["ts"]
        r = rng.random()
        if stack and r < 0.28:
            kind, pid, shown, _ = stack[-1]
            if kind != "alert" or ts - shown >= 1_200:
                stack.pop()
                event = dict(base, type=f"{kind}.dismissed", id=pid)
                if kind == "alert":
                    via = rng.choice(["button", "button", "button", "background", "programmatic"])
                    event.update(via=via, button=0 if via == "background" else rng.randrange(2))
                elif kind == "sheet":
                    event.update(via=rng.choice(["button", "programmatic"]), button=rng.choice([0, 1, None]))
                elif kind == "modal":
                    event.update(via=rng.choice(["button", "gesture", "programmatic"]))
                    if rng.random() < 0.15:
                        event.update(unsaved_changes=True, confirmed=True)
                return event
        elif r < 0.40:
            pass
        elif r < 0.46:
            title = rng.choice(CLEAN_TITLES)
            message = rng.choice(CLEAN_MESSAGES)
            text = f"{title}\n{message}"
            if self.may_alert(st, text):
                pid = f"alert-{st['n']}"
                self.present_alert(st, pid, text)
                action, style = rng.choice(CLEAN_ACTIONS)
                event = dict(base, type="alert.presented", id=pid, title=title, message=message,
                             buttons=[{"title": "Cancel", "style": "cancel"}, {"title": action, "style": style}])
                if style == "default" and rng.random() < 0.3:
                    event["buttons"][1]["preferred"] = True
                if rng.random() < 0.1:
                    event["text_fields"] = [{"secure": rng.random() < 0.5}]
                return event
        elif r < 0.58:
            if self.may_present(st) and st["action"] is not None and ts - st["action"] < 900:
                pid = f"sheet-{st['n']}"
                st["shown"].append(ts)
                stack.append(["sheet", pid, ts, 0])
                buttons = rng.choice(CLEAN_SHEETS)
                event = dict(base, type="sheet.presented", id=pid,
                             buttons=[{"title": title, "style": style} for title, style in buttons])
                if st["device"] == "pad" and rng.random() < 0.5:
                    event.update(in_popover=True, from_popover=False, background="system")
                return event
        elif r < 0.66:
            if self.may_modal(st):
                pid = f"modal-{st['n']}"
                st["shown"].append(ts)
                stack.append(["modal", pid, ts, 0])
                event = dict(base, type="modal.presented", id=pid, style=rng.choice(CLEAN_STYLES),
                             transition=rng.choice(self.app_transitions[st["app"]]),
                             title=rng.choice(CLEAN_MODAL_TITLES),
                             buttons=[{"title": title, "role": role} for title, role in rng.choice(CLEAN_MODAL_BUTTONS)])
                if not st["compact"] and rng.random() < 0.3:
                    event.update(style="current_context", size_class="regular")
                return event
        elif r < 0.74:
            if len(stack) < 6:
                pid = f"popover-{st['n']}"
                stack.append(["popover", pid, ts, 0])
                return dict(base, type="popover.presented", id=pid)
        elif r < 0.86:
            kind = rng.choice(["nav.push", "nav.pop"])
            if stack and stack[-1][0] == "modal":
                top = stack[-1]
                if kind == "nav.push" and top[3] >= 3:
                    kind = "nav.pop"
                top[3] += 1 if kind == "nav.push" else -1
            return dict(base, type=kind, screen=rng.choice(SCREENS))
        elif r < 0.95:
            state = rng.choice(["started", "progress", "progress", "finished", "failed", "cancelled"])
            if state == "finished":
                st["finished"] = ts
            return dict(base, type="task.progress", task=f"sync-{rng.randrange(6)}", state=state)
        else:
            return dict(base, type=rng.choice(["app.background", "app.foreground"]))
        return self.user_action(st, base)

    def user_action(self, st, base):
        rng = self.rng
        st["action"] = st["ts"]
        event = dict(base, type="user.action", control=rng.choice(CONTROLS), label=rng.choice(ACTION_LABELS))
        if rng.random() < 0.1:
            event["destructive"] = True
        return event

    # The stress profile.

    def stress_event(self, st, base):
        rng = self.rng
        stack = st["stack"]
        r = rng.random()
        n = st["n"]
        if stack and r < 0.25:
            kind, pid, _, _ = stack.pop()
            event = dict(base, type=f"{kind}.dismissed", id=pid)
            if kind in ("alert", "sheet"):
                event.update(via=rng.choice(["button", "background", "programmatic"]), button=rng.choice([0, 1, None]))
            elif kind == "modal":
                event.update(via=rng.choice(["button", "gesture"]), unsaved_changes=rng.random() < 0.2)
                if rng.random() < 0.5:
                    event["confirmed"] = rng.random() < 0.5
            return event
        if r < 0.40:
            return self.user_action(st, base)
        if r < 0.46 and len(stack) < 8:
            pid = f"alert-{n}"
            stack.append(["alert", pid, st["ts"], 0])
            title = rng.choice(CLEAN_TITLES + BAD_TITLES)
            message = rng.choice(CLEAN_MESSAGES + BAD_MESSAGES)
            count = rng.choice([0, 1, 2, 2, 2, 3])
            actions = [("Cancel", "cancel")] + [rng.choice(CLEAN_ACTIONS + BAD_ACTIONS) for _ in range(count)]
            rng.shuffle(actions)
            event = dict(base, type="alert.presented", id=pid, title=title, message=message,
                         buttons=[{"title": t, "style": s} for t, s in actions[:count]])
            if rng.random() < 0.15:
                event["text_fields"] = [{"secure": rng.random() < 0.5} for _ in range(rng.randrange(1, 4))]
            return event
        if r < 0.58 and len(stack) < 8:
            pid = f"sheet-{n}"
            stack.append(["sheet", pid, st["ts"], 0])
            buttons = list(rng.choice(CLEAN_SHEETS))
            if rng.random() < 0.3:
                rng.shuffle(buttons)
            if rng.random() < 0.1:
                buttons = buttons[:1]
            event = dict(base, type="sheet.presented", id=pid,
                         buttons=[{"title": title, "style": style} for title, style in buttons])
            if rng.random() < 0.3:
                event.update(in_popover=rng.random() < 0.5, from_popover=rng.random() < 0.5,
                             background=rng.choice(["system", "dark", "light"]), title="Options")
            return event
        if r < 0.66 and len(stack) < 8:
            pid = f"modal-{n}"
            stack.append(["modal", pid, st["ts"], 0])
            event = dict(base, type="modal.presented", id=pid,
                         style=rng.choice(CLEAN_STYLES + ["current_context", "over_current_context"]),
                         transition=rng.choice(TRANSITIONS), title=rng.choice(CLEAN_MODAL_TITLES + [None, " "]),
                         buttons=[{"title": title, "role": role}
                                  for title, role in rng.choice(CLEAN_MODAL_BUTTONS + [[("Next", "other")]])])
            if rng.random() < 0.2:
                event["size_class"] = rng.choice(["compact", "regular"])
            return event
        if r < 0.74 and len(stack) < 8:
            pid = f"popover-{n}"
            stack.append(["popover", pid, st["ts"], 0])
            return dict(base, type="popover.presented", id=pid)
        if r < 0.86:
            return dict(base, type=rng.choice(["nav.push", "nav.pop"]), screen=rng.choice(SCREENS))
        if r < 0.95:
            state = rng.choice(["started", "progress", "finished", "failed", "cancelled"])
            return dict(base, type="task.progress", task=f"sync-{rng.randrange(6)}", state=state)
        return dict(base, type=rng.choice(["app.background", "app.foreground"]))


def in_window(times, ts, window):
    """Drops the times before the trailing window; how many are left."""
    while times and times[0] <= ts - window:
        times.pop(0)
    return len(times)


if __name__ == "__main__":
    main()
