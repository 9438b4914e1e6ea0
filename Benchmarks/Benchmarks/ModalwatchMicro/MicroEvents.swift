/// The events and the violation the micro-benchmarks feed.
enum MicroEvents {
    /// Representative events of about 180 bytes, for the decoder.
    static let decoderEvents = [
        #"{"v":1,"type":"alert.presented","session":"4F2C9A7E-1B3D","ts":1732290009000,"seq":42,"id":"a1","title":"Error","message":"Something went wrong","buttons":[{"title":"OK","style":"default"}]}"#,
        #"{"v":1,"type":"user.action","session":"4F2C9A7E-1B3D","ts":1732290004000,"seq":43,"app":"com.example.mail","control":"toolbar_button","label":"Trash","destructive":true}"#,
        #"{"v":1,"type":"sheet.dismissed","session":"4F2C9A7E-1B3D","ts":1732290005200,"seq":44,"app":"com.example.mail","id":"sh1","button":0,"via":"button","extra":{"k":[1,2]}}"#,
    ]

    /// Ten rounds of a session's life for each of `sessions` sessions, interleaved: a start, then each
    /// round a user action, an alert presented and dismissed, a modal presented and dismissed. Times
    /// rise by one second an event within a session; `seq` is not sent.
    static func sessionRounds(sessions: Int) -> [String] {
        var lines: [String] = []
        let base: Int64 = 1_732_290_000_000
        for s in 0..<sessions {
            lines.append(
                #"{"v":1,"type":"session.start","session":"S\#(s)","ts":\#(base),"app":"com.example.mail","device":"phone"}"#
            )
        }
        for round in 0..<10 {
            for s in 0..<sessions {
                let ts = base + Int64(round * 5 + 1) * 1000
                lines.append(
                    #"{"v":1,"type":"user.action","session":"S\#(s)","ts":\#(ts),"control":"button","label":"Send"}"#
                )
                lines.append(
                    #"{"v":1,"type":"alert.presented","session":"S\#(s)","ts":\#(ts + 1000),"id":"a\#(round)","title":"Sent","buttons":[{"title":"OK","style":"default"}]}"#
                )
                lines.append(
                    #"{"v":1,"type":"alert.dismissed","session":"S\#(s)","ts":\#(ts + 2000),"id":"a\#(round)","button":0}"#
                )
                lines.append(
                    #"{"v":1,"type":"modal.presented","session":"S\#(s)","ts":\#(ts + 3000),"id":"m\#(round)","style":"page_sheet","title":"Compose"}"#
                )
                lines.append(
                    #"{"v":1,"type":"modal.dismissed","session":"S\#(s)","ts":\#(ts + 4000),"id":"m\#(round)","via":"button"}"#
                )
            }
        }
        return lines
    }

    /// A violation object of about 600 bytes, as the engine writes one.
    static let violationJSON =
        #"{"v":1,"id":"00000000000000000000000000005eed","rule":"alert-frequency","rev":1,"module":"overuse","severity":"warning","edition":"2024","app":"com.example.mail","session":"4F2C9A7E-1B3D","ts":1732290009000,"observed":1732290009001,"message":"11 modal presentations within 5 minutes (at most 10)","guideline":"https://developer.apple.com/design/human-interface-guidelines/modality","evidence":{"count":11,"window_ms":300000,"limit":10},"events":[{"type":"alert.presented","ts":1732290009000,"id":"a1"}],"fingerprint":"0123456789abcdef"}"#
}
