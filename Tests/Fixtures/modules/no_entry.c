/* A shared library without the entry symbol. */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("no-entry-rule") };
static const mw_module module = { MW_ABI_MAJOR, MW_ABI_MINOR, "no_entry", "1.0.0", rules, 1, 0, 0 };
const mw_module *modalwatch_module_v2(void) { return &module; }
