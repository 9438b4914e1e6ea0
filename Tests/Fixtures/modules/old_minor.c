/* Built against ABI 1.0, before mw_host.should_report existed: a 1.1 host must load
   it and call it as before (the module never reads past the 1.0 part of mw_host). */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("old-minor-rule") };
static const mw_module module = { MW_ABI_MAJOR, 0, "older_minor", "1.0.0", rules, 1, 0, 0 };
const mw_module *modalwatch_module(void) { return &module; }
