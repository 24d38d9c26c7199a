package dev.nifigeoparquet.archive.error;

/**
 * The TLS handshake with the storage's endpoint failed for a reason of configuration: its certificate is not trusted
 * (signed by a private certificate authority the trust store lacks, or naming another host), or it refused the client
 * certificate. Every request fails the same way until the trust or key material changes, so retrying cannot help.
 * (A handshake cut short by a broken connection is {@link StorageUnavailableException}.)
 */
public final class StorageTlsException extends ArchiveException {

    public StorageTlsException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "Trust the certificate authority that signed the endpoint's certificate (for the archive service, an SSL "
                + "Context Service whose trust store holds it) and check that the certificate names the endpoint's "
                + "host; if the store asks for a client certificate, give one it accepts.";
    }
}
