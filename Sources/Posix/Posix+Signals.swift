import Glibc

extension Posix {
    /// The name of a signal: `SIGSEGV`, or `signal 42` for one without a name here.
    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGFPE: "SIGFPE"
        case SIGABRT: "SIGABRT"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGPIPE: "SIGPIPE"
        case SIGSYS: "SIGSYS"
        case SIGTRAP: "SIGTRAP"
        case SIGXCPU: "SIGXCPU"
        case SIGXFSZ: "SIGXFSZ"
        default: "signal \(signal)"
        }
    }
}
