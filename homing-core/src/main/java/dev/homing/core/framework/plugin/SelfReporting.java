package dev.homing.core.framework.plugin;

import java.util.Map;

/**
 * A plugin that keeps numbers about its own work worth showing beside a run's results (how far a predictor was off,
 * how often a producer fell back): named values, read at any time, for a bench report or an admin page.
 */
public interface SelfReporting extends Plugin {

    /** The numbers as they stand, by name, in a stable order; NaN where there is no value yet. */
    Map<String, Double> report();
}
