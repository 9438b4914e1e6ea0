/* A parameter whose default lies outside its bounds. */
#include "broken_common.h"

static const mw_param params[] = {
    { "limit", MW_PARAM_INT, 0, 3, 1, 10, "a limit" },
    { "window", MW_PARAM_DURATION_MS, 0, 50, 100, 1000, "a window" },
};
static const mw_rule rules[] = { BROKEN_RULE("default-rule", MW_SEVERITY_INFO, MW_EDITION_ALL, broken_noop, params, 2) };
MODULE("bad_default", rules)
