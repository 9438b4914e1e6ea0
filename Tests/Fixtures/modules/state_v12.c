/*
 * state_v12.c: a module built against ABI 1.2 that uses what 1.2 added.
 *  - on_init reads its settings (`broken_word`, default "boom") into state it
 *    allocates, logs one line, and refuses an empty word (MW_INIT_FAILED);
 *  - on_destroy frees the state;
 *  - its rule reads its parameter by name (mw_param_by_name), reports an alert
 *    with fewer buttons than `min_buttons`, and reports a module error (not a
 *    violation) for an alert titled with the broken word.
 */
#include <stdlib.h>
#include <string.h>
#include "modalwatch_module.h"

typedef struct state {
    char word[64];
    size_t len;
} state;

static mw_str lit(const char *s) { mw_str r = { s, strlen(s) }; return r; }

static int32_t init(const mw_init *in, void **out) {
    state *s = calloc(1, sizeof *s);
    if (s == NULL) return MW_INIT_FAILED;
    memcpy(s->word, "boom", 4);
    s->len = 4;
    for (uint32_t i = 0; i < in->setting_count; i++) {
        mw_setting setting = in->settings[i];
        if (!mw_str_eq(setting.key, "broken_word")) {
            in->host->module_error(in->ctx, lit("unknown setting; state_v12 knows broken_word"));
            continue;
        }
        if (setting.value.len == 0 || setting.value.len >= sizeof s->word) {
            in->host->module_error(in->ctx, lit("broken_word must be 1 to 63 bytes"));
            free(s);
            return MW_INIT_FAILED;
        }
        memcpy(s->word, setting.value.ptr, setting.value.len);
        s->len = setting.value.len;
    }
    in->host->log(in->ctx, MW_LOG_INFO, lit("state_v12 ready"));
    *out = s;
    return MW_INIT_OK;
}

/* How many states on_destroy released: a test reads it to see the host call it. */
static int destroyed;
int state_v12_destroyed(void) { return destroyed; }

static void destroy(void *s) { free(s); destroyed++; }

static void judge(const mw_call *call) {
    const state *s = (const state *)call->module_state;
    const mw_event *ev = call->event;
    if (ev->title.ptr != NULL && ev->title.len == s->len && memcmp(ev->title.ptr, s->word, s->len) == 0) {
        call->host->module_error(call->ctx, lit("cannot judge an alert titled with the broken word"));
        return;
    }
    int64_t min_buttons = 0;
    if (!mw_param_by_name(call, "min_buttons", &min_buttons)) return;
    if ((int64_t)ev->button_count >= min_buttons) return;
    mw_report r = {0};
    r.subject = ev->id;
    r.message = lit("The alert has fewer buttons than min_buttons");
    call->host->report(call->ctx, &r);
}

static const mw_param params[] = {
    { "min_buttons", MW_PARAM_INT, 0, 2, 1, 10, "fewer buttons than this fire" },
};

static const mw_example examples[] = {
    { "one button", MW_EDITION_ALL, 1,
      "{\"v\":1,\"type\":\"session.start\",\"session\":\"S\",\"ts\":1,\"app\":\"com.example.v12\"}\n"
      "{\"v\":1,\"type\":\"alert.presented\",\"session\":\"S\",\"ts\":2,\"id\":\"a\",\"title\":\"Hi\",\"buttons\":[{\"title\":\"OK\"}]}\n" },
    { "two buttons", MW_EDITION_ALL, 0,
      "{\"v\":1,\"type\":\"session.start\",\"session\":\"S\",\"ts\":1,\"app\":\"com.example.v12\"}\n"
      "{\"v\":1,\"type\":\"alert.presented\",\"session\":\"S\",\"ts\":2,\"id\":\"a\",\"title\":\"Hi\",\"buttons\":[{\"title\":\"OK\"},{\"title\":\"Cancel\",\"style\":\"cancel\"}]}\n" },
};

static const mw_rule rules[] = {{
    .id = "v12-few-buttons", .rev = 1, .severity = MW_SEVERITY_INFO, .editions = MW_EDITION_ALL,
    .event_mask = MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), .fire = MW_FIRE_ONCE_PER_SUBJECT,
    .param_count = 1, .params = params,
    .summary = "An alert with fewer buttons than min_buttons.", .guideline = "Test", .source = "test",
    .examples = examples, .example_count = 2, .on_event = judge,
}};

static const mw_module module = {
    .abi_major = MW_ABI_MAJOR, .abi_minor = 2, .name = "state_v12", .version = "1.2.0",
    .rules = rules, .rule_count = 1, .state = NULL, .on_init = init, .on_destroy = destroy,
};

const mw_module *modalwatch_module(void) { return &module; }
