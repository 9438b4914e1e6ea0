#!/usr/bin/env python3
"""Measure the text rules on translated alerts: Tests/Corpus/localized-alerts.json.

The corpus holds real alerts and action sheets of open-source iOS apps, each in English and in the
translations the app ships. This script turns it into one NDJSON event stream (wire format v1,
docs/spec/events.md), one session per English original and one per (entry, language), runs
`modalwatch check --edition E --format json` on it for each edition, and compares every
translation's findings with its English original's:

- **text false positives**: a finding of a text rule on the translation that its English original
  does not have (a finding is its rule and, for a rule about one button, that button), unless the
  translated text itself bears it out:
  - `alert-title-too-long`, `alert-message-too-long`: the translated text has more characters than
    the limit (`max_chars`, from the finding's evidence, else 40 and 120), counted as the rule counts
    them: user-perceived characters (grapheme clusters, approximated here: a combining mark, a
    variation selector, an emoji modifier, a zero-width joiner and the character after it, the second
    regional indicator of a flag and a Hangul vowel or final jamo join the character before), a
    character East Asian wide or full-width counting as two, as the rules count (rules.md);
  - `alert-button-title-length`: a translated button title has more words than `max_words` (else 2);
    a word is a run of letters, marks, digits and apostrophes;
  - `alert-message-style`: the translated message really does not end a sentence (`.`, `!`, `?`, `…`,
    `。`, `！`, `？`, `؟`, `।`, `۔`, or `...`, before closing quotes or brackets), or really begins
    with a lowercase letter;
  - `alert-title-style`: the translated title, not a question, really ends with `.` or `。`;
  - `alert-button-title-format`: a translated button title really ends with `.`, `!`, `?`, `:` or
    their full-width or Arabic forms;
  - `alert-title-single-word`: the translated title, trimmed of ending punctuation, really is one
    word in its language: one run of letters, marks, digits and apostrophes, or, with letters of a
    script written without spaces, one word by ICU's word break iterator (PyICU, Debian
    `python3-icu`; without it such a title is never taken as one word). `Abmelden` for `Log out` is
    a single-word title as `Logout` is; `--single-word-by-original` counts it as a false positive
    whenever the English original's title is not one word;
  - `alert-cancel-label`: the translation's cancel button keeps the English original's title (the
    app's code titles it with a literal `Cancel`, left in English in every language);
  - `alert-button-instructions`: the translated text really quotes one of the alert's button titles
    (in any quotation marks: "", “”, „“, «», ‹›, 「」, 『』, '', ‘’, ‚‘, 《》, 〈〉).
  A session counts once however many such findings it has.
- **structural verdicts**: the rules about buttons, styles, counts and the presence of a title or
  message (STRUCTURAL below). The English original's verdicts are the reference: precision and
  recall of the translation's verdicts against them, summed over the pairs.
- **kept findings**: of the English originals with an `alert-button-yes-no` finding, the share of
  translations that still have it; the same for `alert-title-single-word`, and for it also the share
  among the translations whose own title is one word in its language (`one_word_share`: `Abmelden`
  for `Logout` is one word, `Se déconnecter` two, and a finding on it would be false).
- **top false-positive rules**, each with one example message.

A rule this script does not know is taken as a text rule when its module is `alert-content` or
`action-sheet`, and is otherwise left out of the scores (listed under `other_rules`).

Every `session.start` of a translation carries `"locale": "<BCP 47 tag>"` (events.md: unknown fields
are ignored); `--no-locale` leaves it out, `--locale-on-presentation` puts it on the
`alert.presented` / `sheet.presented` event as well. The English originals carry no locale.
A sheet is presented on a phone 100 ms after a `user.action` tap, as Tests/e2e/test_corpus.py does;
every presentation is dismissed by its cancel button (else its first) 2 s later, then the session ends.
Each session has 10 s of event time of its own, one after the other: all sessions are of one app, and
the violation rate limit (`max_violations_per_rule_per_second`, per app and rule, by event time) would
otherwise hold back findings of sessions that share a second.

Prints a compact table per edition; `--json PATH` writes every figure. The output depends only on
the corpus and the binary's verdicts.

    python3 bench/localized_corpus.py                              # .build/debug/modalwatch
    python3 bench/localized_corpus.py --modalwatch PATH --json /tmp/localized.json
    python3 bench/localized_corpus.py --write-stream /tmp/localized.ndjson   # the stream, and nothing else
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Tests" / "Corpus" / "localized-alerts.json"
T0 = 1_732_290_000_000
SESSION_SPACING = 10_000  # ms of event time per session: the per-app, per-rule violation rate limit holds nothing back
APP = "com.example.corpus"

TEXT = {
    "alert-title-single-word", "alert-error-word", "alert-title-too-long", "alert-message-too-long",
    "alert-pronoun", "alert-title-style", "alert-message-style", "alert-button-instructions",
    "alert-button-yes-no", "alert-button-title-format", "alert-button-title-length", "alert-cancel-label",
}
STRUCTURAL = {
    "alert-no-buttons", "alert-single-button", "alert-too-many-buttons", "alert-title-missing",
    "alert-cancel-position", "alert-destructive-without-cancel", "alert-destructive-preferred",
    "alert-background-action", "alert-text-fields",
    "sheet-too-few-buttons", "sheet-missing-cancel", "sheet-cancel-in-popover", "sheet-cancel-not-last",
    "sheet-destructive-not-first", "sheet-too-many-buttons", "sheet-has-message", "sheet-background-inconsistent",
}
TEXT_MODULES = {"alert-content", "action-sheet"}
KEPT = ("alert-button-yes-no", "alert-title-single-word")
DEFAULT_LIMITS = {"alert-title-too-long": 40, "alert-message-too-long": 120, "alert-button-title-length": 2}

SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？", "؟", "।", "۔", "‼", "⁉", "⁈", "．")
CLOSERS = "\"'”’»›」』)]）】〉》"
QUOTES = [('"', '"'), ("“", "”"), ("„", "“"), ("„", "”"), ("«", "»"), ("»", "«"), ("‹", "›"), ("「", "」"),
          ("『", "』"), ("'", "'"), ("‘", "’"), ("‚", "‘"), ("《", "》"), ("〈", "〉"), ("”", "”")]
BUTTON_ENDS = (".", "!", "?", ":", "。", "！", "？", "：", "؟", "．")


# --- the corpus as events ---------------------------------------------------------------------------

def entries(corpus: dict) -> list[dict]:
    """Every entry as {n, kind, source, english, translations, note}, alerts first."""
    out = []
    for kind, key in (("alert", "alerts"), ("sheet", "sheets")):
        for entry in corpus.get(key, []):
            out.append({"n": len(out), "kind": kind, "source": entry["source"], "english": entry[kind],
                        "translations": entry.get("translations", {}), "note": entry.get("note")})
    return out


def dismiss_index(buttons: list[dict]) -> int | None:
    if not buttons:
        return None
    for i, b in enumerate(buttons):
        if b.get("style") == "cancel":
            return i
    return 0


def session_events(session: str, t0: int, kind: str, presentation: dict, subject: str, locale: str | None,
                   locale_on_presentation: bool) -> list[dict]:
    start = {"v": 1, "type": "session.start", "session": session, "ts": t0, "app": APP, "device": "phone"}
    if locale:
        start["locale"] = locale
    events = [start]
    shown = {"v": 1, "type": f"{kind}.presented", "session": session, "ts": t0 + 1000, "id": subject,
             "title": presentation.get("title"), "message": presentation.get("message"),
             "buttons": presentation.get("buttons", [])}
    if kind == "alert" and presentation.get("text_fields"):
        shown["text_fields"] = [{"secure": False}] * presentation["text_fields"]
    if locale and locale_on_presentation:
        shown["locale"] = locale
    if kind == "sheet":
        events.append({"v": 1, "type": "user.action", "session": session, "ts": t0 + 900,
                       "control": "bar_button", "label": "Open"})
    events.append(shown)
    events.append({"v": 1, "type": f"{kind}.dismissed", "session": session, "ts": t0 + 3000, "id": subject,
                   "button": dismiss_index(shown["buttons"]), "via": "button"})
    events.append({"v": 1, "type": "session.end", "session": session, "ts": t0 + 4000})
    return events


def stream(items: list[dict], with_locale: bool, locale_on_presentation: bool) -> tuple[bytes, dict]:
    """The NDJSON bytes and {session: (entry n, language or "en")}."""
    lines, sessions = [], {}
    for e in items:
        subject = f"{e['kind'][0]}{e['n']}"
        variants = [("en", e["english"], None)] + [
            (tag, p, tag if with_locale else None) for tag, p in sorted(e["translations"].items())]
        for tag, presentation, locale in variants:
            session = f"loc-{e['n']}-{tag}"
            t0 = T0 + SESSION_SPACING * len(sessions)
            sessions[session] = (e["n"], tag)
            for event in session_events(session, t0, e["kind"], presentation, subject, locale, locale_on_presentation):
                lines.append(json.dumps(event, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode("utf-8"), sessions


# --- reading the texts as the rules do --------------------------------------------------------------

def grapheme_count(text: str, wide_as_two: bool = True) -> int:
    """User-perceived characters, as the length rules count them (rules.md): a grapheme cluster
    whose first character is East Asian wide or full-width (`W`, `F`) counts as two."""
    count, join_next, regional_open = 0, False, False
    for ch in text:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        extends = (cat in ("Mn", "Mc", "Me") or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF
                   or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F or 0x1160 <= cp <= 0x11FF
                   or cp == 0x200D)
        regional = 0x1F1E6 <= cp <= 0x1F1FF
        if join_next or extends or (regional and regional_open):
            join_next = cp == 0x200D
            regional_open = False if regional else regional_open
            continue
        count += 2 if wide_as_two and unicodedata.east_asian_width(ch) in ("W", "F") else 1
        join_next = False
        regional_open = regional
    return count - text.count("\r\n")


SPACELESS_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR", "IDEOGRAPH")


def is_spaceless_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "L" and any(s in unicodedata.name(ch, "") for s in SPACELESS_SCRIPTS)


def is_one_word(title: str) -> bool:
    """Whether a title, trimmed of ending punctuation, is one word in its language: one run of letters,
    marks, digits and apostrophes; a title with letters of a script written without spaces is one word
    when ICU's word break iterator (PyICU, Debian python3-icu) finds one, and is not taken as one without it."""
    if not any(is_spaceless_letter(ch) for ch in title):
        return len(words(title)) == 1
    try:
        import icu  # type: ignore[import-not-found]
    except ImportError:
        return False
    breaks = icu.BreakIterator.createWordInstance(icu.Locale.getRoot())
    breaks.setText(title)
    found, start = 0, breaks.first()
    for end in breaks:
        if breaks.getRuleStatus() != 0:
            found += 1
        start = end
    return found == 1


def words(text: str) -> list[str]:
    out, cur = [], []
    for ch in text:
        if ch in "'’" or unicodedata.category(ch)[0] in ("L", "M", "N"):
            cur.append(ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return [w for w in out if w.strip("'’")]


def ends_sentence(text: str) -> bool:
    t = text.rstrip().rstrip(CLOSERS).rstrip()
    return t.endswith(SENTENCE_ENDS)


def begins_lowercase(text: str) -> bool:
    for ch in text.lstrip():
        if unicodedata.category(ch)[0] == "L":
            return ch.islower() and ch.upper() != ch
        if not (ch in CLOSERS or ch in "\"'“„«‹「『¿¡([（【" or unicodedata.category(ch)[0] in ("P", "S", "Z")):
            return False
    return False


def quotes_a_button(presentation: dict) -> bool:
    text = " ".join(t for t in (presentation.get("title"), presentation.get("message")) if t)
    for b in presentation.get("buttons", []):
        title = (b.get("title") or "").strip()
        if not title:
            continue
        for left, right in QUOTES:
            if f"{left}{title}{right}" in text:
                return True
    return False


# --single-word-by-original: a single-word title is a false positive whenever the English original's
# title is not one word, whatever the translation's title is.
SINGLE_WORD_BY_ORIGINAL = False


def borne_out(rule: str, button: int | None, evidence: dict, p: dict, english: dict) -> bool:
    """Whether the translated presentation `p` itself breaks what `rule` checks (`english`: its original)."""
    title, message = p.get("title") or "", p.get("message") or ""
    buttons = p.get("buttons", [])
    if rule == "alert-title-single-word":
        return not SINGLE_WORD_BY_ORIGINAL and is_one_word(title)
    if rule == "alert-cancel-label":
        # A cancel button left in English in a translated alert (the app's code titles it with a literal).
        original = english.get("buttons", [])
        return any(b.get("style") == "cancel" and i < len(original) and (b.get("title") or "") == (original[i].get("title") or "")
                   for i, b in enumerate(buttons))
    if rule == "alert-title-too-long":
        return grapheme_count(title) > int(evidence.get("max_chars", DEFAULT_LIMITS[rule]))
    if rule == "alert-message-too-long":
        return grapheme_count(message) > int(evidence.get("max_chars", DEFAULT_LIMITS[rule]))
    if rule == "alert-button-title-length":
        limit = int(evidence.get("max_words", DEFAULT_LIMITS[rule]))
        chosen = [buttons[button]] if button is not None and button < len(buttons) else buttons
        return any(len(words(b.get("title") or "")) > limit for b in chosen)
    if rule == "alert-message-style":
        return bool(message.strip()) and (not ends_sentence(message) or begins_lowercase(message))
    if rule == "alert-title-style":
        t = title.rstrip()
        return not t.endswith(("?", "？", "؟")) and t.rstrip(CLOSERS).endswith((".", "。", "．"))
    if rule == "alert-button-title-format":
        chosen = [buttons[button]] if button is not None and button < len(buttons) else buttons
        return any((b.get("title") or "").rstrip().endswith(BUTTON_ENDS) for b in chosen)
    if rule == "alert-button-instructions":
        return quotes_a_button(p)
    return False


# --- running the checker ----------------------------------------------------------------------------

def run_check(binary: str, edition: str, path: Path, extra: list[str]) -> list[dict]:
    cmd = [binary, "check", "--edition", edition, "--format", "json", *extra, str(path)]
    result = subprocess.run(cmd, capture_output=True)
    stderr = result.stderr.decode("utf-8", "replace")
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {result.returncode}: {stderr.strip()}")
    if "rejected" in stderr:
        sys.exit(f"modalwatch check rejected lines of the corpus stream: {stderr.strip()}")
    return [json.loads(line) for line in result.stdout.decode("utf-8").splitlines() if line.strip()]


def classify(rule: str, module: str) -> str:
    if rule in TEXT:
        return "text"
    if rule in STRUCTURAL:
        return "structural"
    return "text" if module in TEXT_MODULES else "other"


def finding_key(v: dict) -> tuple[str, int | None]:
    button = (v.get("evidence") or {}).get("button")
    return v["rule"], button if isinstance(button, int) else None


# --- the measurement --------------------------------------------------------------------------------

def ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def measure(items: list[dict], sessions: dict, violations: list[dict]) -> dict:
    by_pair: dict[tuple[int, str], list[dict]] = defaultdict(list)
    other_rules: Counter = Counter()
    for v in violations:
        if v.get("session") not in sessions:
            continue
        kind = classify(v["rule"], v.get("module", ""))
        if kind == "other":
            other_rules[v["rule"]] += 1
            continue
        v = dict(v, _kind=kind)
        by_pair[sessions[v["session"]]].append(v)

    languages = sorted({tag for e in items for tag in e["translations"]})
    per_lang = {tag: {"sessions": 0, "text_fp_sessions": 0, "text_fp_findings": 0, "borne_out": 0,
                      "structural": {"tp": 0, "fp": 0, "fn": 0},
                      **{k: {"english": 0, "kept": 0, "one_word": 0, "one_word_kept": 0} for k in KEPT}} for tag in languages}
    fp_rules: Counter = Counter()
    fp_example: dict[str, dict] = {}
    fp_sessions: list[dict] = []
    english_findings = Counter()
    struct_diffs: list[dict] = []

    for e in items:
        en = by_pair.get((e["n"], "en"), [])
        en_text = {finding_key(v) for v in en if v["_kind"] == "text"}
        en_rules = {v["rule"] for v in en}
        en_struct = {finding_key(v) for v in en if v["_kind"] == "structural"}
        for v in en:
            english_findings[v["rule"]] += 1
        for tag, p in sorted(e["translations"].items()):
            stats = per_lang[tag]
            stats["sessions"] += 1
            found = by_pair.get((e["n"], tag), [])
            fps = []
            for v in found:
                if v["_kind"] != "text" or finding_key(v) in en_text:
                    continue
                rule, button = finding_key(v)
                if borne_out(rule, button, v.get("evidence") or {}, p, e["english"]):
                    stats["borne_out"] += 1
                    continue
                fps.append(v)
            if fps:
                stats["text_fp_sessions"] += 1
                stats["text_fp_findings"] += len(fps)
                fp_sessions.append({"entry": e["n"], "language": tag, "repo": e["source"]["repo"],
                                    "rules": sorted({v["rule"] for v in fps})})
                for v in fps:
                    fp_rules[v["rule"]] += 1
                    fp_example.setdefault(v["rule"], {"entry": e["n"], "language": tag, "message": v.get("message"),
                                                      "suggestion": v.get("suggestion")})
            t_struct = {finding_key(v) for v in found if v["_kind"] == "structural"}
            s = stats["structural"]
            s["tp"] += len(t_struct & en_struct)
            s["fp"] += len(t_struct - en_struct)
            s["fn"] += len(en_struct - t_struct)
            for kind, keys in (("fp", t_struct - en_struct), ("fn", en_struct - t_struct)):
                for rule, button in sorted(keys, key=str):
                    struct_diffs.append({"entry": e["n"], "language": tag, "kind": kind, "rule": rule,
                                         "buttons": [b.get("title") for b in p.get("buttons", [])]
                                         if isinstance(p, dict) else None})
            t_rules = {v["rule"] for v in found}
            for k in KEPT:
                if k in en_rules:
                    stats[k]["english"] += 1
                    stats[k]["kept"] += k in t_rules
                    # Of those, the translations whose own title is one word in its language.
                    if k == "alert-title-single-word" and isinstance(p, dict) and is_one_word(p.get("title") or ""):
                        stats[k]["one_word"] += 1
                        stats[k]["one_word_kept"] += k in t_rules

    def summarize(stats: dict) -> dict:
        s = stats["structural"]
        out = dict(stats)
        out["text_fp_rate"] = ratio(stats["text_fp_sessions"], stats["sessions"])
        out["structural"] = dict(s, precision=ratio(s["tp"], s["tp"] + s["fp"]), recall=ratio(s["tp"], s["tp"] + s["fn"]))
        for k in KEPT:
            out[k] = dict(stats[k], share=ratio(stats[k]["kept"], stats[k]["english"]),
                          one_word_share=ratio(stats[k]["one_word_kept"], stats[k]["one_word"]))
        return out

    total = {"sessions": 0, "text_fp_sessions": 0, "text_fp_findings": 0, "borne_out": 0,
             "structural": {"tp": 0, "fp": 0, "fn": 0},
             **{k: {"english": 0, "kept": 0, "one_word": 0, "one_word_kept": 0} for k in KEPT}}
    for stats in per_lang.values():
        for key in ("sessions", "text_fp_sessions", "text_fp_findings", "borne_out"):
            total[key] += stats[key]
        for key in ("tp", "fp", "fn"):
            total["structural"][key] += stats["structural"][key]
        for k in KEPT:
            for key in ("english", "kept", "one_word", "one_word_kept"):
                total[k][key] += stats[k][key]

    top = [{"rule": rule, "findings": n, "example": fp_example[rule]}
           for rule, n in sorted(fp_rules.items(), key=lambda kv: (-kv[1], kv[0]))]
    return {"languages": {tag: summarize(per_lang[tag]) for tag in languages}, "all": summarize(total),
            "top_false_positive_rules": top, "false_positive_sessions": fp_sessions, "structural_differences": struct_diffs,
            "english_findings": dict(sorted(english_findings.items())), "other_rules": dict(sorted(other_rules.items()))}


# --- output -----------------------------------------------------------------------------------------

def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def share(d: dict) -> str:
    return "–" if not d["english"] else f"{d['kept']}/{d['english']}"


def table(edition: str, m: dict, top_n: int) -> str:
    head = ["lang", "sessions", "text FP", "FP %", "struct P", "struct R", "yes/no kept", "1-word kept"]
    rows = []
    for tag, s in list(m["languages"].items()) + [("all", m["all"])]:
        rows.append([tag, str(s["sessions"]), str(s["text_fp_sessions"]), pct(s["text_fp_rate"]),
                     pct(s["structural"]["precision"]), pct(s["structural"]["recall"]),
                     share(s["alert-button-yes-no"]), share(s["alert-title-single-word"])])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    lines = [f"edition {edition}", fmt(head)] + [fmt(r) for r in rows]
    a = m["all"]
    lines.append(f"  text findings borne out by the translation: {a['borne_out']}; "
                 f"structural tp/fp/fn {a['structural']['tp']}/{a['structural']['fp']}/{a['structural']['fn']}")
    one = a["alert-title-single-word"]
    lines.append(f"  single-word titles kept where the translated title is itself one word: "
                 f"{one['one_word_kept']}/{one['one_word']}")
    if m["top_false_positive_rules"]:
        lines.append("  top false-positive rules:")
        for t in m["top_false_positive_rules"][:top_n]:
            ex = t["example"]
            lines.append(f"    {t['rule']:<28} {t['findings']:>5}  e.g. [{ex['language']}] {ex['message']}")
    if m["other_rules"]:
        lines.append("  not scored: " + ", ".join(f"{r} {n}" for r, n in m["other_rules"].items()))
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modalwatch", default=str(ROOT / ".build" / "debug" / "modalwatch"), help="the modalwatch binary")
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("--edition", action="append", choices=["current", "ios7", "2009"],
                    help="an edition to measure (repeatable; default: current and ios7)")
    ap.add_argument("--no-locale", action="store_true", help="send no locale field")
    ap.add_argument("--locale-on-presentation", action="store_true",
                    help="also put the locale on alert.presented / sheet.presented")
    ap.add_argument("--rules-dir", action="append", default=[], help="passed to modalwatch check (repeatable)")
    ap.add_argument("--config", help="passed to modalwatch check")
    ap.add_argument("--json", metavar="PATH", help="write every figure as JSON")
    ap.add_argument("--write-stream", metavar="PATH", help="write the NDJSON stream and exit")
    ap.add_argument("--top", type=int, default=8, help="false-positive rules to print per edition")
    ap.add_argument("--single-word-by-original", action="store_true",
                    help="count a single-word title as a false positive whenever the English original's is not one word")
    args = ap.parse_args()
    global SINGLE_WORD_BY_ORIGINAL
    SINGLE_WORD_BY_ORIGINAL = args.single_word_by_original

    corpus = json.loads(Path(args.corpus).read_text(encoding="utf-8"))
    items = entries(corpus)
    data, sessions = stream(items, not args.no_locale, args.locale_on_presentation)
    if args.write_stream:
        Path(args.write_stream).write_bytes(data)
        return 0
    if not os.access(args.modalwatch, os.X_OK):
        sys.exit(f"{args.modalwatch} is not an executable: build it, or name one with --modalwatch")
    extra = [x for d in args.rules_dir for x in ("--rules-dir", d)] + (["--config", args.config] if args.config else [])
    editions = args.edition or ["current", "ios7"]

    report = {"corpus": {"entries": len(items), "alerts": sum(e["kind"] == "alert" for e in items),
                         "sheets": sum(e["kind"] == "sheet" for e in items),
                         "translations": sum(len(e["translations"]) for e in items),
                         "apps": sorted({e["source"]["repo"] for e in items})},
              "locale": "none" if args.no_locale else ("session and presentation" if args.locale_on_presentation else "session"),
              "editions": {}}
    c = report["corpus"]
    print(f"{c['entries']} entries ({c['alerts']} alerts, {c['sheets']} sheets) from {len(c['apps'])} apps, "
          f"{c['translations']} translations; locale: {report['locale']}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "localized.ndjson"
        path.write_bytes(data)
        for edition in editions:
            m = measure(items, sessions, run_check(args.modalwatch, edition, path, extra))
            report["editions"][edition] = m
            print()
            print(table(edition, m, args.top))
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
