package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.Problem;
import dev.nifigeoparquet.archive.verify.ProblemKind;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code verify}: checks every live file against the archive's canonical metadata and reconciles the row count. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Verifies every file's geo metadata, schema, counts and keys; reconciles the row count.",
        description = {
            "Checks that every live file carries the canonical 'geo' block and footer byte for byte, the archive's schema "
                    + "and CRS, the row counts its commit records, that no feature key occurs twice, and optionally that the total "
                    + "row count is the expected one (baseline + inserted - deleted). With --check-placement, also that every row "
                    + "(or a sample) lies in the partition of its geometry's H3 cell.",
            "Exit 0 when consistent, 1 when a problem was found."
        })
final class VerifyCommand extends ArchiveCommand {

    /** The kinds of problem that mean a file's metadata differs from its siblings'. */
    static final Set<ProblemKind> GEO_KINDS =
            EnumSet.of(ProblemKind.GEO_MISMATCH, ProblemKind.FOOTER_MISMATCH, ProblemKind.CRS_MISMATCH);

    @Option(names = "--archive", required = true, paramLabel = "DIR", description = "The archive.")
    Path archive;

    @Option(names = "--expect-count", paramLabel = "N", description = "The total row count the archive must hold.")
    Long expectedCount;

    @Option(
            names = "--cell",
            paramLabel = "CELL",
            split = ",",
            description = "Verify only these partitions (default: all).")
    List<String> cells = List.of();

    @Option(
            names = "--check-placement",
            arity = "0..1",
            paramLabel = "none|all|N",
            fallbackValue = "all",
            description =
                    "Also key rows again and report those outside the partition of their geometry's cell (MISPLACED_ROW) "
                            + "or without a keyable geometry (UNKEYABLE_ROW): every row (all, the default), a sample of about N rows "
                            + "spread evenly, or none (as without the option), as VerifyGeoMetadata's Placement Check takes them.")
    String checkPlacement;

    @Option(
            names = "--json",
            description = "Print one JSON object on stdout: consistent, crs, partitions, files, rows, problems, ...")
    boolean json;

    @Override
    public Integer call() throws Exception {
        GeoParquetArchive opened = openArchive(archive);
        if (expectedCount != null && expectedCount < 0) {
            throw new InputException("--expect-count must not be negative, was " + expectedCount);
        }
        cells.forEach(opened::requireCell);
        VerifyOptions options = new VerifyOptions(
                cells,
                expectedCount == null ? OptionalLong.empty() : OptionalLong.of(expectedCount),
                VerifyOptions.DEFAULT_MAX_DUPLICATE_KEYS_REPORTED,
                placement(checkPlacement),
                List.of());
        progress().note("verifying " + archive + " ...");
        VerificationReport report = new ArchiveVerifier(opened).verify(options);
        if (json) {
            out().println(report.toJsonString());
        } else {
            printSummary(report);
        }
        if (!report.consistent()) {
            if (!json) {
                err().println("verify: " + report.problems().size() + " problems found, first: "
                        + report.problems().get(0));
            }
            return ExitCodes.CHECK_FAILED;
        }
        return ExitCodes.OK;
    }

    static VerifyOptions.Placement placement(String value) {
        try {
            return VerifyOptions.Placement.parse(value);
        } catch (RejectedInputException refused) {
            throw new InputException("--check-placement: " + refused.getMessage());
        }
    }

    private void printSummary(VerificationReport report) {
        boolean geoConsistent = report.problems().stream().noneMatch(problem -> GEO_KINDS.contains(problem.kind()));
        out().printf("geo consistent: %s%n", geoConsistent ? "True" : "False");
        out().printf("crs: %s%n", report.crs());
        out().printf("partitions: %d%n", report.partitions());
        out().printf("files: %d%n", report.files());
        out().printf("rows: %d%n", report.rows());
        report.expectedRows()
                .ifPresent(expected -> out().printf(
                                "expected rows: %d (%s)%n",
                                expected, expected == report.rows() ? "reconciled" : "MISMATCH"));
        report.rowsPlaced().ifPresent(placed -> out().printf("rows placement-checked: %d%n", placed));
        out().printf("known variations: %d%n", report.knownVariations().size());
        out().printf("problems: %d%n", report.problems().size());
        for (Problem problem : report.problems()) {
            out().printf(
                            "  %s %s: %s%n",
                            problem.kind(), problem.file(), GeoParquetArchiveCli.oneLine(problem.message()));
        }
        out().printf("consistent: %s%n", report.consistent());
    }
}
