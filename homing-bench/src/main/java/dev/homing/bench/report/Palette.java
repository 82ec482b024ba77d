package dev.homing.bench.report;

import java.util.List;

/**
 * Series colours: Okabe and Ito's colour-blind-safe set, then Tol's. Past them the colours repeat dashed, so two
 * series never look the same.
 */
final class Palette {

    static final List<String> COLOURS = List.of("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
            "#000000", "#882255", "#44AA99", "#999933", "#AA4499", "#332288");

    private Palette() {
    }

    static String colour(int i) {
        return COLOURS.get(Math.floorMod(i, COLOURS.size()));
    }

    /** A stroke-dasharray, or null for a solid line. */
    static String dash(int i) {
        return switch (Math.floorMod(i, COLOURS.size() * 3) / COLOURS.size()) {
            case 0 -> null;
            case 1 -> "6 3";
            default -> "2 3";
        };
    }
}
