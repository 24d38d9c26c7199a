package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** Runs the tool in-process, as {@code main} would, capturing its streams. */
final class Cli {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Cli() {}

    record Result(int exitCode, String out, String err) {

        List<String> errLines() {
            return err.lines().filter(line -> !line.isBlank()).toList();
        }

        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new UncheckedIOException("stdout is not one JSON object: " + out, e);
            }
        }

        /** Asserts the exit code, showing both streams when it differs. */
        Result expect(int code) {
            assertEquals(code, exitCode, () -> "exit code; stdout:\n" + out + "\nstderr:\n" + err);
            return this;
        }

        /** The single stderr line of a failure. */
        String reason() {
            List<String> lines = errLines();
            assertEquals(1, lines.size(), () -> "exactly one line on stderr, got:\n" + err);
            return lines.get(0);
        }
    }

    static Result run(Object... args) {
        String[] arguments = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            arguments[i] = String.valueOf(args[i]);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GeoParquetArchiveCli.run(arguments, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }
}
