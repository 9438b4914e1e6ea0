import CatalogueVocabulary

/// The report's charts as inline SVG: every chart has `role="img"`, a `<title>` and a `<desc>`
/// named by `aria-labelledby`, and carries severity by pattern and shape as well as colour.
/// Charts have no view box: they are as wide as their column and lay out horizontally in
/// percentages, so text keeps its size on a phone and on a wide screen alike.
enum SVGChart {
    /// One bar of a bar chart.
    struct Bar {
        let label: String
        /// Shown after the label, muted (e.g. a rule's guideline).
        var detail: String?
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
        <svg data-chart="\(id)" class="chart" width="100%" height="\(HTML.coordinate(height))" role="img" \
        aria-labelledby="\(id)-title \(id)-desc">\
        <title id="\(id)-title">\(HTML.escape(title))</title><desc id="\(id)-desc">\(HTML.escape(desc))</desc>
        """
    }

    /// A fraction of the chart's width as a percentage: "12.34%".
    static func pct(_ fraction: Double) -> String {
        let hundredths = Int((max(0, min(1, fraction)) * 10_000).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)%"
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
        let cx = HTML.coordinate(x)
        let cy = HTML.coordinate(y)
        switch severity {
        case .error:
            return
                "<rect class=\"mk-error\" x=\"\(HTML.coordinate(x - h))\" y=\"\(HTML.coordinate(y - h))\" width=\"\(HTML.coordinate(size))\" height=\"\(HTML.coordinate(size))\"/>"
        case .warning:
            return
                "<path class=\"mk-warning\" d=\"M\(cx) \(HTML.coordinate(y - h - 1))L\(HTML.coordinate(x + h + 1)) \(HTML.coordinate(y + h))L\(HTML.coordinate(x - h - 1)) \(HTML.coordinate(y + h))Z\"/>"
        case .info:
            return "<circle class=\"mk-info\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(HTML.coordinate(h))\"/>"
        }
    }

    /// Horizontal bars, one per row, label above the bar, total at its end; segments by severity.
    static func bars(id: String, title: String, desc: String, bars: [Bar]) -> String {
        let rowHeight = 40.0
        let height = max(40, Double(bars.count) * rowHeight + 4)
        let maximum = Double(max(1, bars.map(\.total).max() ?? 1))
        let room = 0.86
        var svg = open(id: id, title: title, desc: desc, height: height)
        for (i, bar) in bars.enumerated() {
            let y = Double(i) * rowHeight
            // In a nested svg as wide as the chart: a long label is cut at the chart's edge.
            svg +=
                "<svg y=\"\(HTML.coordinate(y))\" width=\"100%\" height=\"20\"><text class=\"label\" x=\"0\" y=\"15\">\(HTML.escape(bar.label))\(bar.detail.map { "<tspan class=\"muted\"> · \(HTML.escape($0))</tspan>" } ?? "")</text></svg>"
            var x = 0.0
            if let value = bar.value {
                let w = max(0.004, room * Double(value) / maximum)
                svg +=
                    "<rect class=\"bar-plain\" x=\"0\" y=\"\(HTML.coordinate(y + 21))\" width=\"\(pct(w))\" height=\"14\" rx=\"2\"/>"
                x = w
            } else {
                for severity in [Severity.error, .warning, .info] where bar.counts[severity] > 0 {
                    let w = max(0.004, room * Double(bar.counts[severity]) / maximum)
                    svg +=
                        "<rect class=\"sev-\(severity.name)\" x=\"\(pct(x))\" y=\"\(HTML.coordinate(y + 21))\" width=\"\(pct(w))\" height=\"14\"/>"
                    x += w
                }
            }
            svg +=
                "<text class=\"value\" x=\"\(pct(x))\" dx=\"6\" y=\"\(HTML.coordinate(y + 33))\">\(HTML.number(bar.total))</text>"
        }
        return svg + "</svg>"
    }

    /// Vertical columns with a label under each (or under every `labelEvery`-th), stacked by severity
    /// when the bars carry severities; the scale's values sit above its grid lines.
    static func columns(
        id: String,
        title: String,
        desc: String,
        bars: [Bar],
        axisTitle: String,
        labelEvery: Int = 1
    ) -> String {
        let height = 236.0
        let top = 26.0
        let bottom = 184.0
        let maximum = max(1, bars.map(\.total).max() ?? 1)
        let slot = 1.0 / Double(max(1, bars.count))
        let gap = bars.count > 60 ? 0 : slot * 0.18
        var svg = open(id: id, title: title, desc: desc, height: height)
        for fraction in [0.5, 1.0] {
            let y = bottom - (bottom - top) * fraction
            let value = Int((Double(maximum) * fraction).rounded())
            svg +=
                "<line class=\"grid\" x1=\"0\" x2=\"100%\" y1=\"\(HTML.coordinate(y))\" y2=\"\(HTML.coordinate(y))\"/>"
            svg += "<text class=\"tick\" x=\"0\" y=\"\(HTML.coordinate(y - 4))\">\(HTML.number(value))</text>"
        }
        for (i, bar) in bars.enumerated() {
            let x = Double(i) * slot + gap / 2
            let w = max(0.001, slot - gap)
            var y = bottom
            if let value = bar.value {
                let h = (bottom - top) * Double(value) / Double(maximum)
                y -= h
                svg +=
                    "<rect class=\"bar-plain\" x=\"\(pct(x))\" y=\"\(HTML.coordinate(y))\" width=\"\(pct(w))\" height=\"\(HTML.coordinate(h))\"/>"
            } else {
                for severity in [Severity.error, .warning, .info] where bar.counts[severity] > 0 {
                    let h = (bottom - top) * Double(bar.counts[severity]) / Double(maximum)
                    y -= h
                    svg +=
                        "<rect class=\"sev-\(severity.name)\" x=\"\(pct(x))\" y=\"\(HTML.coordinate(y))\" width=\"\(pct(w))\" height=\"\(HTML.coordinate(h))\"/>"
                }
            }
            if bar.total > 0 && bars.count <= 12 {
                svg +=
                    "<text class=\"value\" x=\"\(pct(x + w / 2))\" y=\"\(HTML.coordinate(y - 4))\" text-anchor=\"middle\">\(HTML.number(bar.total))</text>"
            }
            if i % max(1, labelEvery) == 0 {
                svg +=
                    "<text class=\"tick\" x=\"\(pct(x + w / 2))\" y=\"\(HTML.coordinate(bottom + 16))\" text-anchor=\"middle\">\(HTML.escape(bar.label))</text>"
            }
        }
        svg +=
            "<line class=\"axis\" x1=\"0\" x2=\"100%\" y1=\"\(HTML.coordinate(bottom))\" y2=\"\(HTML.coordinate(bottom))\"/>"
        svg +=
            "<text class=\"tick\" x=\"50%\" y=\"\(HTML.coordinate(bottom + 40))\" text-anchor=\"middle\">\(HTML.escape(axisTitle))</text>"
        return svg + "</svg>"
    }

    /// A session's presentation stack over event time: one lane per stack level (bottom level at
    /// the bottom), one bar per presentation, labelled in full from the bar's start (a haloed label
    /// runs past a short bar rather than being cut); violations as severity shapes on a row above,
    /// with a line down to the stack.
    static func timeline(id: String, title: String, desc: String, session: SessionTimeline) -> String {
        let levels = (session.spans.map(\.level).max() ?? -1) + 1
        let lane = 26.0
        let left = 0.15
        let right = 0.985
        let marksTop = 4.0
        let marksHeight = 30.0
        let lanesTop = marksTop + marksHeight + 4
        let lanesBottom = lanesTop + Double(max(levels, 1)) * lane
        let height = lanesBottom + 40
        let span = Double(max(1, session.end - session.start))
        func x(_ ts: Int64) -> Double { left + (right - left) * Double(ts - session.start) / span }
        var svg = open(id: id, title: title, desc: desc, height: height)
        svg += "<text class=\"tick\" x=\"0\" y=\"\(HTML.coordinate(marksTop + 21))\">rules</text>"
        for level in 0..<max(levels, 1) {
            let y = lanesBottom - Double(level + 1) * lane
            svg +=
                "<rect class=\"lane\" x=\"\(pct(left))\" y=\"\(HTML.coordinate(y))\" width=\"\(pct(right - left))\" height=\"\(HTML.coordinate(lane - 2))\"/>"
            svg +=
                "<text class=\"tick\" x=\"0\" y=\"\(HTML.coordinate(y + 16))\">\(levels == 0 ? "stack" : "level \(level)")</text>"
        }
        if levels == 0 {
            let note = session.hasEvents ? "nothing presented" : "no events in the source: stack unknown"
            svg +=
                "<text class=\"tick\" x=\"\(pct((left + right) / 2))\" y=\"\(HTML.coordinate(lanesBottom - 8))\" text-anchor=\"middle\">\(note)</text>"
        }
        // The labels go after every bar, so that a label running past its bar stays on top.
        var labels = ""
        // A label's estimated end (6.5 px a character at 11 px, on a 960 px chart): labels that
        // would run into a neighbour on their level alternate between the lane's upper and lower
        // line; the others sit in the middle of their bar.
        func labelText(_ item: SessionTimeline.Span) -> String {
            if let title = item.title, !title.isEmpty { return "\(item.kind.name) \u{201C}\(title)\u{201D}" }
            return "\(item.kind.name) \(item.id)"
        }
        func labelEnd(_ item: SessionTimeline.Span) -> Double {
            x(item.start) + (4 + 6.5 * Double(labelText(item).count)) / 960
        }
        var baselines = [Double](repeating: 15, count: session.spans.count)
        for level in Set(session.spans.map(\.level)) {
            let onLevel = session.spans.indices.filter { session.spans[$0].level == level }
                .sorted { session.spans[$0].start < session.spans[$1].start }
            var upper = true
            for (k, index) in onLevel.enumerated() {
                let item = session.spans[index]
                let crowdsNext = k + 1 < onLevel.count && x(session.spans[onLevel[k + 1]].start) < labelEnd(item)
                let crowdedByPrevious =
                    k > 0 && baselines[onLevel[k - 1]] != 15
                    && x(item.start) < labelEnd(session.spans[onLevel[k - 1]])
                if crowdsNext || crowdedByPrevious {
                    baselines[index] = upper ? 10 : 21
                    upper.toggle()
                } else {
                    upper = true
                }
            }
        }
        for (spanIndex, spanItem) in session.spans.enumerated() {
            let x0 = x(spanItem.start)
            let x1 = max(x(spanItem.end), x0 + 0.006)
            let y = lanesBottom - Double(spanItem.level + 1) * lane + 1
            let kind = spanItem.kind.name
            let label = labelText(spanItem)
            let tip =
                "\(label), \(ReportTime.duration(spanItem.end - spanItem.start))\(spanItem.open ? ", still presented" : "")"
            svg +=
                "<svg x=\"\(pct(x0))\" y=\"\(HTML.coordinate(y))\" width=\"\(pct(x1 - x0))\" height=\"\(HTML.coordinate(lane - 4))\"><title>\(HTML.escape(tip))</title>"
            svg +=
                "<rect class=\"k-\(kind)\(spanItem.open ? " open" : "")\" width=\"100%\" height=\"100%\" rx=\"3\"/></svg>"
            labels +=
                "<text class=\"bar-label\" x=\"\(pct(x0))\" dx=\"4\" y=\"\(HTML.coordinate(y + baselines[spanIndex]))\"><title>\(HTML.escape(tip))</title>\(HTML.escape(label))</text>"
        }
        svg += labels
        var lastX = -1.0
        var stackOffset = 0.0
        for mark in session.marks {
            let mx = x(mark.ts)
            stackOffset = abs(mx - lastX) < 0.012 ? (stackOffset >= 20 ? 0 : stackOffset + 10) : 0
            lastX = mx
            let my = marksTop + 24 - stackOffset
            svg +=
                "<line class=\"mark-line\" x1=\"\(pct(mx))\" x2=\"\(pct(mx))\" y1=\"\(HTML.coordinate(marksTop + 29))\" y2=\"\(HTML.coordinate(lanesBottom))\"/>"
            svg +=
                "<svg x=\"\(pct(mx))\" y=\"\(HTML.coordinate(my))\" width=\"1\" height=\"1\" overflow=\"visible\"><title>\(HTML.escape("\(mark.severity.name): \(mark.rule) at +\(ReportTime.duration(mark.ts - session.start))"))</title>\(shape(mark.severity, x: 0, y: 0))</svg>"
        }
        svg +=
            "<line class=\"axis\" x1=\"\(pct(left))\" x2=\"\(pct(right))\" y1=\"\(HTML.coordinate(lanesBottom))\" y2=\"\(HTML.coordinate(lanesBottom))\"/>"
        svg += "<text class=\"tick\" x=\"\(pct(left))\" y=\"\(HTML.coordinate(lanesBottom + 16))\">+0 s</text>"
        svg +=
            "<text class=\"tick\" x=\"\(pct(right))\" y=\"\(HTML.coordinate(lanesBottom + 16))\" text-anchor=\"end\">+\(ReportTime.duration(session.end - session.start))</text>"
        svg +=
            "<text class=\"tick\" x=\"\(pct((left + right) / 2))\" y=\"\(HTML.coordinate(lanesBottom + 34))\" text-anchor=\"middle\">event time since the session's first event</text>"
        return svg + "</svg>"
    }
}
