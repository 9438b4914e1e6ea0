import XCTest
import ZeroMQ

final class RequestReplyTests: XCTestCase {
    func testRequestReplyRoundTripOverTCP() throws {
        let context = try ZMQContext()
        let server = try ZMQSocket(context, type: .rep)
        try server.bind("tcp://127.0.0.1:*")
        let client = try ZMQSocket(context, type: .req)
        try client.connect(try server.lastEndpoint)
        try server.set(.receiveTimeout, 2000)
        try client.set(.receiveTimeout, 2000)

        for round in 0..<3 {
            try client.send(#"{"cmd":"status","n":\#(round)}"#)
            XCTAssertEqual(try server.receiveString(), #"{"cmd":"status","n":\#(round)}"#)
            try server.send(#"{"ok":true,"n":\#(round)}"#)
            XCTAssertEqual(try client.receiveString(), #"{"ok":true,"n":\#(round)}"#)
        }
    }

    func testRequestSocketRefusesSecondSendWithErrno() throws {
        let context = try ZMQContext()
        let server = try ZMQSocket(context, type: .rep)
        try server.bind("inproc://fsm")
        let client = try ZMQSocket(context, type: .req)
        try client.connect("inproc://fsm")
        try client.send("first")
        XCTAssertThrowsError(try client.send("second")) { error in
            let error = error as? ZMQError
            XCTAssertEqual(error?.code, .callFailed)
            XCTAssertEqual(error?.operation, "zmq_send")
            XCTAssertEqual(error?.reason, "Operation cannot be accomplished in current state")
            XCTAssertNotEqual(error?.errno, 0)
        }
    }
}
