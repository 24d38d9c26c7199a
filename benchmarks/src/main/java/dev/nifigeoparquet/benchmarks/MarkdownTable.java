package dev.nifigeoparquet.benchmarks;

import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

/** A Markdown table: a header, then rows of cells, each cell written as it is given. */
record MarkdownTable(List<String> header, List<List<String>> rows) {

    MarkdownTable {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
    }

    /** A row of cells, each written as {@link String#valueOf(Object)} writes it. */
    static List<String> row(Object... cells) {
        return Stream.of(cells).map(String::valueOf).toList();
    }

    /** The table's lines, each ending in a newline. */
    String render() {
        StringBuilder md = new StringBuilder();
        appendLine(md, header);
        appendLine(md, Collections.nCopies(header.size(), "---"));
        rows.forEach(row -> appendLine(md, row));
        return md.toString();
    }

    private static void appendLine(StringBuilder md, List<String> cells) {
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
}
