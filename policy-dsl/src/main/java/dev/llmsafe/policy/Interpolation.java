package dev.llmsafe.policy;

import java.util.function.UnaryOperator;

/**
 * {@code ${NAME}} and {@code ${NAME:-default}} in configuration strings; {@code $${} is a literal
 * {@code ${}. A variable that is not set and has no default is an error that names it: a password
 * silently read as empty would be worse.
 */
final class Interpolation {

    private Interpolation() {
    }

    static String expand(String text, UnaryOperator<String> environment) {
        if (text.indexOf('$') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (c == '$' && text.startsWith("${", i)) {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("\"${\" is not closed; write ${NAME} or ${NAME:-default},"
                            + " or $${ for a literal ${");
                }
                String body = text.substring(i + 2, end);
                int dflt = body.indexOf(":-");
                String name = dflt < 0 ? body : body.substring(0, dflt);
                if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new IllegalArgumentException("\"${" + body + "}\" does not name an environment variable;"
                            + " write ${NAME} or ${NAME:-default}, or $${ for a literal ${");
                }
                String value = environment.apply(name);
                if (value == null) {
                    if (dflt < 0) {
                        throw new IllegalArgumentException("environment variable " + name
                                + " is not set; set it, or give a default: ${" + name + ":-value}");
                    }
                    value = body.substring(dflt + 2);
                }
                out.append(value);
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
