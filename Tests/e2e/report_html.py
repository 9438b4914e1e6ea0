"""Reading a `modalwatch report` page back: its tables (by `data-table`, rows by `data-key`, cells by
`data-col` / `data-value`), its charts (`svg[data-chart]` with their title and desc) and its notes.
Python's html.parser, no regular expressions over the markup."""
from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Table:
    name: str
    attrs: dict[str, str]
    rows: dict[str, dict[str, str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def column(self, col: str) -> dict[str, str]:
        return {key: row[col] for key, row in self.rows.items() if col in row}

    def numbers(self, col: str) -> dict[str, int]:
        return {key: int(value) for key, value in self.column(col).items() if value != ""}


@dataclass
class Chart:
    name: str
    attrs: dict[str, str]
    title: str = ""
    desc: str = ""
    shapes: int = 0


@dataclass
class Report:
    tables: list[Table] = field(default_factory=list)
    charts: dict[str, Chart] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    empty: bool = False
    elements: set[str] = field(default_factory=set)
    external: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)

    def table(self, name: str, **attrs: str) -> Table:
        found = [t for t in self.tables if t.name == name and all(t.attrs.get(k) == v for k, v in attrs.items())]
        assert len(found) == 1, f"expected one table {name} {attrs}, found {len(found)}"
        return found[0]

    def all_tables(self, name: str) -> list[Table]:
        return [t for t in self.tables if t.name == name]


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.report = Report()
        self.table: Table | None = None
        self.row: dict[str, str] | None = None
        self.row_key: str | None = None
        self.chart: Chart | None = None
        self.svg_depth = 0
        self.text_target: str | None = None
        self.unavailable_key: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        self.report.elements.add(tag)
        if "id" in attrs:
            self.report.ids.add(attrs["id"])
        for name in ("src", "href"):
            value = attrs.get(name, "")
            if value.startswith(("http:", "https:", "//")):
                self.report.external.append(value)
            elif name == "href" and value:
                self.report.links.append(value)
        if tag == "link" or (tag == "script"):
            self.report.external.append(f"<{tag}>")
        if tag == "table" and "data-table" in attrs:
            self.table = Table(attrs["data-table"], attrs)
            self.report.tables.append(self.table)
        elif tag == "tr" and self.table is not None and "data-key" in attrs:
            self.row, self.row_key = {}, attrs["data-key"]
            self.table.rows[self.row_key] = self.row
            self.table.order.append(self.row_key)
        elif tag in ("td", "th") and self.row is not None and "data-col" in attrs:
            self.row[attrs["data-col"]] = attrs.get("data-value", "")
        elif tag == "svg" and "data-chart" in attrs:
            self.chart = Chart(attrs["data-chart"], attrs)
            self.report.charts[self.chart.name] = self.chart
            self.svg_depth = 1
        elif tag == "svg" and self.chart is not None:
            self.svg_depth += 1
        elif self.chart is not None and tag in ("title", "desc") and attrs.get("id", "").startswith(self.chart.name):
            self.text_target, self.text = tag, ""
        elif self.chart is not None and tag in ("rect", "path", "circle"):
            self.chart.shapes += 1
        if "data-unavailable" in attrs:
            self.unavailable_key, self.text = attrs["data-unavailable"], ""
        if attrs.get("data-empty") == "true":
            self.report.empty = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.table = None
        elif tag == "tr":
            self.row = None
        elif tag == "svg" and self.chart is not None:
            self.svg_depth -= 1
            if self.svg_depth == 0:
                self.chart = None
        elif self.text_target == tag and self.chart is not None:
            setattr(self.chart, tag, self.text)
            self.text_target = None
        elif tag == "p" and self.unavailable_key is not None:
            self.report.unavailable[self.unavailable_key] = self.text
            self.unavailable_key = None

    def handle_data(self, data: str) -> None:
        if self.text_target is not None or self.unavailable_key is not None:
            self.text += data


def parse(html: str) -> Report:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.report


def screenshot_stats(path: str) -> tuple[tuple[int, int], int, float]:
    """Size, number of distinct colours, and the share of the most common colour, of a PNG (Pillow)."""
    from PIL import Image
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20) or []
        total = rgb.size[0] * rgb.size[1]
        top = max((count for count, _ in colours), default=total)
        return rgb.size, len(colours), top / total
