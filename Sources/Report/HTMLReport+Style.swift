extension HTMLReport {
    /// The page's CSS: system fonts only, light and dark palettes, print rules, a single column under 760 px.
    static let style = """
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1c1d21;--muted:#5d6169;--card:#f4f5f8;--line:#d9dce2;\
        --error:#c62828;--warning:#a35f00;--info:#1a61b8;--plain:#3d5a80;\
        --alert:#8e3bb0;--sheet:#00796b;--modal:#4a5b6b;--popover:#8a8f98;--lane:#eef0f4;--link:#1a5fb4}
        @media (prefers-color-scheme:dark){:root{--bg:#141619;--fg:#e7e9ee;--muted:#a2a8b3;--card:#1f2329;--line:#353a42;\
        --error:#ff8a80;--warning:#ffc46b;--info:#8cc4ff;--plain:#9ab8de;\
        --alert:#d9a5ef;--sheet:#6fd3c4;--modal:#a9b9c9;--popover:#8a8f98;--lane:#1c2026;--link:#8cc4ff}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
        header,main,footer{max-width:1120px;margin:0 auto;padding:0 20px}
        header{padding-top:28px}
        .eyebrow{margin:0;text-transform:uppercase;letter-spacing:.08em;font-size:12px;font-weight:600;color:var(--muted)}
        h1{font-size:28px;line-height:1.2;margin:4px 0 8px;overflow-wrap:anywhere}
        h2{font-size:21px;margin:0 0 6px}
        h3{font-size:16px;margin:18px 0 6px;overflow-wrap:anywhere}
        a{color:var(--link)}
        .source,.meta{margin:4px 0;color:var(--muted)}
        .lead{margin:0 0 14px;color:var(--muted)}
        .note{margin:8px 0;padding:8px 12px;border-left:4px solid var(--line);background:var(--card);border-radius:4px}
        .sub{font-weight:400;color:var(--muted);font-size:14px}
        nav ul,.legend{list-style:none;padding:0;margin:12px 0;display:flex;flex-wrap:wrap;gap:6px 14px}
        nav a{text-decoration:none;font-size:14px}
        .legend li{display:flex;align-items:center;gap:6px;font-size:14px}
        section{padding:22px 0;border-top:1px solid var(--line)}
        .cards{list-style:none;padding:0;margin:10px 0;display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:10px}
        .card{background:var(--card);border-radius:10px;padding:12px 14px;display:flex;flex-direction:column}
        .card .big{font-size:28px;font-weight:700;line-height:1.1;font-variant-numeric:tabular-nums}
        .card .what{font-size:14px;color:var(--muted)}
        .card .detail{font-size:12px;color:var(--muted)}
        .glyph.s-error,.s-error{color:var(--error)}.s-warning{color:var(--warning)}.s-info{color:var(--info)}
        .sev-word{white-space:nowrap;font-weight:600}
        .pair{display:grid;grid-template-columns:minmax(0,7fr) minmax(0,6fr);gap:22px;align-items:start}
        .two{display:grid;grid-template-columns:1fr 1fr;gap:24px}
        figure{margin:0}
        .chart-box{background:var(--card);border-radius:10px;padding:12px}
        svg.chart{display:block;width:100%;overflow:visible;font-family:inherit}
        svg.defs{position:absolute;width:0;height:0;overflow:hidden}
        .table-wrap{overflow-x:auto;max-width:100%}
        table{border-collapse:collapse;width:100%;font-size:14px;font-variant-numeric:tabular-nums}
        caption{text-align:left;font-weight:600;padding:0 0 6px}
        th,td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--line);vertical-align:top}
        thead th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
        tbody th{font-weight:500}
        .num{text-align:right}
        tbody th[data-col]{white-space:nowrap}
        td[data-col=guideline]{min-width:15em}
        .chart-box+details,.pair+details{margin-top:12px}
        details{margin:10px 0}
        summary{cursor:pointer;color:var(--link)}
        .presentations{list-style:none;padding:0;margin:0 0 18px;display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px}
        .pcard{background:var(--card);border-radius:10px;padding:12px 14px;border-left:5px solid var(--plain)}
        .k-alert-edge{border-left-color:var(--alert)}.k-sheet-edge{border-left-color:var(--sheet)}.k-modal-edge{border-left-color:var(--modal)}
        .pkind{margin:0;font-size:13px;color:var(--muted);overflow-wrap:anywhere}
        .badge{display:inline-block;padding:0 8px;border-radius:9px;border:1px solid currentColor;font-weight:600;text-transform:uppercase;font-size:11px;letter-spacing:.05em}
        .ptitle{margin:6px 0 2px;font-weight:700;font-size:17px}
        .ptitle.none{font-weight:400;font-style:italic;color:var(--muted)}
        .pmessage{margin:0 0 6px}
        .buttons{list-style:none;padding:0;margin:6px 0;display:flex;flex-wrap:wrap;gap:6px}
        .buttons li{border:1px solid var(--line);background:var(--bg);border-radius:8px;padding:2px 10px;font-size:14px}
        .pstats{margin:6px 0 0;font-size:14px}
        .messages{margin:6px 0 0;padding-left:18px;font-size:13px;color:var(--muted)}
        .glossary{margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:10px}
        .glossary .rule{background:var(--card);border-radius:8px;padding:8px 12px}
        .glossary .rule:target{outline:3px solid var(--link)}
        .glossary dd{margin:4px 0 0}
        .nothing{font-size:17px}
        footer{padding:18px 20px 40px;color:var(--muted);font-size:13px;border-top:1px solid var(--line)}
        svg text{fill:var(--fg);font-size:13px}
        svg .label{font-size:13.5px;font-weight:600}
        svg .muted{fill:var(--muted);font-weight:400}
        .chart-box+.table-wrap{margin-top:14px}
        svg .tick{fill:var(--muted);font-size:11px}
        svg .value{font-size:12px;font-weight:600}
        svg .in-bar{fill:#fff;font-size:11px;font-weight:600}
        .pforms{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:10px;margin:6px 0}
        .pform{border:1px dashed var(--line);border-radius:8px;padding:6px 10px;min-width:0}
        .pform.as-suggested{border-style:solid}
        .plabel{margin:0;font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
        .suggestions{margin:6px 0 0;padding-left:18px;font-size:14px;overflow-wrap:anywhere}
        svg .bar-label{fill:var(--fg);stroke:var(--bg);stroke-width:3px;paint-order:stroke;stroke-linejoin:round;font-size:11px;font-weight:600}
        svg .grid{stroke:var(--line);stroke-width:1}
        svg .axis{stroke:var(--muted);stroke-width:1}
        svg .lane{fill:var(--lane)}
        svg .mark-line{stroke:var(--muted);stroke-width:1;stroke-dasharray:2 2;opacity:.7}
        .sev-error{fill:var(--error)}.sev-warning{fill:url(#p-warning)}.sev-info{fill:url(#p-info)}
        .pf-warning{fill:var(--warning)}.pf-info{fill:var(--info)}.pf-sheet{fill:var(--sheet)}
        .ps{stroke:var(--bg)}.pd{fill:var(--bg)}
        .mk-error{fill:var(--error)}.mk-warning{fill:var(--warning)}.mk-info{fill:var(--info)}
        .mk-error,.mk-warning,.mk-info{stroke:var(--bg);stroke-width:1}
        .bar-plain{fill:var(--plain)}
        .k-alert{fill:var(--alert)}.k-sheet{fill:url(#p-sheet)}.k-modal{fill:var(--modal)}
        .k-popover{fill:var(--lane);stroke:var(--popover);stroke-width:1.5;stroke-dasharray:4 2}
        svg .in-bar.on-lane{fill:var(--fg)}
        .open{stroke:var(--fg);stroke-width:1;stroke-dasharray:3 2}
        @media (prefers-color-scheme:dark){svg .in-bar{fill:#111}}
        @media (max-width:760px){.pair,.two{grid-template-columns:minmax(0,1fr)}h1{font-size:23px}header,main,footer{padding-left:14px;padding-right:14px}\
        .presentations,.glossary{grid-template-columns:minmax(0,1fr)}.card .big{font-size:24px}}
        @media print{:root{--bg:#fff;--fg:#000;--muted:#444;--card:#fff;--line:#bbb;--lane:#f1f1f1;--link:#000}\
        body{font-size:11pt}nav,summary{display:none}details>*{display:block}\
        section{break-inside:auto}.chart-box,.pcard,.session,table{break-inside:avoid}.chart-box,.pcard{border:1px solid #bbb}\
        a{text-decoration:none}}
        """
}
