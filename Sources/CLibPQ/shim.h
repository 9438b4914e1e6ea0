#ifndef MODALWATCH_CLIBPQ_SHIM_H
#define MODALWATCH_CLIBPQ_SHIM_H
#include <postgresql/libpq-fe.h>
#endif
