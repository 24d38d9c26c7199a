package dev.nifigeoparquet.archive.format;

import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Every path of the archive format, in one place (see docs/archive-format.md).
 *
 * <pre>
 * &lt;root&gt;/h3_cell=&lt;cell&gt;/part-&lt;uuid&gt;.parquet                 live data files (what plain readers read)
 * &lt;root&gt;/_geoparquet_archive/descriptor.json                     the archive descriptor
 * &lt;root&gt;/_geoparquet_archive/log/&lt;cell&gt;/&lt;version:020d&gt;.json      a partition's commit entries
 * &lt;root&gt;/_geoparquet_archive/staging/&lt;cell&gt;/&lt;name&gt;.staged       data files written but not yet published
 * &lt;root&gt;/_geoparquet_archive/index/index-&lt;nn&gt;/&lt;name&gt;.keys       key-index shard files (Parquet content)
 * &lt;root&gt;/_geoparquet_archive/txn/&lt;id&gt;.json                       decisions of multi-partition transactions
 * </pre>
 *
 * A "partition" in the protocol is either a data partition (named by its H3 cell) or a key-index shard (named
 * {@code index-<nn>}); both have a log, a staging directory and a directory of live files.
 *
 * The metadata directory starts with '_' (ignored by pyarrow, Spark and Hive-style readers) and nothing inside
 * it ends in ".parquet", so a {@code <root>/*}{@code /*.parquet} glob never matches it.
 */
public final class ArchiveLayout {

    public static final String PARTITION_COLUMN = "h3_cell";
    public static final String PARTITION_PREFIX = PARTITION_COLUMN + "=";
    public static final String METADATA_DIRECTORY = "_geoparquet_archive";
    public static final String DESCRIPTOR = METADATA_DIRECTORY + "/descriptor.json";
    public static final String LOG_DIRECTORY = METADATA_DIRECTORY + "/log";
    public static final String STAGING_DIRECTORY = METADATA_DIRECTORY + "/staging";
    public static final String DATA_FILE_SUFFIX = ".parquet";
    public static final String STAGED_SUFFIX = ".staged";
    /** Staged content that will replace a live file of the same partition under that file's name. */
    public static final String REPLACEMENT_SUFFIX = ".replacement";

    public static final String INDEX_DIRECTORY = METADATA_DIRECTORY + "/index";
    public static final String INDEX_FILE_SUFFIX = ".keys";
    public static final String TRANSACTION_DIRECTORY = METADATA_DIRECTORY + "/txn";
    /** Leases that keep whole-archive work (adoption, sweeps) to one process at a time. */
    public static final String LEASE_DIRECTORY = METADATA_DIRECTORY + "/leases";

    private static final Pattern LEASE_NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");
    private static final String INDEX_SHARD_PREFIX = "index-";

    private static final String LOG_ENTRY_SUFFIX = ".json";
    private static final Pattern LOG_ENTRY_NAME = Pattern.compile("\\d{20}\\.json");
    /** Path safety only: a cell reaches a path only after the keying rules validated it as an H3 cell. */
    private static final Pattern PATH_SAFE_CELL = Pattern.compile("[0-9a-f]{15}");

    private static final Pattern INDEX_SHARD = Pattern.compile("index-([0-9a-f]{2}|journal)");
    /** Named once: a lookup names the shard of every key it is given, and formatting each name was a tenth of it. */
    private static final String[] INDEX_SHARD_NAMES = IntStream.rangeClosed(0, 0xff)
            .mapToObj(shard -> INDEX_SHARD_PREFIX + String.format("%02x", shard))
            .toArray(String[]::new);
    /** The key index's journal: every operation's index records land here first, in one small commit. */
    public static final String INDEX_JOURNAL = "index-journal";

    private static final Pattern DATA_FILE_NAME = Pattern.compile("[A-Za-z0-9._=-]+\\.(parquet|keys)");
    /** A UUID in its lower-case 36-character form, as section 5.9 names a transaction. */
    private static final Pattern TRANSACTION_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private ArchiveLayout() {}

    /** Where a partition's live files are: {@code h3_cell=<cell>}, or the index directory for a key-index shard. */
    public static String partitionDirectory(String cell) {
        String id = pathSafe(cell);
        return isIndexShard(id) ? INDEX_DIRECTORY + "/" + id : PARTITION_PREFIX + id;
    }

    /** The protocol name of key-index shard {@code shard}. */
    public static String indexShard(int shard) {
        if (shard < 0 || shard > 0xff) {
            throw new IllegalArgumentException("Index shard " + shard + " is outside 0..255");
        }
        return INDEX_SHARD_NAMES[shard];
    }

    public static boolean isIndexShard(String id) {
        return id != null && INDEX_SHARD.matcher(id).matches();
    }

    /** A fresh, unique key-index file name; the content is Parquet but the name never ends in ".parquet". */
    public static String newIndexFileName() {
        return "part-" + UUID.randomUUID() + INDEX_FILE_SUFFIX;
    }

    /** A new transaction id. */
    public static String newTransactionId() {
        return UUID.randomUUID().toString();
    }

    /** Whether {@code text} has the form of a transaction id. */
    public static boolean isTransactionId(String text) {
        return text != null && TRANSACTION_ID.matcher(text).matches();
    }

    public static String transactionDecision(String transactionId) {
        if (!isTransactionId(transactionId)) {
            throw new IllegalArgumentException("Not a transaction id: '" + transactionId + "'");
        }
        return TRANSACTION_DIRECTORY + "/" + transactionId + ".json";
    }

    public static String dataFile(String cell, String fileName) {
        return partitionDirectory(cell) + "/" + requireDataFileName(fileName);
    }

    public static String logDirectory(String cell) {
        return LOG_DIRECTORY + "/" + pathSafe(cell);
    }

    public static String logEntry(String cell, long version) {
        return logDirectory(cell) + "/" + String.format("%020d", version) + LOG_ENTRY_SUFFIX;
    }

    /** The directory of a lease's records. */
    public static String leaseDirectory(String lease) {
        if (lease == null || !LEASE_NAME.matcher(lease).matches()) {
            throw new IllegalArgumentException("Not a lease name: '" + lease + "'");
        }
        return LEASE_DIRECTORY + "/" + lease;
    }

    /** Record {@code version} of a lease. */
    public static String leaseRecord(String lease, long version) {
        return leaseDirectory(lease) + "/" + String.format("%020d", version) + LOG_ENTRY_SUFFIX;
    }

    /** The version of a lease record's or commit entry's file name; -1 for any other name. */
    public static long versionOfRecordName(String name) {
        return LOG_ENTRY_NAME.matcher(name).matches()
                ? Long.parseLong(name.substring(0, name.length() - LOG_ENTRY_SUFFIX.length()))
                : -1;
    }

    public static String stagingDirectory(String cell) {
        return STAGING_DIRECTORY + "/" + pathSafe(cell);
    }

    public static String stagedFile(String cell, String fileName) {
        return stagingDirectory(cell) + "/" + requireDataFileName(fileName) + STAGED_SUFFIX;
    }

    /** Where content staged as {@code stagedAs} waits until it replaces a live file of the partition. */
    public static String replacementFile(String cell, String stagedAs) {
        return stagingDirectory(cell) + "/" + requireDataFileName(stagedAs) + REPLACEMENT_SUFFIX;
    }

    /** A fresh, unique data file name; unique names mean publishing never needs to replace anything. */
    public static String newDataFileName() {
        return "part-" + UUID.randomUUID() + DATA_FILE_SUFFIX;
    }

    /** The version a log entry name encodes, or -1 when the name is not a log entry (temporary files, debris). */
    public static long logEntryVersion(String name) {
        if (!LOG_ENTRY_NAME.matcher(name).matches()) {
            return -1;
        }
        return Long.parseLong(name.substring(0, name.length() - LOG_ENTRY_SUFFIX.length()));
    }

    /** The cell of a partition directory name ("h3_cell=..."), or null when the name is not one. */
    public static String cellOfPartitionDirectory(String directoryName) {
        return directoryName.startsWith(PARTITION_PREFIX) ? directoryName.substring(PARTITION_PREFIX.length()) : null;
    }

    public static boolean isDataFileName(String name) {
        return DATA_FILE_NAME.matcher(name).matches();
    }

    private static String pathSafe(String cell) {
        if (cell == null
                || !(PATH_SAFE_CELL.matcher(cell).matches()
                        || INDEX_SHARD.matcher(cell).matches())) {
            throw new IllegalArgumentException(
                    "Not a canonical H3 cell name, refused as a path component: '" + cell + "'");
        }
        return cell;
    }

    private static String requireDataFileName(String fileName) {
        if (fileName == null || !isDataFileName(fileName) || fileName.startsWith(".")) {
            throw new IllegalArgumentException("Not a data file name: '" + fileName + "'");
        }
        return fileName;
    }
}
