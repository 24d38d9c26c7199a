package dev.nifigeoparquet.cli;

import com.uber.h3core.H3Core;
import com.uber.h3core.util.LatLng;
import dev.nifigeoparquet.archive.compaction.PartitionCompaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The demo's report as one HTML file that opens offline: no scripts, fonts, tiles or stylesheets from elsewhere.
 * The map is inline SVG: every partition's H3 cell (boundary from h3-java) in an equirectangular projection scaled
 * by the cosine of the mean latitude, the touched ones highlighted, each with a tooltip of its rows before and after.
 */
final class DemoHtmlReport {

    private static final int WIDTH = 960;
    private static final int MARGIN = 12;

    private final DemoFigures figures;

    DemoHtmlReport(DemoFigures figures) {
        this.figures = figures;
    }

    String render() {
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>geoparquet-archive demo: nightly update</title>\n<style>\n")
                .append("body{font-family:system-ui,sans-serif;margin:24px;color:#1d2733;max-width:1000px}\n")
                .append(
                        "table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #c8d0d8;padding:4px 10px;text-align:right}\n")
                .append(
                        "th{background:#eef2f5}td.l,th.l{text-align:left}.ok{color:#17693a;font-weight:600}.bad{color:#b3261e;font-weight:600}\n")
                .append("svg{border:1px solid #c8d0d8;background:#f7fafc}.cell{stroke:#7b8a99;stroke-width:0.6}\n")
                .append(
                        ".touched{fill:#e8590c;stroke:#8a2c00;stroke-width:1.4}.legend span{display:inline-block;width:14px;height:14px;vertical-align:middle;margin:0 4px 0 12px}\n")
                .append("code,pre{background:#eef2f5;padding:2px 4px}\n</style>\n</head>\n<body>\n");
        html.append("<h1>Nightly update of a partitioned GeoParquet archive</h1>\n");
        html.append("<p>Archive <code>")
                .append(escape(figures.archive().toString()))
                .append("</code>, H3 resolution ")
                .append(figures.resolution())
                .append(", delta <code>")
                .append(escape(figures.deltaFile().getFileName().toString()))
                .append("</code>.</p>\n");
        figuresTable(html);
        html.append(
                        "<h2>Partitions</h2>\n<p class=\"legend\"><span style=\"background:#9cc3e0\"></span>partition (darker: more rows)")
                .append("<span style=\"background:#e8590c\"></span>touched by the delta</p>\n");
        map(html);
        touchedTable(html);
        html.append("<h2>Reading the archive</h2>\n<pre>-- DuckDB\nSELECT count(*) FROM read_parquet('")
                .append(escape(figures.archive().toString()))
                .append("/*/*.parquet', hive_partitioning = true);\n\n")
                .append("# GeoPandas\nimport geopandas\nparcels = geopandas.read_parquet('")
                .append(escape(figures.archive().toString()))
                .append("')</pre>\n</body>\n</html>\n");
        return html.toString();
    }

    private void figuresTable(StringBuilder html) {
        var delta = figures.delta();
        html.append("<h2>Figures</h2>\n<table>\n");
        row(
                html,
                "Delta rows",
                String.format(
                        "%,d (%,d edits, %,d new, %,d moved, %,d deletions)",
                        delta.rows().size(), delta.updates(), delta.inserts(), delta.moves(), delta.deletes()));
        row(
                html,
                "Partitions touched",
                String.format(
                        "%d of %d (%s)",
                        figures.touchedCells().size(),
                        figures.partitionsBefore(),
                        DemoFigures.percent(figures.touchedCells().size(), figures.partitionsBefore())));
        row(
                html,
                "Bytes written",
                String.format(
                        "%s (upsert %s + compaction %s) against an archive of %s (%s)",
                        DemoFigures.mib(figures.bytesWritten()),
                        DemoFigures.mib(figures.upsertBytes()),
                        DemoFigures.mib(figures.compactionBytes()),
                        DemoFigures.mib(figures.archiveBytesBefore()),
                        DemoFigures.percent(figures.bytesWritten(), figures.archiveBytesBefore())));
        html.append("<tr><th class=\"l\">geo consistent</th><td class=\"l ")
                .append(figures.geoConsistent() ? "ok\">True" : "bad\">False")
                .append("</td></tr>\n");
        row(html, "CRS", figures.crs());
        html.append("<tr><th class=\"l\">Rows</th><td class=\"l\">")
                .append(String.format(
                        "baseline %,d + net delta %+,d = %,d after (expected %,d) ",
                        figures.baselineRows(), figures.netRows(), figures.afterRows(), figures.expectedRows()))
                .append(
                        figures.reconciled()
                                ? "<span class=\"ok\">reconciled</span>"
                                : "<span class=\"bad\">MISMATCH</span>")
                .append("</td></tr>\n");
        row(html, "Verification", figures.consistent() ? "consistent" : figures.problems() + " problems");
        html.append("</table>\n");
    }

    private static void row(StringBuilder html, String label, String value) {
        html.append("<tr><th class=\"l\">")
                .append(escape(label))
                .append("</th><td class=\"l\">")
                .append(escape(value))
                .append("</td></tr>\n");
    }

    private void map(StringBuilder html) {
        H3Core h3;
        try {
            h3 = H3Core.newInstance();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load the H3 library", e);
        }
        Set<String> cells = new TreeSet<>(figures.rowsBefore().keySet());
        cells.addAll(figures.rowsAfter().keySet());
        Set<String> touched = new HashSet<>(figures.touchedCells());
        Map<String, List<LatLng>> boundaries = new LinkedHashMap<>();
        double minLat = 90, maxLat = -90, minLon = 180, maxLon = -180;
        for (String cell : cells) {
            List<LatLng> boundary = h3.cellToBoundary(cell);
            boundaries.put(cell, boundary);
            for (LatLng point : boundary) {
                minLat = Math.min(minLat, point.lat);
                maxLat = Math.max(maxLat, point.lat);
                minLon = Math.min(minLon, point.lng);
                maxLon = Math.max(maxLon, point.lng);
            }
        }
        if (boundaries.isEmpty()) {
            html.append("<p>The archive has no partitions.</p>\n");
            return;
        }
        double xScale = Math.cos(Math.toRadians((minLat + maxLat) / 2));
        double spanX = Math.max(1e-9, (maxLon - minLon) * xScale);
        double spanY = Math.max(1e-9, maxLat - minLat);
        double scale = (WIDTH - 2 * MARGIN) / spanX;
        int height = (int) Math.ceil(spanY * scale) + 2 * MARGIN;
        long maxRows = figures.rowsAfter().values().stream()
                .mapToLong(Long::longValue)
                .max()
                .orElse(1);
        html.append("<svg width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(height)
                .append("\" role=\"img\" aria-label=\"H3 partitions of the archive\">\n");
        List<String> touchedLast = new ArrayList<>();
        for (Map.Entry<String, List<LatLng>> entry : boundaries.entrySet()) {
            String cell = entry.getKey();
            StringBuilder points = new StringBuilder();
            for (LatLng point : entry.getValue()) {
                double x = MARGIN + (point.lng - minLon) * xScale * scale;
                double y = MARGIN + (maxLat - point.lat) * scale;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            long before = figures.rowsBefore().getOrDefault(cell, 0L);
            long after = figures.rowsAfter().getOrDefault(cell, 0L);
            String title = cell + ": " + before + (before == after ? " rows" : " -> " + after + " rows");
            if (touched.contains(cell)) {
                touchedLast.add("<polygon class=\"cell touched\" data-cell=\"" + cell + "\" points=\""
                        + points.toString().strip() + "\"><title>" + escape(title) + " (touched)</title></polygon>\n");
            } else {
                double shade = 0.2 + 0.8 * Math.log1p((double) after) / Math.log1p((double) Math.max(1, maxRows));
                html.append("<polygon class=\"cell\" data-cell=\"")
                        .append(cell)
                        .append("\" points=\"")
                        .append(points.toString().strip())
                        .append(String.format(Locale.ROOT, "\" style=\"fill:rgba(38,110,170,%.2f)\"><title>", shade))
                        .append(escape(title))
                        .append("</title></polygon>\n");
            }
        }
        touchedLast.forEach(html::append);
        html.append("</svg>\n");
    }

    private void touchedTable(StringBuilder html) {
        Map<String, PartitionCompaction> compactions = new LinkedHashMap<>();
        figures.compactions().forEach(compaction -> compactions.put(compaction.cell(), compaction));
        html.append(
                        "<h2>Touched partitions</h2>\n<table>\n<tr><th class=\"l\">h3_cell</th><th>rows before</th><th>rows after</th>")
                .append("<th>files after upsert</th><th>files after compaction</th></tr>\n");
        for (String cell : figures.touchedCells()) {
            PartitionCompaction compaction = compactions.get(cell);
            html.append("<tr><td class=\"l\"><code>")
                    .append(cell)
                    .append("</code></td><td>")
                    .append(String.format("%,d", figures.rowsBefore().getOrDefault(cell, 0L)))
                    .append("</td><td>")
                    .append(String.format("%,d", figures.rowsAfter().getOrDefault(cell, 0L)))
                    .append("</td><td>")
                    .append(compaction == null ? "-" : compaction.filesBefore())
                    .append("</td><td>")
                    .append(compaction == null ? "-" : compaction.filesAfter())
                    .append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
