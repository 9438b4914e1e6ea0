"""Rule modules of three ABI generations in one daemon, and what ABI 1.2 added.

A module built against 1.0 (inline here), the C example at 1.1
(Examples/long-modal) and a 1.2 fixture with per-module state
(Tests/Fixtures/modules/state_v12.c) are compiled with the system C compiler
and loaded side by side from one --rules-dir. The 1.2 module gets its settings
from the config's `modules:` section in its on_init, logs through the daemon,
reads its parameter by name, and reports a module error that arrives as
`diag/-/module_error` and is counted in `status`.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import e2e_support as support
from test_modules import ROOT, T0, compile_module

FIXTURES = ROOT / "Tests" / "Fixtures" / "modules"

V10 = """
#include "modalwatch_module.h"
/* Built against ABI 1.0: a 1.0 mw_module ends at `state`, and the module never reads past
   the 1.0 part of mw_host or mw_call. */
static void judge(const mw_call *call) {
    mw_report r = {0};
    r.subject = call->event->id;
    r.message.ptr = "an alert"; r.message.len = 8;
    call->host->report(call->ctx, &r);
}
static const mw_example EX[] = {
    { "an alert", MW_EDITION_ALL, 1, "{\\"v\\":1,\\"type\\":\\"alert.presented\\",\\"session\\":\\"S\\",\\"ts\\":1,\\"id\\":\\"a\\",\\"title\\":\\"T\\",\\"buttons\\":[{\\"title\\":\\"OK\\"}]}" },
    { "no alert", MW_EDITION_ALL, 0, "{\\"v\\":1,\\"type\\":\\"user.action\\",\\"session\\":\\"S\\",\\"ts\\":1}" },
};
static const mw_rule RULES[] = {{
    "v10-any-alert", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
    0, 0, "Any alert.", "Test", "test", EX, 2, 0, judge
}};
/* Exactly the 1.0 layout: eight fields, no on_init / on_destroy after them. */
struct mw_module_1_0 { uint32_t abi_major, abi_minor; const char *name, *version; const mw_rule *rules;
                       uint32_t rule_count, reserved; void *state; };
static const struct mw_module_1_0 M = { MW_ABI_MAJOR, 0, "v10", "1.0.0", RULES, 1, 0, 0 };
const mw_module *modalwatch_module(void) { return (const mw_module *)&M; }
"""


def build_rules(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(V10, rules / "v10.so", "v10.c")
    compile_module(ROOT / "Examples" / "long-modal" / "long_modal.c", rules / "v11.so")
    compile_module(FIXTURES / "state_v12.c", rules / "v12.so")
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    return rules


def test_modules_of_abi_1_0_1_1_and_1_2_run_side_by_side(zctx, tmp_path):
    rules = build_rules(tmp_path)
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("modules:\n  state_v12: { broken_word: kaboom }\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules), "--config", str(config)]).start()
    try:
        status = daemon.status()
        abi = {m["name"]: m["abi"] for m in status["modules"]}
        assert (abi.get("v10"), abi.get("examples"), abi.get("state_v12")) == ("1.0", "1.1", "1.2"), status["modules"]
        assert status["module_failures"] == []
        assert status["module_errors"]["state_v12"] == 0
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(
            zctx, daemon.publish,
            prefixes=("violation/com.example.abi/v1", "diag/-/module_error"))
        subscriber.warm_up(sender)
        sender.events([
            {"v": 1, "type": "session.start", "session": "A1", "ts": T0, "app": "com.example.abi"},
            {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 10, "id": "a1", "title": "Hello",
             "buttons": [{"title": "OK"}]},
            # the 1.2 module's broken word (from its settings, not its default "boom"): a module error
            {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 20, "id": "a2", "title": "kaboom",
             "buttons": [{"title": "OK"}]},
            {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 30, "id": "a3", "title": "boom",
             "buttons": [{"title": "OK"}]},
        ])
        got = subscriber.collect(
            lambda m: len(subscriber.violations(m)) >= 5 and len(subscriber.diagnostics(m)) >= 1, timeout=5.0)
        fired = sorted((m.body["rule"], m.body["subject"]) for m in subscriber.violations(got))
        assert fired == [("v10-any-alert", "a1"), ("v10-any-alert", "a2"), ("v10-any-alert", "a3"),
                         ("v12-few-buttons", "a1"), ("v12-few-buttons", "a3")], fired
        diagnostics = subscriber.diagnostics(got)
        assert len(diagnostics) == 1, [m.body for m in diagnostics]
        support.assert_diagnostic_shape(diagnostics[0].topic, diagnostics[0].body)
        assert diagnostics[0].topic == "diag/-/module_error"
        assert "state_v12" in diagnostics[0].body["detail"] and "broken word" in diagnostics[0].body["detail"]
        assert diagnostics[0].body["session"] == "A1"
        status = daemon.wait_status(lambda s: s["module_errors"].get("state_v12") == 1, what="module_errors")
        log = daemon.log()
        assert "state_v12 ready" in log and "module=state_v12" in log, log[-2000:]
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]


def test_a_module_whose_init_refuses_its_settings_is_reported_and_the_rest_load(tmp_path):
    rules = build_rules(tmp_path)
    config = tmp_path / "modalwatchd.yaml"
    config.write_text('modules:\n  state_v12: { broken_word: "" }\n')
    check = subprocess.run(
        [str(support.daemon_path()), "--check-config", "--rules-dir", str(rules), "--config", str(config)],
        capture_output=True, timeout=30, text=True)
    output = check.stdout + check.stderr
    # the config names a module that did not load, and the module's refusal is one line with its reason
    assert check.returncode == 1, output
    assert "module 'state_v12' failed to initialize: broken_word must be 1 to 63 bytes" in output, output
    # the others still load (offline, the same loader)
    listing = support.run_cli(["rules", "--json", "--rules-dir", str(rules)])
    ids = {rule["id"] for rule in __import__("json").loads(listing.stdout)["rules"]}
    assert {"v10-any-alert", "modal-lingering", "v12-few-buttons"} <= ids


def test_rules_verify_module_gives_a_verdict_per_rule(tmp_path):
    rules = build_rules(tmp_path)
    for name in ("v10.so", "v11.so", "v12.so"):
        result = support.run_cli(["rules", "--verify", "--module", str(rules / name)])
        assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
        lines = result.stdout.decode().splitlines()
        assert lines[0].startswith("module "), lines
        assert any(line.startswith("ok ") for line in lines), lines
        assert lines[-1].endswith("rules passed"), lines
    # a module whose example does not come out as declared fails, naming the rule and the example
    wrong = (FIXTURES / "state_v12.c").read_text().replace('{ "two buttons", MW_EDITION_ALL, 0,', '{ "two buttons", MW_EDITION_ALL, 3,')
    compile_module(wrong, tmp_path / "wrong.so", "wrong.c")
    result = support.run_cli(["rules", "--verify", "--module", str(tmp_path / "wrong.so")])
    out = result.stdout.decode()
    assert result.returncode == 1, out
    assert "FAILED  v12-few-buttons  'two buttons' [2009] expected 3, found 0" in out, out
    # not a module at all: one line, exit 1
    (tmp_path / "text.so").write_text("not a library\n")
    result = support.run_cli(["rules", "--verify", "--module", str(tmp_path / "text.so")])
    assert result.returncode == 1
    assert result.stdout.decode().startswith("FAILED  module: ") and "not a loadable shared library" in result.stdout.decode()


def test_module_settings_in_the_config_are_checked(tmp_path):
    rules = build_rules(tmp_path)
    config = tmp_path / "bad.yaml"
    config.write_text("modules:\n  nosuch: { a: 1 }\n  state_v12: { broken_word: [1, 2] }\n")
    check = subprocess.run(
        [str(support.daemon_path()), "--check-config", "--rules-dir", str(rules), "--config", str(config)],
        capture_output=True, timeout=30, text=True)
    output = check.stdout + check.stderr
    assert check.returncode == 1, output
    assert "bad.yaml:2: modules.nosuch: no rule module named 'nosuch' is loaded" in output, output
    assert "bad.yaml:3: modules.state_v12.broken_word: must be a single value" in output, output


V13 = """
#include <string.h>
#include "modalwatch_module.h"
/* Built against ABI 1.3: its reports carry a suggestion. */
static void judge(const mw_call *call) {
    mw_report r = {0};
    r.subject = call->event->id;
    r.message.ptr = "an alert"; r.message.len = 8;
    r.suggestion.ptr = "Show it in the app"; r.suggestion.len = strlen(r.suggestion.ptr);
    call->host->report(call->ctx, &r);
}
static const mw_example EX[] = {
    { "an alert", MW_EDITION_ALL, 1, "{\\"v\\":1,\\"type\\":\\"alert.presented\\",\\"session\\":\\"S\\",\\"ts\\":1,\\"id\\":\\"a\\",\\"title\\":\\"T\\",\\"buttons\\":[{\\"title\\":\\"OK\\"}]}" },
    { "no alert", MW_EDITION_ALL, 0, "{\\"v\\":1,\\"type\\":\\"user.action\\",\\"session\\":\\"S\\",\\"ts\\":1}" },
};
static const mw_rule RULES[] = {{
    "v13-any-alert", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
    0, 0, "Any alert.", "Test", "test", EX, 2, 0, judge
}};
static const mw_module M = { .abi_major = MW_ABI_MAJOR, .abi_minor = 3, .name = "v13", .version = "1.3.0",
                             .rules = RULES, .rule_count = 1 };
const mw_module *modalwatch_module(void) { return &M; }
"""

V12_SHORT_REPORT = """
#include <stddef.h>
#include "modalwatch_module.h"
/* Built against ABI 1.2: its mw_report ends before `suggestion`, and what follows it in
   memory is another value that the host must not read as a suggestion. */
struct report_1_2_and_more { char report[offsetof(mw_report, suggestion)]; mw_str other; };
static void judge(const mw_call *call) {
    struct report_1_2_and_more both = {{0}, { "not a suggestion", 16 }};
    mw_report *r = (mw_report *)(void *)&both;
    r->subject = call->event->id;
    r->message.ptr = "an alert"; r->message.len = 8;
    call->host->report(call->ctx, r);
}
static const mw_example EX[] = {
    { "an alert", MW_EDITION_ALL, 1, "{\\"v\\":1,\\"type\\":\\"alert.presented\\",\\"session\\":\\"S\\",\\"ts\\":1,\\"id\\":\\"a\\",\\"title\\":\\"T\\",\\"buttons\\":[{\\"title\\":\\"OK\\"}]}" },
    { "no alert", MW_EDITION_ALL, 0, "{\\"v\\":1,\\"type\\":\\"user.action\\",\\"session\\":\\"S\\",\\"ts\\":1}" },
};
static const mw_rule RULES[] = {{
    "v12-short-report", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
    0, 0, "Any alert.", "Test", "test", EX, 2, 0, judge
}};
static const mw_module M = { .abi_major = MW_ABI_MAJOR, .abi_minor = 2, .name = "v12short", .version = "1.2.0",
                             .rules = RULES, .rule_count = 1 };
const mw_module *modalwatch_module(void) { return &M; }
"""


def test_suggestions_come_from_modules_of_abi_1_3_and_are_null_from_older_ones(tmp_path):
    rules = build_rules(tmp_path)
    compile_module(V13, rules / "v13.so", "v13.c")
    compile_module(V12_SHORT_REPORT, rules / "v12short.so", "v12short.c")
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    stream = tmp_path / "stream.ndjson"
    stream.write_text("\n".join(__import__("json").dumps(e) for e in [
        {"v": 1, "type": "session.start", "session": "A1", "ts": T0, "app": "com.example.abi"},
        {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 10, "id": "a1", "title": "Hello",
         "buttons": [{"title": "OK"}]},
    ]) + "\n")
    result = support.run_cli(["check", "--json", "--fail-on", "error", "--rules-dir", str(rules), str(stream)])
    found = [__import__("json").loads(line) for line in result.stdout.decode().splitlines()]
    by_rule = {v["rule"]: v for v in found}
    # every violation has the field; an older module's is null, whatever follows its report in memory
    assert all("suggestion" in v for v in found), found
    for old in ("v10-any-alert", "v12-few-buttons", "v12-short-report"):
        assert by_rule[old]["suggestion"] is None, by_rule[old]
    assert by_rule["v13-any-alert"]["suggestion"] == "Show it in the app"
    # the built-in modules are built against 1.3 or later: an alert-content violation carries one
    assert by_rule["alert-single-button"]["suggestion"], by_rule["alert-single-button"]
    listing = support.run_cli(["rules", "--json", "--rules-dir", str(rules)])
    assert listing.returncode == 0


V13_WORDS = """
#include <stdio.h>
#include <stddef.h>
#include "modalwatch_module.h"
/* Built against ABI 1.3: reads the words the host tokenized for the event (mw_host.words). */
_Static_assert(offsetof(mw_host, words) == offsetof(mw_host, module_error) + sizeof(void *), "words follows module_error");
_Static_assert(offsetof(mw_host, reserved_services) + 3 * sizeof(void *) == 8 + 10 * sizeof(void *), "mw_host keeps the layout 1.3 gave it");
static int show(mw_words words, mw_str text, char *out, size_t room);
static int list(const mw_call *call, mw_str text, char *out, size_t room) {
    mw_words words;
    if (call->host->words(call->ctx, text, &words) != 1) return snprintf(out, room, "null");
    return show(words, text, out, room);
}
static int show(mw_words words, mw_str text, char *out, size_t room) {
    int n = snprintf(out, room, "{\\"at\\":%llu,\\"flags\\":%u,\\"words\\":[", (unsigned long long)(size_t)words.words, words.flags);
    for (uint32_t i = 0; i < words.count; i++) {
        const mw_word *w = &words.words[i];
        n += snprintf(out + n, room - n, "%s\\"%.*s/%u/%u/%u\\"", i ? "," : "", (int)w->length, text.ptr + w->offset,
                      (unsigned)w->shape, w->quotation, (unsigned)w->flags);
    }
    return n + snprintf(out + n, room - n, "]}");
}
static void judge(const mw_call *call) {
    static _Thread_local char evidence[4096];
    const mw_event *e = call->event;
    if (call->host->abi_minor < 3 || call->host->words == NULL || call->texts == NULL) return;
    unsigned ready_before = call->texts->ready;
    mw_str part = { e->title.ptr + 1, e->title.len - 1 };
    mw_str last = e->buttons[e->button_count - 1].title;
    size_t n = 0;
    n += snprintf(evidence + n, sizeof evidence - n, "{\\"ready_before\\":%u,\\"title\\":", ready_before);
    n += list(call, e->title, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"title_again\\":");
    n += list(call, e->title, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"message\\":");
    n += list(call, e->message, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"button\\":");
    n += list(call, e->buttons[e->button_count - 1].title, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"part\\":");
    n += list(call, part, evidence + n, sizeof evidence - n);
    /* the table the first request filled: read by field, no call */
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"ready_after\\":%u,\\"table_title\\":", call->texts->ready);
    n += show(call->texts->title, e->title, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"table_message\\":");
    n += show(call->texts->message, e->message, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, ",\\"table_button\\":");
    n += show(call->texts->buttons[e->button_count - 1], last, evidence + n, sizeof evidence - n);
    n += snprintf(evidence + n, sizeof evidence - n, "}");
    mw_report r = {0};
    r.subject = e->id;
    r.message.ptr = "words"; r.message.len = 5;
    r.evidence_json.ptr = evidence; r.evidence_json.len = n;
    call->host->report(call->ctx, &r);
}
static const mw_rule RULES[] = {
    { "v13-words-a", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
      0, 0, "Words.", "Test", "test", 0, 0, 0, judge },
    { "v13-words-b", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
      0, 0, "Words.", "Test", "test", 0, 0, 0, judge },
};
static const mw_module M = { .abi_major = MW_ABI_MAJOR, .abi_minor = 3, .name = "v13words", .version = "1.3.0",
                             .rules = RULES, .rule_count = 2 };
const mw_module *modalwatch_module(void) { return &M; }
"""


def test_the_host_tokenizes_an_event_s_texts_once_for_every_rule_and_older_modules_still_load(tmp_path):
    rules = build_rules(tmp_path)
    compile_module(V13_WORDS, rules / "v13words.so", "v13words.c")
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    stream = tmp_path / "stream.ndjson"
    title = "Sign in to \u201ciCloud\u201d now. OK?"
    stream.write_text("\n".join(__import__("json").dumps(e) for e in [
        {"v": 1, "type": "session.start", "session": "A1", "ts": T0, "app": "com.example.abi"},
        {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 10, "id": "a1", "title": title,
         "message": "Say \u201chello", "buttons": [{"title": "Cancel", "style": "cancel"}, {"title": "Don\u2019t Allow"}]},
        {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 20, "id": "a2", "title": "3 more",
         "buttons": [{"title": "OK"}]},
    ]) + "\n")
    result = support.run_cli(["check", "--json", "--fail-on", "error", "--rules-dir", str(rules), str(stream)])
    found = [__import__("json").loads(line) for line in result.stdout.decode().splitlines()]
    words = {(v["rule"], v["subject"]): v["evidence"] for v in found if v["rule"].startswith("v13-words")}
    a = words[("v13-words-a", "a1")]
    # words with their shape (0 lower, 1 capitalized, 2 capitals, 3 inner capital, 4 uncased), quotation and flags
    # (1 starts a sentence, 2 a quotation is open after it)
    assert a["title"]["words"] == ["Sign/1/0/1", "in/0/0/0", "to/0/0/0", "iCloud/3/1/2", "now/0/0/0", "OK/2/0/1"], a
    assert a["title"]["flags"] == 0
    assert a["message"]["words"] == ["Say/1/0/1", "hello/0/1/2"] and a["message"]["flags"] == 1, a
    assert a["button"]["words"] == ["Don\u2019t/1/0/1", "Allow/1/0/0"], a
    # a text that is not one of the event's, as given (here a part of the title): the module scans it itself
    assert a["part"] is None, a
    # one list per text and event: asked again, and by the event's next rule, the same words at the same place
    b = words[("v13-words-b", "a1")]
    assert a["title_again"] == a["title"] and b["title"] == a["title"] and b["message"] == a["message"], (a, b)
    # the table mw_call.texts: filled by the event's first request (a built-in content rule's, or this
    # module's), then every text's list, read by field by every later rule
    assert b["ready_before"] == 1 and a["ready_after"] == 1 and b["ready_after"] == 1, (a, b)
    assert a["table_title"] == a["title"] and a["table_message"] == a["message"] and a["table_button"] == a["button"], a
    assert b["table_title"] == a["title"], b
    # the next event's texts are its own
    assert words[("v13-words-a", "a2")]["title"]["words"] == ["3/4/0/1", "more/0/0/0"]
    assert words[("v13-words-a", "a2")]["message"] is None
    # modules of 1.0, 1.1 and 1.2 still load and fire alongside
    fired = {v["rule"] for v in found}
    assert {"v10-any-alert", "v12-few-buttons"} <= fired, fired


V14_WRITTEN = r"""
#include <string.h>
#include "modalwatch_module.h"
/* Built against ABI 1.4: writes its violations' message, evidence and suggestion through the
   host's writers (mw_host.report_written), straight into the violation; a twin rule reports the
   same through `report` as text, to compare. */
_Static_assert(offsetof(mw_host, report_written) == 8 + 10 * sizeof(void *), "1.4 services follow 1.3's table");
#define S(lit) ((mw_str){ lit, sizeof lit - 1 })
struct job { const mw_call *call; int mode; int calls; };
static void write_parts(void *state, mw_writer *w, uint32_t part) {
    struct job *job = state;
    const mw_host *h = job->call->host;
    const mw_event *e = job->call->event;
    job->calls++;
    if (job->mode == 1) return;                     /* nothing: summary, {} and null */
    if (job->mode == 2) {                           /* evidence out of order: {} */
        if (part == MW_PART_MESSAGE) h->write_text(w, S("bad evidence"));
        if (part == MW_PART_EVIDENCE) { h->write_key(w, S("a")); h->write_int(w, 1); h->write_int(w, 2); }
        return;
    }
    if (job->mode == 3) {                           /* evidence as JSON text that is not an object: {} */
        if (part == MW_PART_MESSAGE) { h->write_text(w, S("calls ")); h->write_int(w, job->calls); }
        if (part == MW_PART_EVIDENCE) h->write_json(w, S("{\"a\":"));
        return;
    }
    if (part == MW_PART_MESSAGE) {
        h->write_text(w, S("Alert \xe2\x80\x9c"));
        h->write_text(w, e->title);
        h->write_text(w, S("\xe2\x80\x9d has "));
        h->write_int(w, e->button_count);
        h->write_text(w, S(" \"buttons\"\n"));
    } else if (part == MW_PART_EVIDENCE) {
        h->write_key(w, S("count")); h->write_int(w, -42);
        h->write_key(w, S("title")); h->write_text(w, e->title);
        h->write_key(w, S("message")); h->write_text(w, e->message);
        h->write_key(w, S("preferred")); h->write_literal(w, MW_LITERAL_TRUE);
        h->write_key(w, S("none")); h->write_literal(w, MW_LITERAL_NULL);
        h->write_key(w, S("list")); h->write_literal(w, MW_LITERAL_ARRAY_BEGIN);
        h->write_int(w, 1); h->write_text(w, S("two\xe2\x80\xa8")); h->write_literal(w, MW_LITERAL_FALSE);
        h->write_literal(w, MW_LITERAL_ARRAY_END);
        h->write_key(w, S("empty")); h->write_literal(w, MW_LITERAL_ARRAY_BEGIN); h->write_literal(w, MW_LITERAL_ARRAY_END);
    } else if (part == MW_PART_SUGGESTION) {
        h->write_text(w, S("Use ")); h->write_int(w, 2); h->write_text(w, S(" buttons \\ fewer"));
    }
}
static void written(const mw_call *call) {
    if (call->host->abi_minor < 4 || call->host->report_written == NULL) return;
    struct job job = { call, 0, 0 };
    mw_report r = {0};
    r.subject = call->event->id;
    int first = call->host->report_written(call->ctx, &r, write_parts, &job);
    int calls_first = job.calls;
    int again = call->host->report_written(call->ctx, &r, write_parts, &job);   /* held back: once per subject */
    job.mode = 3;
    r.subject = S("count");
    char key[32]; size_t n = 0;
    for (size_t i = 0; i < call->event->id.len && n < 24; i++) key[n++] = call->event->id.ptr[i];
    key[n++] = '-'; key[n++] = '0' + first; key[n++] = '0' + again; key[n++] = '0' + calls_first;
    r.subject = (mw_str){ key, n };
    call->host->report_written(call->ctx, &r, write_parts, &job);
}
static void twin(const mw_call *call) {
    static _Thread_local char message[512], evidence[1024];
    const mw_event *e = call->event;
    size_t m = 0, v = 0;
    memcpy(message + m, "Alert \xe2\x80\x9c", 9); m += 9;
    memcpy(message + m, e->title.ptr, e->title.len); m += e->title.len;
    memcpy(message + m, "\xe2\x80\x9d has ", 8); m += 8;
    message[m++] = '0' + e->button_count;
    memcpy(message + m, " \"buttons\"\n", 11); m += 11;
    /* the test's texts need no escape but the ones written here */
    v += (size_t)snprintf(evidence, sizeof evidence, "{\"count\":-42,\"title\":\"%.*s\",\"message\":\"%.*s\",\"preferred\":true,"
        "\"none\":null,\"list\":[1,\"two\\u2028\",false],\"empty\":[]}", (int)e->title.len, e->title.ptr,
        (int)e->message.len, e->message.ptr);
    mw_report r = {0};
    r.subject = e->id;
    r.message = (mw_str){ message, m };
    r.evidence_json = (mw_str){ evidence, v };
    r.suggestion = S("Use 2 buttons \\ fewer");
    call->host->report(call->ctx, &r);
}
static void empty(const mw_call *call) {
    struct job job = { call, 1, 0 };
    mw_report r = {0};
    r.subject = call->event->id;
    call->host->report_written(call->ctx, &r, write_parts, &job);
    job.mode = 2;
    r.subject = S("bad");
    call->host->report_written(call->ctx, &r, write_parts, &job);
}
#define RULE(id, fn) { id, 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), \
                       MW_FIRE_ONCE_PER_SUBJECT, 0, 0, "The summary.", "Test", "test", 0, 0, 0, fn }
static const mw_rule RULES[] = { RULE("v14-written", written), RULE("v14-twin", twin), RULE("v14-empty", empty) };
static const mw_module M = { .abi_major = MW_ABI_MAJOR, .abi_minor = 4, .name = "v14", .version = "1.4.0",
                             .rules = RULES, .rule_count = 3 };
const mw_module *modalwatch_module(void) { return &M; }
"""


def test_a_module_of_abi_1_4_writes_its_violations_through_the_host_s_writers(tmp_path):
    rules = build_rules(tmp_path)
    compile_module(V13, rules / "v13.so", "v13.c")
    compile_module(V14_WRITTEN, rules / "v14.so", "v14.c")
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    stream = tmp_path / "stream.ndjson"
    stream.write_text("\n".join(__import__("json").dumps(e) for e in [
        {"v": 1, "type": "session.start", "session": "A1", "ts": T0, "app": "com.example.abi"},
        {"v": 1, "type": "alert.presented", "session": "A1", "ts": T0 + 10, "id": "a1", "title": "Delete All?",
         "message": "It cannot be undone.", "buttons": [{"title": "Cancel", "style": "cancel"}, {"title": "Delete"}]},
    ]) + "\n")
    result = support.run_cli(["check", "--json", "--fail-on", "error", "--rules-dir", str(rules), str(stream)])
    lines = result.stdout.decode().splitlines()
    found = [__import__("json").loads(line) for line in lines]
    by_subject = {(v["rule"], v["subject"]): v for v in found}
    written, twin = by_subject[("v14-written", "a1")], by_subject[("v14-twin", "a1")]
    # what the writers wrote, escaped once by the host: the same fields as the twin's text through `report`
    assert written["message"] == "Alert \u201cDelete All?\u201d has 2 \"buttons\"\n", written
    assert written["evidence"] == {"count": -42, "title": "Delete All?", "message": "It cannot be undone.",
                                   "preferred": True, "none": None, "list": [1, "two\u2028", False], "empty": []}, written
    assert written["suggestion"] == "Use 2 buttons \\ fewer"
    for field in ("message", "evidence", "suggestion"):
        assert written[field] == twin[field], (field, written, twin)
    # and byte for byte: the raw lines differ only where the rule, id and fingerprint do
    raw = {(v["rule"], v["subject"]): line for v, line in zip(found, lines)}
    cut = lambda line: line[line.index('"message"'):line.index(',"events"')] + line[line.index('"suggestion"'):]
    assert cut(raw[("v14-written", "a1")]) == cut(raw[("v14-twin", "a1")])
    # report_written returns 1 when it went out (its three parts written), then 0 for the same subject,
    # which the discipline holds back without calling the writer: the module names its third report "a1-103"
    held = by_subject[("v14-written", "a1-103")]
    assert held["message"] == "calls 4" and held["evidence"] == {}, held
    # nothing written: the summary, {}, null; evidence out of order: {}
    empty, bad = by_subject[("v14-empty", "a1")], by_subject[("v14-empty", "bad")]
    assert (empty["message"], empty["evidence"], empty["suggestion"]) == ("The summary.", {}, None), empty
    assert (bad["message"], bad["evidence"], bad["suggestion"]) == ("bad evidence", {}, None), bad
    # older modules load and report beside it
    older = {v["rule"]: v for v in found if v["rule"] in ("v10-any-alert", "v13-any-alert")}
    assert older["v13-any-alert"]["suggestion"] == "Show it in the app" and older["v10-any-alert"]["suggestion"] is None


V14_RATE = r"""
#include "modalwatch_module.h"
/* ABI 1.4: a once-per-subject rule that reports through report_written only, asking nothing first. */
static void write_parts(void *state, mw_writer *w, uint32_t part) {
    const mw_call *call = state;
    if (part == MW_PART_MESSAGE) { call->host->write_text(w, (mw_str){ "at ", 3 }); call->host->write_int(w, call->event->ts); }
}
static void judge(const mw_call *call) {
    mw_report r = {0};
    r.subject = call->event->id;
    call->host->report_written(call->ctx, &r, write_parts, (void *)call);
}
static const mw_rule RULES[] = {{ "v14-rate", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED),
    MW_FIRE_ONCE_PER_SUBJECT, 0, 0, "Any alert.", "Test", "test", 0, 0, 0, judge }};
static const mw_module M = { .abi_major = MW_ABI_MAJOR, .abi_minor = 4, .name = "v14rate", .version = "1.4.0",
                             .rules = RULES, .rule_count = 1 };
const mw_module *modalwatch_module(void) { return &M; }
"""


def test_a_written_report_the_rate_limit_holds_back_does_not_use_up_its_subject(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(V14_RATE, rules / "v14rate.so", "v14rate.c")
    (rules / "v14rate.c").unlink()
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("max_violations_per_rule_per_second: 1\n")
    stream = tmp_path / "stream.ndjson"
    alert = lambda ident, ts: {"v": 1, "type": "alert.presented", "session": "A1", "ts": ts, "id": ident, "title": "T",
                               "buttons": [{"title": "OK"}]}
    stream.write_text("\n".join(__import__("json").dumps(e) for e in [
        {"v": 1, "type": "session.start", "session": "A1", "ts": T0, "app": "com.example.abi"},
        alert("a1", T0 + 10), alert("a2", T0 + 20),   # a2: the rule's one violation of this second is a1's
        alert("a2", T0 + 1500),                       # the next second: a2 was never fired, so it fires now
    ]) + "\n")
    result = support.run_cli(["check", "--json", "--fail-on", "error", "--rules-dir", str(rules),
                              "--config", str(config), str(stream)])
    found = [__import__("json").loads(line) for line in result.stdout.decode().splitlines()]
    assert [(v["subject"], v["message"]) for v in found if v["rule"] == "v14-rate"] == [
        ("a1", f"at {T0 + 10}"), ("a2", f"at {T0 + 1500}")], (found, result.stderr.decode())
