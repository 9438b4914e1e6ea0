/* A rule id with characters an id may not have. */
#include "broken_common.h"

static const mw_rule rules[] = { GOOD_RULE("Bad Id!") };
MODULE("bad_id", rules)
