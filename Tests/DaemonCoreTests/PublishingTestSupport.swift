import Foundation
import Logging
import ZeroMQ

@testable import DaemonCore

/// What the publishing thread's tests share: their settings and their subscriber.
extension PublishingThread.Settings {
    /// A fresh hand-over, publishing on `publish`, the history at `historyPath` without
    /// retention, no CURVE, a silent logger.
    static func forTest(
        _ context: ZMQContext,
        historyPath: String?,
        publish: String = "tcp://127.0.0.1:*"
    ) -> PublishingThread.Settings {
        PublishingThread.Settings(
            context: context,
            handOver: HandOver(),
            publish: publish,
            history: historyPath.map { .sqlite(path: $0) },
            retention: .init(maxAgeMs: nil, maxRows: nil),
            curveSecretKey: nil,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }
}

extension HandOver {
    /// Offers `batch`'s records; fails the test's expectation by returning false when refused.
    @discardableResult
    func offer(_ batch: borrowing OutboundBatch) -> Bool {
        batch.withBytes { offer($0) }
    }
}

extension ZMQSocket {
    /// A `SUB` socket subscribed to `prefix` and connected to `endpoint`, receives timing out after
    /// `timeoutMs`; with `unbounded`, its queue has no high-water mark (a test that reads after a
    /// burst loses nothing). The caller closes it.
    static func testSubscriber(
        _ context: ZMQContext,
        to endpoint: String,
        prefix: String,
        timeoutMs: Int32 = 10_000,
        unbounded: Bool = true
    ) throws -> ZMQSocket {
        let subscriber = try ZMQSocket(context, type: .sub)
        do {
            try subscriber.subscribe(prefix)
            try subscriber.set(.receiveTimeout, timeoutMs)
            if unbounded { try subscriber.set(.receiveHighWaterMark, 0) }
            try subscriber.connect(endpoint)
        } catch {
            subscriber.close()
            throw error
        }
        return subscriber
    }
}
