/*
 * faulty.c: a rule module that fails on purpose, for the module-fault tests
 * (Tests/e2e/test_module_faults.py). Module `faulty`, three rules on user.action:
 *   faulty-crash  dereferences NULL when the action's label is "CRASH"
 *   faulty-hang   loops forever when the label is "HANG"
 *   faulty-fine   reports every action labelled "PING" (shows that the other rules still run)
 */
#include <stdint.h>
#include <string.h>

#include "modalwatch_module.h"

static int label_is(const mw_call *call, const char *text) {
    mw_str label = call->event->label;
    return label.ptr != NULL && label.len == strlen(text) && memcmp(label.ptr, text, label.len) == 0;
}

static void crash(const mw_call *call) {
    if (label_is(call, "CRASH")) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
}

static void hang(const mw_call *call) {
    if (label_is(call, "HANG")) {
        volatile uint64_t spin = 0;
        for (;;) spin++;
    }
}

static void fine(const mw_call *call) {
    if (!label_is(call, "PING") && !label_is(call, "CRASH") && !label_is(call, "HANG")) return;
    mw_report report;
    memset(&report, 0, sizeof report);
    report.message.ptr = "an action was seen";
    report.message.len = strlen("an action was seen");
    call->host->report(call->ctx, &report);
}

#define RULE(id, fn, summary) \
    { id, 1, MW_SEVERITY_INFO, MW_EDITION_2009 | MW_EDITION_IOS7 | MW_EDITION_CURRENT, \
      MW_EVENT_BIT(MW_EVENT_USER_ACTION), MW_FIRE_EVERY_TIME, 0, NULL, summary, "Test", "current: Test", \
      NULL, 0, 0, fn }

static const mw_rule rules[] = {
    RULE("faulty-crash", crash, "crashes on an action labelled CRASH"),
    RULE("faulty-hang", hang, "never returns on an action labelled HANG"),
    RULE("faulty-fine", fine, "reports actions labelled PING, CRASH or HANG"),
};

static const mw_module module = { MW_ABI_MAJOR, MW_ABI_MINOR, "faulty", "1.0.0", rules, 3, 0, NULL };

const mw_module *modalwatch_module(void) { return &module; }
