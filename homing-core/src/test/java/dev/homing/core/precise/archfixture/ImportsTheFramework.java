package dev.homing.core.precise.archfixture;

import dev.homing.core.framework.plugin.Plugin;

/** Breaks "core.precise does not import core.framework". */
public final class ImportsTheFramework {

    Plugin producer;
}
