#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's name as the kernel shows it (`/proc/PID/task/TID/comm`, `top -H`,
/// `perf`): at most 15 bytes, the rest cut off.
public enum KernelThreadName {
    /// Names the calling thread.
    public static func set(_ name: String) {
        #if canImport(Glibc)
        _ = glibcSetThreadName(pthread_self(), name)
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `pthread_setname_np(3)` (a GNU extension the Glibc module does not declare).
@_silgen_name("pthread_setname_np")
private func glibcSetThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
#endif
