package dev.nifigeoparquet.it;

import java.nio.file.Path;

/** The NiFi of this test run, and the ways the tests talk to it. Closing it stops NiFi. */
public final class RunningNiFi implements AutoCloseable {

    private final NiFiProcess process;
    private final NiFiApi api;

    RunningNiFi(NiFiProcess process) {
        this.process = process;
        this.api = new NiFiApi(process.api());
    }

    NiFiApi api() {
        return api;
    }

    Path appLog() {
        return process.appLog();
    }

    @Override
    public void close() {
        process.close();
    }
}
