package dev.homing.sim.http;

import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What clients may name in {@code model}: the served names of the base model and the LoRA adapters loaded now, with
 * vLLM's integer adapter ids (counting from 1, never reused, as vLLM's {@code lora_id_counter}). Thread-safe: requests
 * resolve names while {@code /v1/load_lora_adapter} changes the set.
 */
final class ServedModels {

    /** A loaded adapter. */
    record Adapter(String name, String path, String parent, int id) {
    }

    /** The sim's own bound on loaded adapters (vLLM's is memory); keeps a runaway client from growing the map. */
    static final int MAX_ADAPTERS = 1024;

    private final List<String> servedNames;
    private final boolean loraEnabled;
    private final Map<String, Adapter> adapters = new LinkedHashMap<>();
    private int lastId;

    ServedModels(List<String> servedNames, boolean loraEnabled, List<LoraModule> initial) {
        this.servedNames = List.copyOf(servedNames);
        this.loraEnabled = loraEnabled;
        for (LoraModule m : initial) {
            try {
                load(m);
            } catch (RequestFormatException e) {
                throw new IllegalArgumentException(e.error().message(), e);
            }
        }
    }

    List<String> servedNames() {
        return servedNames;
    }

    boolean loraEnabled() {
        return loraEnabled;
    }

    /**
     * The adapter a request's {@code model} names, or null for the base model.
     *
     * @throws RequestFormatException 404 in vLLM's words when the name is neither
     */
    synchronized Adapter resolve(String model) throws RequestFormatException {
        if (servedNames.contains(model)) {
            return null;
        }
        Adapter a = adapters.get(model);
        if (a == null) {
            throw new RequestFormatException(OpenAiError.modelNotFound(model));
        }
        return a;
    }

    synchronized List<Adapter> adapters() {
        return new ArrayList<>(adapters.values());
    }

    /** vLLM's {@code load_lora_adapter}. */
    synchronized Adapter load(LoraModule m) throws RequestFormatException {
        if (!loraEnabled) {
            throw RequestFormatException.badRequest("LoRA is not enabled on this server; start it with "
                    + "--enable-lora.", null);
        }
        if (adapters.containsKey(m.name()) || servedNames.contains(m.name())) {
            throw RequestFormatException.badRequest("The lora adapter '" + m.name() + "' has already been loaded.",
                    null);
        }
        if (adapters.size() >= MAX_ADAPTERS) {
            throw RequestFormatException.badRequest("At most " + MAX_ADAPTERS + " LoRA adapters can be loaded; unload "
                    + "one first.", null);
        }
        Adapter a = new Adapter(m.name(), m.path(), m.baseModelName() != null ? m.baseModelName()
                : servedNames.getFirst(), ++lastId);
        adapters.put(a.name(), a);
        return a;
    }

    /** vLLM's {@code unload_lora_adapter}. */
    synchronized void unload(String name) throws RequestFormatException {
        if (adapters.remove(name) == null) {
            throw new RequestFormatException(OpenAiError.notFound("The lora adapter '" + name + "' cannot be found.",
                    null));
        }
    }
}
