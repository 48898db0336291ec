package dev.llmsafe.agent;

import dev.llmsafe.agent.bootstrap.Dispatch;
import dev.llmsafe.jdbc.LlmSafeDriver;
import dev.llmsafe.jdbc.LlmSafeGuard;
import dev.llmsafe.policy.LlmSafeConfig;
import java.sql.Connection;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.WeakHashMap;
import javax.sql.DataSource;

/**
 * The agent's decisions, called from the woven methods through {@link Dispatch}:
 * <ul>
 *   <li>a connection a data source lends to code in the scope (the outermost getConnection on the thread,
 *       a method of the scope in progress, and the innermost deciding frame the scope's) is guarded where
 *       it is handed out: the pool's proxy is wrapped, so closing the guarded connection
 *       closes the proxy, and the pool gets its physical connection back unwrapped;</li>
 *   <li>Driver.connect (DriverManager's too) to a URL matching a url pattern, or called by code in the
 *       scope outside any data source, is answered by llmsafe's own driver, as {@code jdbc:llmsafe:} in
 *       front of the URL would be: the same engine, the same options removed from the URL;</li>
 *   <li>llmsafe's own connections are left alone, and a connection that is already llmsafe's (an
 *       application that also uses {@code jdbc:llmsafe:}) is not guarded twice.</li>
 * </ul>
 */
final class Interceptor implements Dispatch.Hook {

    private final AgentSettings settings;
    private final LlmSafeConfig config;
    private final Scope scope;
    private final LlmSafeDriver driver = new LlmSafeDriver();
    private final Map<DataSource, LlmSafeGuard> guards = Collections.synchronizedMap(new WeakHashMap<>());

    Interceptor(AgentSettings settings, LlmSafeConfig config) {
        this.settings = settings;
        this.config = config;
        this.scope = new Scope(settings.scopes());
    }

    @Override
    public Object connect(Object realDriver, String url, Object info, boolean outermost, boolean inScope)
            throws Exception {
        if (!url.startsWith("jdbc:") || url.startsWith("jdbc:llmsafe:")) {
            return null;
        }
        boolean byUrl = settings.guardsUrl(url);
        if (!byUrl && !(outermost && inScope)) {
            return null;
        }
        Scope.Verdict where = scope.ofCaller();
        if (where == Scope.Verdict.OWN || (!byUrl && where != Scope.Verdict.GUARDED)) {
            return null;
        }
        Properties p = new Properties();
        if (info instanceof Properties given) {
            given.stringPropertyNames().forEach(k -> p.setProperty(k, given.getProperty(k)));
        }
        p.setProperty("llmsafe.config", settings.config().toString());
        p.setProperty("llmsafe.proposer", settings.proposer());
        return driver.connect("jdbc:llmsafe:" + url.substring("jdbc:".length()), p);
    }

    @Override
    public Object lent(Object dataSource, Object connection) throws Exception {
        if (!(dataSource instanceof DataSource source) || !(connection instanceof Connection lent)
                || scope.ofCaller() != Scope.Verdict.GUARDED) {
            return connection;
        }
        return guards.computeIfAbsent(source, s -> LlmSafeGuard.over(s, config)).guard(lent, settings.proposer());
    }
}
