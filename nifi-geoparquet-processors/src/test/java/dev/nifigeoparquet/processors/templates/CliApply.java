package dev.nifigeoparquet.processors.templates;

import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.cli.GeoParquetArchiveCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs {@code geoparquet-archive apply} (the command-line tool's own entry point, as {@code bin/geoparquet-archive}
 * runs it) on an archive, so a flow's result can be compared with the tool's.
 */
final class CliApply {

    private CliApply() {}

    /**
     * Applies a delta file with the tool; fails with the tool's one-line reason when it exits non-zero.
     *
     * @return the cells whose rows the command changed
     */
    static List<String> apply(Path root, Path deltaFile, WriteMode mode, String deleteMarker) throws IOException {
        ArchiveSnapshot before = ArchiveSnapshot.of(root);
        List<String> args = new ArrayList<>(List.of(
                "apply",
                "--archive",
                root.toString(),
                "--mode",
                mode.name().toLowerCase(Locale.ROOT),
                "--delta",
                deltaFile.toString(),
                "--quiet"));
        if (deleteMarker != null) {
            args.add("--delete-field");
            args.add(deleteMarker);
        }
        StringWriter err = new StringWriter();
        int exit = GeoParquetArchiveCli.run(
                args.toArray(String[]::new), new PrintWriter(new StringWriter()), new PrintWriter(err, true));
        if (exit != 0) {
            throw new IOException("geoparquet-archive " + String.join(" ", args) + " exited " + exit + ": "
                    + err.toString().strip());
        }
        ArchiveSnapshot after = ArchiveSnapshot.of(root);
        Set<String> changed = new TreeSet<>();
        Set<String> cells = new TreeSet<>(before.rows().keySet());
        cells.addAll(after.rows().keySet());
        for (String cell : cells) {
            if (!Objects.equals(before.rows().get(cell), after.rows().get(cell))) {
                changed.add(cell);
            }
        }
        return List.copyOf(changed);
    }
}
