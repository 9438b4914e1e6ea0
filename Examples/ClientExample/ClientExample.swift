import Foundation
import Logging
import ModalwatchClient

/// `modalwatch-client-example ENDPOINT... [--app APP] [--sessions N]`: a scripted app session
/// per N, published through ModalwatchClient with every event type of events.md, as an app
/// would (see docs/client.md). Prints the client's counters as one JSON line.
@main
struct ClientExample {
    static func main() throws {
        var endpoints: [String] = []
        var app = "com.example.mail"
        var sessions = 1
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--app": app = arguments.popFirst() ?? app
            case "--sessions": sessions = arguments.popFirst().flatMap(Int.init) ?? sessions
            default: endpoints.append(argument)
            }
        }
        guard !endpoints.isEmpty, sessions >= 1 else {
            FileHandle.standardError.write(
                Data("usage: modalwatch-client-example ENDPOINT... [--app APP] [--sessions N]\n".utf8)
            )
            exit(2)
        }
        var logger = Logger(label: "client-example")
        logger.logLevel = .warning
        var configuration = ClientConfiguration(endpoints: endpoints)
        configuration.maxBatchDelayMs = 5
        let client = try ModalwatchClient(configuration: configuration, logger: logger)
        guard client.waitUntilSubscribed(client.bucket(app: app, session: ""), timeoutMs: 10_000) else {
            FileHandle.standardError.write(
                Data("no daemon subscribed within 10 s at \(endpoints.joined(separator: ", "))\n".utf8)
            )
            exit(3)
        }
        for index in 0..<sessions {
            play(client, app: app, id: "example-\(index)", at: 1_732_290_000_000 + Int64(index) * 100_000)
        }
        client.close()
        let s = client.statistics
        print(
            #"{"events_queued":\#(s.eventsQueued),"events_sent":\#(s.eventsSent),"messages_sent":\#(s.messagesSent),"events_dropped":\#(s.eventsDropped)}"#
        )
    }

    /// One session of a mail app: every event type once or more, and an alert that breaks the guidelines.
    static func play(_ client: ModalwatchClient, app: String, id: String, at t0: Int64) {
        let session = client.startSession(
            app: app,
            id: id,
            appVersion: "1.0",
            os: "iOS 18.1",
            device: .phone,
            sizeClass: .compact,
            at: t0
        )
        session.send(.userAction(control: .toolbarButton, label: "Trash", destructive: true), at: t0 + 1000)
        session.send(
            .sheetPresented(
                id: "sh1",
                title: nil,
                message: nil,
                buttons: [
                    AlertButton("Delete Message", style: .destructive), AlertButton("Cancel", style: .cancel),
                ]
            ),
            at: t0 + 1100
        )
        session.send(.sheetDismissed(id: "sh1", button: 0, via: .button), at: t0 + 2200)
        session.send(.taskProgress(task: "sync", state: .started), at: t0 + 2300)
        session.send(.taskProgress(task: "sync", state: .finished), at: t0 + 3000)
        session.send(
            .alertPresented(
                id: "a1",
                title: "Error",
                message: "Something went wrong",
                buttons: [AlertButton("OK", style: .default)]
            ),
            at: t0 + 4000
        )
        session.send(.alertDismissed(id: "a1", button: 0, via: .button), at: t0 + 6000)
        session.send(.userAction(control: .button, label: "Compose"), at: t0 + 7000)
        session.send(
            .modalPresented(
                id: "m1",
                style: .pageSheet,
                transition: .coverVertical,
                title: "New Message",
                buttons: [ModalButton("Cancel", role: .cancel), ModalButton("Send", role: .confirm)]
            ),
            at: t0 + 7100
        )
        session.send(.navPush(screen: "Recipients"), at: t0 + 8000)
        session.send(.navPop(screen: "Recipients"), at: t0 + 9000)
        session.send(.popoverPresented(id: "p1"), at: t0 + 9500)
        session.send(.popoverDismissed(id: "p1"), at: t0 + 9800)
        session.send(
            .modalDismissed(id: "m1", via: .button, button: 1, unsavedChanges: false, confirmed: nil),
            at: t0 + 12_000
        )
        session.send(.appBackground, at: t0 + 20_000)
        session.send(.appForeground, at: t0 + 30_000)
        session.end(at: t0 + 31_000)
    }
}
