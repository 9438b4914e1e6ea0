/* A module named like one loaded earlier (`across_a`), with rules of its own. */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("renamed-rule") };
MODULE("across_a", rules)
