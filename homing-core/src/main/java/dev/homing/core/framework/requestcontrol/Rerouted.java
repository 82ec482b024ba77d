package dev.homing.core.framework.requestcontrol;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.scheduling.Cycle;

/**
 * A pre-request plugin whose record names the pick (prefix ownership, a newcomer's placement), told when the gateway
 * reports that another endpoint served the request: it went down the fallback list, or the gateway chose itself.
 * The plugin moves what it recorded, so that the next decision sees where the prompt's KV really is. Runs under the
 * decision lock, as {@link PreRequest} does.
 */
public interface Rerouted extends Plugin {

    /**
     * @param picked the endpoint the pick named and {@link PreRequest#preRequest} recorded
     * @param served the endpoint that served the request instead; it may have joined the pool after the decision, so
     *               it need not be in the cycle's snapshot: do not index the cycle's prefix match by it
     */
    void rerouted(Cycle cycle, EndpointState picked, EndpointState served);
}
