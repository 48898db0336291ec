package dev.llmsafe.spring;

import dev.llmsafe.RefusedException;
import dev.llmsafe.jdbc.PlanPendingException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;

/**
 * Shows the model llmsafe's answers to a tool's SQL: the confirmation card of a {@link PlanPendingException},
 * the message of a {@link RefusedException}. The starter declares it as a bean when Spring AI is on the class path, which replaces Spring AI's default processor (an application that declares its own keeps it).
 *
 * <p>Why it is needed: Spring AI 2.0.1's default processor rethrows a tool's checked exception, so a tool
 * written with plain JDBC that meets a pending plan (a {@link java.sql.SQLException}) fails the whole chat
 * call and the model is shown nothing. Through {@code JdbcTemplate} the same exception arrives wrapped in a
 * {@link org.springframework.dao.DataAccessException}, which the default would show, but prefixed with
 * Spring's "PreparedStatementCallback; uncategorized SQLException for SQL [...]" text. This processor looks
 * along the cause chain for llmsafe's two exceptions and returns exactly their message, which llmsafe writes
 * to be shown to a model: the card with the plan id, or what was refused, why and what to do instead.
 *
 * <p>Everything else is rethrown, so the chat call fails and the application sees the error: a vendor
 * driver's message can quote the data it failed on, and any other exception is a fault in the tool, not an
 * answer for the model. (With this bean in place, {@code spring.ai.tools.throw-exception-on-error} no longer
 * applies: that property configures the default processor.)
 */
public final class LlmSafeToolExceptionProcessor implements ToolExecutionExceptionProcessor {

    @Override
    public String process(ToolExecutionException exception) {
        // The set stops a cause chain that loops back on itself.
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = exception.getCause(); t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof PlanPendingException || t instanceof RefusedException) {
                return t.getMessage();
            }
        }
        throw exception;
    }
}
