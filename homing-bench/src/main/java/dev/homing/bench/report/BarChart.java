package dev.homing.bench.report;

import static dev.homing.bench.report.Markup.escape;
import static dev.homing.bench.report.SvgFrame.n;

import java.util.List;

/**
 * Shares (0 to 1, shown as percents) as one {@code <rect class="bar">} per entry, with a dashed {@code <line
 * class="bound">} across them for the most any entry could reach (named in the legend, where it cannot collide with
 * the bars' labels).
 *
 * @param bound NaN when unknown: no line is drawn
 */
record BarChart(String id, String kind, String title, String description, String yLabel, List<Bar> bars,
                double bound, String boundLabel, int width, int height) {

    BarChart {
        bars = List.copyOf(bars);
    }

    /** One bar; a NaN value draws an empty slot labelled "-". */
    record Bar(String name, String colour, double value) {
    }

    String svg() {
        Scale y = Scale.fromZero(1);
        SvgFrame frame = new SvgFrame(id, kind, width, height, title, description)
                .yAxis(y, yLabel, v -> Math.round(v * 100) + "%");
        double slot = (frame.right() - frame.left()) / Math.max(1, bars.size());
        double barWidth = Math.min(64, slot * 0.6);
        StringBuilder plot = new StringBuilder("<g class=\"plot\">");
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            double share = Double.isFinite(b.value()) ? Math.max(0, Math.min(1, b.value())) : 0;
            double cx = frame.left() + slot * (i + 0.5);
            double top = frame.y(share);
            plot.append("<g class=\"series\"><title>").append(escape(b.name())).append(": ")
                    .append(Metric.HIT_RATE.format(b.value())).append("</title><rect class=\"bar\" data-series=\"")
                    .append(escape(b.name())).append("\" x=\"").append(n(cx - barWidth / 2)).append("\" y=\"")
                    .append(n(top)).append("\" width=\"").append(n(barWidth)).append("\" height=\"")
                    .append(n(frame.bottom() - top)).append("\" fill=\"").append(b.colour()).append("\"/>")
                    .append("<text class=\"value\" x=\"").append(n(cx)).append("\" y=\"").append(n(top - 4))
                    .append("\" text-anchor=\"middle\">").append(escape(Metric.HIT_RATE.format(b.value())))
                    .append("</text><text x=\"").append(n(cx)).append("\" y=\"").append(n(frame.bottom() + 16))
                    .append("\" text-anchor=\"middle\">").append(escape(Markup.fit(b.name(), (int) (slot / 6.5))))
                    .append("</text></g>");
        }
        if (Double.isFinite(bound)) {
            double by = frame.y(Math.max(0, Math.min(1, bound)));
            plot.append("<g class=\"bound\"><title>").append(escape(boundLabel)).append("</title>")
                    .append("<line class=\"bound\" x1=\"").append(n(frame.left())).append("\" x2=\"")
                    .append(n(frame.right())).append("\" y1=\"").append(n(by)).append("\" y2=\"").append(n(by))
                    .append("\" stroke=\"#444\" stroke-width=\"2\" stroke-dasharray=\"7 4\"/></g>");
        }
        plot.append("</g>");
        frame.append(plot.toString()).frame();
        List<SvgFrame.Key> keys = bars.stream().map(b -> new SvgFrame.Key(b.name(), b.colour(), null))
                .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
        if (Double.isFinite(bound)) {
            keys.add(new SvgFrame.Key(boundLabel, "#444", "7 4"));
        }
        return frame.legend(keys).close();
    }
}
