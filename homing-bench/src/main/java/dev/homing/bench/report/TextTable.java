package dev.homing.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A fixed-width text table: the first column left-aligned (names), the rest right-aligned (numbers). */
final class TextTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    TextTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    String render() {
        int[] widths = new int[header.size()];
        for (List<String> row : withHeader()) {
            for (int c = 0; c < row.size(); c++) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : withHeader()) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.size(); c++) {
                String cell = row.get(c);
                String pad = " ".repeat(widths[c] - cell.length());
                if (c > 0) {
                    line.append("  ").append(pad).append(cell);
                } else {
                    line.append(cell).append(pad);
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private List<List<String>> withHeader() {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return all;
    }
}
