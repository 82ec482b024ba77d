package dev.homing.bench.report;

import static dev.homing.bench.report.Markup.escape;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * What every chart of the report shares: an accessible {@code <svg>} (its {@code <title>} and {@code <desc>} named by
 * {@code aria-labelledby}), a plot area, a y axis with grid lines and ticks, and a legend on the right.
 */
final class SvgFrame {

    static final int LEGEND_WIDTH = 150;
    private static final int LEFT = 62;
    private static final int TOP = 30;
    private static final int BOTTOM = 46;
    private static final int GAP = 14;

    /** One legend entry. */
    record Key(String name, String colour, String dash) {
    }

    private final StringBuilder svg = new StringBuilder();
    private final int width;
    private final int height;

    /**
     * @param kind a class for the chart ({@code by-load}, {@code hit-rate}, {@code pod-load}) that tests and styles
     *             select on
     */
    SvgFrame(String id, String kind, int width, int height, String title, String description) {
        this.width = width;
        this.height = height;
        svg.append("<svg class=\"chart ").append(escape(kind)).append("\" role=\"img\" aria-labelledby=\"")
                .append(id).append("-t ").append(id).append("-d\" viewBox=\"0 0 ").append(width).append(' ')
                .append(height).append("\" width=\"").append(width).append("\" height=\"").append(height).append("\">")
                .append("<title id=\"").append(id).append("-t\">").append(escape(title)).append("</title>")
                .append("<desc id=\"").append(id).append("-d\">").append(escape(description)).append("</desc>")
                .append("<text class=\"chart-title\" x=\"").append(LEFT).append("\" y=\"18\" aria-hidden=\"true\">")
                .append(escape(Markup.fit(title, (width - LEFT) / 7))).append("</text>");
    }

    double left() {
        return LEFT;
    }

    double right() {
        return width - LEGEND_WIDTH - GAP;
    }

    double top() {
        return TOP;
    }

    double bottom() {
        return height - BOTTOM;
    }

    /** The pixel x of a fraction of the plot's width. */
    double x(double fraction) {
        return left() + fraction * (right() - left());
    }

    /** The pixel y of a fraction of the plot's height, 0 at the bottom. */
    double y(double fraction) {
        return bottom() - fraction * (bottom() - top());
    }

    SvgFrame yAxis(Scale scale, String label, DoubleFunction<String> tickLabel) {
        svg.append("<g class=\"axis y\">");
        for (double t : scale.ticks()) {
            double py = y(scale.fraction(t));
            svg.append("<line class=\"grid\" x1=\"").append(n(left())).append("\" x2=\"").append(n(right()))
                    .append("\" y1=\"").append(n(py)).append("\" y2=\"").append(n(py)).append("\"/>")
                    .append("<text x=\"").append(n(left() - 6)).append("\" y=\"").append(n(py + 4))
                    .append("\" text-anchor=\"end\">").append(escape(tickLabel.apply(t))).append("</text>");
        }
        double mid = (top() + bottom()) / 2;
        svg.append("<text class=\"axis-label\" transform=\"rotate(-90)\" x=\"").append(n(-mid))
                .append("\" y=\"14\" text-anchor=\"middle\">")
                .append(escape(Markup.fit(label + (scale.log() ? " (log scale)" : ""), (height - TOP - BOTTOM) / 6)))
                .append("</text></g>");
        return this;
    }

    SvgFrame xAxis(Scale scale, String label) {
        svg.append("<g class=\"axis x\">");
        for (double t : scale.ticks()) {
            double px = x(scale.fraction(t));
            svg.append("<line class=\"tick\" x1=\"").append(n(px)).append("\" x2=\"").append(n(px)).append("\" y1=\"")
                    .append(n(bottom())).append("\" y2=\"").append(n(bottom() + 4)).append("\"/>")
                    .append("<text x=\"").append(n(px)).append("\" y=\"").append(n(bottom() + 16))
                    .append("\" text-anchor=\"middle\">").append(escape(Scale.label(t))).append("</text>");
        }
        svg.append("<text class=\"axis-label\" x=\"").append(n((left() + right()) / 2)).append("\" y=\"")
                .append(height - 8).append("\" text-anchor=\"middle\">").append(escape(label)).append("</text></g>");
        return this;
    }

    /** The axis lines, drawn over the grid. */
    SvgFrame frame() {
        svg.append("<path class=\"frame\" d=\"M").append(n(left())).append(' ').append(n(top())).append("V")
                .append(n(bottom())).append("H").append(n(right())).append("\"/>");
        return this;
    }

    SvgFrame legend(List<Key> keys) {
        svg.append("<g class=\"legend\">");
        double lx = right() + GAP;
        int rows = Math.max(1, (int) ((bottom() - top()) / 18));
        for (int i = 0; i < keys.size(); i++) {
            Key k = keys.get(i);
            if (i == rows - 1 && keys.size() > rows) {
                svg.append("<text x=\"").append(n(lx)).append("\" y=\"").append(n(top() + i * 18 + 10)).append("\">+")
                        .append(keys.size() - i).append(" more</text>");
                break;
            }
            double ly = top() + i * 18;
            svg.append("<g class=\"key\"><title>").append(escape(k.name())).append("</title>")
                    .append("<line x1=\"").append(n(lx)).append("\" x2=\"").append(n(lx + 18)).append("\" y1=\"")
                    .append(n(ly + 6)).append("\" y2=\"").append(n(ly + 6)).append("\" stroke=\"").append(k.colour())
                    .append("\" stroke-width=\"3\"").append(dash(k.dash())).append("/>");
            if (k.dash() == null) {
                // a solid swatch too: the one place a series' exact colour is guaranteed whole pixels
                svg.append("<rect x=\"").append(n(lx + 5)).append("\" y=\"").append(n(ly + 2))
                        .append("\" width=\"8\" height=\"8\" fill=\"").append(k.colour()).append("\"/>");
            }
            svg.append("<text x=\"").append(n(lx + 24)).append("\" y=\"").append(n(ly + 10)).append("\">")
                    .append(escape(Markup.fit(k.name(), (LEGEND_WIDTH - 24) / 6))).append("</text></g>");
        }
        svg.append("</g>");
        return this;
    }

    /** Raw markup from the chart itself; whatever text it carries must already be escaped. */
    SvgFrame append(String markup) {
        svg.append(markup);
        return this;
    }

    String close() {
        return svg.append("</svg>").toString();
    }

    static String dash(String dash) {
        return dash == null ? "" : " stroke-dasharray=\"" + dash + "\"";
    }

    /** A coordinate: one decimal is finer than a pixel; the root locale keeps the decimal point a point. */
    static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
