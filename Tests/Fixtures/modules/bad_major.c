/* ABI major 2: everything after abi_minor is garbage a host of major 1 must never read. */
#include <stdint.h>
#include "modalwatch_module.h"

struct future_module {
    uint32_t abi_major;
    uint32_t abi_minor;
    uintptr_t garbage[8];
};

static const struct future_module module = {
    2, 0,
    { (uintptr_t)0xdeadbeefu, (uintptr_t)0x1u, (uintptr_t)0xbadf00du, (uintptr_t)-1,
      (uintptr_t)0x10u, (uintptr_t)0x20u, (uintptr_t)0x30u, (uintptr_t)0x40u },
};

const mw_module *modalwatch_module(void) { return (const mw_module *)(const void *)&module; }
