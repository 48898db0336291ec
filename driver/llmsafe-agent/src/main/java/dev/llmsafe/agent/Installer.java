package dev.llmsafe.agent;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.llmsafe.agent.bootstrap.Dispatch;
import dev.llmsafe.policy.LlmSafeConfig;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Properties;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the configuration, installs the hook and weaves every DataSource's getConnection, every
 * Driver's connect and every method and constructor of the scope's classes (already loaded classes too,
 * for an agent attached to a running JVM). Loaded only
 * once {@link Dispatch} is on the bootstrap class path.
 */
final class Installer {

    private static final Logger LOG = LoggerFactory.getLogger(Installer.class);

    private Installer() {
    }

    /** @throws RuntimeException when the argument or the configuration does not load (the message is located) */
    static void install(String argument, Instrumentation instrumentation) {
        AgentSettings settings = AgentSettings.parse(argument);
        LlmSafeConfig config = LlmSafeConfig.load(settings.config());
        var tables = config.policy().tables().keySet();
        Dispatch.install(new Interceptor(settings, config));
        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(new Failures())
                .ignore(nameStartsWith("dev.llmsafe.").or(nameStartsWith("java.")).or(nameStartsWith("javax."))
                        .or(nameStartsWith("jdk.")).or(nameStartsWith("sun.")).or(nameStartsWith("com.sun."))
                        .or(nameStartsWith("net.bytebuddy.")).or(isSynthetic()))
                .type(not(isInterface()).and(hasSuperType(named("javax.sql.DataSource"))))
                .transform((builder, type, loader, module, domain) -> builder.visit(Advice.to(Advices.Lending.class)
                        .on(isMethod().and(named("getConnection")).and(not(isAbstract()))
                                .and(takesArguments(0).or(takesArguments(String.class, String.class))))))
                .type(not(isInterface()).and(hasSuperType(named("java.sql.Driver"))))
                .transform((builder, type, loader, module, domain) -> builder.visit(Advice.to(Advices.Connecting.class)
                        .on(isMethod().and(named("connect")).and(not(isAbstract()))
                                .and(takesArguments(String.class, Properties.class)))))
                .type(inScope(settings.scopes()))
                .transform((builder, type, loader, module, domain) -> builder
                        .visit(Advice.to(Advices.InScope.class).on(isMethod().and(not(isAbstract())).and(not(isNative()))))
                        .visit(Advice.to(Advices.InScopeConstructor.class).on(isConstructor())))
                .installOn(instrumentation);
        LOG.info("llmsafe agent: guarding the connections obtained inside {} and every connection to a URL matching {};"
                + " policy {} (tables {}), plans proposed as {}", settings.scopes(), settings.urls(),
                config.source(), tables, settings.proposer());
    }

    /** The classes of the scope: each name's package and subpackages, or its class and nested classes. */
    private static ElementMatcher.Junction<TypeDescription> inScope(List<String> scopes) {
        ElementMatcher.Junction<TypeDescription> m = none();
        for (String s : scopes) {
            m = m.or(named(s)).or(nameStartsWith(s + ".")).or(nameStartsWith(s + "$"));
        }
        return m;
    }

    /** A class that cannot be woven is logged: its connections are not guarded. */
    private static final class Failures extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
            LOG.warn("llmsafe agent: could not weave {}; connections it hands out are not guarded", typeName, t);
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                DynamicType dynamicType) {
            LOG.debug("llmsafe agent: wove {}", type.getName());
        }
    }
}
