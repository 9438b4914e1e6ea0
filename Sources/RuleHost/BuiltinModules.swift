#if canImport(Glibc)
import Glibc
#endif

/// Where the rule modules that ship with modalwatch are, found with no configuration.
///
/// Installed (`PREFIX/bin/modalwatchd`): `PREFIX/lib/modalwatch/rules`.
/// In a build tree (`.build/debug/modalwatchd`): the executable's own folder, where
/// SwiftPM puts the `libmodalwatch-rules-*.so` products.
public enum BuiltinModules: Sendable {
    /// File names of built-in modules in a build tree start with this.
    public static let buildTreePrefix = "libmodalwatch-rules-"

    /// The folder of the running executable, resolved through /proc/self/exe.
    public static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// The places to look, most specific first, given the executable's folder.
    /// Each is a folder and whether only `libmodalwatch-rules-*.so` files count there.
    public static func searchLocations(executableDirectory dir: String) -> [(directory: String, prefixOnly: Bool)] {
        let parent = dir.hasSuffix("/bin") ? String(dir.dropLast(4)) : dir + "/.."
        return [
            (parent + "/lib/modalwatch/rules", false),
            (dir, true),
        ]
    }
}
