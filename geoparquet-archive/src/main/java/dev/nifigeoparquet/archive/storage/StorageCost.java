package dev.nifigeoparquet.archive.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operation cost on storage: requests by billing class, bytes moved, and the objects it deleted with their
 * age (an object store charges for deleting an object of a cold storage class before its minimum duration).
 *
 * <p>Request classes follow object-store billing: {@code puts} counts every PUT-class request (PutObject,
 * CreateMultipartUpload, UploadPart, CompleteMultipartUpload, CopyObject), {@code gets} GET and HEAD requests,
 * {@code lists} LIST requests, {@code deletes} DeleteObject and AbortMultipartUpload requests. Failed requests
 * (a 412 of a lost exclusive creation, a retried 503) count too: they are billed.
 *
 * @param puts            PUT-class requests
 * @param gets            GET and HEAD requests
 * @param lists           LIST requests
 * @param deletes         DELETE requests
 * @param bytesUploaded   bytes sent in request bodies
 * @param bytesDownloaded bytes received in response bodies
 * @param deleted         objects deleted, with their age when it was known without an extra request
 */
public record StorageCost(
        long puts,
        long gets,
        long lists,
        long deletes,
        long bytesUploaded,
        long bytesDownloaded,
        List<DeletedObject> deleted) {

    public static final StorageCost NONE = new StorageCost(0, 0, 0, 0, 0, 0, List.of());

    public StorageCost {
        deleted = List.copyOf(deleted);
    }

    /** An object this operation deleted. {@code age} is null when no earlier listing or write told its age. */
    public record DeletedObject(String path, Duration age) {}

    /** All requests together. */
    public long requests() {
        return puts + gets + lists + deletes;
    }

    /** Deleted objects younger than {@code minimumAge}: the ones a cold storage class charges an early-deletion fee for. */
    public List<DeletedObject> deletedYoungerThan(Duration minimumAge) {
        return deleted.stream()
                .filter(d -> d.age() != null && d.age().compareTo(minimumAge) < 0)
                .toList();
    }

    public StorageCost plus(StorageCost other) {
        List<DeletedObject> both = new ArrayList<>(deleted);
        both.addAll(other.deleted);
        return new StorageCost(
                puts + other.puts,
                gets + other.gets,
                lists + other.lists,
                deletes + other.deletes,
                bytesUploaded + other.bytesUploaded,
                bytesDownloaded + other.bytesDownloaded,
                both);
    }

    @Override
    public String toString() {
        return "PUT " + puts + ", GET " + gets + ", LIST " + lists + ", DELETE " + deletes + ", uploaded "
                + bytesUploaded + " B, downloaded " + bytesDownloaded + " B, deleted " + deleted.size() + " objects";
    }
}
