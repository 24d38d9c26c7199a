package dev.nifigeoparquet.processors.templates;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.nifi.flow.Bundle;
import org.apache.nifi.flow.ConnectableComponent;
import org.apache.nifi.flow.VersionedComponent;
import org.apache.nifi.flow.VersionedConnection;
import org.apache.nifi.flow.VersionedControllerService;
import org.apache.nifi.flow.VersionedParameter;
import org.apache.nifi.flow.VersionedParameterContext;
import org.apache.nifi.flow.VersionedPort;
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

    /** The process group the flow imports as. */
    VersionedProcessGroup group() {
        return snapshot.getFlowContents();
    }

    /** The group the flow imports as and every group inside it, outermost first. */
    List<VersionedProcessGroup> groups() {
        List<VersionedProcessGroup> groups = new ArrayList<>();
        Deque<VersionedProcessGroup> pending = new ArrayDeque<>(List.of(group()));
        while (!pending.isEmpty()) {
            VersionedProcessGroup next = pending.removeFirst();
            groups.add(next);
            pending.addAll(next.getProcessGroups());
        }
        return groups;
    }

    /** The flow's own parameter context, which the top-level group names. */
    VersionedParameterContext parameterContext() {
        return snapshot.getParameterContexts().get(group().getParameterContextName());
    }

    /** The flow's own parameter context followed by those it inherits, in the order NiFi looks parameters up. */
    List<VersionedParameterContext> parameterContexts() {
        List<VersionedParameterContext> contexts = new ArrayList<>();
        Deque<String> pending = new ArrayDeque<>(List.of(group().getParameterContextName()));
        while (!pending.isEmpty()) {
            VersionedParameterContext context = snapshot.getParameterContexts().get(pending.removeFirst());
            if (context == null) {
                throw new NoSuchElementException(file + " inherits a parameter context it does not carry");
            }
            contexts.add(context);
            if (context.getInheritedParameterContexts() != null) {
                pending.addAll(context.getInheritedParameterContexts());
            }
        }
        return contexts;
    }

    /** The flow's parameters with their shipped values: its own context's over those it inherits. */
    Map<String, String> parameters() {
        Map<String, String> values = new LinkedHashMap<>();
        for (VersionedParameterContext context : parameterContexts().reversed()) {
            for (VersionedParameter parameter : context.getParameters()) {
                values.put(parameter.getName(), parameter.getValue());
            }
        }
        return values;
    }

    /** Every processor of the flow, in whichever group. */
    List<VersionedProcessor> processors() {
        return groups().stream().flatMap(g -> g.getProcessors().stream()).toList();
    }

    /** Every connection of the flow, in whichever group. */
    List<VersionedConnection> connections() {
        return groups().stream().flatMap(g -> g.getConnections().stream()).toList();
    }

    /** Every controller service of the flow, in whichever group. */
    List<VersionedControllerService> services() {
        return groups().stream()
                .flatMap(g -> g.getControllerServices().stream())
                .toList();
    }

    /** Every input and output port of the flow's inner groups. */
    List<VersionedPort> ports() {
        return groups().stream()
                .flatMap(g -> Stream.concat(g.getInputPorts().stream(), g.getOutputPorts().stream()))
                .toList();
    }

    VersionedPort port(String groupName, String portName) {
        return groups().stream()
                .filter(g -> g.getName().equals(groupName))
                .flatMap(g -> Stream.concat(g.getInputPorts().stream(), g.getOutputPorts().stream()))
                .filter(p -> p.getName().equals(portName))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException(file + " has no port " + portName + " in " + groupName));
    }

    VersionedProcessor processor(String name) {
        return processors().stream()
                .filter(p -> p.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException(file + " has no processor named " + name));
    }

    List<VersionedProcessor> processorsOfType(String type) {
        return processors().stream().filter(p -> p.getType().equals(type)).toList();
    }

    VersionedControllerService service(String identifier) {
        return services().stream()
                .filter(s -> s.getIdentifier().equals(identifier))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException(file + " has no controller service " + identifier));
    }

    boolean hasService(String identifier) {
        return services().stream().anyMatch(s -> s.getIdentifier().equals(identifier));
    }

    List<VersionedConnection> connectionsFrom(VersionedComponent component) {
        return connections().stream()
                .filter(c -> c.getSource().getId().equals(component.getIdentifier()))
                .toList();
    }

    boolean hasIncomingConnection(VersionedProcessor processor) {
        return connections().stream()
                .anyMatch(c -> c.getDestination().getId().equals(processor.getIdentifier())
                        && !c.getSource().getId().equals(processor.getIdentifier()));
    }

    /** The connection a processor's relationship is routed to; empty when it is auto-terminated. */
    List<VersionedConnection> connectionsOf(VersionedProcessor processor, String relationship) {
        return connectionsFrom(processor).stream()
                .filter(c -> c.getSelectedRelationships().contains(relationship))
                .toList();
    }

    /**
     * The processors a FlowFile sent along {@code connection} reaches: its destination, or, through a port, whatever the
     * port's own connections lead to, as NiFi moves FlowFiles through the ports of a group.
     */
    List<VersionedProcessor> processorsReachedBy(VersionedConnection connection) {
        ConnectableComponent destination = connection.getDestination();
        return switch (destination.getType()) {
            case PROCESSOR -> List.of(processorById(destination.getId()));
            case INPUT_PORT, OUTPUT_PORT ->
                connections().stream()
                        .filter(c -> c.getSource().getId().equals(destination.getId()))
                        .flatMap(c -> processorsReachedBy(c).stream())
                        .toList();
            default -> throw new IllegalStateException(file + ": a connection leads to a " + destination.getType());
        };
    }

    VersionedProcessor processorById(String identifier) {
        return processors().stream()
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
