#ifndef MODALWATCH_CZEROMQ_SHIM_H
#define MODALWATCH_CZEROMQ_SHIM_H
#include <zmq.h>
#include <errno.h>
#endif
