package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.processors.migration.StoredChoice;

/** Where the archive lives: it decides which of the service's properties apply. */
public enum ArchiveStorageType implements StoredChoice {
    LOCAL(
            "Local File System",
            "A directory every node reaches at the same path: a local disk for one node, a shared file system (NFS, a"
                    + " cluster file system) for a cluster."),
    S3(
            "Amazon S3 or S3-Compatible Store",
            "An s3://bucket/prefix Archive Root on Amazon S3 or a store that honours conditional PUTs (MinIO, Ceph RGW,"
                    + " Cloudflare R2); the S3 properties apply.");

    private final String displayName;
    private final String description;

    ArchiveStorageType(String displayName, String description) {
        this.displayName = displayName;
        this.description = description;
    }

    @Override
    public String getDisplayName() {
        return displayName;
    }

    @Override
    public String getDescription() {
        return description;
    }
}
