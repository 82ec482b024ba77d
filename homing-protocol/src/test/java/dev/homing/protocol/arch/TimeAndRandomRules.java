package dev.homing.protocol.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.homing.protocol.arch.AccessTargets.CONSTRUCTOR;
import static dev.homing.protocol.arch.AccessTargets.declaringClass;
import static dev.homing.protocol.arch.AccessTargets.parameterTypes;
import static dev.homing.protocol.arch.AccessTargets.where;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;

/**
 * Time and randomness are injected ({@code Ticker}, {@code RandomGenerator}): code in scope reads no global clock,
 * waits on no wall clock and rolls no global dice, so a virtual-time run is deterministic. Shared by homing-core and
 * the simulator's engine, each passing its scope.
 */
public final class TimeAndRandomRules {

    private static final String CLOCK = "java.time.Clock";
    private static final Set<String> TIMEOUTS = Set.of("java.util.concurrent.TimeUnit", "java.time.Duration");

    private TimeAndRandomRules() {
    }

    public static ArchRule noClockReads(DescribedPredicate<? super JavaClass> scope) {
        return noClasses().that(scope).should().accessTargetWhere(where(
                        "the global clock (System.currentTimeMillis/nanoTime, a java.time now() without a Clock, "
                                + "Clock.system*/tick*(zone), InstantSource.system, new Date(), Calendar.getInstance, "
                                + "new GregorianCalendar() without a date)",
                        TimeAndRandomRules::readsTheClock))
                .because("time is injected (Ticker): a virtual-time run must not see the wall clock");
    }

    public static ArchRule noWaitsOnTheClock(DescribedPredicate<? super JavaClass> scope) {
        return noClasses().that(scope).should().accessTargetWhere(where(
                        "a sleep or timed wait (Thread.sleep, TimeUnit.sleep/timedWait/timedJoin, Thread.join(time), "
                                + "Object.wait(time), LockSupport.parkNanos/parkUntil, a java.util.concurrent "
                                + "method taking a time-out, java.util.Timer)",
                        TimeAndRandomRules::waitsOnTheClock))
                .because("time is injected (Ticker): waiting on the wall clock is the driver's job, not the model's");
    }

    public static ArchRule noGlobalRandom(DescribedPredicate<? super JavaClass> scope) {
        return noClasses().that(scope).should().accessTargetWhere(where(
                        "global or self-seeded randomness (Math.random, ThreadLocalRandom, SecureRandom, new Random, "
                                + "new SplittableRandom(), RandomGenerator.getDefault/of, "
                                + "RandomGeneratorFactory.create(), UUID.randomUUID, Collections.shuffle without a "
                                + "generator)",
                        TimeAndRandomRules::rollsGlobalDice))
                .because("randomness is injected (RandomGenerator): a seeded run must repeat exactly");
    }

    private static boolean readsTheClock(AccessTarget target) {
        String name = target.getName();
        List<String> params = parameterTypes(target);
        return switch (declaringClass(target)) {
            case "java.lang.System" -> name.equals("currentTimeMillis") || name.equals("nanoTime");
            case CLOCK -> (name.startsWith("system") || name.startsWith("tick")) && !params.contains(CLOCK);
            case "java.time.InstantSource" -> name.equals("system");
            case "java.util.Date" -> name.equals(CONSTRUCTOR) && params.isEmpty();
            case "java.util.Calendar" -> name.equals("getInstance");
            // only the constructors given a year, month and day leave the current time alone
            case "java.util.GregorianCalendar" -> name.equals(CONSTRUCTOR) && !params.contains("int");
            case String owner when owner.startsWith("java.time.") -> name.equals("now") && !params.contains(CLOCK);
            default -> false;
        };
    }

    private static boolean waitsOnTheClock(AccessTarget target) {
        String name = target.getName();
        List<String> params = parameterTypes(target);
        return switch (declaringClass(target)) {
            case "java.lang.Thread" -> name.equals("sleep") || name.equals("join") && !params.isEmpty();
            case "java.lang.Object" -> name.equals("wait") && !params.isEmpty();
            case "java.util.concurrent.TimeUnit" -> Set.of("sleep", "timedWait", "timedJoin").contains(name);
            case "java.util.concurrent.locks.LockSupport" -> name.equals("parkNanos") || name.equals("parkUntil");
            // a Timer runs its tasks when the wall clock says so
            case "java.util.Timer" -> true;
            // a constructor's TimeUnit configures (a pool's keep-alive), it waits for nothing
            case String owner when owner.startsWith("java.util.concurrent.") ->
                    name.equals("awaitNanos") || name.equals("awaitUntil")
                            || !name.equals(CONSTRUCTOR) && params.stream().anyMatch(TIMEOUTS::contains);
            default -> false;
        };
    }

    private static boolean rollsGlobalDice(AccessTarget target) {
        String name = target.getName();
        List<String> params = parameterTypes(target);
        return switch (declaringClass(target)) {
            case "java.lang.Math", "java.lang.StrictMath" -> name.equals("random");
            case "java.util.concurrent.ThreadLocalRandom", "java.security.SecureRandom" -> true;
            // seeded or not: java.util.Random is not how this code base takes randomness
            case "java.util.Random" -> name.equals(CONSTRUCTOR);
            // a seeded SplittableRandom is a pure function of its seed (CycleRandom derives one per cycle)
            case "java.util.SplittableRandom" -> name.equals(CONSTRUCTOR) && params.isEmpty();
            case "java.util.random.RandomGenerator" -> name.equals("getDefault") || name.equals("of");
            case "java.util.random.RandomGeneratorFactory" -> name.equals("create") && params.isEmpty();
            case "java.util.UUID" -> name.equals("randomUUID");
            case "java.util.Collections" -> name.equals("shuffle") && params.size() == 1;
            default -> false;
        };
    }
}
