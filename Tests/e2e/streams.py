"""Event streams for the end-to-end tests (wire format v1, events.md).

Apart from the rule each stream is about, the streams are well behaved, so that
the rule modules still to come (alert content, action sheets) find nothing else
in them: two-button alerts with Cancel on the left, sentence-style titles,
messages that end with a period, distinct texts, dismissals after reading time,
user actions before sheets, titled modals with a Done button.
"""
from __future__ import annotations

from typing import Any

T0 = 1_732_290_000_000  # 2024-11-22, as in events.md

Event = dict[str, Any]

ALERT_TITLES = [
    "Unable to sync notes",
    "Unable to load photos",
    "Unable to send the message",
    "Unable to open the attachment",
    "Unable to reach the server",
    "Unable to save the draft",
]


def start(session: str, app: str, ts: int, **fields: Any) -> Event:
    return {"v": 1, "type": "session.start", "session": session, "ts": ts, "app": app, "device": "phone", **fields}


def end(session: str, ts: int) -> Event:
    return {"v": 1, "type": "session.end", "session": session, "ts": ts}


def action(session: str, ts: int, label: str = "Edit", control: str = "button") -> Event:
    return {"v": 1, "type": "user.action", "session": session, "ts": ts, "control": control, "label": label}


def alert(session: str, ts: int, id: str, title: str, message: str = "Check the connection and try again.") -> Event:
    return {
        "v": 1, "type": "alert.presented", "session": session, "ts": ts, "id": id, "title": title, "message": message,
        "buttons": [{"title": "Cancel", "style": "cancel"}, {"title": "Try Again", "style": "default", "preferred": True}],
    }


def alert_dismissed(session: str, ts: int, id: str, button: int = 1) -> Event:
    return {"v": 1, "type": "alert.dismissed", "session": session, "ts": ts, "id": id, "button": button, "via": "button"}


def modal(session: str, ts: int, id: str, title: str) -> Event:
    return {
        "v": 1, "type": "modal.presented", "session": session, "ts": ts, "id": id, "style": "page_sheet",
        "transition": "cover_vertical", "title": title,
        "buttons": [{"title": "Cancel", "role": "cancel"}, {"title": "Done", "role": "done"}],
    }


def modal_dismissed(session: str, ts: int, id: str) -> Event:
    return {"v": 1, "type": "modal.dismissed", "session": session, "ts": ts, "id": id, "via": "button", "button": 1}


def alert_frequency_session(session: str, app: str, t0: int = T0, end_session: bool = False) -> list[Event]:
    """Four alerts 10 s apart (within 600 s, limit 3): `alert-frequency` fires once, on `<session>-a4`."""
    events = [start(session, app, t0)]
    for n in range(1, 5):
        presented = t0 + n * 10_000
        events.append(alert(session, presented, f"{session}-a{n}", ALERT_TITLES[n - 1]))
        events.append(alert_dismissed(session, presented + 3_000, f"{session}-a{n}"))
    if end_session:
        events.append(end(session, t0 + 60_000))
    return events


ALERT_FREQUENCY_TRIGGER = 7  # index of the fourth alert.presented in alert_frequency_session


def modal_depth_session(session: str, app: str, t0: int = T0) -> list[Event]:
    """Three nested modal views (max_depth 2): `modal-depth` fires once, on `<session>-m3`."""
    return [
        start(session, app, t0),
        action(session, t0 + 1_000, "Compose"),
        modal(session, t0 + 1_200, f"{session}-m1", "New message"),
        action(session, t0 + 3_000, "Add Recipient"),
        modal(session, t0 + 3_200, f"{session}-m2", "Contacts"),
        action(session, t0 + 5_000, "New Contact"),
        modal(session, t0 + 5_200, f"{session}-m3", "New contact"),
        modal_dismissed(session, t0 + 9_000, f"{session}-m3"),
        modal_dismissed(session, t0 + 10_000, f"{session}-m2"),
        modal_dismissed(session, t0 + 11_000, f"{session}-m1"),
    ]


def quiet_session(session: str, app: str, t0: int = T0) -> list[Event]:
    """A session that breaks no rule."""
    return [start(session, app, t0), action(session, t0 + 1_000), action(session, t0 + 2_000, "Save"), end(session, t0 + 3_000)]


def key(violation: dict[str, Any]) -> tuple[str, str, str, str | None]:
    return violation["rule"], violation["app"], violation["session"], violation["subject"]
