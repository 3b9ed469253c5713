"""The DOM chromium dumps, as a tree to query, and what the page contract says it must hold.

Expected values come from the --json reports (and the requirement catalog) read here on their
own terms, never from the renderer: the status of a requirement, which rows a filter hides and
which compare rows differ are worked out below from the records.
"""
import collections
import html.parser
import json
import urllib.parse

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
         "source", "track", "wbr"}
RESULTS = ("passed", "failed", "known", "skipped", "not_applicable")
# A passage citing several ids shows its worst; the order the contract gives.
STATUS_ORDER = ("failed", "known", "not-met", "not-covered", "passed")


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children = []
        self.text_parts = []

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(p if isinstance(p, str) else p.text() for p in self.text_parts)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def find_all(self, tag=None, cls=None):
        return [n for n in self.walk()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes())]


class _Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.current)
        self.current.children.append(node)
        self.current.text_parts.append(node)
        if tag not in _VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.current = self.current.parent

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.text_parts.append(data)


def parse(text):
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root


def by_id(root):
    return {n.attrs["id"]: n for n in root.walk() if "id" in n.attrs}


def check_rows(root):
    return root.find_all("tr", "check")


def hidden_ids(root):
    return {r.attrs.get("id") for r in check_rows(root) if "hidden" in r.attrs}


def record_key(record):
    return "%s/%s" % (record["suite"], record["id"])


# --- expectations from the records -----------------------------------------------------------

def requirement_statuses(records):
    """Each cited requirement id's status by the contract's rule, from the records alone."""
    citing = collections.defaultdict(list)
    for r in records:
        for rid in r.get("requirements", []):
            citing[rid].append(r)
    statuses = {}
    for rid, checks in citing.items():
        if any(c["level"] == "REQUIRED" and c["result"] in ("failed", "skipped") for c in checks):
            statuses[rid] = "failed"
        elif any(c["result"] == "known" for c in checks):
            statuses[rid] = "known"
        elif any(c["level"] == "RECOMMENDED" and c["result"] == "failed" for c in checks):
            statuses[rid] = "not-met"
        else:
            statuses[rid] = "passed"
    return statuses


def worst(statuses):
    return min(statuses, key=STATUS_ORDER.index)


def run_filter_hides(query, record):
    """Whether the run page's filter `query` (a dict) hides this record's row."""
    if "failed" in query and record["result"] not in ("failed", "known", "skipped"):
        return True
    if "suite" in query and record["suite"] != query["suite"]:
        return True
    return "level" in query and record["level"] != query["level"]


def compare_rows(runs):
    """{suite/id: (suite, level, [result or 'absent' per run])}, in first-seen order."""
    rows = {}
    for index, records in enumerate(runs):
        for r in records:
            key = record_key(r)
            if key not in rows:
                rows[key] = (r["suite"], r["level"], ["absent"] * len(runs))
            rows[key][2][index] = r["result"]
    return rows


def compare_filter_hides(query, row):
    suite, level, results = row
    if "failed" in query and all(x == "passed" for x in results):
        return True
    if "differs" in query and len(set(results)) == 1:
        return True
    if "suite" in query and suite != query["suite"]:
        return True
    return "level" in query and level != query["level"]


def parse_query(query):
    return {k: v for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True)}


# --- checks of one dumped page; each returns a list of problems ------------------------------

def check_anchors(root):
    ids = by_id(root)
    problems = []
    links = [a for a in root.find_all("a") if a.attrs.get("href", "").startswith("#")]
    for a in links:
        target = urllib.parse.unquote(a.attrs["href"][1:])
        if target not in ids:
            problems.append("link %r (%r) resolves to no element" % (a.attrs["href"],
                                                                     a.text()[:60]))
    return problems, len(links)


def check_layout(root, viewport_width):
    pre = by_id(root).get("layout-check")
    if pre is None:
        return ["?layout-check added no <pre id=\"layout-check\">"]
    report = json.loads(pre.text())
    problems = []
    if report["viewport_width"] != viewport_width:
        problems.append("viewport %s wide, not %d" % (report["viewport_width"], viewport_width))
    if report["page_width"] > report["viewport_width"]:
        problems.append("page is %s px wide in a %s px viewport"
                        % (report["page_width"], report["viewport_width"]))
    for cell in report["overflowing"]:
        problems.append("text overflows its cell: %r" % cell)
    return problems


def check_run_rows(root, records):
    problems = []
    rows = check_rows(root)
    seen = collections.Counter(r.attrs.get("id") for r in rows)
    problems += ["%d rows have id %r" % (n, k) for k, n in seen.items() if n > 1]
    by_key = {r.attrs.get("id"): r for r in rows}
    for rec in records:
        row = by_key.get(record_key(rec))
        if row is None:
            problems.append("no row for %s" % record_key(rec))
            continue
        want = {"data-suite": rec["suite"], "data-level": rec["level"],
                "data-result": rec["result"]}
        got = {k: row.attrs.get(k) for k in want}
        if got != want:
            problems.append("row %s: %s, the JSON says %s" % (record_key(rec), got, want))
    extra = set(by_key) - {record_key(r) for r in records}
    problems += ["row %s is in no record" % k for k in sorted(extra)]
    return problems


def mark_counts(root, attr="data-result"):
    return collections.Counter(r.attrs.get(attr) for r in check_rows(root))


def check_annotations(root, records, catalog):
    """Each marked passage's status, and every catalog id shown somewhere."""
    statuses = requirement_statuses(records)
    problems = []
    marks = root.find_all(cls="req")
    shown = collections.defaultdict(set)
    for m in marks:
        ids = m.attrs.get("data-ids", "").split()
        if not ids:
            problems.append("a .req %s carries no data-ids" % m.tag)
            continue
        want = worst([statuses.get(i, "not-covered") for i in ids])
        if m.attrs.get("data-status") != want:
            problems.append("%s %s is marked %r; its checks make it %r"
                            % (m.tag, " ".join(ids), m.attrs.get("data-status"), want))
        for i in ids:
            shown[i].add("profile" if "profile" in m.classes() else m.tag)
    for req in catalog["requirements"]:
        if req["source"] == "spec" and "span" not in shown[req["id"]]:
            problems.append("spec requirement %s is in no <span class=\"req\">" % req["id"])
        if req["source"] == "profile" and not shown[req["id"]]:
            problems.append("profile rule %s is marked nowhere" % req["id"])
    return problems, collections.Counter(m.attrs.get("data-status") for m in marks)


def check_compare_rows(root, runs):
    want_rows = compare_rows(runs)
    problems = []
    rows = check_rows(root)
    if len(rows) != len(want_rows):
        problems.append("%d rows for %d checks" % (len(rows), len(want_rows)))
    for row in rows:
        key = row.attrs.get("id")
        if key not in want_rows:
            problems.append("row %s is in no run" % key)
            continue
        suite, level, results = want_rows[key]
        got = [td.attrs.get("data-result") for td in row.find_all("td", "result")]
        differs = "true" if len(set(results)) > 1 else "false"
        want = (suite, level, differs, results)
        have = (row.attrs.get("data-suite"), row.attrs.get("data-level"),
                row.attrs.get("data-differs"), got)
        if have != want:
            problems.append("row %s: %s, the runs say %s" % (key, have, want))
    return problems


def check_filter(root, query, expected_hidden):
    hidden = hidden_ids(root)
    problems = []
    for key in sorted(expected_hidden - hidden):
        problems.append("?%s left %s shown" % (query, key))
    for key in sorted(hidden - expected_hidden):
        problems.append("?%s hid %s" % (query, key))
    return problems
