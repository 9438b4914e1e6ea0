// The rule-call marker and the fatal-signal handler of modalwatchd
// (docs/RELIABILITY.md, "Module faults"), and the sealed in-memory files the
// rule modules are loaded from. Plain C, so that everything the signal handler
// touches is async-signal-safe.
#ifndef MODALWATCH_RULE_GUARD_H
#define MODALWATCH_RULE_GUARD_H

#include <stddef.h>
#include <stdint.h>

#define MW_MARKER_MAGIC 0x4b4d574du   /* "MWMK" */
#define MW_MARKER_VERSION 1u
#define MW_MARKER_IDLE 0u
#define MW_MARKER_IN_CALL 1u
#define MW_MARKER_CRASHED 2u
#define MW_MARKER_HUNG 3u
#define MW_MARKER_SESSION_BYTES 128
#define MW_MARKER_NAMES_OFFSET 512
#define MW_MARKER_NAME_BYTES 128
#define MW_MARKER_MODULE_BYTES 40

/// The marker: one fixed record at the start of a file mapped MAP_SHARED in the state
/// directory (its stores outlive the process), followed at MW_MARKER_NAMES_OFFSET by one
/// MW_MARKER_NAME_BYTES slot per rule: the module name (MW_MARKER_MODULE_BYTES, NUL-padded),
/// then the rule id. The ingest thread writes it around every rule call; the signal
/// handler and the watchdog only change `state` (and `signal`).
typedef struct mw_marker {
    uint32_t magic;
    uint32_t version;
    uint32_t state;
    int32_t signal;
    uint32_t rule;
    uint32_t rule_count;
    uint64_t generation;
    int64_t event_ts;
    uint32_t event_type;
    uint32_t session_len;
    char session[MW_MARKER_SESSION_BYTES];
} mw_marker;

/// Marks the start of a call of rule `rule` (an index into the names).
static inline void mw_marker_enter(mw_marker *m, uint32_t rule) {
    __atomic_store_n(&m->rule, rule, __ATOMIC_RELAXED);
    __atomic_store_n(&m->generation, m->generation + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&m->state, MW_MARKER_IN_CALL, __ATOMIC_RELEASE);
}

/// Marks the end of the call.
static inline void mw_marker_leave(mw_marker *m) {
    __atomic_store_n(&m->state, MW_MARKER_IDLE, __ATOMIC_RELEASE);
}

/// The event the next calls judge: its time, type and session id (cut to MW_MARKER_SESSION_BYTES).
void mw_marker_set_event(mw_marker *m, int64_t ts, uint32_t type, const void *session, size_t length);

/// Reads the state and the generation together (for the watchdog thread).
static inline uint32_t mw_marker_state(const mw_marker *m) { return __atomic_load_n(&m->state, __ATOMIC_ACQUIRE); }
static inline uint64_t mw_marker_generation(const mw_marker *m) { return __atomic_load_n(&m->generation, __ATOMIC_RELAXED); }

/// Changes IN_CALL to `state` (CRASHED or HUNG) if the call of `generation` still runs; 1 if it did.
int mw_marker_mark(mw_marker *m, uint64_t generation, uint32_t state);

/// Installs the handler of SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (on an alternate
/// stack, so that a stack overflow is caught too), for rule calls on the calling thread:
/// when a rule call is running and the signal arises on that thread from its own code (a
/// fault, or raise/abort; not a signal of another thread, nor one sent by another process),
/// it marks the marker CRASHED with the signal. Then it restores the handler that was there
/// before and re-raises, so the process dies as it would have (a core, the Swift backtrace).
/// Returns 0, or -1 with errno.
int mw_fault_handlers_install(mw_marker *m);

/// A new anonymous in-memory file (memfd, close-on-exec, sealable) named `name`, for the
/// private copy of a rule module the host loads. Returns the descriptor, or -1 with errno.
int mw_private_file(const char *name);

/// Seals a file made by mw_private_file against any change (write, grow, shrink, more seals).
/// Returns 0, or -1 with errno.
int mw_private_file_seal(int fd);

#endif
