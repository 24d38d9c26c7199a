package dev.nifigeoparquet.processors.templates;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.nifi.flow.Bundle;
import org.apache.nifi.flow.VersionedConnection;
import org.apache.nifi.flow.VersionedControllerService;
import org.apache.nifi.flow.VersionedParameter;
import org.apache.nifi.flow.VersionedParameterContext;
import org.apache.nifi.flow.VersionedProcessGroup;
import org.apache.nifi.flow.VersionedProcessor;
import org.apache.nifi.registry.flow.RegisteredFlowSnapshot;

/**
 * One flow definition of {@code templates/}, read into nifi-api's {@code RegisteredFlowSnapshot} exactly as NiFi's
 * "Upload flow definition" and NiFi Registry read it, with the look-ups the tests need.
 */
final class FlowDefinitions {

    /** The flow definitions shipped in {@code templates/}. */
    static final List<String> FILES =
            List.of("incremental-upsert.json", "append-only.json", "nightly-compaction-sweep.json");

    /** Coordinates of this bundle's NAR, which every component of this bundle in a flow must name. */
    static final String BUNDLE_GROUP = "dev.nifigeoparquet";

    static final String BUNDLE_ARTIFACT = "nifi-geoparquet-nar";
    static final String BUNDLE_VERSION = "0.1.0-SNAPSHOT";

    /** A parameter reference: {@code #{name}}. */
    static final Pattern PARAMETER_REFERENCE = Pattern.compile("#\\{([^}]+)}");

    /** Unknown fields fail the read, so a misspelt key in a flow file cannot go unnoticed. */
    static final ObjectMapper STRICT = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    final String file;
    final RegisteredFlowSnapshot snapshot;

    private FlowDefinitions(String file, RegisteredFlowSnapshot snapshot) {
        this.file = file;
        this.snapshot = snapshot;
    }

    /** The directory holding the flow definitions: {@code templates/} at the top of the checkout. */
    static Path directory() {
        Path configured = Path.of(System.getProperty("templates.dir", "../templates"));
        if (!Files.isDirectory(configured)) {
            throw new IllegalStateException("No templates directory at " + configured.toAbsolutePath());
        }
        return configured;
    }

    static FlowDefinitions load(String file) throws IOException {
        return new FlowDefinitions(
                file, STRICT.readValue(directory().resolve(file).toFile(), RegisteredFlowSnapshot.class));
    }

    VersionedProcessGroup group() {
        return snapshot.getFlowContents();
    }

    VersionedParameterContext parameterContext() {
        return snapshot.getParameterContexts().get(group().getParameterContextName());
    }

    /** The flow's parameters with their shipped values. */
    Map<String, String> parameters() {
        Map<String, String> values = new LinkedHashMap<>();
        for (VersionedParameter parameter : parameterContext().getParameters()) {
            values.put(parameter.getName(), parameter.getValue());
        }
        return values;
    }

    VersionedProcessor processor(String name) {
        return group().getProcessors().stream()
                .filter(p -> p.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException(file + " has no processor named " + name));
    }

    List<VersionedProcessor> processorsOfType(String type) {
        return group().getProcessors().stream()
                .filter(p -> p.getType().equals(type))
                .toList();
    }

    VersionedControllerService service(String identifier) {
        return group().getControllerServices().stream()
                .filter(s -> s.getIdentifier().equals(identifier))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException(file + " has no controller service " + identifier));
    }

    boolean hasService(String identifier) {
        return group().getControllerServices().stream()
                .anyMatch(s -> s.getIdentifier().equals(identifier));
    }

    List<VersionedConnection> connectionsFrom(VersionedProcessor processor) {
        return group().getConnections().stream()
                .filter(c -> c.getSource().getId().equals(processor.getIdentifier()))
                .toList();
    }

    boolean hasIncomingConnection(VersionedProcessor processor) {
        return group().getConnections().stream()
                .anyMatch(c -> c.getDestination().getId().equals(processor.getIdentifier())
                        && !c.getSource().getId().equals(processor.getIdentifier()));
    }

    /** The connection a processor's relationship is routed to; empty when it is auto-terminated. */
    List<VersionedConnection> connectionsOf(VersionedProcessor processor, String relationship) {
        return connectionsFrom(processor).stream()
                .filter(c -> c.getSelectedRelationships().contains(relationship))
                .toList();
    }

    VersionedProcessor processorById(String identifier) {
        return group().getProcessors().stream()
                .filter(p -> p.getIdentifier().equals(identifier))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException(file + " has no processor " + identifier));
    }

    static boolean isThisBundle(Bundle bundle) {
        return BUNDLE_GROUP.equals(bundle.getGroup())
                && BUNDLE_ARTIFACT.equals(bundle.getArtifact())
                && BUNDLE_VERSION.equals(bundle.getVersion());
    }

    static boolean isThisBundlesType(String type) {
        return type.startsWith("dev.nifigeoparquet.");
    }

    /** The names of the parameters a value references. */
    static Set<String> referencedParameters(String value) {
        Set<String> names = new LinkedHashSet<>();
        if (value != null) {
            Matcher matcher = PARAMETER_REFERENCE.matcher(value);
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
        }
        return names;
    }

    /**
     * A property value with every parameter reference replaced by its value in {@code parameters}, as NiFi substitutes
     * them: a parameter without a value contributes nothing, and a value made only of such references is no value at
     * all, so the property is unset (not the empty string, which most validators refuse).
     */
    static String resolve(String value, Map<String, String> parameters) {
        if (value == null) {
            return null;
        }
        Matcher matcher = PARAMETER_REFERENCE.matcher(value);
        StringBuilder resolved = new StringBuilder();
        int references = 0;
        int withoutValue = 0;
        while (matcher.find()) {
            String name = matcher.group(1);
            if (!parameters.containsKey(name)) {
                throw new NoSuchElementException("parameter " + name + " is not defined");
            }
            references++;
            String parameter = parameters.get(name);
            if (parameter == null) {
                withoutValue++;
            }
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(parameter == null ? "" : parameter));
        }
        matcher.appendTail(resolved);
        return references > 0 && withoutValue == references && resolved.isEmpty() ? null : resolved.toString();
    }

    @Override
    public String toString() {
        return file;
    }
}
