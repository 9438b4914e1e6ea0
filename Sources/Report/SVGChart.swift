import RuleHost

/// The report's charts as inline SVG: every chart has `role="img"`, a `<title>` and a `<desc>`
/// named by `aria-labelledby`, and carries severity by pattern and shape as well as colour.
enum SVGChart {
    /// The width of every chart's view box; the page scales it to the column.
    static let width = 480.0

    /// One bar of a bar chart.
    struct Bar {
        let label: String
        let counts: SeverityCounts
        /// One plain value instead of severities (used when `counts` is empty).
        let value: Int?
        init(label: String, counts: SeverityCounts) {
            self.label = label
            self.counts = counts
            self.value = nil
        }
        init(label: String, value: Int) {
            self.label = label
            self.counts = SeverityCounts()
            self.value = value
        }
        var total: Int { value ?? counts.total }
    }

    /// The opening tag, title and description of a chart.
    static func open(id: String, title: String, desc: String, height: Double) -> String {
        """
        <svg data-chart="\(id)" class="chart" viewBox="0 0 \(Int(width)) \(HTML.coordinate(height))" role="img" \
        aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMinYMin meet">\
        <title id="\(id)-title">\(HTML.escape(title))</title><desc id="\(id)-desc">\(HTML.escape(desc))</desc>
        """
    }

    /// The `<defs>` every chart uses: the severity and presentation patterns, once per page.
    static let definitions = """
        <svg class="defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>\
        <pattern id="p-warning" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
        <rect width="6" height="6" class="pf-warning"/><line x1="0" y1="0" x2="0" y2="6" class="ps" stroke-width="2.5"/></pattern>\
        <pattern id="p-info" width="6" height="6" patternUnits="userSpaceOnUse">\
        <rect width="6" height="6" class="pf-info"/><circle cx="3" cy="3" r="1.3" class="pd"/></pattern>\
        <pattern id="p-sheet" width="6" height="6" patternUnits="userSpaceOnUse">\
        <rect width="6" height="6" class="pf-sheet"/><line x1="0" y1="0" x2="0" y2="6" class="ps" stroke-width="1.5"/></pattern>\
        </defs></svg>
        """

    /// A shape for a severity at (x, y): a square for error, a triangle for warning, a circle for info.
    static func shape(_ severity: Severity, x: Double, y: Double, size: Double = 9) -> String {
        let h = size / 2
        let cx = HTML.coordinate(x), cy = HTML.coordinate(y)
        switch severity {
        case .error:
            return "<rect class=\"mk-error\" x=\"\(HTML.coordinate(x - h))\" y=\"\(HTML.coordinate(y - h))\" width=\"\(HTML.coordinate(size))\" height=\"\(HTML.coordinate(size))\"/>"
        case .warning:
            return "<path class=\"mk-warning\" d=\"M\(cx) \(HTML.coordinate(y - h - 1))L\(HTML.coordinate(x + h + 1)) \(HTML.coordinate(y + h))L\(HTML.coordinate(x - h - 1)) \(HTML.coordinate(y + h))Z\"/>"
        case .info:
            return "<circle class=\"mk-info\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(HTML.coordinate(h))\"/>"
        }
    }

    /// Horizontal bars, one per row, label above the bar, total at its end; segments by severity.
    static func bars(id: String, title: String, desc: String, bars: [Bar]) -> String {
        let rowHeight = 38.0
        let height = max(40, Double(bars.count) * rowHeight + 6)
        let maximum = Double(max(1, bars.map(\.total).max() ?? 1))
        let room = width - 56
        var svg = open(id: id, title: title, desc: desc, height: height)
        for (i, bar) in bars.enumerated() {
            let y = Double(i) * rowHeight
            let label = bar.label.count > 64 ? String(bar.label.prefix(63)) + "\u{2026}" : bar.label
            svg += "<text class=\"label\" x=\"0\" y=\"\(HTML.coordinate(y + 14))\">\(HTML.escape(label))</text>"
            var x = 0.0
            if let value = bar.value {
                let w = max(1, room * Double(value) / maximum)
                svg += "<rect class=\"bar-plain\" x=\"0\" y=\"\(HTML.coordinate(y + 19))\" width=\"\(HTML.coordinate(w))\" height=\"13\" rx=\"2\"/>"
                x = w
            } else {
                for severity in [Severity.error, .warning, .info] where bar.counts[severity] > 0 {
                    let w = max(1, room * Double(bar.counts[severity]) / maximum)
                    svg += "<rect class=\"sev-\(severity.rawValue)\" x=\"\(HTML.coordinate(x))\" y=\"\(HTML.coordinate(y + 19))\" width=\"\(HTML.coordinate(w))\" height=\"13\"/>"
                    x += w
                }
            }
            svg += "<text class=\"value\" x=\"\(HTML.coordinate(x + 6))\" y=\"\(HTML.coordinate(y + 30))\">\(HTML.number(bar.total))</text>"
        }
        return svg + "</svg>"
    }

    /// Vertical columns with a label under each (or under every `labelEvery`-th), stacked by severity
    /// when the bars carry severities.
    static func columns(id: String, title: String, desc: String, bars: [Bar], axisTitle: String, labelEvery: Int = 1) -> String {
        let height = 230.0
        let left = 40.0, right = width - 8, top = 18.0, bottom = 176.0
        let maximum = max(1, bars.map(\.total).max() ?? 1)
        let slot = (right - left) / Double(max(1, bars.count))
        let gap = slot > 8 ? min(6, slot * 0.2) : 0
        var svg = open(id: id, title: title, desc: desc, height: height)
        for fraction in [0.0, 0.5, 1.0] {
            let y = bottom - (bottom - top) * fraction
            let value = Int((Double(maximum) * fraction).rounded())
            svg += "<line class=\"grid\" x1=\"\(HTML.coordinate(left))\" x2=\"\(HTML.coordinate(right))\" y1=\"\(HTML.coordinate(y))\" y2=\"\(HTML.coordinate(y))\"/>"
            svg += "<text class=\"tick\" x=\"\(HTML.coordinate(left - 6))\" y=\"\(HTML.coordinate(y + 4))\" text-anchor=\"end\">\(HTML.number(value))</text>"
        }
        for (i, bar) in bars.enumerated() {
            let x = left + Double(i) * slot + gap / 2
            let w = max(0.5, slot - gap)
            var y = bottom
            if let value = bar.value {
                let h = (bottom - top) * Double(value) / Double(maximum)
                y -= h
                svg += "<rect class=\"bar-plain\" x=\"\(HTML.coordinate(x))\" y=\"\(HTML.coordinate(y))\" width=\"\(HTML.coordinate(w))\" height=\"\(HTML.coordinate(h))\"/>"
            } else {
                for severity in [Severity.error, .warning, .info] where bar.counts[severity] > 0 {
                    let h = (bottom - top) * Double(bar.counts[severity]) / Double(maximum)
                    y -= h
                    svg += "<rect class=\"sev-\(severity.rawValue)\" x=\"\(HTML.coordinate(x))\" y=\"\(HTML.coordinate(y))\" width=\"\(HTML.coordinate(w))\" height=\"\(HTML.coordinate(h))\"/>"
                }
            }
            if bar.total > 0 && slot >= 16 {
                svg += "<text class=\"value\" x=\"\(HTML.coordinate(x + w / 2))\" y=\"\(HTML.coordinate(y - 4))\" text-anchor=\"middle\">\(HTML.number(bar.total))</text>"
            }
            if i % max(1, labelEvery) == 0 {
                svg += "<text class=\"tick\" x=\"\(HTML.coordinate(x + w / 2))\" y=\"\(HTML.coordinate(bottom + 16))\" text-anchor=\"middle\">\(HTML.escape(bar.label))</text>"
            }
        }
        svg += "<line class=\"axis\" x1=\"\(HTML.coordinate(left))\" x2=\"\(HTML.coordinate(right))\" y1=\"\(HTML.coordinate(bottom))\" y2=\"\(HTML.coordinate(bottom))\"/>"
        svg += "<text class=\"tick\" x=\"\(HTML.coordinate((left + right) / 2))\" y=\"\(HTML.coordinate(bottom + 40))\" text-anchor=\"middle\">\(HTML.escape(axisTitle))</text>"
        return svg + "</svg>"
    }

    /// A session's presentation stack over event time: one lane per stack level (bottom level at
    /// the bottom), one bar per presentation, labelled; violations as severity shapes on a row
    /// above, with a line down to the stack.
    static func timeline(id: String, title: String, desc: String, session: SessionTimeline) -> String {
        let levels = (session.spans.map(\.level).max() ?? -1) + 1
        let lane = 24.0
        let left = 56.0, right = width - 10
        let marksTop = 6.0, marksHeight = 26.0
        let lanesTop = marksTop + marksHeight + 6
        let lanesBottom = lanesTop + Double(max(levels, 1)) * lane
        let height = lanesBottom + 34
        let span = Double(max(1, session.end - session.start))
        func x(_ ts: Int64) -> Double { left + (right - left) * Double(ts - session.start) / span }
        var svg = open(id: id, title: title, desc: desc, height: height)
        svg += "<text class=\"tick\" x=\"0\" y=\"\(HTML.coordinate(marksTop + 17))\">rules</text>"
        for level in 0..<max(levels, 1) {
            let y = lanesBottom - Double(level + 1) * lane
            svg += "<rect class=\"lane\" x=\"\(HTML.coordinate(left))\" y=\"\(HTML.coordinate(y))\" width=\"\(HTML.coordinate(right - left))\" height=\"\(HTML.coordinate(lane - 2))\"/>"
            svg += "<text class=\"tick\" x=\"0\" y=\"\(HTML.coordinate(y + 15))\">\(levels == 0 ? "stack" : "level \(level)")</text>"
        }
        if levels == 0 {
            let note = session.hasEvents ? "nothing presented" : "no events in the source: stack unknown"
            svg += "<text class=\"tick\" x=\"\(HTML.coordinate((left + right) / 2))\" y=\"\(HTML.coordinate(lanesBottom - 8))\" text-anchor=\"middle\">\(note)</text>"
        }
        for spanItem in session.spans {
            let x0 = x(spanItem.start), x1 = max(x(spanItem.end), x0 + 3)
            let y = lanesBottom - Double(spanItem.level + 1) * lane + 1
            let kind = spanItem.kind.rawValue
            var label = kind
            if let title = spanItem.title, !title.isEmpty { label += " \u{201C}\(title)\u{201D}" } else { label += " \(spanItem.id)" }
            let tip = "\(label), \(ReportTime.duration(spanItem.end - spanItem.start))\(spanItem.open ? ", still presented" : "")"
            svg += "<g><title>\(HTML.escape(tip))</title><rect class=\"k-\(kind)\(spanItem.open ? " open" : "")\" x=\"\(HTML.coordinate(x0))\" y=\"\(HTML.coordinate(y))\" width=\"\(HTML.coordinate(x1 - x0))\" height=\"\(HTML.coordinate(lane - 4))\" rx=\"3\"/>"
            let room = Int((x1 - x0 - 6) / 6.2)
            if room >= 3 {
                let text = label.count > room ? String(label.prefix(room - 1)) + "\u{2026}" : label
                svg += "<text class=\"in-bar\" x=\"\(HTML.coordinate(x0 + 4))\" y=\"\(HTML.coordinate(y + 14))\">\(HTML.escape(text))</text>"
            }
            svg += "</g>"
        }
        var lastX = -100.0
        var stackOffset = 0.0
        for mark in session.marks {
            let mx = x(mark.ts)
            stackOffset = abs(mx - lastX) < 8 ? min(stackOffset + 9, 9) : 0
            lastX = mx
            let my = marksTop + 18 - stackOffset
            svg += "<line class=\"mark-line\" x1=\"\(HTML.coordinate(mx))\" x2=\"\(HTML.coordinate(mx))\" y1=\"\(HTML.coordinate(marksTop + 22))\" y2=\"\(HTML.coordinate(lanesBottom))\"/>"
            svg += "<g><title>\(HTML.escape("\(mark.severity.rawValue): \(mark.rule) at +\(ReportTime.duration(mark.ts - session.start))"))</title>\(shape(mark.severity, x: mx, y: my))</g>"
        }
        svg += "<line class=\"axis\" x1=\"\(HTML.coordinate(left))\" x2=\"\(HTML.coordinate(right))\" y1=\"\(HTML.coordinate(lanesBottom))\" y2=\"\(HTML.coordinate(lanesBottom))\"/>"
        svg += "<text class=\"tick\" x=\"\(HTML.coordinate(left))\" y=\"\(HTML.coordinate(lanesBottom + 16))\">+0 s</text>"
        svg += "<text class=\"tick\" x=\"\(HTML.coordinate(right))\" y=\"\(HTML.coordinate(lanesBottom + 16))\" text-anchor=\"end\">+\(ReportTime.duration(session.end - session.start))</text>"
        svg += "<text class=\"tick\" x=\"\(HTML.coordinate((left + right) / 2))\" y=\"\(HTML.coordinate(lanesBottom + 30))\" text-anchor=\"middle\">event time since the session's first event</text>"
        return svg + "</svg>"
    }
}
