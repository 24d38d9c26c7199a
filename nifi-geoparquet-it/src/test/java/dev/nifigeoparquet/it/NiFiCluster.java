package dev.nifigeoparquet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A NiFi cluster of real nodes on this machine, as operators run one: every node a NiFi process of its own
 * ({@link NiFiNode}) on its own home and ports over the same runtime lib, all bound to 127.0.0.1, speaking the plain
 * (unsecured) cluster protocol, and one ZooKeeper ({@link EmbeddedZooKeeper}, in the test JVM) through which they elect
 * the cluster coordinator and the primary node and keep cluster-wide component state.
 *
 * <p>What a test does with it: start it ({@link #start}), drive it through any node's REST API ({@link #api()}, which
 * replicates to all nodes: upload a flow definition with {@link FlowGroup#upload} and NiFi puts it on every node), crash a
 * node in the middle of work ({@link #kill}) and bring it back on the same home ({@link #restart}), and find out where
 * FlowFiles are or were ({@link #nodeOf(String)} with the {@code clusterNodeId} that NiFi reports on queued FlowFiles and
 * provenance events). {@link #close()} stops every node and ZooKeeper.
 */
final class NiFiCluster implements AutoCloseable {

    /** How long the nodes may take to start side by side on 2 cores and connect. */
    static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    /** How long a restarted node may take to start and rejoin. */
    static final Duration REJOIN_TIMEOUT = Duration.ofMinutes(4);

    /** How many polls a second apart must find the whole cluster connected before it counts as connected. */
    static final int STEADY_POLLS = 3;

    /** The roles NiFi gives nodes, as {@code GET controller/cluster} names them. */
    static final String PRIMARY_NODE = "Primary Node";

    static final String CLUSTER_COORDINATOR = "Cluster Coordinator";

    private final EmbeddedZooKeeper zooKeeper;
    private final List<NiFiNode> nodes;

    private NiFiCluster(EmbeddedZooKeeper zooKeeper, List<NiFiNode> nodes) {
        this.zooKeeper = zooKeeper;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Starts ZooKeeper and {@code nodeCount} nodes under {@code directory} (each node's home in {@code node-<n>}, emptied
     * first) over the NiFi runtime in {@code lib}, and waits until every node is connected. Everything started is stopped
     * again if the cluster does not form.
     */
    static NiFiCluster start(Path directory, Path lib, int nodeCount) throws Exception {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start(directory.resolve("zookeeper"));
        List<NiFiNode> nodes = new ArrayList<>();
        try {
            String sensitivePropertiesKey = NiFiHome.newSensitivePropertiesKey();
            // Per node: HTTP, cluster protocol, load balancing, raw site-to-site.
            List<Integer> ports = NiFiProcess.freePorts(4 * nodeCount);
            for (int n = 1; n <= nodeCount; n++) {
                Path home = directory.resolve("node-" + n);
                NiFiProcess.stopLeftover(home);
                List<Integer> own = ports.subList(4 * (n - 1), 4 * n);
                NiFiHome.ClusterSettings settings = new NiFiHome.ClusterSettings(
                        own.get(1), own.get(2), own.get(3), zooKeeper.connectString(), "/nifi");
                nodes.add(new NiFiNode(
                        "node-" + n, NiFiHome.createNode(home, lib, own.get(0), settings, sensitivePropertiesKey)));
            }
        } catch (Exception | Error e) {
            zooKeeper.close();
            throw e;
        }
        NiFiCluster cluster = new NiFiCluster(zooKeeper, nodes);
        try {
            // The first node alone until it has expanded the NARs the nodes share (see NiFiHome.narWorkingDirectory),
            // then the others beside it.
            nodes.get(0).launch();
            nodes.get(0).awaitNarsExpanded(START_TIMEOUT);
            for (NiFiNode node : nodes.subList(1, nodes.size())) {
                node.launch();
            }
            cluster.awaitConnected(START_TIMEOUT);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    List<NiFiNode> nodes() {
        return nodes;
    }

    /** The node named {@code node-<n>}, counting from 1. */
    NiFiNode node(int n) {
        return nodes.get(n - 1);
    }

    /** The REST API of the first node that runs: any node replicates a request to the whole cluster. */
    NiFiApi api() {
        return nodes.stream()
                .filter(NiFiNode::isRunning)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No node of the cluster runs"))
                .api();
    }

    /** A node of the cluster as the cluster coordinator reports it ({@code GET controller/cluster}). */
    record Member(String nodeId, String address, int apiPort, String status, Set<String> roles, String nodeStartTime) {

        boolean connected() {
            return "CONNECTED".equals(status);
        }

        boolean isPrimary() {
            return roles.contains(PRIMARY_NODE);
        }
    }

    /** Every node the cluster knows, with its state and roles. */
    List<Member> members() throws IOException, InterruptedException {
        List<Member> members = new ArrayList<>();
        for (JsonNode node : api().get("controller/cluster").path("cluster").path("nodes")) {
            Set<String> roles = new TreeSet<>();
            node.path("roles").forEach(role -> roles.add(role.asText()));
            members.add(new Member(
                    node.path("nodeId").asText(),
                    node.path("address").asText(),
                    node.path("apiPort").asInt(),
                    node.path("status").asText(),
                    roles,
                    node.path("nodeStartTime").asText()));
        }
        return members;
    }

    /** The cluster's view of {@code node}. */
    Member member(NiFiNode node) throws IOException, InterruptedException {
        return members().stream()
                .filter(member -> member.apiPort() == node.apiPort())
                .findFirst()
                .orElseThrow(() -> new AssertionError("The cluster does not know " + node));
    }

    /** Every node by the id the cluster gives it, as queue listings and provenance events name nodes. */
    Map<String, NiFiNode> nodesById() throws IOException, InterruptedException {
        Map<String, NiFiNode> byId = new TreeMap<>();
        for (Member member : members()) {
            byId.put(member.nodeId(), nodeWithApiPort(member.apiPort()));
        }
        return byId;
    }

    /** The node with the cluster's id {@code clusterNodeId}. */
    NiFiNode nodeOf(String clusterNodeId) throws IOException, InterruptedException {
        NiFiNode node = nodesById().get(clusterNodeId);
        if (node == null) {
            throw new AssertionError("No node of the cluster has the id " + clusterNodeId);
        }
        return node;
    }

    /** The node a queued FlowFile waits on. */
    NiFiNode nodeOf(FlowGroup.Queued flowFile) throws IOException, InterruptedException {
        if (flowFile.clusterNodeId() == null) {
            throw new IllegalArgumentException("FlowFile " + flowFile.uuid() + " was not listed from a cluster");
        }
        return nodeOf(flowFile.clusterNodeId());
    }

    /** The node that recorded a provenance event: where the FlowFile was processed. */
    NiFiNode nodeOf(Provenance.Event event) throws IOException, InterruptedException {
        return nodeOf(event.clusterNodeId());
    }

    /** The node that holds the primary node role now. */
    NiFiNode primary() throws IOException, InterruptedException {
        return nodeWithApiPort(members().stream()
                .filter(Member::isPrimary)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No node is primary"))
                .apiPort());
    }

    /** The node that holds the cluster coordinator role now. */
    NiFiNode coordinator() throws IOException, InterruptedException {
        return nodeWithApiPort(members().stream()
                .filter(member -> member.roles().contains(CLUSTER_COORDINATOR))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No node is the cluster coordinator"))
                .apiPort());
    }

    private NiFiNode nodeWithApiPort(int apiPort) {
        return nodes.stream()
                .filter(node -> node.apiPort() == apiPort)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No node of this cluster has API port " + apiPort));
    }

    /**
     * Waits until every node runs, answers on its API, sees itself connected and counts all the cluster's nodes
     * connected ({@code GET flow/cluster/summary} asked of each node itself), and the coordinator lists every node as
     * {@code CONNECTED}: {@link #STEADY_POLLS} times in a row, since the coordinator may ask a node that has just joined
     * to reconnect, and NiFi refuses every change while a node connects.
     */
    void awaitConnected(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        for (NiFiNode node : nodes) {
            if (!node.isRunning()) {
                throw new IllegalStateException(node + " does not run");
            }
            node.awaitApi(Duration.between(Instant.now(), deadline));
        }
        List<String> states = List.of();
        int steady = 0;
        while (Instant.now().isBefore(deadline)) {
            states = new ArrayList<>();
            boolean connected = true;
            for (NiFiNode node : nodes) {
                JsonNode summary = node.api().get("flow/cluster/summary").path("clusterSummary");
                states.add(node + ": connected "
                        + summary.path("connectedToCluster").asBoolean() + ", "
                        + summary.path("connectedNodes").asText());
                connected &= summary.path("connectedToCluster").asBoolean()
                        && summary.path("connectedNodeCount").asInt() == nodes.size()
                        && summary.path("totalNodeCount").asInt() == nodes.size();
            }
            // Only a connected node answers for the cluster.
            connected =
                    connected && members().stream().filter(Member::connected).count() == nodes.size();
            steady = connected ? steady + 1 : 0;
            if (steady == STEADY_POLLS) {
                return;
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("The cluster did not connect within " + timeout + ": " + states + "; "
                + api().clusterState() + "; see the nodes' logs/nifi-app.log");
    }

    /**
     * Asks the cluster coordinator to change {@code node}'s connection, as the cluster dialog's disconnect and connect
     * buttons do: {@code DISCONNECTING} takes it out of the cluster (it runs on alone), {@code CONNECTING} has it load
     * the cluster's flow and rejoin.
     */
    void requestConnectionStatus(NiFiNode node, String status) throws IOException, InterruptedException {
        String nodeId = member(node).nodeId();
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.putObject("node").put("nodeId", nodeId).put("status", status);
        api().put("controller/cluster/nodes/" + nodeId, body);
    }

    /**
     * Kills {@code node} with SIGKILL, in the middle of whatever it does: its process ends at once, its home stays as the
     * crash left it. The other nodes and ZooKeeper run on.
     */
    void kill(NiFiNode node) throws InterruptedException {
        node.kill();
    }

    /**
     * Starts a killed or stopped {@code node} again on the same home, repositories kept, and waits until it has rejoined
     * and the whole cluster is connected again.
     */
    void restart(NiFiNode node) throws IOException, InterruptedException {
        if (node.isRunning()) {
            node.close();
        }
        node.launch();
        awaitConnected(REJOIN_TIMEOUT);
    }

    /** Stops every node (side by side, gracefully first) and then ZooKeeper. */
    @Override
    public void close() {
        List<Thread> stopping = nodes.stream()
                .map(node -> Thread.ofPlatform().name("stop " + node.name()).start(node::close))
                .toList();
        for (Thread thread : stopping) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                // the other threads stop their nodes all the same; each node's shutdown hook is the last resort
                Thread.currentThread().interrupt();
            }
        }
        try {
            zooKeeper.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
