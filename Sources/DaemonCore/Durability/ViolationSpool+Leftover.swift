import Glibc
import Logging
import Posix

/// Taking over the spill file an earlier run left (`ViolationSpool`): read in slices, never whole.
extension ViolationSpool {
    /// Takes over `spool.bin`: counts its sound records and its damage (logged), cuts a torn
    /// tail; sets aside, with one line, a file over the bound, of another version, or kept with
    /// no spill file allowed; converts an older release's unframed file.
    func adoptLeftover() {
        guard let spillPath else { return }
        var info = stat()
        guard stat(spillPath, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return }
        let size = Int(info.st_size)
        guard fileLimit > 0 else {
            setAside("unread", why: "history.spool_file is 0, so no spill file is read")
            return
        }
        guard size <= fileLimit + SpoolFileFormat.headerBytes else {
            setAside(
                "oversize",
                why: "it is \(size) bytes, more than history.spool_file (\(fileLimit)); raise the bound to have it read"
            )
            return
        }
        guard let descriptor = try? Posix.open(spillPath, O_RDWR | O_CLOEXEC) else {
            setAside("unreadable", why: "it cannot be opened for reading and writing")
            return
        }
        spill = descriptor
        let head = (try? readSlice(at: 0, count: SpoolFileFormat.headerBytes)) ?? 0
        let kind = readBuffer.withUnsafeBytes {
            SpoolFileFormat.kind(of: UnsafeRawBufferPointer(rebasing: $0[..<head]))
        }
        switch kind {
        case .framed:
            fileHead = SpoolFileFormat.headerBytes
            fileEnd = size
            countFrames()
        case .otherVersion(let version):
            closeSpill()
            setAside(
                "version\(version)",
                why: "it is of spool format version \(version); this release reads version \(SpoolFileFormat.version)"
            )
        case .unframed:
            closeSpill()
            convertUnframed(size: size)
        }
    }

    /// Walks the frames of the taken-over file in slices: counts the records, counts and logs
    /// each damaged stretch, and cuts a damaged tail off (so that new frames follow sound ones).
    private func countFrames() {
        var position = fileHead
        var want = Self.sliceBytes
        var records = 0
        var damage = 0
        var tornAt: Int?
        while position < fileEnd {
            let requested = min(want, fileEnd - position)
            guard let read = try? readSlice(at: position, count: requested), read > 0 else {
                tornAt = position
                break
            }
            // Fewer bytes than asked (the file shrank since it was measured): its end is here.
            let atFileEnd = position + read >= fileEnd || read < requested
            var consumed = 0
            readBuffer.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[..<read])
                scanning: while let step = SpoolFileFormat.scan(bytes, at: consumed, atFileEnd: atFileEnd) {
                    switch step {
                    case .record(_, let end):
                        records += 1
                        consumed = end
                    case .damaged(let start, let end, let flaw):
                        damage += 1
                        countedDamage.insert(position + start)
                        reportDamage(at: position + start, bytes: end - start, index: damage, flaw: flaw)
                        if atFileEnd && end == read { tornAt = position + start }
                        consumed = end
                    case .incomplete:
                        break scanning
                    }
                }
            }
            if consumed == 0 {
                want = min(want * 2, fileEnd - position)
                continue
            }
            want = Self.sliceBytes
            position += consumed
        }
        reportDamageSummary(damage)
        if let tornAt {
            try? Posix.truncate(spill, to: tornAt)
            fileEnd = tornAt
            countedDamage.remove(tornAt)
        }
        fileRecords = records
        readBuffer = []
    }

    /// An older release's file: its records one after another, unframed. Moved aside, read in
    /// slices into a framed file; a whole record past the format's bounds (longer than
    /// `maxRecordBytes`, a time outside `EventTime`) is counted, logged and skipped; set aside for
    /// good (and logged) from the first record that does not read, removed once every record was taken.
    private func convertUnframed(size: Int) {
        guard let spillPath else { return }
        let aside = spillPath + ".unframed-" + clock.utcStamp()
        guard (try? Posix.rename(spillPath, aside)) != nil, let old = try? Posix.open(aside, O_RDONLY | O_CLOEXEC)
        else {
            logger.error(
                "the spool's spill file is not in this release's format and could not be moved aside; it is left as it is and not read",
                metadata: ["path": "\(spillPath)"]
            )
            return
        }
        defer { try? Posix.close(old) }
        var position = 0
        var want = Self.sliceBytes
        var converted = 0
        var damage = 0
        var slice: [UInt8] = []
        reading: while position < size {
            let count = min(want, size - position)
            if slice.count < count { slice = [UInt8](repeating: 0, count: count) }
            let read = slice.withUnsafeMutableBytes {
                (try? Posix.read(old, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), at: position)) ?? 0
            }
            guard read > 0 else { break }
            var whole = 0
            var full = false
            slice.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[..<read])
                var reader = OutboundBatchReader(bytes)
                while case .violation(_, _, let columns)? = reader.next() {
                    let record = UnsafeRawBufferPointer(rebasing: bytes[whole..<reader.offset])
                    let flaw: SpoolFileFormat.Flaw? =
                        record.count > SpoolFileFormat.maxRecordBytes
                        ? .length(UInt32(clamping: record.count)) : SpoolFileFormat.timeFlaw(columns)
                    if let flaw {
                        // A whole record whose bounds it breaks: counted and skipped, the next one read.
                        damage += 1
                        reportDamage(at: position + whole, bytes: record.count, index: damage, flaw: flaw)
                    } else {
                        guard appendToFile(record) else {
                            full = true
                            break
                        }
                        converted += 1
                    }
                    whole = reader.offset
                }
            }
            if full { break reading }
            if whole == 0 {
                // A record longer than the slice, or bytes that are no record.
                guard position + read < size, want < SpoolFileFormat.maxRecordBytes * 2 else { break reading }
                want *= 2
                continue
            }
            want = Self.sliceBytes
            position += whole
        }
        reportDamageSummary(damage)
        if position >= size {
            try? Posix.unlink(aside)
            logger.notice(
                "converted the spool's spill file of an older release; its violations go into the history first",
                metadata: [
                    "violations": "\(converted)", "path": "\(spillPath)",
                ]
            )
            return
        }
        reportDamage(at: position, bytes: size - position, index: 1, flaw: .record)
        logger.error(
            "the spool's spill file of an older release does not read past this offset; the violations read are kept, the file is set aside",
            metadata: [
                "violations_read": "\(converted)", "offset": "\(position)", "set_aside_as": "\(aside)",
            ]
        )
    }

    /// Renames the spill file to `spool.bin.<label>-<UTC time>` and says why in one line.
    private func setAside(_ label: String, why: String) {
        guard let spillPath else { return }
        let aside = spillPath + "." + label + "-" + clock.utcStamp()
        do {
            try Posix.rename(spillPath, aside)
            logger.error(
                "the spool's spill file was set aside, not read: \(why)",
                metadata: ["path": "\(spillPath)", "set_aside_as": "\(aside)"]
            )
        } catch {
            logger.error(
                "the spool's spill file is not read and could not be set aside: \(why)",
                metadata: [
                    "path": "\(spillPath)", "error": "\(error)",
                ]
            )
        }
    }

    private func closeSpill() {
        if spill >= 0 { try? Posix.close(spill) }
        spill = -1
        fileHead = 0
        fileEnd = 0
    }
}
