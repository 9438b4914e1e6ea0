/* A rule with severity 9. */
#include "broken_common.h"

static const mw_rule rules[] = { BROKEN_RULE("severe-rule", 9, MW_EDITION_ALL, broken_noop, broken_params, 1) };
MODULE("bad_severity", rules)
