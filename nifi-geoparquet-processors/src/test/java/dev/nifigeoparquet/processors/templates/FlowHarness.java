package dev.nifigeoparquet.processors.templates;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.controller.ControllerService;
import org.apache.nifi.flow.VersionedConnection;
import org.apache.nifi.flow.VersionedControllerService;
import org.apache.nifi.flow.VersionedProcessor;
import org.apache.nifi.processor.Processor;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.reporting.InitializationException;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;

/**
 * Runs the processors of this bundle in a flow definition with nifi-mock TestRunners, configured exactly as the flow
 * configures them (parameters resolved), and moves FlowFiles along the flow's own connections. Standard processors
 * cannot run here: FlowFiles routed to one are collected per processor (for example what the flow quarantines), and
 * content enters the flow where a standard processor would hand it over (for example FetchFile's success). Standard
 * controller services are replaced by the stand-ins the caller gives, by type. FlowFiles pass through the ports of the
 * flow's inner groups as NiFi passes them, to whatever the port's connections lead to.
 */
final class FlowHarness {

    /** A FlowFile delivered to a standard processor: its content and attributes, and where it came from. */
    @SuppressWarnings("ArrayRecordComponent") // carries bytes along, never compared or hashed
    record Delivered(String from, String relationship, byte[] content, Map<String, String> attributes) {}

    private final FlowDefinitions flow;
    private final Map<String, String> parameters;
    private final Map<String, Supplier<? extends ControllerService>> standIns;
    private final Map<String, TestRunner> runners = new LinkedHashMap<>();
    private final Map<String, List<Delivered>> delivered = new HashMap<>();
    private final List<Delivered> terminated = new ArrayList<>();

    /**
     * @param parameters the parameter values to run with: the flow's, with the caller's overrides (paths of a temporary
     *                   archive and directories)
     * @param standIns   stand-ins for standard controller services, by the type the flow names
     */
    FlowHarness(
            FlowDefinitions flow,
            Map<String, String> parameters,
            Map<String, Supplier<? extends ControllerService>> standIns)
            throws InitializationException {
        this.flow = flow;
        this.parameters = parameters;
        this.standIns = standIns;
        for (VersionedProcessor processor : flow.processors()) {
            if (FlowDefinitions.isThisBundlesType(processor.getType())) {
                runners.put(processor.getIdentifier(), configure(processor));
            }
        }
    }

    /** A TestRunner for one processor of the flow, with its controller services added and enabled. */
    private TestRunner configure(VersionedProcessor processor) throws InitializationException {
        TestRunner runner = TestRunners.newTestRunner(processorClass(processor.getType()));
        runner.setValidateExpressionUsage(false);
        for (Map.Entry<String, String> property : processor.getProperties().entrySet()) {
            String value = property.getValue();
            if (value != null && flow.hasService(value)) {
                addService(runner, flow.service(value));
            }
        }
        for (Map.Entry<String, String> property : processor.getProperties().entrySet()) {
            String value = FlowDefinitions.resolve(property.getValue(), parameters);
            if (value != null) { // a parameter without a value leaves the property unset
                runner.setProperty(property.getKey(), value);
            }
        }
        runner.setIncomingConnection(flow.hasIncomingConnection(processor));
        return runner;
    }

    private void addService(TestRunner runner, VersionedControllerService definition) throws InitializationException {
        if (runner.getControllerService(definition.getIdentifier()) != null) {
            return;
        }
        ControllerService service = newService(definition.getType());
        runner.addControllerService(definition.getIdentifier(), service);
        if (FlowDefinitions.isThisBundlesType(definition.getType())) {
            for (Map.Entry<String, String> property : definition.getProperties().entrySet()) {
                String value = FlowDefinitions.resolve(property.getValue(), parameters);
                if (value == null) {
                    continue; // a parameter without a value leaves the property unset
                }
                ValidationResult result = runner.setProperty(service, property.getKey(), value);
                if (!result.isValid()) {
                    throw new IllegalStateException(flow + ": " + definition.getName() + " property "
                            + property.getKey() + ": " + result.getExplanation());
                }
            }
        }
        runner.enableControllerService(service);
    }

    private ControllerService newService(String type) {
        if (FlowDefinitions.isThisBundlesType(type)) {
            try {
                return Class.forName(type)
                        .asSubclass(ControllerService.class)
                        .getDeclaredConstructor()
                        .newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot instantiate " + type, e);
            }
        }
        Supplier<? extends ControllerService> standIn = standIns.get(type);
        if (standIn == null) {
            throw new IllegalStateException(flow + " needs a stand-in for the standard controller service " + type);
        }
        return standIn.get();
    }

    static Class<? extends Processor> processorClass(String type) {
        try {
            return Class.forName(type).asSubclass(Processor.class);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("No processor class " + type, e);
        }
    }

    TestRunner runner(String processorName) {
        return runners.get(flow.processor(processorName).getIdentifier());
    }

    Collection<TestRunner> runners() {
        return runners.values();
    }

    /**
     * Hands content to the flow as the named standard processor's relationship would, for example a delta file as
     * FetchFile's {@code success}: it is enqueued wherever that relationship is connected.
     */
    void emit(String standardProcessor, String relationship, byte[] content, Map<String, String> attributes) {
        VersionedProcessor source = flow.processor(standardProcessor);
        List<VersionedConnection> connections = flow.connectionsOf(source, relationship);
        if (connections.isEmpty()) {
            throw new IllegalStateException(flow + ": " + standardProcessor + " " + relationship + " is not connected");
        }
        for (VersionedConnection connection : connections) {
            for (VersionedProcessor destination : flow.processorsReachedBy(connection)) {
                deliver(source.getName(), relationship, destination, content, attributes);
            }
        }
    }

    /** Runs a processor without an incoming connection once, as its schedule would. */
    void trigger(String processorName) {
        TestRunner runner = runner(processorName);
        runner.run();
        forward(flow.processor(processorName), runner);
    }

    /** Runs every processor of this bundle that has queued FlowFiles, and forwards their output, until all queues are empty. */
    void runUntilQuiet() {
        for (int round = 0; round < 1000; round++) {
            boolean ran = false;
            for (Map.Entry<String, TestRunner> entry : runners.entrySet()) {
                TestRunner runner = entry.getValue();
                int queued = runner.getQueueSize().getObjectCount();
                if (queued == 0) {
                    continue;
                }
                runner.run(queued);
                forward(flow.processorById(entry.getKey()), runner);
                ran = true;
            }
            if (!ran) {
                return;
            }
        }
        throw new IllegalStateException(flow + " did not come to rest: FlowFiles keep circulating");
    }

    /** Moves what a processor transferred along the flow's connections, and clears its transfer state. */
    private void forward(VersionedProcessor processor, TestRunner runner) {
        for (Relationship relationship : runner.getProcessor().getRelationships()) {
            List<MockFlowFile> flowFiles = runner.getFlowFilesForRelationship(relationship);
            if (flowFiles.isEmpty()) {
                continue;
            }
            List<VersionedConnection> connections = flow.connectionsOf(processor, relationship.getName());
            boolean autoTerminated = processor.getAutoTerminatedRelationships().contains(relationship.getName());
            if (connections.isEmpty() && !autoTerminated) {
                throw new IllegalStateException(flow + ": " + processor.getName() + " transferred to "
                        + relationship.getName() + ", which is neither connected nor auto-terminated");
            }
            for (MockFlowFile flowFile : flowFiles) {
                byte[] content = flowFile.toByteArray();
                if (autoTerminated) {
                    terminated.add(new Delivered(
                            processor.getName(), relationship.getName(), content, flowFile.getAttributes()));
                }
                for (VersionedConnection connection : connections) {
                    for (VersionedProcessor destination : flow.processorsReachedBy(connection)) {
                        deliver(
                                processor.getName(),
                                relationship.getName(),
                                destination,
                                content,
                                flowFile.getAttributes());
                    }
                }
            }
        }
        runner.clearTransferState();
    }

    private void deliver(
            String from,
            String relationship,
            VersionedProcessor destination,
            byte[] content,
            Map<String, String> attributes) {
        TestRunner next = runners.get(destination.getIdentifier());
        if (next != null) {
            next.enqueue(content, attributes);
        } else {
            delivered
                    .computeIfAbsent(destination.getName(), name -> new ArrayList<>())
                    .add(new Delivered(from, relationship, content, attributes));
        }
    }

    /** What reached a standard processor (for example the quarantine PutFile). */
    List<Delivered> deliveredTo(String standardProcessor) {
        return delivered.getOrDefault(standardProcessor, List.of());
    }

    /** What this bundle's processors sent to auto-terminated relationships. */
    List<Delivered> terminated() {
        return terminated;
    }

    /** The descriptor a processor of the flow declares under the name the flow uses. */
    static PropertyDescriptor descriptor(TestRunner runner, String name) {
        return runner.getProcessor().getPropertyDescriptors().stream()
                .filter(d -> d.getName().equals(name))
                .findFirst()
                .orElse(null);
    }
}
