package dev.homing.core.framework.request;

/**
 * A plugin that asks the {@link TokenSource} while a request is placed. The router's token source may call a pod's
 * tokenizer, so a decision of a policy with such a plugin may wait on the network: a data plane that decides on its
 * I/O threads moves such decisions off them.
 */
public interface UsesTokens {
}
