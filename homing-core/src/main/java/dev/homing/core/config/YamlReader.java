package dev.homing.core.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Reads YAML into {@link ConfigNode}s that remember where each value was written. */
public final class YamlReader {

    private static final YAMLFactory YAML = new YAMLFactory();

    private YamlReader() {
    }

    /**
     * @param source the file name, for messages
     * @return the document's root, or null for an empty document
     */
    public static ConfigNode read(String text, String source) throws ConfigException {
        return read(text, source, "an EndpointPickerConfig");
    }

    /**
     * Reads a YAML file other than a config (the router's endpoints file, say), in the same way.
     *
     * @param what what the file holds, for the message when it holds several documents ("an endpoints file")
     * @return the document's root, or null for an empty document
     */
    public static ConfigNode read(String text, String source, String what) throws ConfigException {
        try (JsonParser p = YAML.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return null;
            }
            ConfigNode root = value(p, t, source);
            if (p.nextToken() != null) {
                throw new ConfigException(source, p.currentTokenLocation().getLineNr(),
                        "more than one YAML document; " + what + " is one document");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw invalid(e, source);
        } catch (IOException e) {
            throw new ConfigException(source, 0, "could not be read: " + e.getMessage());
        }
    }

    /**
     * Reads every document of a multi-document YAML stream ({@code ---} between them), as {@code kubectl apply -f}
     * takes a file of resources; empty documents are skipped.
     */
    public static List<ConfigNode> readAll(String text, String source) throws ConfigException {
        try (JsonParser p = YAML.createParser(text)) {
            List<ConfigNode> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                ConfigNode n = value(p, t, source);
                if (!(n instanceof ConfigNode.Scalar s && s.isNull())) {
                    out.add(n);
                }
            }
            return out;
        } catch (JsonProcessingException e) {
            throw invalid(e, source);
        } catch (IOException e) {
            throw new ConfigException(source, 0, "could not be read: " + e.getMessage());
        }
    }

    /** A parse error as a config error at its line: SnakeYAML's problem and context when it says them. */
    private static ConfigException invalid(JsonProcessingException e, String source) {
        if (e.getCause() instanceof MarkedYAMLException y && y.getProblemMark() != null) {
            return new ConfigException(source, y.getProblemMark().getLine() + 1, "not valid YAML: " + y.getProblem()
                    + (y.getContext() == null ? "" : " (" + y.getContext() + ")"));
        }
        JsonLocation where = e.getLocation();
        return new ConfigException(source, where == null ? 0 : where.getLineNr(),
                "not valid YAML: " + e.getOriginalMessage());
    }

    private static ConfigNode value(JsonParser p, JsonToken t, String source) throws IOException, ConfigException {
        JsonLocation at = p.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        switch (t) {
            case START_OBJECT -> {
                Map<String, ConfigNode.Entry> entries = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String key = p.currentName();
                    int keyLine = p.currentTokenLocation().getLineNr();
                    ConfigNode v = value(p, p.nextToken(), source);
                    if (entries.put(key, new ConfigNode.Entry(key, keyLine, v)) != null) {
                        throw new ConfigException(source, keyLine, "key '" + key + "' appears twice in one mapping");
                    }
                }
                return new ConfigNode.Mapping(entries, line, column);
            }
            case START_ARRAY -> {
                List<ConfigNode> items = new ArrayList<>();
                for (JsonToken i = p.nextToken(); i != JsonToken.END_ARRAY; i = p.nextToken()) {
                    items.add(value(p, i, source));
                }
                return new ConfigNode.Sequence(items, line, column);
            }
            case VALUE_STRING -> {
                return new ConfigNode.Scalar(p.getText(), line, column);
            }
            case VALUE_NUMBER_INT -> {
                return new ConfigNode.Scalar(p.getNumberValue(), line, column);
            }
            case VALUE_NUMBER_FLOAT -> {
                return new ConfigNode.Scalar(p.getDoubleValue(), line, column);
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return new ConfigNode.Scalar(t == JsonToken.VALUE_TRUE, line, column);
            }
            case VALUE_NULL -> {
                return new ConfigNode.Scalar(null, line, column);
            }
            default -> throw new ConfigException(source, line, "unsupported YAML value " + t);
        }
    }
}
