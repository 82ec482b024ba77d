package dev.homing.router.proxy.archfixture;

import dev.homing.router.explain.DecisionJson;

/** Breaks "proxy imports nothing of explain": it renders a decision itself. */
public final class RendersDecisions {

    DecisionJson renderer;
}
