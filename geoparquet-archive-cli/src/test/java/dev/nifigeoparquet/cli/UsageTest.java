package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Help on every command, and exit code 2 with one line on stderr for usage and input errors. */
class UsageTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"init", "adopt", "apply", "compact", "verify", "demo"})
    void everyCommandHasHelp(String command) {
        Cli.Result help = Cli.run(command, "--help").expect(0);
        assertTrue(
                help.out().contains("Usage: geoparquet-archive " + command)
                        && help.out().contains("--help"),
                help.out());
        assertEquals("", help.err());
    }

    @Test
    void topLevelHelpListsEveryCommand() {
        String help = Cli.run("--help").expect(0).out();
        for (String command : new String[] {"init", "adopt", "apply", "compact", "verify", "demo"}) {
            assertTrue(help.contains("  " + command + " "), command + " in\n" + help);
        }
        assertTrue(help.contains("Exit codes: 0 success, 1 a check or operation failed, 2 usage or input error."));
    }

    @Test
    void usageErrorsExitTwoWithOneLine() {
        assertTrue(Cli.run().expect(2).reason().contains("a command is required"));
        assertTrue(Cli.run("frobnicate").expect(2).reason().contains("frobnicate"));
        String missing = Cli.run("apply", "--archive", temp).expect(2).reason();
        assertTrue(
                missing.startsWith("geoparquet-archive apply: Missing required options") && missing.contains("--help"),
                missing);
        String badMode = Cli.run("apply", "--archive", temp, "--mode", "merge", "--delta", "x.parquet")
                .expect(2)
                .reason();
        assertTrue(badMode.contains("merge"), badMode);
        assertTrue(Cli.run("verify", "--archive", temp, "--expect-count", "many")
                .expect(2)
                .reason()
                .contains("many"));
    }

    @Test
    void aMissingArchiveIsAnInputError() {
        String reason = Cli.run("verify", "--archive", temp.resolve("nowhere"))
                .expect(2)
                .reason();
        assertTrue(reason.contains("nowhere") && reason.contains("does not exist"), reason);
        String noDescriptor = Cli.run("compact", "--archive", temp).expect(2).reason();
        assertTrue(
                noDescriptor.startsWith("geoparquet-archive compact: ") && noDescriptor.contains("adopt"),
                noDescriptor);
    }
}
