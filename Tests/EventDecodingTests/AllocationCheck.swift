import EventDecoding
import Glibc
import XCTest

/// A manual check that decoding allocates nothing per event. It runs only when a malloc-counting
/// library is preloaded (it exports `unsigned long mw_malloc_count(void)` and counts, per thread, malloc, calloc,
/// realloc, aligned_alloc and posix_memalign; docs/decoder.md has its ten lines of C):
///
///     cc -shared -fPIC -O2 -o /tmp/mwcount.so mwcount.c
///     swift build --build-tests && LD_PRELOAD=/tmp/mwcount.so swift test --skip-build --filter AllocationCheck
final class AllocationCheck: XCTestCase {
    /// Representative events of about 180 bytes.
    static let events = [
        #"{"v":1,"type":"alert.presented","session":"4F2C9A7E-1B3D","ts":1732290009000,"seq":42,"id":"a1","title":"Error","message":"Something went wrong","buttons":[{"title":"OK","style":"default"}]}"#,
        #"{"v":1,"type":"user.action","session":"4F2C9A7E-1B3D","ts":1732290004000,"seq":43,"app":"com.example.mail","control":"toolbar_button","label":"Trash","destructive":true}"#,
        #"{"v":1,"type":"sheet.dismissed","session":"4F2C9A7E-1B3D","ts":1732290005200,"seq":44,"app":"com.example.mail","id":"sh1","button":0,"via":"button","extra":{"k":[1,2]}}"#,
    ]

    func testNoHeapAllocationPerEvent() throws {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mw_malloc_count") else {
            throw XCTSkip("preload a malloc counter exporting mw_malloc_count to run")
        }
        let mallocCount = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
        let payloads: [[UInt8]] = [
            Self.events.joined(separator: "\n"),
            event("session.start", #""app":"com.example.mail","app_version":"1","os":"iOS","device":"pad","size_class":"regular""#),
            event("alert.presented", #""id":"a\u0031","title":"“T” 😀\n","message":null,"buttons":[{"title":"A","style":"cancel","preferred":true},{"title":"B\"","x":[1,{"y":2}]}],"text_fields":[{"secure":true},{}]"#),
            event("modal.presented", #""id":"m","style":"page_sheet","transition":"cross_dissolve","buttons":[{"title":"Done","role":"done"}]"#),
            event("modal.dismissed", #""id":"m","via":"gesture","button":null,"unsaved_changes":true,"confirmed":false"#),
            event("task.progress", #""task":"t","state":"finished""#),
            event("toast.unknown", #""x":{"deep":[[[[1]]]]}"#),
        ].map { Array($0.utf8) }
        let decoder = EventDecoder()
        var events = 0
        for payload in payloads {  // warm-up
            payload.withUnsafeBytes { bytes in decoder.decode(bytes) { _ in } }
        }
        var allocations: UInt = 0
        for payload in payloads {
            payload.withUnsafeBytes { bytes in
                let before = mallocCount()
                for _ in 0..<10_000 {
                    decoder.decode(bytes) { item in
                        if case .event = item { events &+= 1 }
                    }
                }
                allocations += mallocCount() - before
            }
        }
        XCTAssertEqual(events, 10_000 * (Self.events.count + payloads.count - 1))
        XCTAssertEqual(allocations, 0, "heap allocations while decoding \(events) events")
    }
}
