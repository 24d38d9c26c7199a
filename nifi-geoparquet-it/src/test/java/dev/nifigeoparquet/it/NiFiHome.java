package dev.nifigeoparquet.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A NiFi home directory: {@code conf/} with the configuration NiFi's bootstrap and nifi-resources would have provided
 * (neither is among the artifacts the build can fetch), and the repositories NiFi keeps beside it. The NARs and jars stay
 * in the runtime's lib directory, which {@code nifi.nar.library.directory} points at.
 *
 * <p>A home is written once, by {@link #create} for a standalone NiFi or {@link #createNode} for a node of a
 * {@link NiFiCluster}; starting NiFi again on the same home (after a stop or a kill) keeps its flow, its FlowFile and
 * content repositories and its local state, as a restarted installation does.
 *
 * <p>The configuration is the smallest one that runs: plain HTTP bound to 127.0.0.1 (so no login or authorizer is
 * needed), site-to-site over HTTP, volatile provenance (searchable, for reading what a processor
 * did with a FlowFile) and status history, no flow archive, no Python. Components that were running before a restart run
 * again after it, as in a default NiFi.
 */
final class NiFiHome {

    /** The heap of a standalone NiFi, the one the flow tests share. */
    static final String STANDALONE_HEAP = "1g";

    /** The heap of each node of a cluster: two of them and the test JVM share the machine. */
    static final String NODE_HEAP = "768m";

    /**
     * What a node of a cluster adds to the configuration: its own ports for the cluster protocol, load balancing and raw
     * site-to-site, and where the cluster's ZooKeeper is (leader election, and the cluster state provider).
     */
    record ClusterSettings(
            int protocolPort,
            int loadBalancePort,
            int siteToSitePort,
            String zooKeeperConnectString,
            String zooKeeperRootNode) {}

    private final Path home;
    private final Path lib;
    private final int httpPort;
    private final String maxHeap;

    private NiFiHome(Path home, Path lib, int httpPort, String maxHeap) {
        this.home = home;
        this.lib = lib;
        this.httpPort = httpPort;
        this.maxHeap = maxHeap;
    }

    /** Deletes whatever a previous run left at {@code home} and writes a fresh standalone configuration there. */
    static NiFiHome create(Path home, Path lib, int httpPort) throws IOException {
        NiFiHome nifiHome = prepare(home, lib, httpPort, STANDALONE_HEAP);
        nifiHome.write(newSensitivePropertiesKey(), null);
        return nifiHome;
    }

    /**
     * Deletes whatever a previous run left at {@code home} and writes the configuration of one cluster node there. Every
     * node of a cluster must be given the same {@code sensitivePropertiesKey}: the flow they share is encrypted with it.
     */
    static NiFiHome createNode(
            Path home, Path lib, int httpPort, ClusterSettings cluster, String sensitivePropertiesKey)
            throws IOException {
        NiFiHome nifiHome = prepare(home, lib, httpPort, NODE_HEAP);
        nifiHome.write(sensitivePropertiesKey, cluster);
        return nifiHome;
    }

    /** A new key for {@code nifi.sensitive.props.key}: the flow is thrown away with the home, nothing must outlive it. */
    static String newSensitivePropertiesKey() {
        return HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    }

    private static NiFiHome prepare(Path home, Path lib, int httpPort, String maxHeap) throws IOException {
        if (!Files.isDirectory(lib)
                || !Files.isRegularFile(
                        lib.resolve("nifi-runtime-" + System.getProperty("nifi.runtime.version") + ".jar"))) {
            throw new IllegalStateException(
                    "No NiFi runtime at " + lib + "; the build copies it there in pre-integration-test");
        }
        deleteRecursively(home);
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(home.resolve("logs"));
        Files.createDirectories(home.resolve("tmp"));
        return new NiFiHome(home, lib, httpPort, maxHeap);
    }

    private void write(String sensitivePropertiesKey, ClusterSettings cluster) throws IOException {
        String properties =
                properties(sensitivePropertiesKey, cluster == null ? "" : String.valueOf(cluster.siteToSitePort()));
        String stateManagement = STATE_MANAGEMENT_START;
        if (cluster == null) {
            properties += "nifi.cluster.is.node=false\n";
        } else {
            properties += clusterProperties(cluster);
            // The cluster-wide state (ListFile's listing with Input Directory Location "Remote", for one) in ZooKeeper.
            stateManagement += """
                        <cluster-provider>
                            <id>zk-provider</id>
                            <class>org.apache.nifi.controller.state.providers.zookeeper.ZooKeeperStateProvider</class>
                            <property name="Connect String">%s</property>
                            <property name="Root Node">%s</property>
                            <property name="Session Timeout">10 seconds</property>
                            <property name="Access Control">Open</property>
                        </cluster-provider>
                    """.formatted(cluster.zooKeeperConnectString(), cluster.zooKeeperRootNode());
        }
        Files.writeString(propertiesFile(), properties);
        Files.writeString(home.resolve("conf/state-management.xml"), stateManagement + "</stateManagement>\n");
        Files.writeString(home.resolve("conf/logback.xml"), LOGBACK);
    }

    Path directory() {
        return home;
    }

    Path lib() {
        return lib;
    }

    Path propertiesFile() {
        return home.resolve("conf/nifi.properties");
    }

    Path appLog() {
        return home.resolve("logs/nifi-app.log");
    }

    int httpPort() {
        return httpPort;
    }

    /** The JVM's maximum heap, as {@code -Xmx} takes it: what conf/bootstrap.conf would set. */
    String maxHeap() {
        return maxHeap;
    }

    /**
     * Where NiFi expands the NARs: beside the runtime's lib, shared by every NiFi of the run as lib is. A NiFi finds them
     * expanded (it checks each NAR's digest) and starts without expanding them again; only two NiFis starting side by side
     * on a lib not expanded yet would race, which {@link NiFiCluster} avoids by starting its first node alone until it
     * has expanded them.
     */
    Path narWorkingDirectory() {
        return lib.toAbsolutePath().getParent().resolve("work/nar");
    }

    /** The classpath the bootstrap would build: every jar directly in lib, then conf (for logback.xml). */
    String classPath() throws IOException {
        try (Stream<Path> files = Files.list(lib)) {
            List<String> jars = files.filter(
                            file -> file.getFileName().toString().endsWith(".jar"))
                    .map(Path::toString)
                    .sorted()
                    .toList();
            return String.join(File.pathSeparator, jars) + File.pathSeparator + home.resolve("conf");
        }
    }

    private String properties(String sensitiveKey, String siteToSitePort) {
        return """
                nifi.flow.configuration.file=./conf/flow.json.gz
                nifi.flow.configuration.archive.enabled=false
                nifi.flowcontroller.autoResumeState=true
                nifi.flowcontroller.graceful.shutdown.period=5 sec
                nifi.flowservice.writedelay.interval=500 ms
                nifi.administrative.yield.duration=5 sec
                nifi.bored.yield.duration=10 millis
                nifi.queue.backpressure.count=10000
                nifi.queue.backpressure.size=1 GB
                nifi.nar.library.directory=%s
                nifi.nar.library.autoload.directory=./extensions
                nifi.nar.working.directory=%s
                nifi.upload.working.directory=./work/uploads
                nifi.state.management.configuration.file=./conf/state-management.xml
                nifi.state.management.provider.local=local-provider
                nifi.state.management.embedded.zookeeper.start=false
                nifi.database.directory=./database_repository
                nifi.flowfile.repository.implementation=org.apache.nifi.controller.repository.WriteAheadFlowFileRepository
                nifi.flowfile.repository.wal.implementation=org.apache.nifi.wali.SequentialAccessWriteAheadLog
                nifi.flowfile.repository.directory=./flowfile_repository
                nifi.flowfile.repository.checkpoint.interval=20 secs
                nifi.swap.manager.implementation=org.apache.nifi.controller.FileSystemSwapManager
                nifi.queue.swap.threshold=20000
                nifi.content.repository.implementation=org.apache.nifi.controller.repository.FileSystemRepository
                nifi.content.claim.max.appendable.size=50 KB
                nifi.content.repository.directory.default=./content_repository
                nifi.content.repository.archive.enabled=false
                nifi.provenance.repository.implementation=org.apache.nifi.provenance.VolatileProvenanceRepository
                nifi.provenance.repository.buffer.size=10000
                nifi.provenance.repository.indexed.fields=EventType, FlowFileUUID, Filename, ProcessorID, Relationship
                nifi.components.status.repository.implementation=org.apache.nifi.controller.status.history.VolatileComponentStatusRepository
                nifi.components.status.repository.buffer.size=60
                nifi.components.status.snapshot.frequency=1 min
                nifi.nar.persistence.provider.implementation=org.apache.nifi.nar.StandardNarPersistenceProvider
                nifi.nar.persistence.provider.properties.directory=./nar_repository
                nifi.asset.manager.implementation=org.apache.nifi.asset.StandardAssetManager
                nifi.asset.manager.properties.directory=./assets
                nifi.remote.input.host=127.0.0.1
                nifi.remote.input.secure=false
                nifi.remote.input.socket.port=%s
                nifi.remote.input.http.enabled=true
                nifi.remote.input.http.transaction.ttl=30 sec
                nifi.web.http.host=127.0.0.1
                nifi.web.http.port=%d
                nifi.web.https.host=
                nifi.web.https.port=
                nifi.web.jetty.working.directory=./work/jetty
                nifi.web.jetty.threads=50
                nifi.web.max.header.size=16 KB
                nifi.web.request.timeout=60 secs
                nifi.sensitive.props.key=%s
                nifi.sensitive.props.algorithm=NIFI_PBKDF2_AES_GCM_256
                nifi.analytics.predict.enabled=false
                nifi.diagnostics.on.shutdown.enabled=false
                """.formatted(lib.toAbsolutePath(), narWorkingDirectory(), siteToSitePort, httpPort, sensitiveKey);
        // nifi.python.command is left out on purpose: any value, even an empty one, turns the Python bridge on.
    }

    /**
     * A node over plain TCP and HTTP, as NiFi's own clustered system tests run (nifi.cluster.protocol.is.secure=false):
     * on loopback nothing needs TLS. Heartbeats every second; a node is disconnected only after 30 s without one, as
     * after NiFi's default 40 s, since a node busy starting components on 2 shared cores can miss 8 in a row, and the
     * reconnection that follows refuses every change to the flow for a while (a killed node restarted on its home
     * rejoins without waiting for that: it asks to connect as it starts); the flow is elected as soon as both nodes have offered theirs
     * (both empty at first), or 1 s after the first did.
     */
    private static String clusterProperties(ClusterSettings cluster) {
        return """
                nifi.cluster.is.node=true
                nifi.cluster.protocol.is.secure=false
                nifi.cluster.protocol.heartbeat.interval=1 sec
                nifi.cluster.protocol.heartbeat.missable.max=30
                nifi.cluster.node.address=127.0.0.1
                nifi.cluster.node.protocol.port=%d
                nifi.cluster.node.protocol.max.threads=20
                nifi.cluster.node.event.history.size=25
                nifi.cluster.node.connection.timeout=5 sec
                nifi.cluster.node.read.timeout=30 sec
                nifi.cluster.node.max.concurrent.requests=50
                nifi.cluster.firewall.file=
                nifi.cluster.flow.election.max.wait.time=1 sec
                nifi.cluster.flow.election.max.candidates=2
                nifi.cluster.load.balance.host=127.0.0.1
                nifi.cluster.load.balance.port=%d
                nifi.cluster.load.balance.connections.per.node=1
                nifi.cluster.load.balance.max.thread.count=4
                nifi.cluster.load.balance.comms.timeout=30 sec
                nifi.state.management.provider.cluster=zk-provider
                nifi.zookeeper.connect.string=%s
                nifi.zookeeper.connect.timeout=5 secs
                nifi.zookeeper.session.timeout=5 secs
                nifi.zookeeper.root.node=%s
                nifi.zookeeper.auth.type=default
                """.formatted(
                        cluster.protocolPort(),
                        cluster.loadBalancePort(),
                        cluster.zooKeeperConnectString(),
                        cluster.zooKeeperRootNode());
    }

    private static final String STATE_MANAGEMENT_START = """
            <stateManagement>
                <local-provider>
                    <id>local-provider</id>
                    <class>org.apache.nifi.controller.state.providers.local.WriteAheadLocalStateProvider</class>
                    <property name="Directory">./state/local</property>
                    <property name="Always Sync">false</property>
                    <property name="Partitions">4</property>
                    <property name="Checkpoint Interval">2 mins</property>
                </local-provider>
            """;

    private static final String LOGBACK = """
            <configuration>
                <appender name="APP_FILE" class="ch.qos.logback.core.FileAppender">
                    <file>logs/nifi-app.log</file>
                    <encoder><pattern>%date %level [%thread] %logger{40} %msg%n</pattern></encoder>
                </appender>
                <logger name="org.apache.nifi" level="INFO"/>
                <logger name="dev.nifigeoparquet" level="INFO"/>
                <logger name="org.eclipse.jetty" level="WARN"/>
                <logger name="org.springframework" level="WARN"/>
                <logger name="org.opensaml" level="WARN"/>
                <logger name="org.apache.zookeeper" level="WARN"/>
                <logger name="org.apache.curator" level="WARN"/>
                <!-- A line per REST request otherwise; the tests poll. -->
                <logger name="org.apache.nifi.web.security" level="WARN"/>
                <logger name="org.apache.nifi.web.server.RequestLog" level="WARN"/>
                <root level="INFO"><appender-ref ref="APP_FILE"/></root>
            </configuration>
            """;

    static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
