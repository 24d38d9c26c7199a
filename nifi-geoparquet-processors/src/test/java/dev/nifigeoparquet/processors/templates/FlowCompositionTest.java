package dev.nifigeoparquet.processors.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.nifi.flow.ConnectableComponentType;
import org.apache.nifi.flow.VersionedConnection;
import org.apache.nifi.flow.VersionedLabel;
import org.apache.nifi.flow.VersionedPort;
import org.apache.nifi.flow.VersionedProcessGroup;
import org.apache.nifi.flow.VersionedProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The flow definitions compose: the archive work of each is an inner process group that holds every component of this
 * bundle and the services they use, and talks to the rest of the flow only through its ports, so it can sit behind any
 * source (the shipped file intake, ListS3, ConsumeKafka, an HTTP listener) and in front of any sink.
 */
class FlowCompositionTest {

    static final List<String> DELTA_FLOWS = List.of("incremental-upsert.json", "append-only.json");

    /**
     * The rows of a large night (the benchmark's nightly delta). RouteByH3Cell emits one FlowFile per cell of a delta, so a
     * night whose every row lands in a cell of its own is that many FlowFiles behind the router.
     */
    static final int NIGHT_ROWS = 12_400;

    static final String ROUTE = "dev.nifigeoparquet.processors.RouteByH3Cell";

    @ParameterizedTest
    @FieldSource("dev.nifigeoparquet.processors.templates.FlowDefinitions#FILES")
    void theArchiveWorkIsOneInnerGroupThatHoldsEveryComponentOfThisBundleAndItsServices(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        VersionedProcessGroup inner = innerGroup(flow);
        assertTrue(flow.group().getControllerServices().isEmpty(), file + ": every service sits with its users");
        for (VersionedProcessor processor : flow.processors()) {
            boolean ours = FlowDefinitions.isThisBundlesType(processor.getType());
            assertEquals(ours, inner.getProcessors().contains(processor), file + ": " + processor.getName());
        }
        Set<String> services = new HashSet<>();
        inner.getControllerServices().forEach(service -> services.add(service.getIdentifier()));
        for (VersionedProcessor processor : inner.getProcessors()) {
            for (String value : processor.getProperties().values()) {
                assertTrue(
                        !flow.hasService(value) || services.contains(value),
                        file + ": " + processor.getName() + " uses a service outside the inner group");
            }
        }
        for (VersionedPort port : flow.ports()) {
            assertEquals(
                    inner.getIdentifier(), port.getGroupIdentifier(), file + ": " + port.getName() + " is the group's");
        }
    }

    @ParameterizedTest
    @FieldSource("DELTA_FLOWS")
    void deltasEnterThroughTheDeltasPortWhichTheFileIntakeFeedsAsAnySourceWould(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        VersionedProcessGroup inner = innerGroup(flow);
        assertEquals(List.of("deltas"), names(inner.getInputPorts()), file);
        VersionedPort deltas = flow.port(inner.getName(), "deltas");
        VersionedProcessor route = flow.processorsOfType(ROUTE).getFirst();
        List<VersionedConnection> fromPort = flow.connectionsFrom(deltas);
        assertEquals(1, fromPort.size(), file);
        assertEquals(List.of(route), flow.processorsReachedBy(fromPort.getFirst()), file + ": deltas go to the router");

        VersionedProcessor fetch = flow.processor("Fetch delta file");
        VersionedConnection fetched = flow.connectionsOf(fetch, "success").getFirst();
        assertEquals(
                deltas.getIdentifier(), fetched.getDestination().getId(), file + ": the file intake uses the port");
        assertEquals(
                1,
                flow.connections().stream()
                        .filter(c -> c.getDestination().getId().equals(route.getIdentifier()))
                        .count(),
                file + ": nothing reaches the router but through the port");
    }

    @ParameterizedTest
    @FieldSource("DELTA_FLOWS")
    void whatNeedsAnOperatorLeavesThroughQuarantineAndTheReportsThroughReports(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        VersionedProcessGroup inner = innerGroup(flow);
        assertEquals(List.of("quarantine", "reports"), names(inner.getOutputPorts()), file);
        VersionedPort quarantine = flow.port(inner.getName(), "quarantine");
        VersionedPort reports = flow.port(inner.getName(), "reports");
        for (VersionedProcessor processor : inner.getProcessors()) {
            for (String relationship : List.of("failure", "retry", "invalid")) {
                for (VersionedConnection connection : flow.connectionsOf(processor, relationship)) {
                    assertEquals(
                            quarantine.getIdentifier(),
                            connection.getDestination().getId(),
                            file + ": " + processor.getName() + " " + relationship);
                }
            }
            for (VersionedConnection connection : flow.connectionsOf(processor, "valid")) {
                assertEquals(
                        reports.getIdentifier(), connection.getDestination().getId(), processor.getName());
            }
        }
        assertEquals(
                List.of(flow.processor("Quarantine")),
                flow.processorsReachedBy(flow.connectionsFrom(quarantine).getFirst()));
        assertEquals(
                List.of(flow.processor("Write reports")),
                flow.processorsReachedBy(flow.connectionsFrom(reports).getFirst()));
    }

    /**
     * A sink replays what it wrote when NiFi restarts between its write and its commit (at-least-once): each file goes
     * under its FlowFile's uuid, so the replay meets only its own earlier copy and must replace it. A sink that fails on
     * it sends the FlowFile round its failure loop for ever, and the flow never comes to rest.
     */
    @ParameterizedTest
    @FieldSource("dev.nifigeoparquet.processors.templates.FlowDefinitions#FILES")
    void aSinkReplayedAfterARestartReplacesItsOwnEarlierFile(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        List<VersionedProcessor> sinks = flow.processorsOfType("org.apache.nifi.processors.standard.PutFile");
        assertFalse(sinks.isEmpty(), file + " writes its reports with PutFile");
        for (VersionedProcessor sink : sinks) {
            assertTrue(
                    sink.getProperties().get("Directory").contains("${uuid}"),
                    file + ": " + sink.getName() + " writes under the FlowFile's uuid");
            assertEquals(
                    "replace", sink.getProperties().get("Conflict Resolution Strategy"), file + ": " + sink.getName());
        }
    }

    /**
     * Every port leads somewhere in the shipped flow: NiFi holds an output port without an outgoing connection invalid, and
     * what queues in front of it stays there.
     */
    @ParameterizedTest
    @FieldSource("dev.nifigeoparquet.processors.templates.FlowDefinitions#FILES")
    void everyPortIsConnectedOnBothSides(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        for (VersionedPort port : flow.ports()) {
            assertEquals(1, flow.connectionsFrom(port).size(), file + ": " + port.getName() + " leads somewhere");
            assertTrue(
                    flow.connections().stream()
                            .anyMatch(c -> c.getDestination().getId().equals(port.getIdentifier())),
                    file + ": " + port.getName() + " is fed");
        }
    }

    /**
     * The queues from the router to the end of the archive work hold a large night routed one row per cell, so a night
     * never stops the router half-way for back pressure.
     */
    @ParameterizedTest
    @FieldSource("DELTA_FLOWS")
    void theQueuesBehindTheRouterHoldANightRoutedOneRowPerCell(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        Deque<VersionedProcessor> pending = new ArrayDeque<>(flow.processorsOfType(ROUTE));
        Set<String> seen = new TreeSet<>();
        int checked = 0;
        while (!pending.isEmpty()) {
            VersionedProcessor processor = pending.removeFirst();
            if (!seen.add(processor.getName())) {
                continue;
            }
            List<VersionedConnection> onward = flow.connectionsOf(processor, "success");
            for (VersionedConnection connection : onward) {
                if (connection.getDestination().getType() != ConnectableComponentType.PROCESSOR) {
                    continue;
                }
                assertTrue(
                        connection.getBackPressureObjectThreshold() >= NIGHT_ROWS,
                        file + ": " + processor.getName() + " -> "
                                + connection.getDestination().getName() + " holds "
                                + connection.getBackPressureObjectThreshold() + " FlowFiles");
                checked++;
                pending.addAll(flow.processorsReachedBy(connection));
            }
        }
        assertTrue(checked >= 2, file + ": the queues behind the router were found");
    }

    @Test
    void theSweepsScheduleAndWhatItLeavesAloneAreLabelledOnTheCanvas() throws Exception {
        FlowDefinitions sweep = FlowDefinitions.load("nightly-compaction-sweep.json");
        VersionedProcessGroup inner = innerGroup(sweep);
        assertEquals(List.of(), names(inner.getInputPorts()), "the sweep takes no deltas");
        assertEquals(List.of("reports"), names(inner.getOutputPorts()));
        String labels = String.join(
                "\n", inner.getLabels().stream().map(VersionedLabel::getLabel).toList());
        for (VersionedProcessor processor : inner.getProcessors()) {
            String schedule = processor.getSchedulingPeriod();
            if ("CRON_DRIVEN".equals(processor.getSchedulingStrategy())) {
                String hour = schedule.split(" ", -1)[2];
                assertTrue(
                        labels.contains(String.format(Locale.ROOT, "%02d:00", Integer.parseInt(hour))),
                        processor.getName() + " runs at " + hour + ":00, which a label says: " + labels);
            }
        }
        assertFalse(sweep.group().getLabels().isEmpty(), "the top-level group says how to reroute the reports");
    }

    private static VersionedProcessGroup innerGroup(FlowDefinitions flow) {
        assertEquals(1, flow.group().getProcessGroups().size(), flow + ": one inner group");
        VersionedProcessGroup inner = flow.group().getProcessGroups().iterator().next();
        assertTrue(inner.getProcessGroups().isEmpty(), flow + ": no deeper nesting");
        assertEquals(
                flow.group().getParameterContextName(),
                inner.getParameterContextName(),
                flow + ": the inner group uses the flow's parameters");
        return inner;
    }

    private static List<String> names(Set<VersionedPort> ports) {
        return ports.stream().map(VersionedPort::getName).sorted().toList();
    }
}
