package dev.nifigeoparquet.processors.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.ssl.SSLContextProvider;

/** An SSL Context Provider whose trust store holds S3Mock's self-signed certificate, and which has no key store. */
public final class TrustingSslContextProvider extends AbstractControllerService implements SSLContextProvider {

    @Override
    public SSLContext createContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {createTrustManager()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Optional<X509ExtendedKeyManager> createKeyManager() {
        return Optional.empty();
    }

    @Override
    public X509TrustManager createTrustManager() {
        try {
            return S3Archives.trustManager();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
