package dev.nifigeoparquet.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * NiFi as a child process: {@code org.apache.nifi.NiFi} started directly, with the JVM options NiFi's bootstrap
 * would pass (the bootstrap is not among the artifacts the build can fetch), and stopped by its process id in every case: by
 * {@link #close()}, and by a shutdown hook should the test JVM end first. Its descendants are stopped with it.
 */
final class NiFiProcess implements AutoCloseable {

    /** How long NiFi may take to answer on its REST API; a cold start takes about 45 s on 2 cores. */
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

    private static final Duration GRACEFUL_STOP = Duration.ofSeconds(20);
    private static final String APPLICATION_CLASS = "org.apache.nifi.NiFi";
    /** Lines of NiFi's log that mean it will never come up, so waiting on is pointless. */
    private static final List<String> FATAL_LOG_LINES =
            List.of("Starting NiFi failed", "Failed to start Server", "Start Server failed");

    private final Process process;
    private final NiFiHome home;
    private final URI api;
    private final Thread shutdownHook;

    private NiFiProcess(Process process, NiFiHome home) {
        this.process = process;
        this.home = home;
        this.api = URI.create("http://127.0.0.1:" + home.httpPort() + "/nifi-api/");
        this.shutdownHook = new Thread(this::kill, "stop NiFi " + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Assembles a home at {@code homeDirectory} over the runtime in {@code lib}, starts NiFi and waits for its REST API. */
    static NiFiProcess start(Path homeDirectory, Path lib) throws IOException, InterruptedException {
        stopLeftover(homeDirectory);
        NiFiHome home = NiFiHome.create(homeDirectory, lib, freePort());
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(
                "-Xms256m",
                "-Xmx1g",
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
            // parquet-java hashes through sun.misc.Unsafe; the README's advice for conf/bootstrap.conf.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add(APPLICATION_CLASS);
        Process process = new ProcessBuilder(command)
                .directory(home.directory().toFile())
                .redirectErrorStream(true)
                .redirectOutput(home.directory().resolve("logs/nifi-stdout.log").toFile())
                .start();
        Files.writeString(pidFile(homeDirectory), String.valueOf(process.pid()));
        NiFiProcess nifi = new NiFiProcess(process, home);
        try {
            nifi.awaitApi();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            nifi.close();
            throw e;
        }
        return nifi;
    }

    URI api() {
        return api;
    }

    long pid() {
        return process.pid();
    }

    Path appLog() {
        return home.appLog();
    }

    private void awaitApi() throws IOException, InterruptedException {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest about = HttpRequest.newBuilder(api.resolve("flow/about"))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("NiFi exited with " + process.exitValue()
                        + " before its API answered; see " + home.directory().resolve("logs"));
            }
            String fatal = fatalLogLine();
            if (fatal != null) {
                throw new IllegalStateException("NiFi did not start: " + fatal + " (see " + home.appLog() + ")");
            }
            try {
                if (client.send(about, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(
                "NiFi's API did not answer within " + STARTUP_TIMEOUT + "; see " + home.appLog());
    }

    private String fatalLogLine() throws IOException {
        if (!Files.exists(home.appLog())) {
            return null;
        }
        try (var lines = Files.lines(home.appLog())) {
            return lines.filter(line -> FATAL_LOG_LINES.stream().anyMatch(line::contains))
                    .findFirst()
                    .orElse(null);
        } catch (UncheckedIOException e) {
            return null; // a line half written; look again next time
        }
    }

    /** Stops NiFi: a graceful shutdown first, then by force, its descendants included. */
    @Override
    public void close() {
        kill();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
    }

    private void kill() {
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
    private static void stopLeftover(Path homeDirectory) throws IOException {
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

    private static int freePort() throws IOException {
        // Free now; NiFi binds it a moment later. Should another process take it in between, NiFi's start fails and
        // says so.
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
