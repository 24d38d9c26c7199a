package dev.nifigeoparquet.it;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * NiFi as a child process: {@code org.apache.nifi.NiFi} started directly on a {@link NiFiHome}, with the JVM options
 * NiFi's bootstrap would pass (the bootstrap is not among the artifacts the build can fetch), and stopped by its process
 * id in every case: by {@link #close()}, and by a shutdown hook should the test JVM end first. Its descendants are stopped
 * with it.
 *
 * <p>{@link #kill()} ends it the way a crash or {@code kill -9} does, with no shutdown at all; a new process started on the
 * same home afterwards ({@link #start(NiFiHome)}) recovers from what the killed one left in its repositories.
 */
final class NiFiProcess implements AutoCloseable {

    /** How long NiFi may take to answer on its REST API; a cold start takes about 45 s on 2 cores. */
    static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

    private static final Duration GRACEFUL_STOP = Duration.ofSeconds(20);
    private static final String APPLICATION_CLASS = "org.apache.nifi.NiFi";
    /** Lines of NiFi's log that mean it will never come up, so waiting on is pointless. */
    private static final List<String> FATAL_LOG_LINES =
            List.of("Starting NiFi failed", "Failed to start Server", "Start Server failed");
    /** NiFi's log line once the NARs are expanded in its NAR working directory, or found expanded there. */
    private static final String NARS_EXPANDED = "NarUnpacker Expanded";

    private final Process process;
    private final NiFiHome home;
    private final URI api;
    private final Thread shutdownHook;
    /** Where this process's lines begin in the log, which a restart on the same home appends to. */
    private final long logStart;

    private NiFiProcess(Process process, NiFiHome home, long logStart) {
        this.process = process;
        this.home = home;
        this.logStart = logStart;
        this.api = apiOf(home);
        this.shutdownHook = new Thread(this::stop, "stop NiFi " + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts NiFi on an assembled home, keeping whatever an earlier process left in it, and waits for its REST API; stops
     * it again if it does not come up.
     */
    static NiFiProcess start(NiFiHome home) throws IOException, InterruptedException {
        NiFiProcess nifi = launch(home);
        try {
            nifi.awaitApi(STARTUP_TIMEOUT);
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            nifi.close();
            throw e;
        }
        return nifi;
    }

    /** Starts NiFi on an assembled home without waiting for it, so that several can come up side by side. */
    static NiFiProcess launch(NiFiHome home) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(
                "-Xms256m",
                "-Xmx" + home.maxHeap(),
                // Up to three NiFi JVMs share 2 cores with the tests: the quick compiler only and a single-threaded
                // collector halve a cluster node's start-up there; the tests' flows move little data.
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--class-path",
                home.classPath(),
                "-Dnifi.properties.file.path=" + home.propertiesFile(),
                "-Dorg.apache.nifi.bootstrap.config.log.dir=" + home.directory().resolve("logs"),
                "-Dorg.apache.nifi.management.server.address=127.0.0.1:" + freePort(),
                "-Djava.io.tmpdir=" + home.directory().resolve("tmp"),
                // What bootstrap.conf passes by default:
                "-Dsun.net.http.allowRestrictedHeaders=true",
                "-Djava.protocol.handler.pkgs=sun.net.www.protocol",
                "-Djava.awt.headless=true",
                "-Dcurator-log-only-first-connection-issue-as-error-level=true",
                "-Djavax.security.auth.useSubjectCredsOnly=true"));
        if (Runtime.version().feature() >= 23) {
            // parquet-java hashes through sun.misc.Unsafe; the operator guide's advice for conf/bootstrap.conf.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add(APPLICATION_CLASS);
        long logStart = Files.exists(home.appLog()) ? Files.size(home.appLog()) : 0;
        Process process = new ProcessBuilder(command)
                .directory(home.directory().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        home.directory().resolve("logs/nifi-stdout.log").toFile()))
                .start();
        Files.writeString(pidFile(home.directory()), String.valueOf(process.pid()));
        return new NiFiProcess(process, home, logStart);
    }

    static URI apiOf(NiFiHome home) {
        return URI.create("http://127.0.0.1:" + home.httpPort() + "/nifi-api/");
    }

    URI api() {
        return api;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path appLog() {
        return home.appLog();
    }

    /** Waits until NiFi answers {@code GET flow/about}; fails early when it exits or logs that it cannot start. */
    void awaitApi(Duration timeout) throws IOException, InterruptedException {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest about = HttpRequest.newBuilder(api.resolve("flow/about"))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            requireStarting();
            try {
                if (client.send(about, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("NiFi's API did not answer within " + timeout + "; see " + home.appLog());
    }

    /**
     * Waits until NiFi has expanded its NARs (or found them expanded), the first thing it does; fails early when it exits
     * or logs that it cannot start.
     */
    void awaitNarsExpanded(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (log().lines().noneMatch(line -> line.contains(NARS_EXPANDED))) {
            requireStarting();
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(
                        "NiFi did not expand its NARs within " + timeout + "; see " + home.appLog());
            }
            Thread.sleep(200);
        }
    }

    private void requireStarting() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("NiFi exited with " + process.exitValue() + " while starting; see "
                    + home.directory().resolve("logs"));
        }
        String fatal = log().lines()
                .filter(line -> FATAL_LOG_LINES.stream().anyMatch(line::contains))
                .findFirst()
                .orElse(null);
        if (fatal != null) {
            throw new IllegalStateException("NiFi did not start: " + fatal + " (see " + home.appLog() + ")");
        }
    }

    /** What this process has logged so far (a restart's process appends to the log of the processes before it). */
    private String log() throws IOException {
        if (!Files.exists(home.appLog())) {
            return "";
        }
        try (RandomAccessFile file = new RandomAccessFile(home.appLog().toFile(), "r")) {
            long length = file.length();
            if (length <= logStart) {
                return "";
            }
            byte[] bytes = new byte[Math.toIntExact(length - logStart)];
            file.seek(logStart);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /**
     * Kills NiFi at once, as {@code kill -9} would (SIGKILL on Linux): no shutdown, no flush, its repositories left as
     * they are at that instant. Returns once the process is gone.
     */
    void kill() throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("NiFi " + process.pid() + " outlived SIGKILL for 30 s");
        }
        removeShutdownHook();
    }

    /** Stops NiFi: a graceful shutdown first, then by force, its descendants included. */
    @Override
    public void close() {
        stop();
        removeShutdownHook();
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
    }

    private void stop() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Stops the NiFi a previous run left behind when its JVM was killed outright (no shutdown hook runs then): the
     * process whose id that run recorded, if it is still NiFi running in this home.
     */
    static void stopLeftover(Path homeDirectory) throws IOException {
        Path pidFile = pidFile(homeDirectory);
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                .filter(leftover -> leftover.info().commandLine().orElse("").contains(APPLICATION_CLASS))
                .filter(leftover -> leftover.info().commandLine().orElse("").contains(homeDirectory.toString()))
                .ifPresent(leftover -> {
                    leftover.descendants().forEach(ProcessHandle::destroyForcibly);
                    leftover.destroyForcibly();
                    leftover.onExit().join();
                });
    }

    private static Path pidFile(Path homeDirectory) {
        return homeDirectory.resolve("nifi.pid");
    }

    /**
     * A TCP port free on the loopback interface now. NiFi binds it a moment later; should another process take it in
     * between, NiFi's start fails and says so.
     */
    static int freePort() throws IOException {
        return freePorts(1).get(0);
    }

    /** {@code count} different TCP ports free on the loopback interface now (see {@link #freePort()}). */
    static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                // Held open together, so that no port is handed out twice.
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }
}
