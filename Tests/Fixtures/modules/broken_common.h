/*
 * broken_common.h: a minimal valid rule, shared by the broken fixture modules;
 * each of them breaks exactly one thing.
 */
#ifndef BROKEN_COMMON_H
#define BROKEN_COMMON_H

#include "modalwatch_module.h"

static void broken_noop(const mw_call *call) { (void)call; }

static const mw_example broken_examples[] = {
    { "nothing", MW_EDITION_ALL, 0,
      "{\"v\":1,\"type\":\"session.start\",\"session\":\"B\",\"ts\":1,\"app\":\"com.example.broken\"}\n" },
};

static const mw_param broken_params[] = {
    { "limit", MW_PARAM_INT, 0, 3, 1, 10, "a limit" },
};

/* A valid rule with the given id, severity, editions, on_event and parameters. */
#define BROKEN_RULE(id, severity, editions, on_event, params, param_count) \
    { id, 1, severity, editions, MW_EVENT_BIT(MW_EVENT_ALERT_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT, \
      param_count, params, "a rule", "A guideline", "current: Alerts", broken_examples, 1, 0, on_event }

#define GOOD_RULE(id) BROKEN_RULE(id, MW_SEVERITY_INFO, MW_EDITION_ALL, broken_noop, broken_params, 1)

#define MODULE(name, rules) \
    static const mw_module module = { MW_ABI_MAJOR, MW_ABI_MINOR, name, "1.0.0", rules, \
                                      (uint32_t)(sizeof(rules) / sizeof((rules)[0])), 0, 0 }; \
    const mw_module *modalwatch_module(void) { return &module; }

#endif
