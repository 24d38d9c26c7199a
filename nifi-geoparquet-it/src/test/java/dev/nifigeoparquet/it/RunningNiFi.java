package dev.nifigeoparquet.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The standalone NiFi of this test run, and the ways the tests talk to it. Closing it stops NiFi.
 *
 * <p>{@link #kill()} and {@link #restart()} crash it and bring it back on the same home, flow, repositories and port, so
 * that {@link #api()} keeps working across the restart.
 */
public final class RunningNiFi implements AutoCloseable {

    private final NiFiHome home;
    private final NiFiApi api;
    private volatile NiFiProcess process;

    RunningNiFi(NiFiHome home, NiFiProcess process) {
        this.home = home;
        this.process = process;
        this.api = new NiFiApi(process.api());
    }

    NiFiApi api() {
        return api;
    }

    Path appLog() {
        return home.appLog();
    }

    Path home() {
        return home.directory();
    }

    /** Whether NiFi's process is running (it is not between {@link #kill()} and {@link #restart()}). */
    boolean isRunning() {
        return process.isAlive();
    }

    /**
     * NiFi's live threads by name, each with its stack as a thread dump prints it ({@code jcmd Thread.print}, of the JDK
     * running the tests).
     */
    Map<String, String> threads() throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        String.valueOf(process.pid()),
                        "Thread.print")
                .redirectErrorStream(true)
                .start();
        String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (jcmd.waitFor() != 0) {
            throw new IOException("jcmd could not dump NiFi's threads: " + dump);
        }
        // Each thread's entry starts with its quoted name and ends at a blank line.
        Map<String, String> threads = new LinkedHashMap<>();
        for (String entry : dump.split("\\R\\R", -1)) {
            if (entry.startsWith("\"")) {
                threads.put(entry.substring(1, entry.indexOf('"', 1)), entry);
            }
        }
        return threads;
    }

    /** Kills NiFi with SIGKILL, in the middle of whatever it is doing; see {@link NiFiProcess#kill()}. */
    void kill() throws InterruptedException {
        process.kill();
    }

    /** Starts NiFi again on the same home (stopping it first should it still run) and waits for its REST API. */
    void restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            process.close();
        }
        process = NiFiProcess.start(home);
    }

    @Override
    public void close() {
        process.close();
    }
}
