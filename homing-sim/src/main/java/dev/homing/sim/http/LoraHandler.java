package dev.homing.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.openai.RequestFormatException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;

/**
 * vLLM's {@code POST /v1/load_lora_adapter} ({@code {"lora_name", "lora_path"}}) and
 * {@code POST /v1/unload_lora_adapter} ({@code {"lora_name"}}), answering with vLLM's plain-text success lines and
 * its errors. No weights are read: a loaded adapter changes what {@code /v1/models} lists, which names requests may
 * use, and how their blocks hash.
 */
final class LoraHandler {

    private final ServedModels models;
    private final int maxBodyBytes;

    LoraHandler(ServedModels models, int maxBodyBytes) {
        this.models = models;
        this.maxBodyBytes = maxBodyBytes;
    }

    void load(ServerRequest req, ServerResponse res) {
        try {
            JsonNode root = RequestReader.object(RequestBodies.read(req, maxBodyBytes));
            String name = RequestReader.string(root, "lora_name", false);
            String path = RequestReader.string(root, "lora_path", false);
            if (name == null || path == null || name.isEmpty() || path.isEmpty()) {
                throw RequestFormatException.badRequest("Both 'lora_name' and 'lora_path' must be provided.", null);
            }
            models.load(new LoraModule(name, path, RequestReader.string(root, "base_model_name", false)));
            text(res, "Success: LoRA adapter '" + name + "' added successfully.");
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    void unload(ServerRequest req, ServerResponse res) {
        try {
            JsonNode root = RequestReader.object(RequestBodies.read(req, maxBodyBytes));
            String name = RequestReader.string(root, "lora_name", false);
            if (name == null || name.isEmpty()) {
                throw RequestFormatException.badRequest(
                        "'lora_name' needs to be provided to unload a LoRA adapter.", null);
            }
            models.unload(name);
            text(res, "Success: LoRA adapter '" + name + "' removed successfully.");
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    private static void text(ServerResponse res, String body) {
        res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        res.send(body.getBytes(StandardCharsets.UTF_8));
    }
}
