/* The entry returns NULL. */
#include "modalwatch_module.h"

const mw_module *modalwatch_module(void) { return 0; }
