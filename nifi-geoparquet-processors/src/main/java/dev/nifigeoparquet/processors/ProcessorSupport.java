package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.ArchiveException;
import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.services.GeoParquetArchiveService;
import java.util.ArrayList;
import java.util.List;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.processor.util.StandardValidators;

/**
 * What the archive processors share: the properties they name alike, the archive of their service, the partitions a
 * FlowFile names, how an engine failure is routed, and the provenance and hashing details. Attribute names are
 * {@link GeoParquetAttributes}.
 */
final class ProcessorSupport {

    /** The name of every processor's archive service property, as flows refer to it. */
    static final String ARCHIVE_SERVICE_NAME = "GeoParquet Archive Service";

    /** The default of the Partitions properties: the partitions an upsert touched, or the FlowFile's cell. */
    static final String PARTITIONS_DEFAULT =
            "${" + GeoParquetAttributes.PARTITIONS_TOUCHED + ":replaceEmpty(${" + GeoParquetAttributes.H3_CELL + "})}";

    private ProcessorSupport() {}

    /** The GeoParquet Archive Service property; {@code description} says what the processor does with the archive. */
    static PropertyDescriptor archiveServiceProperty(String description, boolean required) {
        return new PropertyDescriptor.Builder()
                .name(ARCHIVE_SERVICE_NAME)
                .description(description)
                .identifiesControllerService(GeoParquetArchiveService.class)
                .required(required)
                .build();
    }

    /** The Partitions property of a processor working on the partitions each FlowFile names ({@link #partitions}). */
    static PropertyDescriptor partitionsProperty(String description) {
        return new PropertyDescriptor.Builder()
                .name("Partitions")
                .description(description)
                .required(true)
                .defaultValue(PARTITIONS_DEFAULT)
                .expressionLanguageSupported(ExpressionLanguageScope.FLOWFILE_ATTRIBUTES)
                .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
                .build();
    }

    /** The archive of the processor's {@linkplain #archiveServiceProperty service} property {@code service}. */
    static GeoParquetArchive archive(PropertyContext context, PropertyDescriptor service) {
        return context.getProperty(service)
                .asControllerService(GeoParquetArchiveService.class)
                .archive();
    }

    /**
     * The archive, for Verify Properties: null when the service is not usable, after adding the failed step that says
     * why to {@code results}.
     */
    static GeoParquetArchive archiveToVerify(
            PropertyContext context, PropertyDescriptor service, List<ConfigVerificationResult> results) {
        try {
            return archive(context, service);
        } catch (RuntimeException e) {
            results.add(
                    result("Archive", Outcome.FAILED, "The GeoParquet Archive Service is not usable: " + describe(e)));
            return null;
        }
    }

    static ConfigVerificationResult result(String step, Outcome outcome, String explanation) {
        return new ConfigVerificationResult.Builder()
                .verificationStepName(step)
                .outcome(outcome)
                .explanation(explanation)
                .build();
    }

    /**
     * The partitions a comma-separated list of cells names, each validated as a canonical cell of the archive's
     * resolution before any path is built from it.
     *
     * @throws RejectedInputException when a cell is not a partition of the archive, or none is named
     */
    static List<String> partitions(GeoParquetArchive archive, String named) {
        List<String> cells = new ArrayList<>();
        for (String cell : named == null ? new String[0] : named.split(",")) {
            if (!cell.isBlank()) {
                cells.add(archive.requireCell(cell.strip()));
            }
        }
        if (cells.isEmpty()) {
            throw new RejectedInputException("Partitions evaluated to no cell");
        }
        return cells;
    }

    /**
     * An engine failure as a processor answers it, by its {@link FailureKind} (the engine's one classification): a
     * {@linkplain FailureKind#TRANSIENT transient} one is retried later and the processor yields; {@linkplain
     * FailureKind#BAD_INPUT bad input} goes to failure; one that needs an {@linkplain FailureKind#OPERATOR_ACTION
     * operator} goes to failure with what to do, and the processor yields so that it does not spin on the next
     * FlowFiles meanwhile. The archive is unchanged by a failed operation in every case (the commit protocol commits all
     * or nothing).
     *
     * @param kind   the failure's kind
     * @param reason what failed and why, with the operator's advice for {@link FailureKind#OPERATOR_ACTION}: the
     *               {@value GeoParquetAttributes#ERROR_MESSAGE} attribute and the bulletin
     */
    record Failure(FailureKind kind, String reason) {

        /** The failure of {@code what} ("Partition 85... was not changed") because of {@code cause}. */
        static Failure of(String what, Throwable cause) {
            return of(FailureKind.of(cause), what, cause);
        }

        /** The failure of {@code what}, of a kind the caller knows (input it could not read is bad input). */
        static Failure of(FailureKind kind, String what, Throwable cause) {
            String advice = kind == FailureKind.OPERATOR_ACTION ? FailureKind.adviceFor(cause) : null;
            return new Failure(kind, what + ": " + describe(cause) + (advice == null ? "" : ". " + advice));
        }

        /** Whether the FlowFile goes to retry rather than failure. */
        boolean retried() {
            return kind == FailureKind.TRANSIENT;
        }

        /** Whether the processor backs off: the storage or the archive, not the FlowFile, is the trouble. */
        boolean yields() {
            return kind != FailureKind.BAD_INPUT;
        }

        /**
         * Logs the failure once, as a bulletin at the level its kind deserves: a warning without stack trace for a
         * transient one (it is retried, nobody needs to act), an error for the others, with the stack trace only for an
         * operator's failure of no known type.
         */
        void log(ComponentLog log, Object subject, String routedTo, Throwable cause) {
            switch (kind) {
                case TRANSIENT -> log.warn("{}: {}; routing to {}", subject, reason, routedTo);
                case BAD_INPUT -> log.error("{}: {}; routing to {}", subject, reason, routedTo);
                case OPERATOR_ACTION -> {
                    if (cause instanceof ArchiveException) {
                        log.error("{}: {}; routing to {}", subject, reason, routedTo);
                    } else {
                        log.error("{}: {}; routing to {}", subject, reason, routedTo, cause);
                    }
                }
            }
        }
    }

    /** The message to show an operator: the exception's, or its type when it has none. */
    static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }

    /** The provenance transit URI of a path of the archive: a file: URI for a local archive, the storage's otherwise. */
    static String transitUri(GeoParquetArchive archive, String path) {
        if (archive.storage() instanceof LocalArchiveStorage local) {
            return local.root().resolve(path).toUri().toString();
        }
        return archive.storage().describe() + "/" + path;
    }
}
