import ByteBasics

/// One UI event of wire format v1 (events.md), without the fields the client fills in
/// (`v`, `type`, `session`, `ts`, `seq`, `app`). Send it with ``ClientSession/send(_:at:)``.
public enum ClientEvent: Sendable, Equatable {
    /// `app.background`: the app leaves the foreground.
    case appBackground
    /// `app.foreground`: the app returns to the foreground.
    case appForeground
    /// `user.action`: the person tapped or otherwise acted.
    case userAction(control: UserControl? = nil, label: String? = nil, destructive: Bool? = nil)
    /// `task.progress`: a long-running task the app tracks.
    case taskProgress(task: String, state: TaskState)
    /// `alert.presented`: an alert appears; buttons in visual order.
    case alertPresented(
        id: String,
        title: String?,
        message: String?,
        buttons: [AlertButton] = [],
        textFields: [TextField]? = nil
    )
    /// `alert.dismissed`: an alert goes away.
    case alertDismissed(id: String, button: Int? = nil, via: DismissVia? = nil)
    /// `sheet.presented`: an action sheet appears.
    case sheetPresented(
        id: String,
        title: String? = nil,
        message: String? = nil,
        buttons: [AlertButton] = [],
        inPopover: Bool? = nil,
        fromPopover: Bool? = nil,
        background: String? = nil
    )
    /// `sheet.dismissed`: an action sheet goes away.
    case sheetDismissed(id: String, button: Int? = nil, via: DismissVia? = nil)
    /// `modal.presented`: a modal view is presented.
    case modalPresented(
        id: String,
        style: ModalStyle? = nil,
        transition: ModalTransition? = nil,
        title: String? = nil,
        buttons: [ModalButton]? = nil,
        sizeClass: SizeClass? = nil
    )
    /// `modal.dismissed`: a modal view goes away.
    case modalDismissed(
        id: String,
        via: DismissVia? = nil,
        button: Int? = nil,
        unsavedChanges: Bool? = nil,
        confirmed: Bool? = nil
    )
    /// `popover.presented`.
    case popoverPresented(id: String)
    /// `popover.dismissed`.
    case popoverDismissed(id: String)
    /// `nav.push`: navigation inside whatever is topmost.
    case navPush(screen: String? = nil)
    /// `nav.pop`.
    case navPop(screen: String? = nil)

    /// The wire `type`.
    public var typeName: String { wireType.name.description }

    /// The event type, whose `name` is the wire `type`.
    var wireType: WireEventType {
        switch self {
        case .appBackground: .appBackground
        case .appForeground: .appForeground
        case .userAction: .userAction
        case .taskProgress: .taskProgress
        case .alertPresented: .alertPresented
        case .alertDismissed: .alertDismissed
        case .sheetPresented: .sheetPresented
        case .sheetDismissed: .sheetDismissed
        case .modalPresented: .modalPresented
        case .modalDismissed: .modalDismissed
        case .popoverPresented: .popoverPresented
        case .popoverDismissed: .popoverDismissed
        case .navPush: .navPush
        case .navPop: .navPop
        }
    }
}
