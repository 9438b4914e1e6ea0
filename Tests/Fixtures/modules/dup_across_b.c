/* Declares `shared-rule` too, under another module name: refused. */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("own-rule"), GOOD_RULE("shared-rule") };
MODULE("across_b", rules)
