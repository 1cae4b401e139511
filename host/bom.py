"""The bill of materials: hardware/bom.csv read, checked and shown as a Markdown table.

The CSV is the one list of parts; hardware/README.md shows it (make hardware). Each row
says what its quantity scales with ("per": box, player, led, control), and the quantity
must be a whole multiple of that count in the pin map, so a BOM never buys parts for a
different box than boards.json describes.
"""

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOM_CSV = ROOT / "hardware" / "bom.csv"
COLUMNS = ["section", "part", "quantity", "per", "example_part_number", "unit_price_usd", "notes"]
PER_UNITS = ("box", "player", "led", "control")
PRICE = re.compile(r"^\d+\.\d\d$")  # dollars and cents: 1.50


class BomError(ValueError):
    pass


def unit_counts(profile):
    """How many of each 'per' unit the profile has."""
    return {
        "box": 1,
        "player": profile["players"]["count"],
        "led": profile["leds"]["count"],
        "control": len(profile["controls"].get("names", [])),
    }


def parse(text, where="bom.csv"):
    """The rows as dicts (quantity an int, unit_price_usd a Decimal); BomError on any mistake."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header != COLUMNS:
        raise BomError("%s: the header must be %s, got %s" % (where, ",".join(COLUMNS), header))
    rows = []
    for line, cells in enumerate(reader, start=2):
        if not cells:
            continue
        if len(cells) != len(COLUMNS):
            raise BomError("%s line %d: %d fields, want %d" % (where, line, len(cells), len(COLUMNS)))
        row = dict(zip(COLUMNS, (c.strip() for c in cells), strict=True))
        for col in ("section", "part", "example_part_number"):
            if not row[col]:
                raise BomError("%s line %d: %s is empty" % (where, line, col))
        if not row["quantity"].isdigit() or int(row["quantity"]) < 1:
            raise BomError(
                "%s line %d: quantity must be a whole number >= 1, got %r" % (where, line, row["quantity"])
            )
        row["quantity"] = int(row["quantity"])
        if row["per"] not in PER_UNITS:
            raise BomError(
                "%s line %d: per must be one of %s, got %r" % (where, line, "/".join(PER_UNITS), row["per"])
            )
        if not PRICE.match(row["unit_price_usd"]):
            raise BomError(
                "%s line %d: unit_price_usd must be like 1.50, got %r" % (where, line, row["unit_price_usd"])
            )
        row["unit_price_usd"] = Decimal(row["unit_price_usd"])
        row["line"] = line
        rows.append(row)
    if not rows:
        raise BomError("%s has no parts" % where)
    return rows


def load(path=BOM_CSV):
    path = Path(path)
    return parse(path.read_text(), "%s/%s" % (path.parent.name, path.name))


def check_against(rows, profile):
    """Problems (strings) where a quantity does not fit the profile's counts; [] when all fit."""
    counts = unit_counts(profile)
    problems = []
    for r in rows:
        n = counts[r["per"]]
        if n == 0 or r["quantity"] % n:
            problems.append(
                "line %d (%s): quantity %d is not a multiple of the %d %s(s) in profile %r"
                % (r["line"], r["part"], r["quantity"], n, r["per"], profile["name"])
            )
    return problems


def total(rows):
    return sum((r["unit_price_usd"] * r["quantity"] for r in rows), Decimal("0"))


def markdown(rows):
    """The README table: grouped by section in CSV order, with line and grand totals."""
    out = [
        "| Qty | Part | Example part number | Each (USD) | Total (USD) | Notes |",
        "|---:|---|---|---:|---:|---|",
    ]
    section = None
    for r in rows:
        if r["section"] != section:
            section = r["section"]
            out.append("| | **%s** | | | | |" % section)
        cells = (
            str(r["quantity"]),
            r["part"],
            r["example_part_number"],
            "%.2f" % r["unit_price_usd"],
            "%.2f" % (r["unit_price_usd"] * r["quantity"]),
            r["notes"],
        )
        out.append("| %s |" % " | ".join(c.replace("|", "/") for c in cells))
    out.append("| | **Total, approximate** | | | **%.2f** | |" % total(rows))
    return out
