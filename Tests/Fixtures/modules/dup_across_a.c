/* Declares `shared-rule`; loads (it comes first by file name). */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("shared-rule") };
MODULE("across_a", rules)
