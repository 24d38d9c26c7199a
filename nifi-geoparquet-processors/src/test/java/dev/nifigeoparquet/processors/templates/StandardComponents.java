package dev.nifigeoparquet.processors.templates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The standard NiFi 2.8.0 components the flows use, as {@code nifi-2.8.0-standard-components.json} lists them from
 * Apache NiFi's source at tag {@code rel/nifi-2.8.0}. They cannot be instantiated in this build (their NARs are not
 * dependencies), so this is what the flows' standard components are checked against: bundle coordinates, property
 * names, enumerated values, relationships.
 */
final class StandardComponents {

    record Component(
            String type,
            String group,
            String artifact,
            String version,
            Set<String> properties,
            Map<String, Set<String>> allowableValues,
            Set<String> relationships,
            Set<String> controllerServiceApis) {}

    private static final Map<String, Component> COMPONENTS = load();

    private StandardComponents() {}

    static Optional<Component> of(String type) {
        return Optional.ofNullable(COMPONENTS.get(type));
    }

    private static Map<String, Component> load() {
        try (InputStream in = StandardComponents.class.getResourceAsStream("nifi-2.8.0-standard-components.json")) {
            JsonNode root = new ObjectMapper().readTree(in);
            Map<String, Component> components = new TreeMap<>();
            root.get("components").properties().forEach(entry -> {
                JsonNode node = entry.getValue();
                Map<String, Set<String>> allowable = new TreeMap<>();
                node.path("allowableValues")
                        .properties()
                        .forEach(values -> allowable.put(values.getKey(), strings(values.getValue())));
                JsonNode bundle = node.get("bundle");
                components.put(
                        entry.getKey(),
                        new Component(
                                entry.getKey(),
                                bundle.get("group").asText(),
                                bundle.get("artifact").asText(),
                                bundle.get("version").asText(),
                                strings(node.get("properties")),
                                allowable,
                                strings(node.get("relationships")),
                                strings(node.path("controllerServiceApis"))));
            });
            return components;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return new TreeSet<>(values);
    }
}
