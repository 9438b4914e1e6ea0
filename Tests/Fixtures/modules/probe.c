/*
 * probe.c: a rule module that exercises the host, for the SessionEngine tests.
 *
 * Module `probe`. One rule per firing discipline, a rule that writes the whole
 * session view it was handed into its evidence, and rules that use the host's
 * counters and windows. Every rule reports through mw_host.report; the host
 * applies the discipline. The module keeps no mutable global state: evidence is
 * built in a buffer on the stack of each call.
 *
 * Rules (index: id, discipline, events):
 *   0 probe-view          every_time          every event: evidence = the session view
 *   1 probe-subject       once_per_subject    alert.presented, subject = id
 *   2 probe-window        once_per_window     alert.presented, quiet_ms = param `quiet`
 *   3 probe-session       once_per_session    sheet.presented, subject = id
 *   4 probe-key           once_per_key        task.progress, key = task (failed: key NULL, subject = task)
 *   5 probe-app-value     once_per_app_value  modal.presented, key = transition name
 *   6 probe-every         every_time          user.action, behaviour chosen by `label`
 *   7 probe-counter       every_time          app.foreground: counter_add, session and app scope
 *   8 probe-counter-twin  every_time          app.foreground: the same counter key, its own counters
 *   9 probe-window-push   every_time          popover.presented: window_push(span, keep)
 *  10 probe-edition       every_time          app.background, edition 2009 only
 *  11 probe-threshold     every_time          alert.presented when alerts_presented > param `limit`
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "modalwatch_module.h"

/* ------------------------------------------------------------ a JSON writer on the stack */

typedef struct out {
    char *p;
    size_t len;
    size_t cap;
} out;

static void put(out *o, const char *s, size_t n) {
    if (o->len + n >= o->cap) n = o->cap - 1 - o->len;
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = '\0';
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

static void putf(out *o, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_str(out *o, mw_str s) {
    if (s.ptr == NULL) { puts_(o, "null"); return; }
    puts_(o, "\"");
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"') puts_(o, "\\\"");
        else if (c == '\\') puts_(o, "\\\\");
        else if (c < 0x20) putf(o, "\\u%04x", c);
        else put(o, (const char *)&c, 1);
    }
    puts_(o, "\"");
}

/* INT64_MIN ("none") as null. */
static void put_ts(out *o, int64_t ts) {
    if (ts == INT64_MIN) puts_(o, "null");
    else putf(o, "%lld", (long long)ts);
}

static mw_str lit(const char *s) { mw_str r = { s, strlen(s) }; return r; }

static const mw_str none = { NULL, 0 };

static void report(const mw_call *c, mw_str subject, mw_str message, mw_str evidence, mw_str key, int64_t quiet) {
    mw_report r;
    memset(&r, 0, sizeof r);
    r.subject = subject;
    r.message = message;
    r.evidence_json = evidence;
    r.key = key;
    r.quiet_ms = quiet;
    c->host->report(c->ctx, &r);
}

/* The module's state: a marker the host must hand back untouched. */
static const int probe_state_marker = 42;

/* ------------------------------------------------------------ rules */

static void put_presentation(out *o, const mw_presentation *p) {
    putf(o, "{\"kind\":%u,\"id\":", p->kind);
    put_str(o, p->id);
    putf(o, ",\"ts\":%lld,\"style\":%d,\"transition\":%d,\"size_class\":%d,\"nav_depth\":%d,"
            "\"button_count\":%d,\"cancel_index\":%d,\"destructive_index\":%d,\"in_popover\":%d}",
         (long long)p->ts, p->style, p->transition, p->size_class, p->nav_depth,
         p->button_count, p->cancel_index, p->destructive_index, p->in_popover);
}

/* 0: the session view, as the engine handed it over. */
static void view_on_event(const mw_call *c) {
    char buf[60000];
    out o = { buf, 0, sizeof buf };
    const mw_event *e = c->event;
    const mw_session *s = c->session;
    puts_(&o, "{\"type\":");
    put_str(&o, e->type_name);
    putf(&o, ",\"event_type\":%u,\"ts\":%lld,\"ts_sent\":%lld,\"seq\":%lld,\"event_app\":",
         e->type, (long long)e->ts, (long long)e->ts_sent, (long long)e->seq);
    put_str(&o, e->app);
    puts_(&o, ",\"session\":");
    put_str(&o, s->id);
    puts_(&o, ",\"app\":");
    put_str(&o, s->app);
    putf(&o, ",\"device\":%d,\"size_class\":%d,\"foreground\":%d,\"modal_depth\":%d,\"max_modal_depth\":%d",
         s->device, s->size_class, s->foreground, s->modal_depth, s->max_modal_depth);
    puts_(&o, ",\"started_ts\":"); put_ts(&o, s->started_ts);
    puts_(&o, ",\"last_ts\":"); put_ts(&o, s->last_ts);
    puts_(&o, ",\"previous_ts\":"); put_ts(&o, s->previous_ts);
    puts_(&o, ",\"last_user_action_ts\":"); put_ts(&o, s->last_user_action_ts);
    putf(&o, ",\"last_user_action_control\":%d,\"tasks_running\":%d", s->last_user_action_control, s->tasks_running);
    puts_(&o, ",\"last_task_finished_ts\":"); put_ts(&o, s->last_task_finished_ts);
    puts_(&o, ",\"last_task_failed_ts\":"); put_ts(&o, s->last_task_failed_ts);
    putf(&o, ",\"events\":%llu,\"alerts_presented\":%llu,\"presentations\":%llu",
         (unsigned long long)s->events, (unsigned long long)s->alerts_presented,
         (unsigned long long)s->presentations);
    putf(&o, ",\"edition\":%u,\"rule_index\":%u,\"param\":%lld,\"state_ok\":%s,\"host_size\":%u",
         c->edition, c->rule_index, (long long)c->params[0],
         c->module_state == (const void *)&probe_state_marker ? "true" : "false", c->host->struct_size);
    puts_(&o, ",\"stack\":[");
    for (uint32_t i = 0; i < s->stack_count; i++) {
        if (i > 0) puts_(&o, ",");
        put_presentation(&o, &s->stack[i]);
    }
    puts_(&o, "],\"dismissed\":");
    if (s->dismissed != NULL) put_presentation(&o, s->dismissed);
    else puts_(&o, "null");
    puts_(&o, "}");
    report(c, none, lit("view"), (mw_str){ buf, o.len }, none, 0);
}

/* 1: once per subject. */
static void subject_on_event(const mw_call *c) {
    report(c, c->event->id, lit("alert presented"), none, none, 0);
}

/* 2: once per window; quiet for the `quiet` parameter. */
static void window_on_event(const mw_call *c) {
    char buf[128];
    int n = snprintf(buf, sizeof buf, "{\"quiet\":%lld}", (long long)c->params[0]);
    report(c, c->event->id, lit("alert in a window"), (mw_str){ buf, (size_t)n }, none, c->params[0]);
}

/* 3: once per session. */
static void session_on_event(const mw_call *c) {
    report(c, c->event->id, lit("a sheet in this session"), none, none, 0);
}

/* 4: once per key: the task id; a failed task reports with no key, its task as subject. */
static void key_on_event(const mw_call *c) {
    if (c->event->task_state == MW_TASK_FAILED) {
        report(c, c->event->task, lit("task failed"), none, none, 0);
    } else {
        report(c, none, lit("task seen"), none, c->event->task, 0);
    }
}

static const char *transition_name(int32_t t) {
    switch (t) {
    case MW_TRANSITION_COVER_VERTICAL: return "cover_vertical";
    case MW_TRANSITION_FLIP_HORIZONTAL: return "flip_horizontal";
    case MW_TRANSITION_CROSS_DISSOLVE: return "cross_dissolve";
    case MW_TRANSITION_PARTIAL_CURL: return "partial_curl";
    case MW_TRANSITION_CUSTOM: return "custom";
    default: return "none";
    }
}

/* 5: once per app and value: the modal's transition. */
static void app_value_on_event(const mw_call *c) {
    char buf[128];
    const char *name = transition_name(c->event->transition);
    int n = snprintf(buf, sizeof buf, "{\"transition\":\"%s\"}", name);
    report(c, c->event->id, lit("transition used"), (mw_str){ buf, (size_t)n }, lit(name), 0);
}

static int has_prefix(mw_str s, const char *prefix) {
    size_t n = strlen(prefix);
    return s.ptr != NULL && s.len >= n && memcmp(s.ptr, prefix, n) == 0;
}

static mw_str after(mw_str s, const char *prefix) {
    size_t n = strlen(prefix);
    mw_str r = { s.ptr + n, s.len - n };
    return r;
}

/* 6: every time; the label says what to report. */
static void every_on_event(const mw_call *c) {
    mw_str label = c->event->label;
    if (mw_str_eq(label, "bad-evidence")) {
        report(c, none, lit("bad evidence"), lit("{\"a\":"), none, 0);
    } else if (mw_str_eq(label, "array-evidence")) {
        report(c, none, lit("array evidence"), lit("[1,2]"), none, 0);
    } else if (mw_str_eq(label, "no-evidence")) {
        report(c, none, lit("no evidence"), none, none, 0);
    } else if (mw_str_eq(label, "empty-message")) {
        report(c, none, lit(""), lit("{}"), none, 0);
    } else if (mw_str_eq(label, "null-message")) {
        report(c, none, none, lit("{}"), none, 0);
    } else if (mw_str_eq(label, "twice")) {
        report(c, none, lit("first"), lit("{\"n\":1}"), none, 0);
        report(c, none, lit("second"), lit("{\"n\":2}"), none, 0);
    } else if (mw_str_eq(label, "escapes")) {
        report(c, lit("s\"1\\"), lit("he said \"hi\"\n\ttab \\ back \xe2\x80\x9cq\xe2\x80\x9d"),
               lit("{\"nested\":{\"list\":[1,2.5,\"x\",null,true]}}"), none, 0);
    } else if (mw_str_eq(label, "events")) {
        mw_event_ref refs[2];
        memset(refs, 0, sizeof refs);
        refs[0].type = lit("alert.presented");
        refs[0].ts = 5;
        refs[0].id = lit("a1");
        refs[0].seq = 3;
        refs[1].type = lit("user.action");
        refs[1].ts = 6;
        mw_report r;
        memset(&r, 0, sizeof r);
        r.message = lit("with events");
        r.events = refs;
        r.event_count = 2;
        c->host->report(c->ctx, &r);
    } else if (has_prefix(label, "subject:")) {
        report(c, after(label, "subject:"), lit("about a subject"), lit("{}"), none, 0);
    } else if (has_prefix(label, "key:")) {
        report(c, none, lit("about a key"), lit("{}"), after(label, "key:"), 0);
    } else {
        char buf[4200];
        out o = { buf, 0, sizeof buf };
        puts_(&o, "{\"label\":");
        put_str(&o, label);
        puts_(&o, "}");
        report(c, none, lit("an action"), (mw_str){ buf, o.len }, none, 0);
    }
}

/* 7: counters in both scopes. */
static void counter_on_event(const mw_call *c) {
    uint64_t fg = mw_hash("fg", 2), other = mw_hash("other", 5);
    int64_t s = c->host->counter_add(c->ctx, MW_SCOPE_SESSION, fg, 1);
    int64_t a = c->host->counter_add(c->ctx, MW_SCOPE_APP, fg, 1);
    int64_t read = c->host->counter_add(c->ctx, MW_SCOPE_SESSION, fg, 0);
    int64_t o = c->host->counter_add(c->ctx, MW_SCOPE_SESSION, other, 0);
    char buf[256];
    int n = snprintf(buf, sizeof buf, "{\"session\":%lld,\"app\":%lld,\"read\":%lld,\"other\":%lld}",
                     (long long)s, (long long)a, (long long)read, (long long)o);
    report(c, none, lit("counted"), (mw_str){ buf, (size_t)n }, none, 0);
}

/* 8: the same key as rule 7, in its own counters. */
static void counter_twin_on_event(const mw_call *c) {
    uint64_t fg = mw_hash("fg", 2);
    int64_t before = c->host->counter_add(c->ctx, MW_SCOPE_SESSION, fg, 0);
    int64_t s = c->host->counter_add(c->ctx, MW_SCOPE_SESSION, fg, 10);
    int64_t a = c->host->counter_add(c->ctx, MW_SCOPE_APP, fg, 100);
    char buf[256];
    int n = snprintf(buf, sizeof buf, "{\"before\":%lld,\"session\":%lld,\"app\":%lld}",
                     (long long)before, (long long)s, (long long)a);
    report(c, none, lit("twin counted"), (mw_str){ buf, (size_t)n }, none, 0);
}

/* 9: a window of event times. */
static void window_push_on_event(const mw_call *c) {
    uint32_t n = c->host->window_push(c->ctx, mw_hash("w", 1), c->event->ts, c->params[0], (uint32_t)c->params[1]);
    char buf[128];
    int len = snprintf(buf, sizeof buf, "{\"count\":%u}", n);
    report(c, c->event->id, lit("pushed"), (mw_str){ buf, (size_t)len }, none, 0);
}

/* 10: runs only in edition 2009. */
static void edition_on_event(const mw_call *c) {
    char buf[64];
    int n = snprintf(buf, sizeof buf, "{\"edition\":%u}", c->edition);
    report(c, none, lit("judged by 2009"), (mw_str){ buf, (size_t)n }, none, 0);
}

/* 11: more alerts in the session than `limit`. */
static void threshold_on_event(const mw_call *c) {
    if ((int64_t)c->session->alerts_presented <= c->params[0]) return;
    char buf[128];
    int n = snprintf(buf, sizeof buf, "{\"alerts\":%llu,\"limit\":%lld}",
                     (unsigned long long)c->session->alerts_presented, (long long)c->params[0]);
    char msg[128];
    int m = snprintf(msg, sizeof msg, "%llu alerts in the session; the limit is %lld",
                     (unsigned long long)c->session->alerts_presented, (long long)c->params[0]);
    report(c, c->event->id, (mw_str){ msg, (size_t)m }, (mw_str){ buf, (size_t)n }, none, 0);
}

/* ------------------------------------------------------------ descriptions */

#define START "{\"v\":1,\"type\":\"session.start\",\"session\":\"E\",\"ts\":1000,\"app\":\"com.example.probe\"}\n"
#define ALERT(id, ts) "{\"v\":1,\"type\":\"alert.presented\",\"session\":\"E\",\"ts\":" #ts ",\"id\":\"" id "\"}\n"
#define ALERT_OFF(id, ts) "{\"v\":1,\"type\":\"alert.dismissed\",\"session\":\"E\",\"ts\":" #ts ",\"id\":\"" id "\",\"button\":0,\"via\":\"button\"}\n"

static const mw_param view_params[] = {
    { "echo", MW_PARAM_INT, 0, 7, 0, 100, "a value the rule writes into its evidence" },
};
static const mw_param window_params[] = {
    { "quiet", MW_PARAM_DURATION_MS, 0, 1000, 0, 3600000, "how long to stay quiet after firing" },
};
static const mw_param window_push_params[] = {
    { "span", MW_PARAM_DURATION_MS, 0, 1000, 0, 3600000, "the window" },
    { "keep", MW_PARAM_INT, 0, 3, 1, 4096, "the most entries kept" },
};
static const mw_param threshold_params[] = {
    { "limit", MW_PARAM_INT, 0, 3, 0, 1000, "alerts a session may present" },
};

static const mw_example view_examples[] = {
    { "every event is seen", MW_EDITION_ALL, 3, START ALERT("a1", 1100) ALERT_OFF("a1", 1200) },
    { "an unknown dismissal is not", MW_EDITION_ALL, 1, START ALERT_OFF("zz", 1200) },
    { "nor is an unknown type", MW_EDITION_ALL, 0,
      "{\"v\":1,\"type\":\"shake.detected\",\"session\":\"E\",\"ts\":1000}\n" },
};
static const mw_example subject_examples[] = {
    { "two alerts, one shown twice", MW_EDITION_ALL, 2,
      START ALERT("a1", 1100) ALERT_OFF("a1", 1200) ALERT("a1", 1300) ALERT_OFF("a1", 1400) ALERT("a2", 1500) },
    { "no alert", MW_EDITION_ALL, 0, START },
};
static const mw_example window_examples[] = {
    { "three alerts in one second, then one later", MW_EDITION_ALL, 2,
      START ALERT("a1", 1100) ALERT("a2", 1200) ALERT("a3", 2099) ALERT("a4", 2100) },
    { "no alert", MW_EDITION_ALL, 0, START },
};
static const mw_example session_examples[] = {
    { "two sheets", MW_EDITION_ALL, 1,
      START "{\"v\":1,\"type\":\"sheet.presented\",\"session\":\"E\",\"ts\":1100,\"id\":\"s1\"}\n"
            "{\"v\":1,\"type\":\"sheet.presented\",\"session\":\"E\",\"ts\":1200,\"id\":\"s2\"}\n" },
    { "no sheet", MW_EDITION_ALL, 0, START ALERT("a1", 1100) },
};
static const mw_example key_examples[] = {
    { "two tasks", MW_EDITION_ALL, 2,
      START "{\"v\":1,\"type\":\"task.progress\",\"session\":\"E\",\"ts\":1100,\"task\":\"t1\",\"state\":\"started\"}\n"
            "{\"v\":1,\"type\":\"task.progress\",\"session\":\"E\",\"ts\":1200,\"task\":\"t1\",\"state\":\"finished\"}\n"
            "{\"v\":1,\"type\":\"task.progress\",\"session\":\"E\",\"ts\":1300,\"task\":\"t2\",\"state\":\"started\"}\n" },
    { "no task", MW_EDITION_ALL, 0, START },
};
static const mw_example app_value_examples[] = {
    { "two transitions, one twice", MW_EDITION_ALL, 2,
      START "{\"v\":1,\"type\":\"modal.presented\",\"session\":\"E\",\"ts\":1100,\"id\":\"m1\",\"transition\":\"cover_vertical\"}\n"
            "{\"v\":1,\"type\":\"modal.presented\",\"session\":\"E\",\"ts\":1200,\"id\":\"m2\",\"transition\":\"flip_horizontal\"}\n"
            "{\"v\":1,\"type\":\"modal.presented\",\"session\":\"E\",\"ts\":1300,\"id\":\"m3\",\"transition\":\"cover_vertical\"}\n" },
    { "no modal", MW_EDITION_ALL, 0, START },
};
static const mw_example every_examples[] = {
    { "three actions", MW_EDITION_ALL, 3,
      START "{\"v\":1,\"type\":\"user.action\",\"session\":\"E\",\"ts\":1100,\"label\":\"a\"}\n"
            "{\"v\":1,\"type\":\"user.action\",\"session\":\"E\",\"ts\":1100,\"label\":\"a\"}\n"
            "{\"v\":1,\"type\":\"user.action\",\"session\":\"E\",\"ts\":1200,\"label\":\"b\"}\n" },
    { "no action", MW_EDITION_ALL, 0, START },
};
static const mw_example counter_examples[] = {
    { "twice in the foreground", MW_EDITION_ALL, 2,
      START "{\"v\":1,\"type\":\"app.foreground\",\"session\":\"E\",\"ts\":1100}\n"
            "{\"v\":1,\"type\":\"app.foreground\",\"session\":\"E\",\"ts\":1200}\n" },
    { "never", MW_EDITION_ALL, 0, START },
};
static const mw_example window_push_examples[] = {
    { "one popover", MW_EDITION_ALL, 1,
      START "{\"v\":1,\"type\":\"popover.presented\",\"session\":\"E\",\"ts\":1100,\"id\":\"p1\"}\n" },
    { "none", MW_EDITION_ALL, 0, START },
};
static const mw_example edition_examples[] = {
    { "background", MW_EDITION_2009, 1, START "{\"v\":1,\"type\":\"app.background\",\"session\":\"E\",\"ts\":1100}\n" },
    { "background, later editions", MW_EDITION_IOS7 | MW_EDITION_CURRENT, 0,
      START "{\"v\":1,\"type\":\"app.background\",\"session\":\"E\",\"ts\":1100}\n" },
};
static const mw_example threshold_examples[] = {
    { "five alerts", MW_EDITION_ALL, 2,
      START ALERT("a1", 1100) ALERT("a2", 1200) ALERT("a3", 1300) ALERT("a4", 1400) ALERT("a5", 1500) },
    { "three alerts", MW_EDITION_ALL, 0, START ALERT("a1", 1100) ALERT("a2", 1200) ALERT("a3", 1300) },
};

#define N(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))
#define EV(t) MW_EVENT_BIT(MW_EVENT_##t)

static const mw_rule rules[] = {
    { "probe-view", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_ALL, MW_FIRE_EVERY_TIME,
      N(view_params), view_params, "writes the session view into its evidence", "See everything",
      "current: Modality", view_examples, N(view_examples), 0, view_on_event },
    { "probe-subject", 2, MW_SEVERITY_WARNING, MW_EDITION_ALL, EV(ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
      0, NULL, "reports every alert, once per subject", "Once per alert",
      "current: Alerts", subject_examples, N(subject_examples), 0, subject_on_event },
    { "probe-window", 1, MW_SEVERITY_WARNING, MW_EDITION_ALL, EV(ALERT_PRESENTED), MW_FIRE_ONCE_PER_WINDOW,
      N(window_params), window_params, "reports every alert, then stays quiet", "Minimize alerts",
      "current: Alerts", window_examples, N(window_examples), 0, window_on_event },
    { "probe-session", 1, MW_SEVERITY_ERROR, MW_EDITION_ALL, EV(SHEET_PRESENTED), MW_FIRE_ONCE_PER_SESSION,
      0, NULL, "reports the first sheet of a session", "Once a session",
      "2009: Action Sheets", session_examples, N(session_examples), 0, session_on_event },
    { "probe-key", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, EV(TASK_PROGRESS), MW_FIRE_ONCE_PER_KEY,
      0, NULL, "reports each task once", "Once per task",
      "current: Modality", key_examples, N(key_examples), 0, key_on_event },
    { "probe-app-value", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, EV(MODAL_PRESENTED), MW_FIRE_ONCE_PER_APP_VALUE,
      0, NULL, "reports each transition an app uses, once", "Be consistent",
      "ios7: Modal Views", app_value_examples, N(app_value_examples), 0, app_value_on_event },
    { "probe-every", 3, MW_SEVERITY_WARNING, MW_EDITION_ALL, EV(USER_ACTION), MW_FIRE_EVERY_TIME,
      0, NULL, "reports every action as its label says", "Every action",
      "current: Alerts", every_examples, N(every_examples), 0, every_on_event },
    { "probe-counter", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, EV(APP_FOREGROUND), MW_FIRE_EVERY_TIME,
      0, NULL, "counts foregrounds per session and app", "Count",
      "current: Modality", counter_examples, N(counter_examples), 0, counter_on_event },
    { "probe-counter-twin", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, EV(APP_FOREGROUND), MW_FIRE_EVERY_TIME,
      0, NULL, "counts foregrounds under the same key, privately", "Count apart",
      "current: Modality", counter_examples, N(counter_examples), 0, counter_twin_on_event },
    { "probe-window-push", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, EV(POPOVER_PRESENTED), MW_FIRE_EVERY_TIME,
      N(window_push_params), window_push_params, "counts popovers in a window", "Window",
      "current: Modality", window_push_examples, N(window_push_examples), 0, window_push_on_event },
    { "probe-edition", 1, MW_SEVERITY_WARNING, MW_EDITION_2009, EV(APP_BACKGROUND), MW_FIRE_EVERY_TIME,
      0, NULL, "reports leaving the foreground, in 2009 only", "The Home button",
      "2009: Alerts", edition_examples, N(edition_examples), 0, edition_on_event },
    { "probe-threshold", 1, MW_SEVERITY_WARNING, MW_EDITION_ALL, EV(ALERT_PRESENTED), MW_FIRE_EVERY_TIME,
      N(threshold_params), threshold_params, "reports alerts past a limit", "Minimize alerts",
      "current: Alerts", threshold_examples, N(threshold_examples), 0, threshold_on_event },
};

static const mw_module module = {
    MW_ABI_MAJOR, MW_ABI_MINOR, "probe", "0.1.0", rules, N(rules), 0, (void *)&probe_state_marker,
};

const mw_module *modalwatch_module(void) { return &module; }
