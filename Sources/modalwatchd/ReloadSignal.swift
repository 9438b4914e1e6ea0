import DaemonCore
import Dispatch
import Glibc

/// Turns SIGHUP into a reload request for the ingest loop, for as long as it lives.
final class ReloadSignal {
    private let source: any DispatchSourceSignal

    init(wakeup: Wakeup) {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { wakeup.request(.reload) }
        source.resume()
    }

    deinit { source.cancel() }
}
