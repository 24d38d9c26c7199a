package dev.nifigeoparquet.archive.s3;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An archive root on an object store, {@code s3://bucket/prefix}. The prefix is stored without leading or trailing
 * slash; empty means the bucket's root.
 */
public record S3Location(String bucket, String prefix) {

    /** DNS-compatible bucket names, as S3 and the S3-compatible stores accept them. */
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (!BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("Not an S3 bucket name: '" + bucket + "'");
        }
        prefix = strip(prefix);
        if (prefix.contains("//") || prefix.startsWith("./") || prefix.contains("/../") || prefix.equals("..")) {
            throw new IllegalArgumentException("S3 prefix '" + prefix + "' has empty or relative segments");
        }
    }

    /** Parses {@code s3://bucket} or {@code s3://bucket/prefix}. */
    public static S3Location parse(String uri) {
        if (uri == null || !uri.strip().startsWith("s3://")) {
            throw new IllegalArgumentException("Not an s3:// location: '" + uri + "'");
        }
        URI parsed = URI.create(uri.strip());
        String bucket = parsed.getHost() != null ? parsed.getHost() : parsed.getAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("s3:// location without a bucket: '" + uri + "'");
        }
        if (parsed.getQuery() != null || parsed.getFragment() != null) {
            throw new IllegalArgumentException("s3:// location with a query or fragment: '" + uri + "'");
        }
        return new S3Location(bucket, parsed.getPath() == null ? "" : parsed.getPath());
    }

    /** Whether a string names an object-store location rather than a local directory. */
    public static boolean isS3(String location) {
        return location != null && location.strip().startsWith("s3://");
    }

    /** The object key of an archive-relative path. */
    public String key(String relativePath) {
        return prefix.isEmpty() ? relativePath : prefix + "/" + relativePath;
    }

    /** The archive-relative path of an object key under this location. */
    public String relative(String key) {
        if (prefix.isEmpty()) {
            return key;
        }
        if (!key.startsWith(prefix + "/")) {
            throw new IllegalArgumentException("Key '" + key + "' lies outside " + this);
        }
        return key.substring(prefix.length() + 1);
    }

    /** A location below this one. */
    public S3Location resolve(String child) {
        return new S3Location(bucket, key(strip(child)));
    }

    private static String strip(String path) {
        String stripped = path;
        while (stripped.startsWith("/")) {
            stripped = stripped.substring(1);
        }
        while (stripped.endsWith("/")) {
            stripped = stripped.substring(0, stripped.length() - 1);
        }
        return stripped;
    }

    @Override
    public String toString() {
        return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }
}
