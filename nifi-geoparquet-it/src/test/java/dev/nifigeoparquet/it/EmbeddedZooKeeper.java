package dev.nifigeoparquet.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A standalone ZooKeeper server inside the test JVM, on a free loopback port: what a {@link NiFiCluster}'s nodes elect
 * their cluster coordinator and primary node with, and keep cluster-wide component state in. It lives outside every
 * NiFi process on purpose (NiFi could run one embedded), so that any node can be killed without taking ZooKeeper with
 * it. It ends with the test JVM at the latest.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

    /**
     * ZooKeeper's time unit. Sessions may last 2 to 20 ticks, so the nodes' 5 s sessions are allowed, and a killed node's
     * session (and with it its coordinator or primary node role) expires within seconds.
     */
    private static final int TICK_MILLIS = 1000;

    private static final long STARTUP_TIMEOUT_MILLIS = 30_000;

    private final ZooKeeperServerEmbedded server;
    private final int port;

    private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Starts a server keeping its data under {@code directory} (emptied first) and waits until it serves clients. */
    static EmbeddedZooKeeper start(Path directory) throws Exception {
        NiFiHome.deleteRecursively(directory);
        Files.createDirectories(directory);
        int port = NiFiProcess.freePort();
        Properties configuration = new Properties();
        configuration.setProperty("clientPort", String.valueOf(port));
        configuration.setProperty("clientPortAddress", "127.0.0.1");
        configuration.setProperty("tickTime", String.valueOf(TICK_MILLIS));
        // The admin server (HTTP) is not needed.
        configuration.setProperty("admin.enableServer", "false");
        ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
                .baseDir(directory)
                .configuration(configuration)
                .exitHandler(ExitHandler.LOG_ONLY)
                .build();
        server.start(STARTUP_TIMEOUT_MILLIS);
        return new EmbeddedZooKeeper(server, port);
    }

    /** The connect string NiFi's {@code nifi.zookeeper.connect.string} and ZooKeeperStateProvider take. */
    String connectString() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
