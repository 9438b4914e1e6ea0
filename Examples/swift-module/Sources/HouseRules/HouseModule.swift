public import ModalwatchABI
import RuleKit

/// The module description modalwatchd reads: built once, never freed.
enum HouseModule {
    static let export = ModuleExport.make(name: "house", version: "1.0.0", rules: [AlertTooEarly.self]) { settings in
        try HouseSettings(settings.entries)
    }
}

/// The one symbol a rule module exports.
@_cdecl("modalwatch_module")
public func modalwatchModule() -> UnsafePointer<mw_module> { HouseModule.export.module }
