#ifndef MODALWATCH_CZEROMQ_SHIM_H
#define MODALWATCH_CZEROMQ_SHIM_H
#include <zmq.h>
#include <errno.h>
#ifdef __linux__
/* eventfd(2): the usual wake-up descriptor polled next to ZeroMQ sockets (ZMQPoller). */
#include <sys/eventfd.h>
#endif
#endif
