import ModalwatchABI

/// Calls a 1.2 module's `on_init` with its settings, and gives it the host services it
/// may use during the call (`log`, `module_error`; the per-event ones do nothing there).
struct ModuleInitializer {
    /// The host table `on_init` gets: its `ctx` is the module's `ModuleRuntime`.
    /// Written once, never again; shared by every module.
    nonisolated(unsafe) static let host: UnsafeMutablePointer<mw_host> = {
        let host = UnsafeMutablePointer<mw_host>.allocate(capacity: 1)
        host.initialize(
            to: mw_host(
                struct_size: UInt32(MemoryLayout<mw_host>.size),
                abi_minor: UInt32(MW_ABI_MINOR),
                counter_add: { _, _, _, _ in 0 },
                window_push: { _, _, _, _, _ in 0 },
                report: { _, _ in },
                should_report: { _, _, _ in 0 },
                log: { context, level, message in
                    runtime(context)?.log(
                        level: level,
                        message: ModuleRuntime.text(message),
                        context: ["phase": "init"]
                    )
                },
                module_error: { context, detail in
                    runtime(context)?.recordError(ModuleRuntime.text(detail), context: ["phase": "init"])
                },
                words: nil,
                reserved_services: (nil, nil, nil),
                report_written: nil,
                write_text: nil,
                write_int: nil,
                write_key: nil,
                write_literal: nil,
                write_json: nil,
                reserved_writers: (nil, nil),
                skip_language: nil
            )
        )
        return host
    }()

    private static func runtime(_ context: OpaquePointer?) -> ModuleRuntime? {
        guard let context else { return nil }
        return Unmanaged<ModuleRuntime>.fromOpaque(UnsafeRawPointer(context)).takeUnretainedValue()
    }

    let path: String
    let description: UnsafePointer<mw_module>
    let hooks: ModuleHooks

    /// Runs `on_init` (when the module has one) and hands the state to `runtime`;
    /// without one, the state is the module's `mw_module.state`.
    func initialize(_ runtime: ModuleRuntime, settings: [(key: String, value: String)]) throws {
        guard let initialize = hooks.initialize else {
            runtime.adopt(state: hooks.staticState, destroy: hooks.destroy)
            return
        }
        // The settings' bytes live in one buffer for the call.
        var bytes: [UInt8] = []
        var ranges: [(key: Range<Int>, value: Range<Int>)] = []
        for setting in settings {
            let keyStart = bytes.count
            bytes += setting.key.utf8
            let valueStart = bytes.count
            bytes += setting.value.utf8
            ranges.append((keyStart..<valueStart, valueStart..<bytes.count))
        }
        var state: UnsafeMutableRawPointer?
        let status: Int32 = bytes.withUnsafeBufferPointer { buffer in
            var entries: [mw_setting] = []
            if let start = buffer.baseAddress {
                let base = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
                entries = ranges.map { range in
                    mw_setting(
                        key: mw_str(ptr: base + range.key.lowerBound, len: range.key.count),
                        value: mw_str(ptr: base + range.value.lowerBound, len: range.value.count)
                    )
                }
            }
            return entries.withUnsafeBufferPointer { entries in
                var arguments = mw_init(
                    struct_size: UInt32(MemoryLayout<mw_init>.size),
                    abi_minor: UInt32(MW_ABI_MINOR),
                    settings: entries.isEmpty ? nil : entries.baseAddress,
                    setting_count: UInt32(entries.count),
                    reserved: 0,
                    host: UnsafePointer(Self.host),
                    ctx: OpaquePointer(Unmanaged.passUnretained(runtime).toOpaque()),
                    module: description
                )
                return initialize(&arguments, &state)
            }
        }
        guard status == MW_INIT_OK else {
            let reason = runtime.lastErrorMessage ?? "on_init returned \(status) without saying why"
            throw ModuleLoadError(path: path, reason: .initFailed(module: runtime.name, reason: reason))
        }
        runtime.adopt(state: state, destroy: hooks.destroy)
    }
}

/// A module's 1.2 lifecycle functions and its static state, read from its description.
// @unchecked: the pointers point into a module that is never unloaded (its description, its static
// state) or are its C functions; the loader sets them once while it reads the description, before the
// module is shared, and no one writes through them afterwards; `initialize` is called by the loader's
// thread before sharing, `destroy` once by the `ModuleRuntime` the last catalog releases.
struct ModuleHooks: @unchecked Sendable {
    var description: UnsafePointer<mw_module>?
    var initialize:
        (@convention(c) (UnsafePointer<mw_init>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32)?
    var destroy: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    var staticState: UnsafeMutableRawPointer?
}
