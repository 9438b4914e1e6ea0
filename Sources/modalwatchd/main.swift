import Glibc

// The first instruction, on the main thread: SIGHUP is ignored until ReloadService's handler
// (a dispatch signal source, which installs its own action) takes it, so that a reload asked for
// while the daemon starts cannot end it. Blocking it instead would not hold: the main thread waits
// in libdispatch's `sigsuspend` with an empty mask. The configuration a SIGHUP before the handler
// asks for is the one the start reads anyway, or, past that read, the one the next SIGHUP reads.
signal(SIGHUP, SIG_IGN)
await Modalwatchd.main()
