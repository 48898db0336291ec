package dev.llmsafe.plan;

import dev.llmsafe.value.Visible;
import java.sql.JDBCType;
import java.util.Base64;

/** How a parameter reads on the card: its value, then how it was bound. */
final class ParameterText {

    private ParameterText() {
    }

    static String render(Parameter p) {
        return value(p) + " (" + Visible.text(binding(p)) + ")";
    }

    private static String value(Parameter p) {
        if (p.value() == null) {
            return "NULL";
        }
        if (p.setter() == Setter.NOT_RECORDED) {
            return p.javaClass().equals("LONG") || p.javaClass().equals("DECIMAL") || p.javaClass().equals("DOUBLE")
                    || p.javaClass().equals("BOOLEAN") ? p.value() : quote(p.value());
        }
        return switch (p.javaClass()) {
            case "java.lang.Boolean", "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long",
                    "java.lang.Float", "java.lang.Double", "java.math.BigDecimal", "java.math.BigInteger" -> p.value();
            case "[B" -> "<" + Base64.getDecoder().decode(p.value()).length + " bytes>";
            default -> quote(ParameterValues.display(p.javaClass(), p.value(), p.zone()));
        };
    }

    /** C5: quoted as text values are, every invisible, control or bidi character an escape. */
    private static String quote(String s) {
        return Visible.quoted(s);
    }

    /** The setter as a person recognises it: {@code setNull(VARCHAR)}, {@code setObject(OTHER)}, {@code setInt}. */
    private static String binding(Parameter p) {
        StringBuilder sb = new StringBuilder(p.setter() == Setter.NOT_RECORDED ? "setter not recorded, llmsafe-plan/1"
                : p.setter().method());
        StringBuilder args = new StringBuilder();
        if (p.setter().takesSqlTypeObject()) {
            args.append(p.typeVendor()).append('/').append(p.typeName());
        } else if (p.sqlType() != null) {
            args.append(typeName(p.sqlType()));
            if (p.typeName() != null) {
                args.append(", '").append(p.typeName()).append('\'');
            }
        } else if (p.setter() == Setter.SET_OBJECT && p.javaClass() != null) {
            args.append(simple(p.javaClass()));
        }
        if (p.scaleOrLength() != null) {
            args.append(", ").append(p.scaleOrLength());
        }
        if (args.length() > 0) {
            sb.append('(').append(args).append(')');
        }
        if (p.sqlType() != null && p.javaClass() != null && p.setter() != Setter.NOT_RECORDED) {
            sb.append(" of a ").append(simple(p.javaClass()));
        }
        if (p.zone() != null) {
            sb.append(p.setter().takesCalendar() ? ", calendar in " : ", JVM zone ").append(p.zone());
        }
        return sb.toString();
    }

    /** The name java.sql.Types gives a type code, or the number for a vendor's own. */
    static String typeName(int sqlType) {
        try {
            return JDBCType.valueOf(sqlType).getName();
        } catch (IllegalArgumentException e) {
            return Integer.toString(sqlType);
        }
    }

    private static String simple(String javaClass) {
        if (javaClass.equals("[B")) {
            return "byte[]";
        }
        return javaClass.startsWith("java.sql.") || javaClass.equals("java.util.Date") ? javaClass
                : javaClass.substring(javaClass.lastIndexOf('.') + 1);
    }
}
