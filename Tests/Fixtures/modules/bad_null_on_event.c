/* A rule with no on_event. */
#include "broken_common.h"

static const mw_rule rules[] = {
    GOOD_RULE("fine-rule"),
    BROKEN_RULE("no-handler", MW_SEVERITY_INFO, MW_EDITION_ALL, 0, broken_params, 1),
};
MODULE("null_on_event", rules)
