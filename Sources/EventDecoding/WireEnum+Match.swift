// Generated from `WireEnum.values` (each word is 8 bytes of a value, little-endian, zero past its
// end); `WireEnumTests` checks every value and its near misses through the decoder.

extension WireEnum {
    /// The index of the value whose bytes are `words` (`ValueWords`), or nil: a jump on the length,
    /// then one to three word compares per value of that length.
    @inline(__always)
    func index(of words: ValueWords) -> Int? {
        switch self {
        case .eventType: Self.eventTypeIndex(words)
        case .device: Self.deviceIndex(words)
        case .sizeClass: Self.sizeClassIndex(words)
        case .control: Self.controlIndex(words)
        case .taskState: Self.taskStateIndex(words)
        case .buttonStyle: Self.buttonStyleIndex(words)
        case .modalRole: Self.modalRoleIndex(words)
        case .via: Self.viaIndex(words)
        case .modalStyle: Self.modalStyleIndex(words)
        case .transition: Self.transitionIndex(words)
        }
    }

    private static func eventTypeIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 7:
            if v.w0 == 0x70_6f70_2e76_616e { return 15 }  // nav.pop
            return nil
        case 8:
            if v.w0 == 0x6873_7570_2e76_616e { return 14 }  // nav.push
            return nil
        case 11:
            if v.w0 == 0x2e6e_6f69_7373_6573 && v.w1 == 0x64_6e65 { return 1 }  // session.end
            if v.w0 == 0x7463_612e_7265_7375 && v.w1 == 0x6e_6f69 { return 4 }  // user.action
            return nil
        case 13:
            if v.w0 == 0x2e6e_6f69_7373_6573 && v.w1 == 0x74_7261_7473 { return 0 }  // session.start
            if v.w0 == 0x6f72_702e_6b73_6174 && v.w1 == 0x73_7365_7267 { return 5 }  // task.progress
            return nil
        case 14:
            if v.w0 == 0x6b63_6162_2e70_7061 && v.w1 == 0x646e_756f_7267 { return 2 }  // app.background
            if v.w0 == 0x6572_6f66_2e70_7061 && v.w1 == 0x646e_756f_7267 { return 3 }  // app.foreground
            return nil
        case 15:
            if v.w0 == 0x7270_2e74_7265_6c61 && v.w1 == 0x64_6574_6e65_7365 { return 6 }  // alert.presented
            if v.w0 == 0x6964_2e74_7265_6c61 && v.w1 == 0x64_6573_7369_6d73 { return 7 }  // alert.dismissed
            if v.w0 == 0x7270_2e74_6565_6873 && v.w1 == 0x64_6574_6e65_7365 { return 8 }  // sheet.presented
            if v.w0 == 0x6964_2e74_6565_6873 && v.w1 == 0x64_6573_7369_6d73 { return 9 }  // sheet.dismissed
            if v.w0 == 0x7270_2e6c_6164_6f6d && v.w1 == 0x64_6574_6e65_7365 { return 10 }  // modal.presented
            if v.w0 == 0x6964_2e6c_6164_6f6d && v.w1 == 0x64_6573_7369_6d73 { return 11 }  // modal.dismissed
            return nil
        case 17:
            if v.w0 == 0x2e72_6576_6f70_6f70 && v.w1 == 0x6574_6e65_7365_7270 && v.w2 == 0x64 { return 12 }  // popover.presented
            if v.w0 == 0x2e72_6576_6f70_6f70 && v.w1 == 0x6573_7369_6d73_6964 && v.w2 == 0x64 { return 13 }  // popover.dismissed
            return nil
        default: return nil
        }
    }

    private static func deviceIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 2:
            if v.w0 == 0x7674 { return 3 }  // tv
            return nil
        case 3:
            if v.w0 == 0x64_6170 { return 1 }  // pad
            if v.w0 == 0x63_616d { return 2 }  // mac
            return nil
        case 5:
            if v.w0 == 0x65_6e6f_6870 { return 0 }  // phone
            return nil
        case 6:
            if v.w0 == 0x6e6f_6973_6976 { return 4 }  // vision
            return nil
        default: return nil
        }
    }

    private static func sizeClassIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 7:
            if v.w0 == 0x74_6361_706d_6f63 { return 0 }  // compact
            if v.w0 == 0x72_616c_7567_6572 { return 1 }  // regular
            return nil
        default: return nil
        }
    }

    private static func controlIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 3:
            if v.w0 == 0x79_656b { return 5 }  // key
            return nil
        case 4:
            if v.w0 == 0x6c6c_6563 { return 3 }  // cell
            return nil
        case 5:
            if v.w0 == 0x72_6568_746f { return 6 }  // other
            return nil
        case 6:
            if v.w0 == 0x6e6f_7474_7562 { return 0 }  // button
            return nil
        case 7:
            if v.w0 == 0x65_7275_7473_6567 { return 4 }  // gesture
            return nil
        case 10:
            if v.w0 == 0x7474_7562_5f72_6162 && v.w1 == 0x6e6f { return 1 }  // bar_button
            return nil
        case 14:
            if v.w0 == 0x5f72_6162_6c6f_6f74 && v.w1 == 0x6e6f_7474_7562 { return 2 }  // toolbar_button
            return nil
        default: return nil
        }
    }

    private static func taskStateIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 6:
            if v.w0 == 0x6465_6c69_6166 { return 3 }  // failed
            return nil
        case 7:
            if v.w0 == 0x64_6574_7261_7473 { return 0 }  // started
            return nil
        case 8:
            if v.w0 == 0x7373_6572_676f_7270 { return 1 }  // progress
            if v.w0 == 0x6465_6873_696e_6966 { return 2 }  // finished
            return nil
        case 9:
            if v.w0 == 0x656c_6c65_636e_6163 && v.w1 == 0x64 { return 4 }  // cancelled
            return nil
        default: return nil
        }
    }

    private static func buttonStyleIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 6:
            if v.w0 == 0x6c65_636e_6163 { return 1 }  // cancel
            return nil
        case 7:
            if v.w0 == 0x74_6c75_6166_6564 { return 0 }  // default
            return nil
        case 11:
            if v.w0 == 0x7463_7572_7473_6564 && v.w1 == 0x65_7669 { return 2 }  // destructive
            return nil
        default: return nil
        }
    }

    private static func modalRoleIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 4:
            if v.w0 == 0x656e_6f64 { return 0 }  // done
            return nil
        case 5:
            if v.w0 == 0x72_6568_746f { return 3 }  // other
            return nil
        case 6:
            if v.w0 == 0x6c65_636e_6163 { return 1 }  // cancel
            return nil
        case 7:
            if v.w0 == 0x6d_7269_666e_6f63 { return 2 }  // confirm
            return nil
        default: return nil
        }
    }

    private static func viaIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 6:
            if v.w0 == 0x6e6f_7474_7562 { return 0 }  // button
            return nil
        case 7:
            if v.w0 == 0x65_7275_7473_6567 { return 3 }  // gesture
            return nil
        case 10:
            if v.w0 == 0x756f_7267_6b63_6162 && v.w1 == 0x646e { return 1 }  // background
            return nil
        case 12:
            if v.w0 == 0x6d6d_6172_676f_7270 && v.w1 == 0x6369_7461 { return 2 }  // programmatic
            return nil
        default: return nil
        }
    }

    private static func modalStyleIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 6:
            if v.w0 == 0x6d6f_7473_7563 { return 7 }  // custom
            return nil
        case 9:
            if v.w0 == 0x6974_616d_6f74_7561 && v.w1 == 0x63 { return 0 }  // automatic
            return nil
        case 10:
            if v.w0 == 0x6568_735f_6567_6170 && v.w1 == 0x7465 { return 2 }  // page_sheet
            if v.w0 == 0x6568_735f_6d72_6f66 && v.w1 == 0x7465 { return 3 }  // form_sheet
            return nil
        case 11:
            if v.w0 == 0x7263_735f_6c6c_7566 && v.w1 == 0x6e_6565 { return 1 }  // full_screen
            return nil
        case 15:
            if v.w0 == 0x5f74_6e65_7272_7563 && v.w1 == 0x74_7865_746e_6f63 { return 4 }  // current_context
            return nil
        case 16:
            if v.w0 == 0x6c75_665f_7265_766f && v.w1 == 0x6e65_6572_6373_5f6c { return 5 }  // over_full_screen
            return nil
        case 20:
            if v.w0 == 0x7275_635f_7265_766f && v.w1 == 0x6e6f_635f_746e_6572 && v.w2 == 0x7478_6574 { return 6 }  // over_current_context
            return nil
        default: return nil
        }
    }

    private static func transitionIndex(_ v: ValueWords) -> Int? {
        switch v.count {
        case 6:
            if v.w0 == 0x6d6f_7473_7563 { return 4 }  // custom
            return nil
        case 12:
            if v.w0 == 0x5f6c_6169_7472_6170 && v.w1 == 0x6c72_7563 { return 3 }  // partial_curl
            return nil
        case 14:
            if v.w0 == 0x6576_5f72_6576_6f63 && v.w1 == 0x6c61_6369_7472 { return 0 }  // cover_vertical
            if v.w0 == 0x6964_5f73_736f_7263 && v.w1 == 0x6576_6c6f_7373 { return 2 }  // cross_dissolve
            return nil
        case 15:
            if v.w0 == 0x726f_685f_7069_6c66 && v.w1 == 0x6c_6174_6e6f_7a69 { return 1 }  // flip_horizontal
            return nil
        default: return nil
        }
    }
}
