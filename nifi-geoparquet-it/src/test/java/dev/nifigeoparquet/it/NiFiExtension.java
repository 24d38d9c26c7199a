package dev.nifigeoparquet.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one NiFi of this test run ({@link RunningNiFi}): started on first use, stopped by its
 * process id when the run ends, whether its tests passed or not (JUnit closes what the root store holds), and by
 * {@link NiFiProcess}'s shutdown hook should the JVM end another way.
 */
public final class NiFiExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NiFiExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RunningNiFi.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .computeIfAbsent(RunningNiFi.class, key -> start(), RunningNiFi.class);
    }

    private static RunningNiFi start() {
        Path lib = Path.of(required("nifi.runtime.lib"));
        Path home = Path.of(required("nifi.home"));
        try {
            NiFiProcess.stopLeftover(home);
            NiFiHome nifiHome = NiFiHome.create(home, lib, NiFiProcess.freePort());
            return new RunningNiFi(nifiHome, NiFiProcess.start(nifiHome));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ParameterResolutionException("Interrupted while starting NiFi", e);
        }
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    "System property " + property + " is not set; run the suite with ./mvnw verify");
        }
        return value;
    }
}
