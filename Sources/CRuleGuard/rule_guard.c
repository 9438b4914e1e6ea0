#define _GNU_SOURCE
#include "rule_guard.h"

#include <fcntl.h>
#include <sys/mman.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static mw_marker *volatile installed_marker;
static volatile pid_t rule_thread;
static struct sigaction previous_actions[5];
static const int fatal_signals[5] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

void mw_marker_set_event(mw_marker *m, int64_t ts, uint32_t type, const void *session, size_t length) {
    if (length > MW_MARKER_SESSION_BYTES) length = MW_MARKER_SESSION_BYTES;
    m->event_ts = ts;
    m->event_type = type;
    if (session != NULL && length > 0) memcpy(m->session, session, length);
    __atomic_store_n(&m->session_len, (uint32_t)length, __ATOMIC_RELEASE);
}

int mw_marker_mark(mw_marker *m, uint64_t generation, uint32_t state) {
    if (mw_marker_generation(m) != generation) return 0;
    uint32_t expected = MW_MARKER_IN_CALL;
    return __atomic_compare_exchange_n(&m->state, &expected, state, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ? 1 : 0;
}

/// Whether the signal is the running rule's: it arrived on the thread that runs the rules,
/// and came from the code there (a fault, or `raise`/`abort` in this process), not from
/// another process (`kill -SEGV`). A fault of another thread is not the rule's either.
static int fault_of_the_rule_call(const siginfo_t *info) {
    if ((pid_t)syscall(SYS_gettid) != rule_thread) return 0;
    return info == NULL || info->si_code > 0 || info->si_pid == getpid();
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
    (void)context;
    mw_marker *m = installed_marker;
    if (m != NULL && fault_of_the_rule_call(info)) {
        uint32_t expected = MW_MARKER_IN_CALL;
        __atomic_store_n(&m->signal, sig, __ATOMIC_RELAXED);
        __atomic_compare_exchange_n(&m->state, &expected, MW_MARKER_CRASHED, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    for (int i = 0; i < 5; i++) {
        if (fatal_signals[i] == sig) {
            struct sigaction before = previous_actions[i];
            if (before.sa_handler == SIG_IGN) before.sa_handler = SIG_DFL;
            sigaction(sig, &before, NULL);
            break;
        }
    }
    // Blocked while this handler runs: delivered again, to the earlier handler, once it returns
    // (a fault also recurs on its own when the instruction runs again).
    raise(sig);
}

int mw_fault_handlers_install(mw_marker *m) {
    static char *alternate_stack;
    if (alternate_stack == NULL) {
        size_t size = 64 * 1024;
        alternate_stack = malloc(size);
        if (alternate_stack == NULL) return -1;
        stack_t stack = {.ss_sp = alternate_stack, .ss_size = size, .ss_flags = 0};
        // The alternate stack is per thread; it is set for the thread that installs (the ingest
        // thread runs the rules). Without it a stack overflow cannot run the handler.
        if (sigaltstack(&stack, NULL) != 0) return -1;
    }
    installed_marker = m;
    rule_thread = (pid_t)syscall(SYS_gettid);
    static int handlers_installed;
    if (handlers_installed) return 0;   // once: a second install would chain to itself
    handlers_installed = 1;
    for (int i = 0; i < 5; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(fatal_signals[i], &action, &previous_actions[i]) != 0) return -1;
    }
    return 0;
}

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

int mw_private_file(const char *name) {
    // Executable on a kernel whose vm.memfd_noexec would make it not so by default;
    // an older kernel knows no MFD_EXEC (EINVAL), and its memfds are executable.
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
    if (fd < 0 && errno == EINVAL) fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    return fd;
}

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

int mw_private_file_seal(int fd) {
    // F_SEAL_WRITE waits for every page of the file to lose its transient references and fails
    // with EBUSY when one keeps them (a page still in another CPU's LRU batch after the copy's
    // writes counts). This process holds the only descriptor and no writable shared mapping, so
    // F_SEAL_FUTURE_WRITE (Linux 5.1) forbids every later write as surely and never waits; a
    // kernel without it (EINVAL, and no seal is added) gets F_SEAL_WRITE.
    const int lasting = F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL;
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE | lasting) == 0) return 0;
    if (errno != EINVAL) return -1;
    return fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | lasting);
}
