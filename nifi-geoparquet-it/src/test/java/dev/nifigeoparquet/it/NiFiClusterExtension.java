package dev.nifigeoparquet.it;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one two-node {@link NiFiCluster} of this test run: started on first use (ZooKeeper and both
 * nodes, which takes a minute or two on 2 cores, so every cluster test shares it), stopped when the run ends, whether its
 * tests passed or not (JUnit closes what the root store holds), and by each node's shutdown hook should the JVM end
 * another way. Tests that kill a node must leave the cluster connected again, as {@link NiFiCluster#restart} does.
 */
public final class NiFiClusterExtension implements ParameterResolver {

    /** Nodes of the cluster: the fewest that show load balancing, failover and a rejoin. */
    static final int NODES = 2;

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(NiFiClusterExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == NiFiCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .computeIfAbsent(NiFiCluster.class, key -> start(), NiFiCluster.class);
    }

    private static NiFiCluster start() {
        Path lib = Path.of(NiFiExtension.required("nifi.runtime.lib"));
        Path directory = Path.of(NiFiExtension.required("nifi.cluster.directory"));
        try {
            return NiFiCluster.start(directory, lib, NODES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ParameterResolutionException("Interrupted while starting the NiFi cluster", e);
        } catch (Exception e) {
            throw new ParameterResolutionException("The NiFi cluster did not start: " + e.getMessage(), e);
        }
    }
}
