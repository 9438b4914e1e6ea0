/* Built against a newer minor than the host speaks; otherwise valid. */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("minor-rule") };
static const mw_module module = { MW_ABI_MAJOR, MW_ABI_MINOR + 1, "newer_minor", "1.0.0", rules, 1, 0, 0 };
const mw_module *modalwatch_module(void) { return &module; }
