package dev.llmsafe.cli;

import dev.llmsafe.console.Passwords;
import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A password's hash for the console's users. */
final class HashPasswordCommand extends Base {

    HashPasswordCommand() {
        super("hash-password", "Print the BCrypt hash of a password, for console.users[].passwordHash.",
                "The password is read from the terminal (asked twice, not echoed), or as one line of standard input;",
                "never from the command line, where other users of the machine and the shell's history would see it.");
    }

    @Override
    int execute() throws Exception {
        Console console = main.stdin == System.in ? System.console() : null;
        char[] password;
        if (console != null) {
            password = console.readPassword("Password: ");
            char[] again = console.readPassword("Again: ");
            boolean same = password != null && Arrays.equals(password, again);
            if (again != null) {
                Arrays.fill(again, '\0');
            }
            if (!same) {
                throw new IllegalArgumentException("the two passwords differ; nothing was printed");
            }
        } else {
            String line = new BufferedReader(new InputStreamReader(main.stdin, StandardCharsets.UTF_8)).readLine();
            if (line == null) {
                throw new IllegalArgumentException("no password on standard input; give it as one line");
            }
            password = line.toCharArray();
        }
        try {
            out().println(Passwords.hash(password));
        } finally {
            Arrays.fill(password, '\0');
        }
        out().flush();
        return Main.OK;
    }
}
