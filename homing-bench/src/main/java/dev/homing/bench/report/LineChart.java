package dev.homing.bench.report;

import static dev.homing.bench.report.Markup.escape;
import static dev.homing.bench.report.SvgFrame.n;

import java.util.List;

/**
 * Lines over a shared x: one {@code <polyline class="line">} per series (always, even with no drawable point, so a
 * series never silently vanishes), axes from the given scales, a legend.
 *
 * @param dots whether each point gets a dot: for few measured points (a QPS ladder), not for dense samples
 */
record LineChart(String id, String kind, String title, String description, String xLabel, String yLabel,
                 Scale x, Scale y, List<Series> series, boolean dots, int width, int height) {

    LineChart {
        series = List.copyOf(series);
    }

    /** One line. */
    record Series(String name, String colour, String dash, List<Point> points) {
        Series {
            points = List.copyOf(points);
        }
    }

    record Point(double x, double y) {
    }

    String svg() {
        SvgFrame frame = new SvgFrame(id, kind, width, height, title, description)
                .yAxis(y, yLabel, Scale::label).xAxis(x, xLabel).frame();
        StringBuilder plot = new StringBuilder("<g class=\"plot\">");
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            StringBuilder marks = new StringBuilder();
            for (Point p : s.points()) {
                if (!x.shows(p.x()) || !y.shows(p.y())) {
                    continue;
                }
                String px = n(frame.x(x.fraction(p.x())));
                String py = n(frame.y(y.fraction(p.y())));
                points.append(points.isEmpty() ? "" : " ").append(px).append(',').append(py);
                if (dots) {
                    marks.append("<circle cx=\"").append(px).append("\" cy=\"").append(py).append("\" r=\"3\"/>");
                }
            }
            plot.append("<g class=\"series\" fill=\"").append(s.colour()).append("\"><title>").append(escape(s.name()))
                    .append("</title><polyline class=\"line\" data-series=\"").append(escape(s.name()))
                    .append("\" fill=\"none\" stroke=\"").append(s.colour()).append("\" stroke-width=\"2\"")
                    .append(SvgFrame.dash(s.dash())).append(" points=\"").append(points).append("\"/>").append(marks)
                    .append("</g>");
        }
        plot.append("</g>");
        return frame.append(plot.toString())
                .legend(series.stream().map(s -> new SvgFrame.Key(s.name(), s.colour(), s.dash())).toList())
                .close();
    }
}
