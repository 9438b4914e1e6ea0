/* The ABI is the header alone; this file exists so SwiftPM builds the target. */
#include "modalwatch_module.h"
