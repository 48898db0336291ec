package dev.llmsafe.policy;

/**
 * A configuration that cannot be used. The message names the file, the line and column, the key
 * (as a dotted path such as {@code policy.read.maxRows}) and what to do about it:
 *
 * <pre>llmsafe.json:7:5: policy.maxUpdateRow: unknown key; did you mean "maxUpdateRows"?</pre>
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final String key;
    private final String problem;

    /**
     * @param source the file name or another description of where the text came from
     * @param line 1-based line, or 0 when the problem has no position
     * @param column 1-based column, or 0
     * @param key the dotted path of the key, or null when the problem is the whole file
     * @param problem what is wrong and what to do
     */
    public ConfigException(String source, int line, int column, String key, String problem) {
        super(format(source, line, column, key, problem));
        this.source = source;
        this.line = line;
        this.column = column;
        this.key = key;
        this.problem = problem;
    }

    private static String format(String source, int line, int column, String key, String problem) {
        StringBuilder sb = new StringBuilder(source);
        if (line > 0) {
            sb.append(':').append(line).append(':').append(column);
        }
        sb.append(": ");
        if (key != null) {
            sb.append(key).append(": ");
        }
        return sb.append(problem).toString();
    }

    /** Where the text came from (a path, or a description). */
    public String source() {
        return source;
    }

    /** The 1-based line of the problem, or 0. */
    public int line() {
        return line;
    }

    /** The 1-based column of the problem, or 0. */
    public int column() {
        return column;
    }

    /** The dotted path of the key at fault, or null. */
    public String key() {
        return key;
    }

    /** The problem without its position. */
    public String problem() {
        return problem;
    }
}
