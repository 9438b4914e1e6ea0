/* One module declaring the same rule id twice. */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("twice-rule"), GOOD_RULE("other-rule"), GOOD_RULE("twice-rule") };
MODULE("dup_inside", rules)
