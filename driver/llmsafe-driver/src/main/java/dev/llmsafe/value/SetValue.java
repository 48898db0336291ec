package dev.llmsafe.value;

import java.util.List;

/**
 * A MySQL {@code SET}: its members in the order the server returns them (the order of the column
 * definition, which the server imposes, so equal sets have equal lists). The empty set has no members.
 */
public record SetValue(List<String> members) implements Value {

    /** {@value}. */
    public static final String TAG = "set";

    /** @throws NullPointerException for null members */
    public SetValue {
        members = List.copyOf(members);
    }

    /** The set the server writes as {@code a,c} (members never contain a comma in MySQL). */
    public static SetValue parse(String text) {
        return new SetValue(text.isEmpty() ? List.of() : List.of(text.split(",", -1)));
    }

    /** The server's text form: the members joined with commas. */
    public String text() {
        return String.join(",", members);
    }

    @Override
    public String tag() {
        return TAG;
    }
}
