package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.ArchiveException;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.services.GeoParquetArchiveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
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
     * Whether an engine failure is worth retrying, by its type ({@link ArchiveException} says what each means). The
     * archive is unchanged by a failed operation either way (the commit protocol commits all or nothing); the question
     * is only whether the same input may succeed later. True for what goes away by itself: a commit lost to another
     * writer, a partition busy with another writer's transaction, a publish the next writer completes, a failure of the
     * storage. False for what does not: input the archive refuses, corrupt data in the archive, and anything else (a
     * value that cannot be stored, a fault of the code).
     */
    static boolean isTransient(Throwable failure) {
        return switch (failure) {
            case RejectedInputException rejected -> false;
            case CorruptDataException corrupt -> false;
            case ArchiveException conflictOrUnpublished -> true;
            case UncheckedIOException unchecked -> isTransient(unchecked.getCause());
            case IOException storage -> true;
            default -> false;
        };
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

    /** A new SHA-256 digest, which delta ids are made of. */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime provides SHA-256", e);
        }
    }
}
