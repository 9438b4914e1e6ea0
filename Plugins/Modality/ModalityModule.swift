public import ModalwatchABI
import RuleKit

/// The `modality` module: the presentation stack (rules.md, "Module `modality`").
enum ModalityModule {
    /// Built once, on the host's first call of `modalwatch_module`; never freed.
    static let export = ModuleExport.make(
        name: "modality",
        version: "1.0.0",
        rules: [
            ModalDepth.self,
            ModalNavDepth.self,
            ModalOverPopover.self,
            ModalMissingDismiss.self,
            ModalMissingTitle.self,
            ModalDismissDataLoss.self,
            ModalTransitionInconsistent.self,
            ModalCurrentContextCompact.self,
            SheetWithoutUserAction.self,
        ]
    )

    /// The module description the entry point returns.
    static var exported: UnsafePointer<mw_module> { export.module }
}

/// The module's one entry point (`MW_ENTRY_SYMBOL`).
@_cdecl("modalwatch_module")
public func modalwatchModule() -> UnsafePointer<mw_module> { ModalityModule.exported }
