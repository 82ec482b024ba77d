package dev.homing.router.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.router.SystemTicker;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A built-in config's warnings are logged at start like a file's: the P/D one is llm-d's pd-epp-config.yaml unchanged,
 * whose legacy apiVersion is deprecated.
 */
class BuiltInPolicyWarningsTest {

    private static final Logger LOG = Logger.getLogger(PolicySource.class.getName());

    @Test
    void theBuiltInPdConfigsWarningIsLoggedWithItsLineAndTheDefaultHasNone() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel() == Level.WARNING) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        LOG.addHandler(capture);
        try {
            PolicySource.load(null, BuiltInConfig.PD, BuiltIns.registry(), context());
            assertThat(warnings).containsExactly("config warning: homing-pd.yaml:2: apiVersion "
                    + "inference.networking.x-k8s.io/v1alpha1 is deprecated; use llm-d.ai/v1alpha1");
            warnings.clear();
            PolicySource.load(null, BuiltInConfig.DEFAULT, BuiltIns.registry(), context());
            assertThat(warnings).isEmpty();
        } finally {
            LOG.removeHandler(capture);
        }
    }

    private static PluginContext context() {
        return new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(1), new EndpointPool());
    }
}
