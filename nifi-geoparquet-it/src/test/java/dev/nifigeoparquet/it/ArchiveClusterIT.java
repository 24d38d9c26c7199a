package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
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
 * {@code templates/incremental-upsert.json} on the suite's two-node cluster, as a cluster runs it: ListFile on the primary
 * node, FetchFile on both, one archive directory shared by both nodes, and each delta's sequence taken from its file name
 * (a night's date). Two flow groups, each with its own copy of a GeoPandas-style dataset that the archive service adopts
 * (Missing Archive Strategy "Adopt Existing Partitions"):
 * <ul>
 *   <li>enabling a service enables it on both nodes at the same moment: one node adopts, the other opens what it
 *       adopted;</li>
 *   <li>a backlog of four nights applied newest first, one after another, with cells partitioned by {@code h3.cell} as
 *       the flow definition has it: the rows that applying the nights in order leaves, each cell on one node, and a
 *       night delivered again changes nothing;</li>
 *   <li>the four nights all at once, cells round robin over both nodes, one node killed with SIGKILL while it upserts:
 *       the same rows, every delta once, both nodes having committed cells;</li>
 *   <li>the night over every cell, then the other three in each of their six orders, one after another: the same rows
 *       in every order.</li>
 * </ul>
 * DuckDB, the verifier and the reconciled row counts agree on each archive afterwards.
 */
@ExtendWith(NiFiClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArchiveClusterIT {

    static final String UPSERT = IncrementalUpsertFlowIT.UPSERT;

    /** How long the node killed in the middle of an upsert may take to be caught at it. */
    static final Duration CATCH_TIMEOUT = Duration.ofMinutes(2);

    NiFiCluster cluster;
    Path dir;
    Parcels dataset;
    Backlog backlog;

    UpsertFlow oneAfterAnother;
    UpsertFlow atOnce;

    @BeforeAll
    void prepare(NiFiCluster cluster, @TempDir Path dir) throws Exception {
        this.cluster = cluster;
        this.dir = dir;
        dataset = Parcels.writeDataset(dir.resolve("dataset"), 1500, 2, 23);
        backlog = new Backlog(dataset);

        oneAfterAnother = UpsertFlow.upload(cluster.node(1).api(), dir, "one after another", dataset.root);
        atOnce = UpsertFlow.upload(cluster.node(1).api(), dir, "at once", dataset.root);
    }

    @AfterAll
    void stop() throws Exception {
        for (UpsertFlow flow : List.of(oneAfterAnother, atOnce)) {
            if (flow != null) {
                flow.group.stopAll();
            }
        }
    }

    @Test
    @Order(1)
    void bothNodesEnablingTheServiceOnAMissingArchiveAdoptItOnce() throws Exception {
        for (UpsertFlow flow : List.of(oneAfterAnother, atOnce)) {
            long mark = flow.group.lastBulletinId();
            // One request: NiFi enables the service on both nodes at once, and both find the directory not adopted.
            flow.enableOnEveryNode();

            List<String> adoptedBy = new ArrayList<>();
            for (NiFiNode node : cluster.nodes()) {
                try (Stream<String> lines = Files.lines(node.appLog())) {
                    lines.filter(line -> line.contains(flow.root.toString()) && line.contains(": Adopted "))
                            .forEach(line -> adoptedBy.add(node.name()));
                }
            }
            assertEquals(1, adoptedBy.size(), "one node adopted " + flow.root + ": " + adoptedBy);
            // The adoption lease passed from holder to holder, never held by two at once: each record after one that
            // holds the lease is its holder's (a renewal or the release).
            Path leases = flow.root.resolve(ArchiveLayout.METADATA_DIRECTORY).resolve("leases/adoption");
            List<JsonNode> records = new ArrayList<>();
            try (Stream<Path> files = Files.list(leases)) {
                for (Path file : files.sorted().toList()) {
                    records.add(NiFiApi.JSON.readTree(file.toFile()));
                }
            }
            for (int i = 1; i < records.size(); i++) {
                JsonNode previous = records.get(i - 1);
                if (previous.path("state").asText().equals("HELD")) {
                    assertEquals(
                            previous.path("holder").asText(),
                            records.get(i).path("holder").asText(),
                            "the adoption lease changed holder while held: " + records);
                }
            }

            // No file lost: every parcel of the dataset is in the adopted archive, once, in its cell.
            assertEquals(backlog.baseline(), Backlog.rows(flow.root), "the adopted archive holds the dataset's rows");
            VerificationReport report = ArchiveChecks.verify(flow.root, dataset.rows());
            assertTrue(report.consistent(), report.toString());
            // The node that found the adoption under way says so, and NiFi enables its service again shortly.
            for (FlowGroup.Bulletin bulletin : flow.group.bulletins(mark)) {
                assertFalse(
                        bulletin.level().equals("ERROR") && !bulletin.message().contains("Not enabled yet"),
                        "enabling raised " + bulletin);
            }
        }
    }

    @Test
    @Order(2)
    void aBacklogAppliedNewestNightFirstLeavesTheRowsOfTheNightsInOrder() throws Exception {
        UpsertFlow flow = oneAfterAnother;
        flow.startAll();
        for (Backlog.Night night : backlog.nights().reversed()) {
            flow.send(night);
        }
        assertEquals(List.of(), flow.quarantined(), "nothing failed");
        backlog.requireAppliedInOrder(flow.root);

        // The flow definition partitions cells by h3.cell: each cell was committed on one node only.
        Map<String, Set<String>> nodesByCell = new TreeMap<>();
        committedCellsByNode(flow)
                .forEach((node, cells) -> cells.forEach(cell ->
                        nodesByCell.computeIfAbsent(cell, c -> new TreeSet<>()).add(node)));
        nodesByCell.forEach((cell, nodes) -> assertEquals(1, nodes.size(), cell + " committed on " + nodes));

        // A night delivered again, as after a restart of the source, changes nothing.
        Map<String, String> before = ArchiveChecks.snapshot(flow.root);
        Backlog.Night replayed = backlog.nights().get(2);
        flow.send(replayed);
        assertEquals(backlog.inOrder(), Backlog.rows(flow.root), "a replayed night changes no row");
        requireNoDataFileChanged(before, ArchiveChecks.snapshot(flow.root));
        assertEquals(List.of(), flow.quarantined());
    }

    @Test
    @Order(3)
    void aBacklogInFlightOnBothNodesWithOneKilledWhileItUpsertsLeavesTheRowsOfTheNightsInOrder() throws Exception {
        UpsertFlow flow = atOnce;
        // One cell FlowFile per commit, so that each node commits many times while the backlog is in flight. The cells
        // go round robin, not by h3.cell as the flow definition has it: NiFi 2.3.0's partitioning by attribute sends
        // every value to the same node of a two-node cluster, and spreading one cell's nights over both nodes is the
        // harder case (writers of one partition on two nodes at once).
        flow.group.setProcessorProperties(UPSERT, Map.of("Batch Size", "1"));
        flow.group.setLoadBalanceStrategy(
                flow.group.connection(IncrementalUpsertFlowIT.ROUTE, "success"), "ROUND_ROBIN");
        flow.group.setPenalty(UPSERT, "1 sec");
        flow.startAll();
        for (Backlog.Night night : backlog.nights()) {
            flow.drop(night);
        }

        NiFiNode victim = cluster.node(2); // the test talks to node 1
        FlowGroup.NodeActivity beforeTheKill = awaitUpsertingOn(flow, victim);
        cluster.kill(victim);
        assertFalse(victim.isRunning());
        cluster.restart(victim);

        for (Backlog.Night night : backlog.nights()) {
            flow.intake.awaitFetched(night.filename());
        }
        flow.group.awaitIdle(IncrementalUpsertFlowIT.DOWNSTREAM);
        assertEquals(List.of(), flow.quarantined(), "nothing failed");
        backlog.requireAppliedInOrder(flow.root);

        // Both nodes committed cells: the victim before it was killed, the other (never restarted) by its provenance.
        assertTrue(beforeTheKill.flowFilesOut() > 0, victim + " committed cells: " + beforeTheKill);
        Map<String, Set<String>> committedCellsByNode = committedCellsByNode(flow);
        assertFalse(
                committedCellsByNode.getOrDefault("node-1", Set.of()).isEmpty(),
                "node-1 committed cells: " + committedCellsByNode);
    }

    @Test
    @Order(4)
    void theBacklogsNightsInEveryOrderOneAfterAnotherLeaveTheRowsOfTheNightsInOrder() throws Exception {
        // The night over every cell first, then the backlog's three nights in each of their six orders, each order on
        // its own copy of the dataset. (Newest first with the night over every cell last is test 2.)
        List<List<Integer>> orders = List.of(
                List.of(1, 2, 3),
                List.of(1, 3, 2),
                List.of(2, 1, 3),
                List.of(2, 3, 1),
                List.of(3, 1, 2),
                List.of(3, 2, 1));
        for (List<Integer> order : orders) {
            String name = "order "
                    + order.stream()
                            .map(String::valueOf)
                            .reduce((a, b) -> a + b)
                            .orElseThrow();
            UpsertFlow flow = UpsertFlow.upload(cluster.node(1).api(), dir, name, dataset.root);
            try {
                flow.enableOnEveryNode();
                flow.startAll();
                flow.send(backlog.nights().get(0));
                for (int night : order) {
                    flow.send(backlog.nights().get(night));
                }
                assertEquals(List.of(), flow.quarantined(), name + ": nothing failed");
                assertEquals(backlog.inOrder(), Backlog.rows(flow.root), name);
            } finally {
                flow.group.stopAll();
            }
        }
    }

    /** The cells Upsert committed, by the node that committed them, from its SEND provenance events. */
    private Map<String, Set<String>> committedCellsByNode(UpsertFlow flow) throws Exception {
        Map<String, Set<String>> cellsByNode = new TreeMap<>();
        Map<String, NiFiNode> nodes = cluster.nodesById();
        for (Provenance.Event event : Provenance.events(cluster.api(), flow.group.processorId(UPSERT), "SEND")) {
            cellsByNode
                    .computeIfAbsent(nodes.get(event.clusterNodeId()).name(), node -> new TreeSet<>())
                    .add(event.attribute("h3.cell"));
        }
        return cellsByNode;
    }

    /**
     * Waits until {@code node} is in the middle of the backlog: it has committed cells, and it upserts now or cells
     * still wait. (A cell's commit takes a few tens of milliseconds, shorter than a status request.) Returns what the
     * node did so far: its provenance is kept in memory and goes with it when it is killed.
     */
    private FlowGroup.NodeActivity awaitUpsertingOn(UpsertFlow flow, NiFiNode node) throws Exception {
        String inFrontOfUpsert = flow.group.connection(IncrementalUpsertFlowIT.ROUTE, "success");
        Instant deadline = Instant.now().plus(CATCH_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            for (FlowGroup.NodeActivity activity : flow.group.activityByNode(UPSERT)) {
                if (activity.address().equals(node.address())
                        && activity.flowFilesOut() > 0
                        && (activity.activeThreads() > 0 || flow.group.queuedCount(inFrontOfUpsert) > 0)) {
                    return activity;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("Upsert never committed on " + node + " while cells waited, within " + CATCH_TIMEOUT);
    }

    private static void requireNoDataFileChanged(Map<String, String> before, Map<String, String> after) {
        Map<String, String> dataBefore = new TreeMap<>(before);
        Map<String, String> dataAfter = new TreeMap<>(after);
        dataBefore.keySet().removeIf(path -> !path.endsWith(ArchiveLayout.DATA_FILE_SUFFIX));
        dataAfter.keySet().removeIf(path -> !path.endsWith(ArchiveLayout.DATA_FILE_SUFFIX));
        assertEquals(dataBefore, dataAfter, "no data file written or removed by the replay");
    }
}
