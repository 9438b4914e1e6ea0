import CYaml

/// Finds YAML aliases (`*name`) before anything builds a tree of the text.
///
/// An alias repeats a node by reference, so a few hundred bytes of nested aliases stand for a
/// tree of any size; Yams' check for duplicate keys hashes that tree, without bound. A
/// configuration needs none, so the loader refuses any alias in one line, before Yams reads the
/// text. The scan is libyaml's event parser (the one Yams is built on), which expands nothing.
enum YAMLAliasCheck {
    /// The 1-based line of the first alias in `text`, or nil when it has none (or does not parse:
    /// the composer then says why).
    static func firstAliasLine(in text: String) -> Int? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> Int? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_ALIAS_EVENT: return Int(event.start_mark.line) + 1
                case YAML_STREAM_END_EVENT: return nil
                default: continue
                }
            }
            return nil
        }
    }
}
