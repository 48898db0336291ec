package dev.llmsafe.spring;

import dev.llmsafe.policy.ConfigException;
import dev.llmsafe.policy.LlmSafeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/** Reads the llmsafe.json that {@code llmsafe.config} locates, with the config reader's located messages. */
final class LlmSafeConfigs {

    private LlmSafeConfigs() {
    }

    /**
     * @throws IllegalStateException naming the location and, for a broken file, the file, line and key
     */
    static LlmSafeConfig load(ResourceLoader loader, String location) {
        Resource resource = loader.getResource(location);
        if (!resource.exists()) {
            throw new IllegalStateException("llmsafe cannot use its configuration: llmsafe.config=" + location
                    + ": no such resource; create one with `llmsafe init` and point llmsafe.config to it");
        }
        try {
            if (resource.isFile()) {
                return LlmSafeConfig.load(resource.getFile().toPath());
            }
            String text;
            try (InputStream in = resource.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            // A resource in a jar has no directory: relative SQLite paths are the working directory's, as the driver reads them.
            return LlmSafeConfig.parse(text, resource.getDescription(), Path.of("").toAbsolutePath(), System::getenv);
        } catch (ConfigException e) {
            throw new IllegalStateException("llmsafe cannot use its configuration (llmsafe.config=" + location + "): "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalStateException("llmsafe cannot read its configuration llmsafe.config=" + location + ": " + e, e);
        }
    }
}
