#!/usr/bin/python3
"""Print the tables of an HTML page (a loopscale report) as text, one row a
line, cells separated by ' | ', tags dropped and entities decoded; each
table opens with a line '# table N' (counted from 1).  With --figures,
print instead each <img>: its alt text, its URI's media type and encoding,
and whether its content parses as XML (an SVG document).

    html_tables.py PAGE.html [--figures]"""
import base64
import html.parser
import sys
import xml.dom.minidom


class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.row, self.cell, self.images = [], None, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "img":
            self.images.append(dict(attrs))
        elif tag == "sup" and self.cell is not None:
            self.cell += "^"

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join(self.cell.split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[-1].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def main():
    page = Tables()
    page.feed(open(sys.argv[1], encoding="utf-8").read())
    if "--figures" in sys.argv[2:]:
        for img in page.images:
            src = img.get("src", "")
            head, _, data = src.partition(",")
            ok = "not XML"
            if head == "data:image/svg+xml;base64":
                try:
                    doc = xml.dom.minidom.parseString(base64.b64decode(data, validate=True))
                    ok = "an " + doc.documentElement.tagName + " document"
                except Exception as e:  # noqa: BLE001 - any failure is the answer
                    ok = "not XML (%s)" % e
            print("%s: %s, %s" % (img.get("alt"), head, ok))
        return
    for i, table in enumerate(page.tables, 1):
        print("# table %d" % i)
        for row in table:
            print(" | ".join(row))


main()
