/*
 * long_modal.c: an example rule module for modalwatch, in plain C.
 *
 * Module `examples`, one rule, `modal-lingering`: a session stays in one modal
 * view too long. On any event, when the topmost presentation is a modal view
 * and the event's time is more than `max_duration` after the modal appeared,
 * the rule reports it, once per modal id (the host enforces "once per
 * subject"). A dismissal is judged too: if the event removed a modal view that
 * had been up longer than `max_duration`, that modal is reported.
 *
 * Build (see README.md):
 *   cc -shared -fPIC -O2 -I <modalwatch>/Sources/ModalwatchABI/include long_modal.c -o long_modal.so
 *
 * Everything here is static and immutable; the host keeps all state. Pointers
 * the host passes are valid only during on_event, so the evidence and message
 * are built in buffers on the stack.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "modalwatch_module.h"

enum { MAX_DURATION = 0 }; /* index of the parameter in `params` */

/* Writes `s` into `out` as a JSON string body (no quotes), escaping what JSON requires. */
static size_t json_escape(char *out, size_t cap, mw_str s) {
    size_t n = 0;
    for (size_t i = 0; i < s.len && n + 7 < cap; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(out + n, cap - n, "\\u%04x", c);
        } else {
            out[n++] = (char)c;
        }
    }
    out[n] = '\0';
    return n;
}

/* Reports `modal`, up for `open_ms`, against the limit `limit_ms`. */
static void report_modal(const mw_call *call, const mw_presentation *modal, int64_t open_ms, int64_t limit_ms) {
    char id[512];
    json_escape(id, sizeof id, modal->id);

    char evidence[1024];
    int evidence_len = snprintf(evidence, sizeof evidence,
        "{\"modal\":\"%s\",\"presented_ts\":%lld,\"open_ms\":%lld,\"max_duration_ms\":%lld,\"nav_depth\":%d}",
        id, (long long)modal->ts, (long long)open_ms, (long long)limit_ms, modal->nav_depth);
    if (evidence_len < 0 || (size_t)evidence_len >= sizeof evidence) evidence_len = 0;

    char message[256];
    int message_len = snprintf(message, sizeof message,
        "a modal view has been open for %lld s; the limit is %lld s",
        (long long)(open_ms / 1000), (long long)(limit_ms / 1000));
    if (message_len < 0 || (size_t)message_len >= sizeof message) message_len = 0;

    /* The event that presented the modal: the host appends the current one. */
    mw_event_ref presented;
    memset(&presented, 0, sizeof presented);
    presented.type.ptr = "modal.presented";
    presented.type.len = strlen("modal.presented");
    presented.ts = modal->ts;
    presented.id = modal->id;

    mw_report report;
    memset(&report, 0, sizeof report);
    report.subject = modal->id;
    report.message.ptr = message;
    report.message.len = (size_t)message_len;
    report.evidence_json.ptr = evidence_len > 0 ? evidence : NULL;
    report.evidence_json.len = (size_t)evidence_len;
    report.events = &presented;
    report.event_count = 1;
    call->host->report(call->ctx, &report);
}

static void modal_lingering(const mw_call *call) {
    const mw_session *session = call->session;
    const int64_t limit = call->params[MAX_DURATION];
    const int64_t now = call->event->ts;

    /* A dismissal may have just removed a modal that stayed too long. */
    const mw_presentation *gone = session->dismissed;
    if (gone != NULL && gone->kind == MW_KIND_MODAL && now - gone->ts > limit) {
        report_modal(call, gone, now - gone->ts, limit);
    }

    if (session->stack_count == 0) return;
    const mw_presentation *top = &session->stack[session->stack_count - 1];
    if (top->kind == MW_KIND_MODAL && now - top->ts > limit) {
        report_modal(call, top, now - top->ts, limit);
    }
}

/* ------------------------------------------------------------ description */

static const mw_param params[] = {
    { "max_duration", MW_PARAM_DURATION_MS, 0, 10 * 60 * 1000, 1000, 24 * 60 * 60 * 1000,
      "how long one modal view may stay topmost" },
};

#define START "{\"v\":1,\"type\":\"session.start\",\"session\":\"L\",\"ts\":1700000000000,\"app\":\"com.example.notes\"}\n"
#define MODAL "{\"v\":1,\"type\":\"modal.presented\",\"session\":\"L\",\"ts\":1700000001000,\"id\":\"compose\",\"title\":\"New Note\",\"buttons\":[{\"title\":\"Cancel\",\"role\":\"cancel\"},{\"title\":\"Done\",\"role\":\"done\"}]}\n"
/* 5 min, 10 min 30 s and 12 min after the modal appeared. */
#define ACTION_5M "{\"v\":1,\"type\":\"user.action\",\"session\":\"L\",\"ts\":1700000301000,\"control\":\"button\",\"label\":\"Bold\"}\n"
#define ACTION_10M30 "{\"v\":1,\"type\":\"user.action\",\"session\":\"L\",\"ts\":1700000631000,\"control\":\"button\",\"label\":\"Italic\"}\n"
#define ACTION_12M "{\"v\":1,\"type\":\"user.action\",\"session\":\"L\",\"ts\":1700000721000,\"control\":\"button\",\"label\":\"Underline\"}\n"

static const mw_example examples[] = {
    { "a compose view still up after 10 min 30 s, and after 12 min (reported once)", MW_EDITION_CURRENT, 1,
      START MODAL ACTION_5M ACTION_10M30 ACTION_12M },
    { "a compose view done within 5 min", MW_EDITION_CURRENT, 0,
      START MODAL ACTION_5M
      "{\"v\":1,\"type\":\"modal.dismissed\",\"session\":\"L\",\"ts\":1700000302000,\"id\":\"compose\",\"via\":\"button\",\"button\":1}\n"
      ACTION_12M },
    { "a compose view dismissed after 11 min, with no event in between", MW_EDITION_CURRENT, 1,
      START MODAL
      "{\"v\":1,\"type\":\"modal.dismissed\",\"session\":\"L\",\"ts\":1700000661000,\"id\":\"compose\",\"via\":\"button\",\"button\":1}\n" },
    { "an alert, not a modal, is up for 12 min", MW_EDITION_CURRENT, 0,
      START
      "{\"v\":1,\"type\":\"alert.presented\",\"session\":\"L\",\"ts\":1700000001000,\"id\":\"a1\",\"title\":\"Sync Paused\",\"buttons\":[{\"title\":\"OK\",\"style\":\"default\"}]}\n"
      ACTION_12M },
    { "the guideline is today's: older editions do not judge it", MW_EDITION_2009 | MW_EDITION_IOS7, 0,
      START MODAL ACTION_5M ACTION_10M30 ACTION_12M },
};

static const mw_rule rules[] = {
    {
        "modal-lingering", 1, MW_SEVERITY_INFO, MW_EDITION_CURRENT, MW_EVENT_ALL, MW_FIRE_ONCE_PER_SUBJECT,
        1, params,
        "a modal view stays topmost longer than max_duration",
        "Keep modal tasks simple, short, and narrowly focused",
        "current: Modality",
        examples, (uint32_t)(sizeof examples / sizeof examples[0]), 0,
        modal_lingering,
    },
};

static const mw_module module = {
    MW_ABI_MAJOR, 1 /* ABI 1.1, on purpose: a 1.2 host loads it unchanged */, "examples", "1.0.0", rules, 1, 0, NULL,
};

const mw_module *modalwatch_module(void) { return &module; }
