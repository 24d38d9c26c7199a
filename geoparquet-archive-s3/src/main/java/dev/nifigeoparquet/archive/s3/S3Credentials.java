package dev.nifigeoparquet.archive.s3;

import java.util.Objects;

/**
 * Where an S3 archive's credentials come from. The storage asks for them before it signs each request, so credentials
 * that rotate (an assumed role's, a web identity's) keep working; an implementation that fetches them caches them
 * itself.
 */
@FunctionalInterface
public interface S3Credentials {

    /** The credentials to sign the next request with. */
    Keys resolve();

    /** Fixed keys, as given in a configuration. */
    static S3Credentials of(Keys keys) {
        Objects.requireNonNull(keys, "keys");
        return () -> keys;
    }

    /**
     * An access key pair, and the session token of temporary credentials (null for long-term keys).
     *
     * <p>{@link #toString} names the access key only: the secret and the token never reach a log.
     */
    record Keys(String accessKeyId, String secretAccessKey, String sessionToken) {

        public Keys {
            if (accessKeyId == null || accessKeyId.isBlank()) {
                throw new IllegalArgumentException("An access key ID is required");
            }
            if (secretAccessKey == null || secretAccessKey.isBlank()) {
                throw new IllegalArgumentException("A secret access key is required with access key " + accessKeyId);
            }
        }

        public Keys(String accessKeyId, String secretAccessKey) {
            this(accessKeyId, secretAccessKey, null);
        }

        @Override
        public String toString() {
            return "Keys[accessKeyId=" + accessKeyId + (sessionToken == null ? "" : ", with a session token") + "]";
        }
    }
}
