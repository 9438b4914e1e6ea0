/* A rule that applies in no edition. */
#include "broken_common.h"

static const mw_rule rules[] = { BROKEN_RULE("nowhere-rule", MW_SEVERITY_INFO, 0, broken_noop, broken_params, 1) };
MODULE("bad_editions", rules)
