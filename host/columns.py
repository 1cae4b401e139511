"""Text tables whose columns stay aligned whatever their cells hold: each column as wide
as its widest cell, the last one not padded."""


def table(headers, rows, right=()):
    """Lines of a table: headers, then one line per row; columns whose index is in right
    are right-aligned (numbers)."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = []
        for i, cell in enumerate(row):
            if i in right:
                parts.append(cell.rjust(widths[i]))
            elif i == len(row) - 1:
                parts.append(cell)
            else:
                parts.append(cell.ljust(widths[i]))
        lines.append("  ".join(parts).rstrip())
    return lines
