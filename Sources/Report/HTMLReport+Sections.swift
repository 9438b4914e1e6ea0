import CatalogueVocabulary
import Foundation

extension HTMLReport {
    /// A chart and its table side by side (stacked on narrow screens).
    private func pair(_ chart: String, _ table: String) -> String {
        "<div class=\"pair\"><figure class=\"chart-box\">\(chart)</figure>\(table)</div>"
    }

    private func unavailable(_ section: String, _ text: String) -> String {
        "<p class=\"note unavailable\" data-unavailable=\"\(section)\">\(HTML.escape(text))</p>"
    }

    private func severityCell(_ severity: Severity) -> ReportTable.Cell {
        let glyph = severity == .error ? "■" : severity == .warning ? "▲" : "●"
        return .html(
            "<span class=\"sev-word s-\(severity.name)\"><span aria-hidden=\"true\">\(glyph)</span> \(severity.name)</span>",
            value: severity.name
        )
    }

    private func ruleLink(_ id: String) -> String {
        model.rules[id] == nil ? HTML.escape(id) : "<a href=\"#rule-\(HTML.slug(id))\">\(HTML.escape(id))</a>"
    }

    // MARK: summary

    func summarySection() -> String {
        let s = model.severities
        var cards: [(key: String, label: String, value: Int?, detail: String?)] = []
        switch source.kind {
        case .streams:
            cards.append(("events", "events", model.events, nil))
            cards.append(("sessions", "sessions", model.sessions, nil))
        case .history:
            cards.append(("events", "events", nil, "not kept in the history"))
            cards.append(("sessions", "sessions with violations", model.sessions, nil))
        case .daemons:
            cards.append(
                (
                    "events", "events received", source.daemonEvents,
                    source.daemonEvents == nil ? "not reported" : "by the daemons since they started"
                )
            )
            cards.append(
                (
                    "sessions", "sessions with violations", model.sessions,
                    source.daemonLiveSessions.map { "\($0) live now" }
                )
            )
        }
        cards.append(("violations", "violations", model.violations, nil))
        cards.append(("error", "errors", s.error, nil))
        cards.append(("warning", "warnings", s.warning, nil))
        cards.append(("info", "info", s.info, nil))
        var html =
            "<section id=\"summary\" aria-labelledby=\"summary-h\"><h2 id=\"summary-h\">Summary</h2><ul class=\"cards\">"
        for card in cards {
            let shape: String
            switch card.key {
            case "error": shape = "<span class=\"glyph s-error\" aria-hidden=\"true\">■</span> "
            case "warning": shape = "<span class=\"glyph s-warning\" aria-hidden=\"true\">▲</span> "
            case "info": shape = "<span class=\"glyph s-info\" aria-hidden=\"true\">●</span> "
            default: shape = ""
            }
            html +=
                "<li class=\"card c-\(card.key)\"><span class=\"big\">\(card.value.map(HTML.number) ?? "—")</span><span class=\"what\">\(shape)\(HTML.escape(card.label))</span>"
            if let detail = card.detail { html += "<span class=\"detail\">\(HTML.escape(detail))</span>" }
            html += "</li>"
        }
        html += "</ul>"
        var table = ReportTable(id: "summary", caption: "Summary", columns: [("what", "What"), ("count", "Count")])
        for card in cards {
            table.add(
                key: card.key,
                [
                    .text(card.label),
                    card.value.map { .number($0) } ?? .html(HTML.escape(card.detail ?? "not known"), value: ""),
                ]
            )
        }
        html += "<details class=\"summary-table\"><summary>The summary as a table</summary>\(table.render())</details>"
        return html + "</section>"
    }

    // MARK: by rule, by app

    func ruleSection() -> String {
        let rows = model.byRule.sorted {
            $0.value.total != $1.value.total ? $0.value.total > $1.value.total : $0.key < $1.key
        }
        var html = "<section id=\"rules\" aria-labelledby=\"rules-h\"><h2 id=\"rules-h\">Violations by rule</h2>"
        guard !rows.isEmpty else { return html + "<p>No violations.</p></section>" }
        html +=
            "<p class=\"lead\">Which guidelines are broken most. Each rule links to its entry under <a href=\"#glossary\">Rules</a>.</p>"
        let bars = rows.map { rule, counts in
            var bar = SVGChart.Bar(label: rule, counts: counts)
            bar.detail = model.rules[rule]?.guideline
            return bar
        }
        let top = rows.first.map { "\($0.key) is broken most, \($0.value.total) times" } ?? ""
        let chart = SVGChart.bars(
            id: "by-rule",
            title: "Violations by rule",
            desc: "Horizontal bars, one per rule, \(rows.count) rules, longest first; \(top).",
            bars: bars
        )
        var table = ReportTable(
            id: "by-rule",
            caption: "Violations by rule",
            columns: [("rule", "Rule"), ("guideline", "Guideline"), ("severity", "Severity"), ("count", "Violations")]
        )
        for (rule, counts) in rows {
            let severity = [Severity.error, .warning, .info].first { counts[$0] > 0 } ?? .info
            table.add(
                key: rule,
                [
                    .html(ruleLink(rule), value: rule), .text(model.rules[rule]?.guideline ?? "—"),
                    severityCell(severity), .number(counts.total),
                ]
            )
        }
        return html + "<figure class=\"chart-box\">\(chart)</figure>" + table.render() + "</section>"
    }

    func appSection() -> String {
        let all = model.byApp.sorted {
            $0.value.total != $1.value.total ? $0.value.total > $1.value.total : $0.key < $1.key
        }
        let rows = Array(all.prefix(listLimit))
        var html = "<section id=\"apps\" aria-labelledby=\"apps-h\"><h2 id=\"apps-h\">Violations by app</h2>"
        guard !rows.isEmpty else { return html + "<p>No violations.</p></section>" }
        if all.count > rows.count {
            html += "<p class=\"note\">The \(rows.count) apps with the most violations of \(all.count).</p>"
        }
        let chart = SVGChart.bars(
            id: "by-app",
            title: "Violations by app",
            desc:
                "Horizontal bars, one per app, split by severity: \(rows.map { "\($0.key) \($0.value.total)" }.joined(separator: ", ")).",
            bars: rows.map { SVGChart.Bar(label: $0.key, counts: $0.value) }
        )
        var table = ReportTable(
            id: "by-app",
            caption: "Violations by app and severity",
            columns: [
                ("app", "App"), ("error", "Errors"), ("warning", "Warnings"), ("info", "Info"), ("count", "Total"),
            ]
        )
        for (app, counts) in rows {
            table.add(
                key: app,
                [
                    .text(app), .number(counts.error), .number(counts.warning), .number(counts.info),
                    .number(counts.total),
                ]
            )
        }
        return html + pair(chart, table.render()) + "</section>"
    }

    // MARK: by language

    /// Whether any violation carries a `locale`: only then has the report a language section.
    var hasLanguages: Bool { model.byLocale.keys.contains { !$0.isEmpty } || model.otherLocales.total > 0 }

    func languageSection() -> String {
        guard hasLanguages else { return "" }
        var rows = model.byLocale.map {
            (label: $0.key.isEmpty ? "undetermined (English rules)" : $0.key, counts: $0.value)
        }
        .sorted { $0.counts.total != $1.counts.total ? $0.counts.total > $1.counts.total : $0.label < $1.label }
        if model.otherLocales.total > 0 { rows.append((label: "other languages", counts: model.otherLocales)) }
        var html =
            "<section id=\"languages\" aria-labelledby=\"languages-h\"><h2 id=\"languages-h\">Violations by language</h2>"
        html +=
            "<p class=\"lead\">By the language of the texts judged: the presentation's or session's <code>locale</code>.</p>"
        let chart = SVGChart.bars(
            id: "by-language",
            title: "Violations by language",
            desc:
                "Horizontal bars, one per language, split by severity: \(rows.map { "\($0.label) \($0.counts.total)" }.joined(separator: ", ")).",
            bars: rows.map { SVGChart.Bar(label: $0.label, counts: $0.counts) }
        )
        var table = ReportTable(
            id: "by-language",
            caption: "Violations by language and severity",
            columns: [
                ("language", "Language"), ("error", "Errors"), ("warning", "Warnings"), ("info", "Info"),
                ("count", "Total"),
            ]
        )
        for row in rows {
            table.add(
                key: row.label,
                [
                    .text(row.label), .number(row.counts.error), .number(row.counts.warning), .number(row.counts.info),
                    .number(row.counts.total),
                ]
            )
        }
        return html + pair(chart, table.render()) + "</section>"
    }

    // MARK: over time

    func timeSection() -> String {
        let series = model.time.series()
        var html = "<section id=\"time\" aria-labelledby=\"time-h\"><h2 id=\"time-h\">Violations over time</h2>"
        guard !series.buckets.isEmpty else { return html + "<p>No violations.</p></section>" }
        let width = series.width
        html += "<p class=\"lead\">Per \(width.name) of event time (UTC), by severity.</p>"
        let bars = series.buckets.map {
            SVGChart.Bar(label: ReportTime.bucketLabel($0.start, width: width), counts: $0.counts)
        }
        let busiest = series.buckets.max { $0.counts.total < $1.counts.total }!
        let chart = SVGChart.columns(
            id: "over-time",
            title: "Violations per \(width.name)",
            desc:
                "Columns, one per \(width.name) from \(ReportTime.format(series.buckets.first!.start)) to \(ReportTime.format(series.buckets.last!.start)), stacked by severity; the busiest \(width.name) began \(ReportTime.format(busiest.start)) with \(busiest.counts.total).",
            bars: bars,
            axisTitle: "\(width.name) (UTC)",
            labelEvery: max(1, (bars.count + 5) / 6)
        )
        var table = ReportTable(
            id: "over-time",
            caption: "Violations per \(width.name) (UTC)",
            columns: [
                ("bucket", width.name.capitalized), ("error", "Errors"), ("warning", "Warnings"), ("info", "Info"),
                ("count", "Total"),
            ]
        )
        for bucket in series.buckets {
            table.add(
                key: String(bucket.start),
                [
                    .text(
                        ReportTime.format(
                            bucket.start,
                            date: width != .minute || bucket.start == series.buckets.first!.start
                        )
                    ),
                    .number(bucket.counts.error), .number(bucket.counts.warning), .number(bucket.counts.info),
                    .number(bucket.counts.total),
                ]
            )
        }
        return html + pair(chart, table.render(extraAttributes: " data-width=\"\(width.rawValue)\"")) + "</section>"
    }

    // MARK: by version

    func versionSection() -> String {
        var html =
            "<section id=\"versions\" aria-labelledby=\"versions-h\"><h2 id=\"versions-h\">Violations by app version</h2>"
        guard model.hasEvents else {
            return html
                + unavailable(
                    "versions",
                    "The history keeps violations, and a violation does not carry its app_version: make the report from the recorded streams to compare versions."
                ) + "</section>"
        }
        let rows = model.byVersion.sorted {
            $0.key.app != $1.key.app
                ? $0.key.app < $1.key.app
                : $0.key.version.compare($1.key.version, options: .numeric) == .orderedAscending
        }
        guard !rows.isEmpty else {
            return html + unavailable("versions", "No session.start event in these streams carries an app_version.")
                + "</section>"
        }
        html +=
            "<p class=\"lead\">Sessions and violations by the app_version their session.start event gave; violations per session tell whether a version is better than the one before.</p>"
        let bars = rows.map {
            SVGChart.Bar(
                label:
                    "\($0.key.app) \($0.key.version) · \($0.value.sessions) \($0.value.sessions == 1 ? "session" : "sessions")",
                value: $0.value.violations
            )
        }
        let chart = SVGChart.bars(
            id: "by-version",
            title: "Violations by app version",
            desc: "Horizontal bars, one per app version: "
                + rows.map {
                    "\($0.key.app) \($0.key.version) \($0.value.violations) violations in \($0.value.sessions) sessions"
                }.joined(separator: "; ") + ".",
            bars: bars
        )
        var table = ReportTable(
            id: "by-version",
            caption: "Violations by app version",
            columns: [
                ("app", "App"), ("version", "Version"), ("sessions", "Sessions"), ("violations", "Violations"),
                ("per_session", "Per session"),
            ]
        )
        for (key, value) in rows {
            let per = value.sessions > 0 ? Double(value.violations) / Double(value.sessions) : 0
            let perText = String(Int((per * 10).rounded()) / 10) + "." + String(Int((per * 10).rounded()) % 10)
            table.add(
                key: "\(key.app) \(key.version)",
                [
                    .text(key.app), .text(key.version), .number(value.sessions), .number(value.violations),
                    .text(perText),
                ]
            )
        }
        // The table below the chart, full width: side by side, its five columns would scroll sideways.
        return html + "<figure class=\"chart-box\">\(chart)</figure>" + table.render() + "</section>"
    }

    // MARK: worst presentations

    /// An alert's or sheet's title, message and buttons as a card shows them.
    private func presentationTexts(title: String?, message: String?, buttons: [String]) -> String {
        var html = ""
        if let title {
            html += "<p class=\"ptitle\">\(HTML.escape(title))</p>"
        } else if model.hasEvents {
            html += "<p class=\"ptitle none\">(no title)</p>"
        }
        if let message { html += "<p class=\"pmessage\">\(HTML.escape(message))</p>" }
        if !buttons.isEmpty {
            html +=
                "<ul class=\"buttons\" aria-label=\"Buttons\">"
                + buttons.map { "<li>\(HTML.escape($0.isEmpty ? "(empty)" : $0))</li>" }.joined() + "</ul>"
        }
        return html
    }

    func presentationSection() -> String {
        let top = model.presentations.top(listLimit) { $0.key < $1.key }.filter { $0.count > 0 }
        var html =
            "<section id=\"presentations\" aria-labelledby=\"presentations-h\"><h2 id=\"presentations-h\">Alerts and sheets that break the most rules</h2>"
        guard !top.isEmpty else { return html + "<p>No violation is about an alert, sheet or modal.</p></section>" }
        html +=
            model.hasEvents
            ? "<p class=\"lead\">The same texts shown in several sessions count as one. Texts as the app sent them.</p>"
            : "<p class=\"lead\">By session and presentation id. The history keeps violations, not events: the texts shown are the violations' messages.</p>"
        let bars = top.map { entry -> SVGChart.Bar in
            let p = entry.value
            let name = p.title.map { "\u{201C}\($0)\u{201D}" } ?? p.id
            return SVGChart.Bar(
                label:
                    "\(p.kind?.name ?? "presentation") \(name) · \(p.rules.count) \(p.rules.count == 1 ? "rule" : "rules")",
                value: entry.count
            )
        }
        let chart = SVGChart.bars(
            id: "presentations",
            title: "Alerts and sheets by violations",
            desc: "Horizontal bars, one per alert, sheet or modal, by the violations about it: "
                + top.prefix(5).map { e in
                    "\(e.value.kind?.name ?? "presentation") \(e.value.title ?? e.value.id) \(e.count)"
                }.joined(separator: "; ") + ".",
            bars: bars
        )
        var table = ReportTable(
            id: "worst-presentations",
            caption: "Alerts and sheets by violations",
            columns: [
                ("rank", "#"), ("kind", "Kind"), ("app", "App"), ("title", "Title"), ("shown", "Shown"),
                ("violations", "Violations"), ("rules", "Rules"),
            ]
        )
        var cards = "<ol class=\"presentations\">"
        for (i, entry) in top.enumerated() {
            let p = entry.value
            let rules = p.rules.keys.sorted()
            table.add(
                key: String(i + 1),
                [
                    .number(i + 1), .text(p.kind?.name ?? "?"), .text(p.app),
                    .text(p.title ?? (model.hasEvents ? "(no title)" : p.id)),
                    .number(p.shown), .number(entry.count),
                    .html(rules.map(ruleLink).joined(separator: ", "), value: rules.joined(separator: " ")),
                ]
            )
            cards +=
                "<li class=\"pcard k-\(p.kind?.name ?? "none")-edge\"><p class=\"pkind\"><span class=\"badge\">\(p.kind?.name ?? "presentation")</span> \(HTML.escape(p.app))"
            if let session = p.session { cards += " · session \(HTML.escape(session)) · id \(HTML.escape(p.id))" }
            cards += "</p>"
            let suggested = !p.suggestions.isEmpty || p.corrected != nil
            if suggested {
                cards += "<div class=\"pforms\"><div class=\"pform as-shown\"><p class=\"plabel\">As it appeared</p>"
            }
            cards += presentationTexts(title: p.title, message: p.message, buttons: p.buttons)
            if suggested {
                cards += "</div><div class=\"pform as-suggested\"><p class=\"plabel\">As the suggestions make it</p>"
                if model.hasEvents {
                    let corrected = p.corrected
                    cards += presentationTexts(
                        title: corrected?.title ?? p.title,
                        message: corrected?.message ?? p.message,
                        buttons: corrected?.buttons ?? p.buttons
                    )
                }
                cards +=
                    "<ul class=\"suggestions\" aria-label=\"Suggestions\">"
                    + p.suggestions.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div></div>"
            }
            let shown = model.hasEvents ? "shown \(p.shown) \(p.shown == 1 ? "time" : "times") · " : ""
            cards +=
                "<p class=\"pstats\">\(shown)<strong>\(entry.count) \(entry.count == 1 ? "violation" : "violations")</strong> of \(rules.count) \(rules.count == 1 ? "rule" : "rules"): "
            cards +=
                rules.map { "\(ruleLink($0))\(p.rules[$0]! > 1 ? " ×\(p.rules[$0]!)" : "")" }.joined(separator: ", ")
                + "</p>"
            if !model.hasEvents || p.title == nil, !p.messages.isEmpty {
                cards += "<ul class=\"messages\">" + p.messages.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
            }
            cards += "</li>"
        }
        cards += "</ol>"
        return html + cards
            + "<figure class=\"chart-box\">\(chart)</figure><details><summary>The same as a table</summary>\(table.render())</details></section>"
    }

    // MARK: distributions

    /// Buckets 0…9 and "10+", as far as the largest value present.
    static func histogramBars(_ histogram: [Int: Int]) -> [(key: String, value: Int)] {
        let top = min(10, histogram.keys.max() ?? 0)
        return (0...top).map { n in
            n < 10 ? (String(n), histogram[n] ?? 0) : ("10+", histogram.filter { $0.key >= 10 }.values.reduce(0, +))
        }
    }

    func distributionSection() -> String {
        var html =
            "<section id=\"distributions\" aria-labelledby=\"distributions-h\"><h2 id=\"distributions-h\">Modal depth and alerts per session</h2>"
        guard model.hasEvents else {
            return html
                + unavailable(
                    "distributions",
                    "The history keeps violations, not events: modal depth and alerts per session need the events. Make the report from the recorded streams, or look at a live session with modalwatch session ID."
                ) + "</section>"
        }
        html +=
            "<p class=\"lead\">How deep sessions nest modal views (the deepest each session went), and how many alerts each session shows.</p><div class=\"two\">"
        for (id, title, histogram, axis) in [
            ("depth", "Sessions by deepest modal depth", model.maxDepthHistogram, "deepest modal depth"),
            (
                "alerts-per-session", "Sessions by alerts presented", model.alertsHistogram,
                "alerts presented in the session"
            ),
        ] {
            let buckets = Self.histogramBars(histogram)
            let chart = SVGChart.columns(
                id: id,
                title: title,
                desc: "Columns of sessions by \(axis): "
                    + buckets.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ".",
                bars: buckets.map { SVGChart.Bar(label: $0.key, value: $0.value) },
                axisTitle: axis
            )
            var table = ReportTable(
                id: id,
                caption: title,
                columns: [("bucket", axis.prefix(1).uppercased() + axis.dropFirst()), ("sessions", "Sessions")]
            )
            for bucket in buckets { table.add(key: bucket.key, [.text(bucket.key), .number(bucket.value)]) }
            html +=
                "<div class=\"half\"><h3>\(HTML.escape(title))</h3><figure class=\"chart-box\">\(chart)</figure>\(table.render())</div>"
        }
        return html + "</div></section>"
    }

    // MARK: worst sessions

    func sessionSection() -> String {
        let sessions = model.worstSessions
        var html =
            "<section id=\"sessions\" aria-labelledby=\"sessions-h\"><h2 id=\"sessions-h\">The worst sessions</h2>"
        guard !sessions.isEmpty else { return html + "<p>No session has a violation.</p></section>" }
        html +=
            model.hasEvents
            ? "<p class=\"lead\">The \(sessions.count) sessions with the most violations: the presentation stack over event time, one bar per alert, sheet, modal or popover at its level, and each violation marked where it fired.</p>"
            : "<p class=\"lead\">The \(sessions.count) sessions with the most violations, each violation marked where it fired.</p>"
                + unavailable(
                    "stack",
                    "The history keeps violations, not events, so the presentation stack cannot be drawn here; modalwatch session ID shows a live session's stack, and a report of the recorded stream draws it."
                )
        for (i, session) in sessions.enumerated() {
            let id = "session-\(i + 1)"
            var facts = ["\(session.violations) violations"]
            if session.hasEvents {
                facts += [
                    "\(session.events) \(session.events == 1 ? "event" : "events")",
                    "\(session.alerts) \(session.alerts == 1 ? "alert" : "alerts")",
                    "deepest modal depth \(session.maxModalDepth)",
                ]
            }
            facts.append(
                ReportTime.duration(session.end - session.start) + " of event time from "
                    + ReportTime.format(session.start, seconds: true)
            )
            html +=
                "<article class=\"session\" data-session=\"\(HTML.escape(session.id))\"><h3>\(HTML.escape(session.id)) <span class=\"sub\">\(HTML.escape(session.app))\(session.appVersion.map { " " + HTML.escape($0) } ?? "")</span></h3>"
            html += "<p class=\"meta\">\(facts.map(HTML.escape).joined(separator: " · "))</p>"
            let rules = Set(session.marks.map(\.rule)).sorted()
            let chart = SVGChart.timeline(
                id: id,
                title: "Session \(session.id): presentation stack and violations over time",
                desc:
                    "\(session.spans.count) presentations on up to \((session.spans.map(\.level).max() ?? -1) + 1) stack levels over \(ReportTime.duration(session.end - session.start)); \(session.violations) violations of \(rules.joined(separator: ", ")).",
                session: session
            )
            html += "<figure class=\"chart-box wide\">\(chart)"
            if session.marksDropped > 0 || session.spansDropped > 0 {
                html +=
                    "<figcaption class=\"note\">Drawn: \(session.marks.count) of its \(session.violations) violations and \(session.spans.count) of its \(session.spans.count + session.spansDropped) presentations.</figcaption>"
            }
            html += "</figure>"
            var marks = ReportTable(
                id: "session-violations",
                caption: "Violations in session \(session.id)",
                columns: [("at", "At"), ("rule", "Rule"), ("severity", "Severity"), ("subject", "About")]
            )
            for (n, mark) in session.marks.enumerated() {
                marks.add(
                    key: String(n),
                    [
                        .html("+" + HTML.escape(ReportTime.duration(mark.ts - session.start)), value: String(mark.ts)),
                        .html(ruleLink(mark.rule), value: mark.rule), severityCell(mark.severity),
                        .text(mark.subject ?? "—"),
                    ]
                )
            }
            html +=
                "<details><summary>Violations as a table (\(session.marks.count))</summary>\(marks.render(extraAttributes: " data-session=\"\(HTML.escape(session.id))\""))</details>"
            if session.hasEvents {
                var stack = ReportTable(
                    id: "session-stack",
                    caption: "Presentations in session \(session.id)",
                    columns: [
                        ("presented", "Presented"), ("kind", "Kind"), ("id", "Id"), ("title", "Title"),
                        ("level", "Level"), ("shown_for", "Shown for"),
                    ]
                )
                for (n, span) in session.spans.sorted(by: {
                    $0.start != $1.start ? $0.start < $1.start : $0.level < $1.level
                }).enumerated() {
                    stack.add(
                        key: String(n),
                        [
                            .html(
                                "+" + HTML.escape(ReportTime.duration(span.start - session.start)),
                                value: String(span.start)
                            ),
                            .text(span.kind.name), .text(span.id), .text(span.title ?? "—"), .number(span.level),
                            .text(ReportTime.duration(span.end - span.start) + (span.open ? " (still presented)" : "")),
                        ]
                    )
                }
                html +=
                    "<details><summary>Presentations as a table (\(session.spans.count))</summary>\(stack.render(extraAttributes: " data-session=\"\(HTML.escape(session.id))\""))</details>"
            }
            html += "</article>"
        }
        return html + "</section>"
    }

    // MARK: glossary

    func glossarySection() -> String {
        let ids = model.byRule.keys.sorted()
        var html =
            "<section id=\"glossary\" aria-labelledby=\"glossary-h\"><h2 id=\"glossary-h\">Rules</h2><p class=\"lead\">The rules broken in this report, with the guideline each cites (docs/rules.md has every rule).</p><dl class=\"glossary\">"
        for id in ids {
            guard let rule = model.rules[id] else { continue }
            html +=
                "<div class=\"rule\" id=\"rule-\(HTML.slug(id))\" data-rule=\"\(HTML.escape(id))\"><dt><code>\(HTML.escape(id))</code> <span class=\"sev-word s-\(rule.severity.name)\">\(rule.severity.name)</span> <span class=\"sub\">module \(HTML.escape(rule.module))</span></dt>"
            html += "<dd><strong>\(HTML.escape(rule.guideline))</strong>. \(HTML.escape(rule.summary))</dd></div>"
        }
        html += "</dl>"
        let unknown = ids.filter { model.rules[$0] == nil }
        if !unknown.isEmpty {
            html +=
                "<p class=\"note\">No loaded module describes \(unknown.map(HTML.escape).joined(separator: ", ")) (a module this report did not load).</p>"
        }
        return html + "</section>"
    }
}
