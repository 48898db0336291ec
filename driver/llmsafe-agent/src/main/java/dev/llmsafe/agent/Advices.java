package dev.llmsafe.agent;

import dev.llmsafe.agent.bootstrap.Dispatch;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The code woven into the application's classes. Byte Buddy copies these methods' bodies into each
 * getConnection and connect, so they may call nothing but {@link Dispatch}, which every class loader sees.
 */
final class Advices {

    private Advices() {
    }

    /** DataSource.getConnection() and getConnection(user, password). */
    static final class Lending {
        private Lending() {
        }

        @Advice.OnMethodEnter
        static int enter() {
            return Dispatch.enter();
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.Enter int depth, @Advice.This Object dataSource,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object connection,
                @Advice.Thrown Throwable thrown) throws Exception {
            connection = Dispatch.exit(depth, dataSource, thrown == null ? connection : null);
        }
    }

    /** Every method of the scope's classes: counts them in progress, so that outside them no stack is walked. */
    static final class InScope {
        private InScope() {
        }

        @Advice.OnMethodEnter
        static void enter() {
            Dispatch.enterScope();
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit() {
            Dispatch.exitScope();
        }
    }

    /** The scope's constructors (advice cannot see a constructor's exception: one that throws stays counted). */
    static final class InScopeConstructor {
        private InScopeConstructor() {
        }

        @Advice.OnMethodEnter
        static void enter() {
            Dispatch.enterScope();
        }

        @Advice.OnMethodExit
        static void exit() {
            Dispatch.exitScope();
        }
    }

    /** Driver.connect(url, properties): answered by llmsafe's driver when the agent guards the connection. */
    static final class Connecting {
        private Connecting() {
        }

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static Object enter(@Advice.This Object driver, @Advice.Argument(0) String url,
                @Advice.Argument(1) Object info) throws Exception {
            return Dispatch.connect(driver, url, info);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter Object guarded,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object connection) {
            if (guarded != null) {
                connection = guarded;
            }
        }
    }
}
