package dev.homing.core.framework.archfixture;

import dev.homing.core.plugins.picker.MaxScorePicker;

/** Breaks "the framework imports no plugin". */
public final class ImportsAPlugin {

    MaxScorePicker picker;
}
