public import ModalwatchABI
import RuleKit

/// The `overuse` module: how often the app interrupts (rules.md, "Module `overuse`").
enum OveruseModule {
    /// Built once, on the host's first call of `modalwatch_module`; never freed.
    static let export = ModuleExport.make(
        name: "overuse",
        version: "1.0.0",
        rules: [
            AlertFrequency.self,
            ModalFrequency.self,
            RepeatedAlert.self,
            AlertDismissedUnread.self,
            AlertForNormalProgress.self,
            AlertConfirmsUserAction.self,
        ]
    )

    /// The module description the entry point returns.
    static var exported: UnsafePointer<mw_module> { export.module }
}

/// The module's one entry point (`MW_ENTRY_SYMBOL`).
@_cdecl("modalwatch_module")
public func modalwatchModule() -> UnsafePointer<mw_module> { OveruseModule.exported }
