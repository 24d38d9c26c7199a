package dev.nifigeoparquet.archive.s3;

import dev.nifigeoparquet.archive.storage.AbandonableStream;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.StorageClass;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Streams one object to S3. Up to one part it is a single PUT (with If-None-Match: *, since a data file never
 * replaces anything) when the stream is closed; beyond it, a multipart upload whose parts are sent on the writing
 * thread as the buffer fills and which is completed on close (the object appears whole at that moment, or not at
 * all). A failure after the upload began aborts it, so no parts are left billed; an upload left behind by a process
 * that died is removed by the bucket's AbortIncompleteMultipartUpload lifecycle rule.
 */
final class S3UploadStream extends OutputStream implements AbandonableStream {

    private final S3ArchiveStorage storage;
    private final String path;
    private final StorageClass storageClass;
    private final byte[] part;
    private int filled;
    private String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();
    private boolean closed;
    private boolean failed;

    S3UploadStream(S3ArchiveStorage storage, String path, StorageClass storageClass, int partSize) {
        this.storage = storage;
        this.path = path;
        this.storageClass = storageClass;
        this.part = new byte[partSize];
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        refuseIfClosed();
        while (length > 0) {
            int n = Math.min(length, part.length - filled);
            System.arraycopy(bytes, offset, part, filled, n);
            filled += n;
            offset += n;
            length -= n;
            if (filled == part.length) {
                sendPart();
            }
        }
    }

    private void sendPart() throws IOException {
        try {
            if (uploadId == null) {
                CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder()
                        .bucket(storage.location().bucket())
                        .key(storage.location().key(path));
                if (storageClass != null) {
                    create.storageClass(storageClass);
                }
                uploadId = storage.call(
                                "createStaged " + path, () -> storage.client().createMultipartUpload(create.build()))
                        .uploadId();
            }
            int number = parts.size() + 1;
            byte[] body = Arrays.copyOf(part, filled);
            UploadPartResponse response = storage.call(
                    "upload part " + number + " of " + path,
                    () -> storage.client()
                            .uploadPart(
                                    b -> b.bucket(storage.location().bucket())
                                            .key(storage.location().key(path))
                                            .uploadId(uploadId)
                                            .partNumber(number),
                                    RequestBody.fromBytes(body)));
            StorageMeter.recordUploaded(body.length);
            parts.add(CompletedPart.builder()
                    .partNumber(number)
                    .eTag(response.eTag())
                    .build());
            filled = 0;
        } catch (IOException | RuntimeException e) {
            abort(e);
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (failed) {
            return;
        }
        try {
            if (uploadId == null) {
                storage.putIfAbsent(path, Arrays.copyOf(part, filled), storageClass);
            } else {
                if (filled > 0 || parts.isEmpty()) {
                    sendPart();
                }
                storage.call(
                        "complete upload of " + path,
                        () -> storage.client()
                                .completeMultipartUpload(
                                        b -> b.bucket(storage.location().bucket())
                                                .key(storage.location().key(path))
                                                .uploadId(uploadId)
                                                .multipartUpload(CompletedMultipartUpload.builder()
                                                        .parts(parts)
                                                        .build())));
            }
            storage.remember(path, Instant.now());
        } catch (IOException | RuntimeException e) {
            abort(e);
            throw e;
        }
    }

    /**
     * Gives the upload up, as a writer that abandons its file does: the multipart upload, if one began, is aborted
     * rather than completed, so no partial object appears at the final key and no parts stay billed.
     */
    @Override
    public void abandon() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        failed = true;
        Exception abortFailure = abortUpload();
        if (abortFailure != null) {
            throw new IOException(
                    "Could not abort the upload of " + storage.describe() + "/" + path
                            + "; the bucket's AbortIncompleteMultipartUpload rule removes it",
                    abortFailure);
        }
    }

    /** Aborts the multipart upload so its parts stop being billed; a failure to abort is attached to the original one. */
    private void abort(Exception cause) {
        failed = true;
        Exception abortFailure = abortUpload();
        if (abortFailure != null) {
            cause.addSuppressed(abortFailure);
        }
    }

    /** Aborts the upload if one began; returns the failure to abort, or null. */
    private Exception abortUpload() {
        if (uploadId == null) {
            return null;
        }
        String id = uploadId;
        uploadId = null;
        try {
            storage.call(
                    "abort upload of " + path,
                    () -> storage.client()
                            .abortMultipartUpload(
                                    b -> b.bucket(storage.location().bucket())
                                            .key(storage.location().key(path))
                                            .uploadId(id)));
            return null;
        } catch (IOException | RuntimeException abortFailure) {
            return abortFailure;
        }
    }

    private void refuseIfClosed() throws IOException {
        if (closed || failed) {
            throw new IOException("Upload of " + storage.describe() + "/" + path + (failed ? " failed" : " is closed"));
        }
    }

    /** Whether the upload was aborted (for tests). */
    boolean aborted() {
        return failed;
    }
}
