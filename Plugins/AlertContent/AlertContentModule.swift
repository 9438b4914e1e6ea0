public import ModalwatchABI
import RuleKit

/// The `alert-content` module: one alert's text and buttons (rules.md, "Module `alert-content`").
enum AlertContentModule {
    /// Built once, on the host's first call of `modalwatch_module`; never freed.
    static let export = ModuleExport.make(
        name: "alert-content",
        version: "1.0.0",
        rules: [
            AlertNoButtons.self,
            AlertSingleButton.self,
            AlertTooManyButtons.self,
            AlertTitleMissing.self,
            AlertTitleSingleWord.self,
            AlertErrorWord.self,
            AlertTitleTooLong.self,
            AlertMessageTooLong.self,
            AlertPronoun.self,
            AlertTitleStyle.self,
            AlertMessageStyle.self,
            AlertButtonInstructions.self,
            AlertButtonYesNo.self,
            AlertButtonTitleFormat.self,
            AlertButtonTitleLength.self,
            AlertCancelLabel.self,
            AlertCancelPosition.self,
            AlertDestructiveWithoutCancel.self,
            AlertDestructivePreferred.self,
            AlertBackgroundAction.self,
            AlertTextFields.self,
        ]
    )

    /// The module description the entry point returns.
    static var exported: UnsafePointer<mw_module> { export.module }
}

/// The module's one entry point (`MW_ENTRY_SYMBOL`).
@_cdecl("modalwatch_module")
public func modalwatchModule() -> UnsafePointer<mw_module> { AlertContentModule.exported }
