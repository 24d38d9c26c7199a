package dev.nifigeoparquet.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One node of a {@link NiFiCluster}: a home of its own with its own ports, kept across restarts like a server's
 * installation, and while it runs, its NiFi process. Its REST API ({@link #api()}) replicates every request to the whole
 * cluster, as any node's does, so a test may drive the cluster through either node.
 *
 * <p>{@link #kill()} crashes it (SIGKILL); {@link #launch()} starts it again on the same home, whose flow, FlowFile and
 * content repositories and local state it recovers before it asks the cluster to rejoin.
 */
final class NiFiNode implements AutoCloseable {

    private final String name;
    private final NiFiHome home;
    private final NiFiApi api;
    private volatile NiFiProcess process;

    NiFiNode(String name, NiFiHome home) {
        this.name = name;
        this.home = home;
        this.api = new NiFiApi(NiFiProcess.apiOf(home));
    }

    /** The node's name in the test (node-1, node-2), also the name of its home directory. */
    String name() {
        return name;
    }

    NiFiApi api() {
        return api;
    }

    /** The port of the node's REST API, which the cluster reports as the node's {@code apiPort}. */
    int apiPort() {
        return home.httpPort();
    }

    /** host:port, as the cluster reports a node's address on FlowFiles and events ({@code clusterNodeAddress}). */
    String address() {
        return "127.0.0.1:" + home.httpPort();
    }

    Path home() {
        return home.directory();
    }

    Path appLog() {
        return home.appLog();
    }

    boolean isRunning() {
        NiFiProcess running = process;
        return running != null && running.isAlive();
    }

    /** Starts the node's NiFi on its home without waiting for it; see {@link #awaitApi(Duration)}. */
    void launch() throws IOException {
        if (isRunning()) {
            throw new IllegalStateException(name + " runs already");
        }
        process = NiFiProcess.launch(home);
    }

    /** Waits until the node's NiFi has expanded its NARs; see {@link NiFiProcess#awaitNarsExpanded(Duration)}. */
    void awaitNarsExpanded(Duration timeout) throws IOException, InterruptedException {
        process.awaitNarsExpanded(timeout);
    }

    /** Waits until the node's REST API answers (it may not have joined the cluster yet). */
    void awaitApi(Duration timeout) throws IOException, InterruptedException {
        process.awaitApi(timeout);
    }

    /** Kills the node's NiFi with SIGKILL, in the middle of whatever it is doing; see {@link NiFiProcess#kill()}. */
    void kill() throws InterruptedException {
        process.kill();
    }

    /** Stops the node's NiFi, gracefully first; nothing happens if it does not run. */
    @Override
    public void close() {
        NiFiProcess running = process;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public String toString() {
        return name + " (" + address() + ")";
    }
}
