import Logging
import ModalwatchClient
import XCTest

/// The sender thread's start-up: what it cannot set up reaches `init` as a `ClientError`, and the
/// thread ends, closing what it made (else ending its context would wait for ever).
final class ClientStartTests: XCTestCase {
    private func start(_ configuration: ClientConfiguration) -> ClientError? {
        do {
            let client = try ModalwatchClient(configuration: configuration, logger: Logger(label: "test"))
            client.close()
            return nil
        } catch {
            return error
        }
    }

    func testAMalformedEndpointIsTheErrorOfInit() {
        let error = start(ClientConfiguration(endpoints: ["tcp://127.0.0.1:7450", "tcp://"]))
        XCTAssertTrue(error?.description.hasPrefix("cannot connect to tcp://:") == true, "\(String(describing: error))")
    }

    func testABadCurveKeyIsTheErrorOfInitAndTheSocketIsClosed() {
        var configuration = ClientConfiguration(endpoints: ["tcp://127.0.0.1:7450"])
        configuration.curve = ClientCurveKeys(serverKey: "not a key", publicKey: "not a key", secretKey: "not a key")
        let error = start(configuration)
        XCTAssertTrue(
            error?.description.hasPrefix("cannot set up the client's socket") == true,
            "\(String(describing: error))"
        )
    }

    func testAGoodEndpointStarts() {
        XCTAssertNil(start(ClientConfiguration(endpoints: ["tcp://127.0.0.1:7450"])))
    }
}
