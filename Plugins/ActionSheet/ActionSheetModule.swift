public import ModalwatchABI
import RuleKit

/// The `action-sheet` module: one sheet's buttons (rules.md, "Module `action-sheet`").
enum ActionSheetModule {
    /// Built once, on the host's first call of `modalwatch_module`; never freed.
    static let export = ModuleExport.make(
        name: "action-sheet",
        version: "1.0.0",
        rules: [
            SheetTooFewButtons.self,
            SheetMissingCancel.self,
            SheetCancelInPopover.self,
            SheetCancelNotLast.self,
            SheetDestructiveNotFirst.self,
            SheetTooManyButtons.self,
            SheetHasMessage.self,
            SheetBackgroundInconsistent.self,
        ]
    )

    /// The module description the entry point returns.
    static var exported: UnsafePointer<mw_module> { export.module }
}

/// The module's one entry point (`MW_ENTRY_SYMBOL`).
@_cdecl("modalwatch_module")
public func modalwatchModule() -> UnsafePointer<mw_module> { ActionSheetModule.exported }
