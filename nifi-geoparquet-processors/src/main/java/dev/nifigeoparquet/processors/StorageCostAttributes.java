package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.storage.StorageCost;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The FlowFile attributes that say what an operation cost on the archive's storage, in the billing classes of an
 * object store. On a local root every count is 0: the local filesystem bills no requests.
 *
 * <p>Each processor writes them under its own prefix (the names below follow it), so a FlowFile that passes the
 * upsert, the compaction and the verification of its partition keeps the cost of each.
 */
final class StorageCostAttributes {

    static final String PUT_COUNT = "put.count";
    static final String GET_COUNT = "get.count";
    static final String LIST_COUNT = "list.count";
    static final String DELETE_COUNT = "delete.count";
    static final String BYTES_UPLOADED = "bytes.uploaded";
    static final String BYTES_DOWNLOADED = "bytes.downloaded";
    static final String OBJECTS_DELETED = "objects.deleted";
    static final String YOUNGEST_DELETED_AGE = "deleted.youngest.age.millis";

    static final String PUT_COUNT_DESCRIPTION =
            "PUT-class requests to the archive's object store (PutObject, the parts of a"
                    + " multipart upload, CopyObject), refused conditional writes and retries included; 0 on a local root";
    static final String GET_COUNT_DESCRIPTION = "GET and HEAD requests; 0 on a local root";
    static final String LIST_COUNT_DESCRIPTION = "LIST requests; 0 on a local root";
    static final String DELETE_COUNT_DESCRIPTION =
            "DELETE requests (DeleteObject, AbortMultipartUpload); 0 on a local root";
    static final String BYTES_UPLOADED_DESCRIPTION = "Bytes sent in request bodies; 0 on a local root";
    static final String BYTES_DOWNLOADED_DESCRIPTION = "Bytes received in response bodies; 0 on a local root";
    static final String OBJECTS_DELETED_DESCRIPTION =
            "Objects deleted: superseded data files, pruned commit entries, staging records; 0 on a local root";
    static final String YOUNGEST_DELETED_AGE_DESCRIPTION =
            "Age in milliseconds of the youngest object deleted whose age was known;"
                    + " compare it with a cold storage class's minimum storage duration to see early-deletion charges. Absent when no"
                    + " deleted object's age was known";

    private StorageCostAttributes() {}

    /** The attributes of one operation's cost, each name starting with {@code prefix}. */
    static Map<String, String> of(String prefix, StorageCost cost) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put(prefix + PUT_COUNT, String.valueOf(cost.puts()));
        attributes.put(prefix + GET_COUNT, String.valueOf(cost.gets()));
        attributes.put(prefix + LIST_COUNT, String.valueOf(cost.lists()));
        attributes.put(prefix + DELETE_COUNT, String.valueOf(cost.deletes()));
        attributes.put(prefix + BYTES_UPLOADED, String.valueOf(cost.bytesUploaded()));
        attributes.put(prefix + BYTES_DOWNLOADED, String.valueOf(cost.bytesDownloaded()));
        attributes.put(prefix + OBJECTS_DELETED, String.valueOf(cost.deleted().size()));
        cost.deleted().stream()
                .map(StorageCost.DeletedObject::age)
                .filter(Objects::nonNull)
                .min(Duration::compareTo)
                .ifPresent(
                        youngest -> attributes.put(prefix + YOUNGEST_DELETED_AGE, String.valueOf(youngest.toMillis())));
        return attributes;
    }
}
