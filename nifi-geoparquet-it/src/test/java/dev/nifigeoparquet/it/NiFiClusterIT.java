package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite's two-node cluster ({@link NiFiCluster}) does what the archive scenarios will rely on: it forms, both nodes
 * run this bundle and NiFi's standard processors, a flow definition uploaded through one node is on both, a
 * load-balanced connection spreads FlowFiles over both nodes, a node killed with SIGKILL in the middle of work comes
 * back on its home with the FlowFiles it held and rejoins, and a change made while a node reconnects reaches every node.
 *
 * <p>It runs the file intake of {@code templates/incremental-upsert.json} as the flow definition lays it out for a
 * cluster: ListFile on the primary node, its listing in ZooKeeper (Input Directory Location "Remote"), a round-robin
 * connection to FetchFile on every node. This bundle's processors stay stopped: no archive is involved.
 */
@ExtendWith(NiFiClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NiFiClusterIT {

    static final String GROUP = "cluster intake";
    /** Deltas dropped at once: enough that round robin gives each node several. */
    static final int DELTAS = 12;

    NiFiCluster cluster;
    FileIntake intake;
    FlowGroup flow;
    /** The connection from FetchFile to RouteByH3Cell (stopped), where the fetched deltas wait on their node. */
    String fetched;
    /** The deltas the round-robin test dropped. */
    List<String> nightly = List.of();

    @BeforeAll
    void intake(NiFiCluster cluster, @TempDir Path dir) throws Exception {
        this.cluster = cluster;
        intake = FileIntake.under(dir);
    }

    @AfterAll
    void stop() throws Exception {
        if (flow != null) {
            flow.stopAll();
        }
    }

    @Test
    @Order(1)
    void theClusterFormsWithTwoConnectedNodesOnePrimaryAndOneCoordinator() throws Exception {
        List<NiFiCluster.Member> members = cluster.members();
        assertEquals(NiFiClusterExtension.NODES, members.size(), members.toString());
        Set<Integer> ports = new TreeSet<>();
        int primaries = 0;
        int coordinators = 0;
        for (NiFiCluster.Member member : members) {
            assertTrue(member.connected(), member.toString());
            assertEquals("127.0.0.1", member.address(), member.toString());
            ports.add(member.apiPort());
            primaries += member.isPrimary() ? 1 : 0;
            coordinators += member.roles().contains(NiFiCluster.CLUSTER_COORDINATOR) ? 1 : 0;
        }
        Set<Integer> nodePorts = new TreeSet<>();
        cluster.nodes().forEach(node -> nodePorts.add(node.apiPort()));
        assertEquals(nodePorts, ports, "the cluster's nodes are the two this test started");
        assertEquals(1, primaries, members.toString());
        assertEquals(1, coordinators, members.toString());
    }

    @Test
    @Order(2)
    void everyNodeRunsTheBundleAndTheStandardProcessors() throws Exception {
        for (NiFiNode node : cluster.nodes()) {
            NiFiRuntimeIT.requireRuntimeListsEveryComponent(node.api());
            NiFiRuntimeIT.requireNoLinkageProblems(node.appLog());
        }
    }

    @Test
    @Order(3)
    void aFlowDefinitionUploadedThroughOneNodeIsOnEveryNode() throws Exception {
        flow = NiFiRuntimeIT.requireImportsWithoutGhosts(
                cluster.node(1).api(), NiFiRuntimeIT.flowDefinition("incremental-upsert.json"), GROUP);
        for (NiFiNode node : cluster.nodes()) {
            cluster.api()
                    .await(
                            node + " to persist the flow with the group",
                            () -> persistedFlow(node),
                            persisted -> persisted.contains(flow.id()));
        }

        flow.setParameters(intake.parameters());
        intake.prepare(flow);
        fetched = flow.connection(FileIntake.FETCH, "success");
    }

    @Test
    @Order(4)
    void aRoundRobinConnectionSpreadsTheDeltasOverBothNodes() throws Exception {
        flow.start(FileIntake.LIST, FileIntake.FETCH);
        nightly = dropDeltas("nightly", DELTAS);
        List<FlowGroup.Queued> queued = awaitQueued(DELTAS);
        assertEquals(DELTAS, queued.size(), filenames(queued).toString());
        assertEquals(new TreeSet<>(nightly), filenames(queued), "every delta was fetched once");

        // Where each delta waits is where FetchFile ran (the connection after it is not load-balanced): on both nodes.
        Map<String, Set<String>> byNode = byNode(queued);
        assertEquals(allNodes(), byNode.keySet(), "FlowFiles on every node: " + byNode);

        // Provenance agrees: every FETCH event was recorded on the node the FlowFile waits on.
        Map<String, NiFiNode> nodes = cluster.nodesById();
        Map<String, String> fetchedOn = new HashMap<>();
        for (Provenance.Event event : Provenance.events(cluster.api(), flow.processorId(FileIntake.FETCH), "FETCH")) {
            fetchedOn.put(event.flowFileUuid(), nodes.get(event.clusterNodeId()).name());
        }
        for (FlowGroup.Queued flowFile : queued) {
            assertEquals(
                    nodes.get(flowFile.clusterNodeId()).name(),
                    fetchedOn.get(flowFile.uuid()),
                    "node that fetched " + flowFile.attribute("filename"));
        }

        // ListFile ran on the primary node only; FetchFile took FlowFiles in on both.
        NiFiNode primary = cluster.primary();
        for (FlowGroup.NodeActivity activity : flow.activityByNode(FileIntake.LIST)) {
            boolean onPrimary = activity.address().equals(primary.address());
            assertEquals(onPrimary, activity.flowFilesOut() > 0, "ListFile on " + activity);
        }
        for (FlowGroup.NodeActivity activity : flow.activityByNode(FileIntake.FETCH)) {
            assertTrue(activity.flowFilesIn() > 0, "FetchFile processed FlowFiles on " + activity);
        }
    }

    @Test
    @Order(5)
    void aNodeKilledInTheMiddleOfWorkComesBackWithItsFlowFilesAndRejoins() throws Exception {
        // The cluster coordinator, the hardest node to lose: the other node must take its role over through ZooKeeper
        // (and the primary node role too when it held both) before the killed one can rejoin.
        NiFiNode victim = cluster.coordinator();
        NiFiCluster.Member before = cluster.member(victim);
        Set<String> heldByVictim = byNode(flow.queued(fetched)).get(victim.name());
        assertFalse(heldByVictim == null || heldByVictim.isEmpty(), victim + " holds fetched deltas");

        // More deltas arrive; the victim is killed once the cluster has begun to fetch them.
        List<String> late = dropDeltas("late", DELTAS);
        intake.awaitFetched(late.get(0));
        cluster.kill(victim);
        assertFalse(victim.isRunning());

        cluster.restart(victim);
        NiFiCluster.Member after = cluster.member(victim);
        assertTrue(after.connected(), after.toString());
        assertNotEquals(before.nodeStartTime(), after.nodeStartTime(), "a new process of " + victim + " joined");

        // Nothing was lost: every delta, the late ones included, was fetched. (Load balancing hands FlowFiles over at
        // least once, so a FlowFile in flight to the killed node may arrive twice.)
        List<FlowGroup.Queued> queued = awaitQueued(2 * DELTAS);
        Set<String> expected = new TreeSet<>(late);
        expected.addAll(nightly);
        assertEquals(expected, filenames(queued));
        for (String delta : late) {
            assertTrue(Files.exists(intake.processed(delta)), delta + " was fetched");
        }
        // The FlowFiles the victim held before it was killed are still on it: it restarted on its own repositories.
        Set<String> heldNow = byNode(queued).getOrDefault(victim.name(), Set.of());
        assertTrue(heldNow.containsAll(heldByVictim), "before the kill: " + heldByVictim + ", after: " + heldNow);
    }

    @Test
    @Order(6)
    void aChangeMadeWhileANodeReconnectsReachesEveryNode() throws Exception {
        // A node reconnects when an operator connects it again, or after the coordinator missed its heartbeats;
        // until it has loaded the cluster's flow, NiFi refuses every change (409), and the suite's client asks again.
        NiFiNode node = cluster.node(2);
        cluster.requestConnectionStatus(node, "DISCONNECTING");
        try {
            cluster.api()
                    .await(node + " to disconnect", () -> cluster.member(node).status(), "DISCONNECTED"::equals);
            cluster.requestConnectionStatus(node, "CONNECTING");

            flow.setParameters(Map.of("delta.min.file.age", "7 sec"));
        } finally {
            // The next test class gets the cluster connected, whatever happened here.
            if ("DISCONNECTED".equals(cluster.member(node).status())) {
                cluster.requestConnectionStatus(node, "CONNECTING");
            }
            cluster.awaitConnected(NiFiCluster.REJOIN_TIMEOUT);
        }
        for (NiFiNode each : cluster.nodes()) {
            cluster.api()
                    .await(
                            each + " to persist the new parameter value",
                            () -> persistedFlow(each),
                            persisted -> persisted.contains("\"7 sec\""));
        }
    }

    /** Drops {@code count} small deltas into the intake's input directory; returns their names. */
    private List<String> dropDeltas(String prefix, int count) throws IOException {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = prefix + "-" + i + ".parquet";
            intake.drop(name, ("delta " + name).getBytes(StandardCharsets.UTF_8));
            names.add(name);
        }
        return names;
    }

    /** Waits until {@code count} FlowFiles wait in front of RouteByH3Cell, over all nodes, and lists them. */
    private List<FlowGroup.Queued> awaitQueued(int count) throws IOException, InterruptedException {
        cluster.api().await(count + " fetched deltas", () -> flow.queuedCount(fetched), queued -> queued >= count);
        return flow.queued(fetched);
    }

    /** The uuids of the FlowFiles by the name of the node they wait on. */
    private Map<String, Set<String>> byNode(List<FlowGroup.Queued> queued) throws IOException, InterruptedException {
        Map<String, NiFiNode> nodes = cluster.nodesById();
        Map<String, Set<String>> byNode = new TreeMap<>();
        for (FlowGroup.Queued flowFile : queued) {
            byNode.computeIfAbsent(nodes.get(flowFile.clusterNodeId()).name(), node -> new HashSet<>())
                    .add(flowFile.uuid());
        }
        return byNode;
    }

    private Set<String> allNodes() {
        Set<String> names = new TreeSet<>();
        cluster.nodes().forEach(node -> names.add(node.name()));
        return names;
    }

    private static Set<String> filenames(List<FlowGroup.Queued> queued) {
        Set<String> names = new TreeSet<>();
        queued.forEach(flowFile -> names.add(flowFile.attribute("filename")));
        return names;
    }

    /** The flow the node keeps in its own {@code conf/flow.json.gz}. */
    private static String persistedFlow(NiFiNode node) throws IOException {
        Path flowFile = node.home().resolve("conf/flow.json.gz");
        if (!Files.exists(flowFile)) {
            return "";
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(flowFile))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
