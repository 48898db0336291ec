package dev.llmsafe.console;

import dev.llmsafe.value.Visible;

/**
 * The one way text reaches a page: {@link #escape} for HTML, after {@link Visible} has turned every
 * invisible or direction-changing character into a visible escape (C5) where the text is a person's
 * or the database's.
 */
final class Html {

    private Html() {
    }

    /** HTML-escapes a text for an element's content or a quoted attribute value. */
    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A text from the database, the store or a person: visible (C5), then escaped. */
    static String text(String s) {
        return s == null ? "" : escape(Visible.text(s));
    }

    /** A page: the header with the signed-in user and the sign-out form, then the body. */
    static String page(String title, Person person, String csrf, String body) {
        StringBuilder b = new StringBuilder(4096);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(escape(title)).append(" - llmsafe</title>")
                .append("<link rel=\"stylesheet\" href=\"/style.css\"></head><body>\n<header><strong>llmsafe</strong>");
        if (person != null) {
            b.append(" <nav><a href=\"/plans\">Plans</a> <a href=\"/read\">Read</a></nav>")
                    .append("<span class=\"who\">").append(text(person.name())).append(" (")
                    .append(escape(person.roleNames())).append(")</span>");
            if (!person.viaProxy()) {
                b.append("<form method=\"post\" action=\"/signout\" class=\"inline\">").append(csrfField(csrf))
                        .append("<button type=\"submit\">Sign out</button></form>");
            }
        }
        b.append("</header>\n<main>\n").append(body).append("\n</main></body></html>\n");
        return b.toString();
    }

    /** The hidden field every POST form carries. */
    static String csrfField(String csrf) {
        return "<input type=\"hidden\" name=\"csrf\" value=\"" + escape(csrf) + "\">";
    }
}
