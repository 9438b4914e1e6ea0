import CatalogueVocabulary

/// The report as one self-contained HTML page: inline CSS and SVG only (no script, no network,
/// no font from elsewhere); light and dark mode; readable printed and at phone width.
public struct HTMLReport {
    /// What it shows.
    public let model: ReportModel
    /// Where the data came from.
    public let source: ReportSource
    /// Rows shown in the by-rule, by-app and presentation lists.
    public var listLimit = 25

    /// A report of `model`.
    public init(model: ReportModel, source: ReportSource) {
        self.model = model
        self.source = source
    }

    /// Whether there is nothing at all to show.
    public var isEmpty: Bool { model.violations == 0 && model.events == 0 && model.sessions == 0 }

    /// The page.
    public func render() -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="modalwatch report">
            <title>modalwatch report: \(HTML.escape(headline))</title>
            <style>\(Self.style)</style></head>
            <body>
            \(SVGChart.definitions)
            """
        html += header()
        html += "<main>"
        html += summarySection()
        if isEmpty {
            html += """
                <section id="nothing" class="nothing" data-empty="true"><h2>Nothing yet</h2>\
                <p>\(HTML.escape(emptyText))</p></section>
                """
        } else {
            html +=
                ruleSection() + appSection() + languageSection() + timeSection() + versionSection()
                + presentationSection()
                + distributionSection() + sessionSection() + glossarySection()
        }
        html += "</main>" + footer() + "</body></html>\n"
        return html
    }

    /// One line: what the report covers.
    var headline: String {
        let filter = model.filter.app.map { " · \($0)" } ?? ""
        switch source.kind {
        case .streams:
            return "\(source.names.count == 1 ? source.names[0] : "\(source.names.count) recorded streams")\(filter)"
        case .history: return "history\(filter)"
        case .daemons: return "\(source.names.count == 1 ? "daemon" : "\(source.names.count) daemons")\(filter)"
        }
    }

    private var emptyText: String {
        switch source.kind {
        case .streams: "The streams hold no events\(filtered), so there is nothing to report yet."
        case .history: "The history holds no violations\(filtered) yet. Once the daemon finds some, they show here."
        case .daemons: "The daemon's history holds no violations\(filtered) yet. Once it finds some, they show here."
        }
    }

    private var filtered: String {
        model.filter == ReportFilter() ? "" : " that match the filter"
    }

    /// Where the data came from, in words.
    var sourceText: String {
        switch source.kind {
        case .streams:
            let names = source.names.joined(separator: ", ")
            return
                "Recorded \(source.names.count == 1 ? "stream" : "streams") \(names), judged offline\(source.edition.map { " by the \($0) edition of the guidelines" } ?? "")."
        case .history:
            return
                "The violation history \(source.names.joined(separator: ", ")): violations only; the history keeps no events."
        case .daemons:
            return
                "Running \(source.names.count == 1 ? "daemon" : "daemons") at \(source.names.joined(separator: ", ")): their violation history and counters."
        }
    }

    private func header() -> String {
        var html = "<header><p class=\"eyebrow\">modalwatch report</p><h1>\(HTML.escape(headline))</h1>"
        html +=
            "<p class=\"source\" data-source=\"\(source.kind.rawValue)\">\(HTML.escape(sourceText))</p><p class=\"meta\">"
        var meta: [String] = ["Made \(ReportTime.format(source.generated))"]
        if model.time.first <= model.time.last {
            meta.append(
                "violations from \(ReportTime.format(model.time.first)) to \(ReportTime.format(model.time.last)) (event time)"
            )
        }
        var filters: [String] = []
        if let app = model.filter.app { filters.append("app \(app)") }
        if let since = model.filter.since { filters.append("since \(ReportTime.format(since))") }
        if let until = model.filter.until { filters.append("until \(ReportTime.format(until))") }
        if !filters.isEmpty { meta.append("only " + filters.joined(separator: ", ")) }
        html += meta.map(HTML.escape).joined(separator: " · ") + "</p>"
        for note in source.notes { html += "<p class=\"note\">\(HTML.escape(note))</p>" }
        html += legend()
        if !isEmpty {
            html += """
                <nav aria-label="Sections"><ul><li><a href="#summary">Summary</a></li><li><a href="#rules">By rule</a></li>\
                <li><a href="#apps">By app</a></li>\(hasLanguages ? "<li><a href=\"#languages\">By language</a></li>" : "")<li><a href="#time">Over time</a></li><li><a href="#versions">By version</a></li>\
                <li><a href="#presentations">Worst alerts</a></li><li><a href="#distributions">Depth and alerts</a></li>\
                <li><a href="#sessions">Worst sessions</a></li><li><a href="#glossary">Rules</a></li></ul></nav>
                """
        }
        return html + "</header>"
    }

    /// The key to severities: shape, pattern and word together.
    private func legend() -> String {
        var html = "<ul class=\"legend\" aria-label=\"Severity key\">"
        for severity in [Severity.error, .warning, .info] {
            html +=
                "<li><svg width=\"40\" height=\"14\" viewBox=\"0 0 40 14\" aria-hidden=\"true\" focusable=\"false\">"
            html +=
                "<rect class=\"sev-\(severity.name)\" x=\"0\" y=\"1\" width=\"22\" height=\"12\"/>\(SVGChart.shape(severity, x: 32, y: 7))</svg>"
            html += "\(severity.name)</li>"
        }
        return html + "</ul>"
    }

    private func footer() -> String {
        """
        <footer><p>Made by <code>modalwatch report</code>. Every chart has a table with the same numbers beside it. \
        Severity is shown by pattern and shape as well as colour: error solid ■, warning striped ▲, info dotted ●.</p></footer>
        """
    }
}

/// It holds its model, which belongs to one thread.
@available(*, unavailable)
extension HTMLReport: Sendable {}
