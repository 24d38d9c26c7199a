package dev.nifigeoparquet.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.stream.DoubleStream;

/** Plain SVG charts, written as text: a bar chart of ratios against their targets, and a log-scale line chart. */
final class Charts {

    /** One bar: its label, value, and the target it should reach (NaN for none); {@code atLeast} says which way. */
    record Bar(String label, double value, double target, boolean atLeast) {}

    /** One line of a line chart. */
    @SuppressWarnings("ArrayRecordComponent") // carries the values to draw, never compared or hashed
    record Series(String name, String colour, double[] y) {}

    private Charts() {}

    /** Horizontal bars on a log10 axis, each with its target as a tick; green when the target is met. */
    static String ratioBars(String title, List<Bar> allBars) {
        // A ratio over a zero (nothing measured) is not drawn: an infinite value would stretch the axis without end.
        List<Bar> bars =
                allBars.stream().filter(bar -> Double.isFinite(bar.value())).toList();
        int left = 330, width = 420, rowHeight = 28, top = 40;
        int height = top + bars.size() * rowHeight + 40;
        // A ratio over a zero (a scenario that read or wrote nothing) is infinite; the axis ends at the largest finite
        // value and such a bar runs to its end, or the decade loop below would never end.
        double max = bars.stream()
                .flatMapToDouble(b -> DoubleStream.of(b.value(), b.target()))
                .filter(Double::isFinite)
                .max()
                .orElse(1);
        double lo = Math.log10(0.1), hi = Math.log10(Math.max(10, max * 1.3));
        StringBuilder svg = header(left + width + 80, height, title);
        for (int decade = (int) Math.ceil(lo); decade <= hi; decade++) {
            double x = left + (decade - lo) / (hi - lo) * width;
            svg.append(fmt("<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#ddd'/>", x, top - 5, x, height - 30));
            svg.append(fmt(
                    "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%s</text>",
                    x, height - 15, number(Math.pow(10, decade))));
        }
        for (int i = 0; i < bars.size(); i++) {
            Bar bar = bars.get(i);
            int y = top + i * rowHeight;
            double value = Double.isFinite(bar.value()) ? Math.max(bar.value(), 0.1) : Math.pow(10, hi);
            double x = left + (Math.log10(value) - lo) / (hi - lo) * width;
            boolean met = Double.isNaN(bar.target())
                    || (bar.atLeast() ? bar.value() >= bar.target() : bar.value() <= bar.target());
            svg.append(fmt(
                    "<text x='%d' y='%d' font-size='12' text-anchor='end'>%s</text>",
                    left - 8, y + 15, escape(bar.label())));
            svg.append(fmt(
                    "<rect x='%d' y='%d' width='%.1f' height='18' fill='%s'/>",
                    left, y + 2, Math.max(1, x - left), met ? "#4c9a5b" : "#c8553d"));
            svg.append(fmt("<text x='%.1f' y='%d' font-size='11'>%s</text>", x + 4, y + 15, number(bar.value())));
            if (!Double.isNaN(bar.target())) {
                double tx = left + (Math.log10(bar.target()) - lo) / (hi - lo) * width;
                svg.append(fmt(
                        "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#000' stroke-width='2'/>",
                        tx, y, tx, y + 22));
            }
        }
        svg.append(fmt(
                "<text x='%d' y='%d' font-size='11'>black tick: target; green: met, red: missed (log scale)</text>",
                left, top - 12));
        return svg.append("</svg>\n").toString();
    }

    /** Lines over categorical x values, on a log10 y axis. */
    static String logLines(String title, String xLabel, String yLabel, String[] x, List<Series> series) {
        int left = 70, top = 40, width = 520, plotHeight = 300;
        int height = top + plotHeight + 60;
        double min = Double.MAX_VALUE, max = 0;
        for (Series s : series) {
            for (double v : s.y()) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        double lo = Math.floor(Math.log10(Math.max(min, 1e-4))), hi = Math.ceil(Math.log10(Math.max(max, 1e-3)));
        if (hi <= lo) {
            hi = lo + 1;
        }
        StringBuilder svg = header(left + width + 180, height, title);
        for (int decade = (int) lo; decade <= hi; decade++) {
            double y = top + plotHeight - (decade - lo) / (hi - lo) * plotHeight;
            svg.append(fmt("<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>", left, y, left + width, y));
            svg.append(fmt(
                    "<text x='%d' y='%.1f' font-size='11' text-anchor='end'>%s</text>",
                    left - 6, y + 4, number(Math.pow(10, decade))));
        }
        for (int i = 0; i < x.length; i++) {
            double px = left + (x.length == 1 ? width / 2.0 : i * (double) width / (x.length - 1));
            svg.append(fmt(
                    "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%s</text>",
                    px, top + plotHeight + 18, escape(x[i])));
        }
        svg.append(fmt(
                "<text x='%d' y='%d' font-size='12' text-anchor='middle'>%s</text>",
                left + width / 2, top + plotHeight + 40, escape(xLabel)));
        svg.append(fmt(
                "<text x='14' y='%d' font-size='12' transform='rotate(-90 14 %d)' text-anchor='middle'>%s</text>",
                top + plotHeight / 2, top + plotHeight / 2, escape(yLabel)));
        int legend = 0;
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.y().length; i++) {
                double px = left + (x.length == 1 ? width / 2.0 : i * (double) width / (x.length - 1));
                double py = top + plotHeight - (Math.log10(Math.max(s.y()[i], 1e-4)) - lo) / (hi - lo) * plotHeight;
                points.append(fmt("%.1f,%.1f ", px, py));
                svg.append(fmt("<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>", px, py, s.colour()));
                svg.append(fmt(
                        "<text x='%.1f' y='%.1f' font-size='10' fill='%s'>%s</text>",
                        px + 5, py - 5, s.colour(), number(s.y()[i])));
            }
            svg.append(fmt(
                    "<polyline points='%s' fill='none' stroke='%s' stroke-width='2'/>",
                    points.toString().trim(), s.colour()));
            svg.append(fmt(
                    "<rect x='%d' y='%d' width='12' height='12' fill='%s'/>",
                    left + width + 20, top + legend * 20, s.colour()));
            svg.append(fmt(
                    "<text x='%d' y='%d' font-size='12'>%s</text>",
                    left + width + 38, top + legend * 20 + 11, escape(s.name())));
            legend++;
        }
        return svg.append("</svg>\n").toString();
    }

    private static StringBuilder header(int width, int height, String title) {
        return new StringBuilder(fmt(
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>"
                        + "<rect width='100%%' height='100%%' fill='white'/><text x='10' y='20' font-size='14' font-weight='bold'>%s</text>",
                width, height, escape(title)));
    }

    static String number(double value) {
        if (value >= 100) {
            return fmt("%.0f", value);
        }
        if (value >= 10) {
            return fmt("%.1f", value);
        }
        return fmt("%.2f", value);
    }

    @SuppressWarnings("AnnotateFormatMethod") // callers pass literal formats; @FormatMethod would need a dependency
    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
