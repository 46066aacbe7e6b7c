// The aboure protocol (PROTOCOL.md), one line at a time: the handshake,
// options, positions, `go` with its limits, `stop`, `isready` and `quit`,
// plus one debug command outside the protocol, `moves POSITION`, which lists
// every legal move with the position after it (see README.md).
//
// The handshake warms the JVM up before `aboureok` (see warmUp), then waits
// for its compiler threads to finish (see settle): a cold JVM interprets and
// compiles its first moves, slowly enough to lose them on time at short time
// controls.
//
// The search takes microseconds, so `go` with a limit is answered at once;
// `go` without limits keeps its answer until `stop`, as the protocol asks,
// and `isready` is answered meanwhile because this loop keeps reading.

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class Bot {
    static final String NAME = "Java Sower 1.0";
    static final String AUTHOR = "The aboure authors";
    static final long SEED_MAX = 2147483647L;
    private static final List<String> LIMITS =
            List.of("stime", "ntime", "sinc", "ninc", "movetime", "depth", "nodes");
    private static final Pattern SET_OPTION =
            Pattern.compile("^\\s*setoption\\s+name\\s+(\\S+)\\s+value(?:\\s+(.*?))?\\s*$");

    /**
     * Games the warm-up plays: the JIT has compiled the hot paths after about
     * 100 (a game then takes a few tenths of a millisecond), whatever the
     * machine's load, which a cap in time alone would not ensure.
     */
    static final int WARM_UP_GAMES = 200;
    /** How long the warm-up may take, at most: far inside the arbiter's start-up limit (10 s by default). */
    static final long WARM_UP_NANOS = 2_000_000_000L;
    /** How long the handshake waits, at most, for the compiler threads after the warm-up. */
    static final long SETTLE_NANOS = 1_000_000_000L;
    /** A pause of the JVM's own threads this long, using at most SETTLE_QUIET_MILLIS of CPU, is quiet. */
    static final long SETTLE_PAUSE_MILLIS = 50;
    /** One clock tick: the resolution of the process's CPU time. */
    static final long SETTLE_QUIET_MILLIS = 10;

    private final Consumer<String> send; // writes one line and flushes it
    private int seed = 1;
    private Search.Random rng = new Search.Random(1);
    private Position position = Position.start();
    private Integer pending; // the bestmove of a `go` without limits, until `stop`

    Bot(Consumer<String> send) {
        this.send = send;
    }

    private void complain(String text) {
        send.accept("info string " + String.join(" ", text.trim().split("\\s+")));
    }

    /** Acts on one line; false on `quit`. */
    boolean handle(String line) {
        String trimmed = line.trim();
        if (trimmed.isEmpty()) {
            return true;
        }
        List<String> words = Arrays.asList(trimmed.split("[ \\t]+"));
        List<String> args = words.subList(1, words.size());
        try {
            switch (words.get(0)) {
                case "quit":
                    return false;
                case "aboure":
                    handshake(args);
                    break;
                case "isready":
                    send.accept("readyok");
                    break;
                case "setoption":
                    setOption(line);
                    break;
                case "newgame":
                    rng = new Search.Random(seed);
                    break;
                case "position":
                    position = readPosition(args);
                    break;
                case "go":
                    go(args);
                    break;
                case "stop":
                    if (pending != null) {
                        send.accept("bestmove " + Position.moveText(pending));
                    }
                    pending = null;
                    break;
                case "moves":
                    listMoves(args);
                    break;
                default:
                    complain("ignored unknown command: " + line);
            }
        } catch (IllegalArgumentException e) {
            complain("ignored " + trimmed + ": " + e.getMessage());
        }
        return true;
    }

    private void handshake(List<String> args) {
        if (!args.equals(List.of("1"))) {
            complain("expected protocol version 1");
        }
        send.accept("id name " + NAME);
        send.accept("id author " + AUTHOR);
        send.accept("option name seed type int default 1 min 0 max " + SEED_MAX);
        try {
            warmUp();
            settle();
        } catch (RuntimeException e) {
            complain("warm-up stopped: " + e); // a slower first move, nothing worse
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        send.accept("aboureok");
    }

    /**
     * Plays games against itself through the same lines the arbiter sends
     * (position, go), on a throwaway Bot whose answers go nowhere, until
     * WARM_UP_GAMES are played or WARM_UP_NANOS have passed. By then the
     * classes are loaded and the JIT has compiled the paths every move takes,
     * so the first real move is as fast as the hundredth. Measured in
     * README.md: it moves the JVM's start-up cost from the first moves, where
     * it loses on time, to the handshake, which has seconds. The games are
     * seeded differently, so they reach varied positions.
     */
    private static void warmUp() {
        long started = System.nanoTime();
        String[] last = new String[1];
        Bot sparring = new Bot(line -> last[0] = line);
        for (int game = 0; game < WARM_UP_GAMES; game++) {
            sparring.handle("setoption name seed value " + (game + 1));
            sparring.handle("newgame");
            StringBuilder moves = new StringBuilder("position startpos moves");
            for (int ply = 0; ply < 400; ply++) {
                sparring.handle(moves.toString());
                if (sparring.position.legalMoves().isEmpty()) {
                    break;
                }
                sparring.handle("go movetime 50");
                moves.append(' ').append(last[0].substring("bestmove ".length()));
            }
            if (System.nanoTime() - started > WARM_UP_NANOS) {
                break;
            }
        }
    }

    /**
     * Waits until the JVM's own threads are quiet: the compiler threads
     * finish in the background what the warm-up made hot, the sandbox holds
     * a bot still from its handshake to its first move (so unfinished
     * compiling resumes during that move), and its CPU quota (one core's
     * time per period by default) counts every thread of the bot, so a move
     * that shares it with them can be late on a busy machine. Quiet is at most one clock tick of CPU in a pause; the
     * wait ends at once where the JVM cannot read its CPU time.
     */
    private static void settle() throws InterruptedException {
        long started = System.nanoTime();
        Optional<Duration> before = ProcessHandle.current().info().totalCpuDuration();
        while (before.isPresent() && System.nanoTime() - started < SETTLE_NANOS) {
            Thread.sleep(SETTLE_PAUSE_MILLIS);
            Optional<Duration> now = ProcessHandle.current().info().totalCpuDuration();
            if (now.isEmpty() || now.get().minus(before.get()).toMillis() <= SETTLE_QUIET_MILLIS) {
                return;
            }
            before = now;
        }
    }

    private void setOption(String line) {
        Matcher m = SET_OPTION.matcher(line);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected setoption name NAME value VALUE");
        }
        if (!m.group(1).equals("seed")) {
            throw new IllegalArgumentException("no option named " + m.group(1));
        }
        String value = m.group(2) == null ? "" : m.group(2);
        if (!value.matches("[0-9]{1,10}") || Long.parseLong(value) > SEED_MAX) {
            throw new IllegalArgumentException("seed takes a whole number from 0 to " + SEED_MAX);
        }
        seed = Integer.parseInt(value);
        rng = new Search.Random(seed);
    }

    /** `startpos [moves ...]` or `set F1 F2 F3 F4 [moves ...]`. */
    private static Position readPosition(List<String> args) {
        Position p;
        int rest;
        if (!args.isEmpty() && args.get(0).equals("startpos")) {
            p = Position.start();
            rest = 1;
        } else if (args.size() >= 5 && args.get(0).equals("set")) {
            p = Position.parse(args.subList(1, 5));
            rest = 5;
        } else {
            throw new IllegalArgumentException("expected startpos or set and a position");
        }
        if (rest < args.size() && !args.get(rest).equals("moves")) {
            throw new IllegalArgumentException("expected moves, found " + args.get(rest));
        }
        for (int i = rest + 1; i < args.size(); i++) {
            String m = args.get(i);
            if (m.equals("pass")) {
                p = p.passed(); // taken on trust: the arbiter plays only forced passes
                continue;
            }
            Position.Child c = m.matches("[0-9]|1[01]") ? p.child(Integer.parseInt(m)) : null;
            if (c == null) {
                throw new IllegalArgumentException("move " + m + " is not legal in " + p);
            }
            p = c.position;
        }
        return p;
    }

    private void go(List<String> args) {
        boolean limited = false;
        for (int i = 0; i < args.size(); i += 2) {
            if (LIMITS.contains(args.get(i)) && i + 1 < args.size() && args.get(i + 1).matches("[0-9]{1,18}")) {
                limited = true;
            } else {
                complain("ignored go limit " + args.get(i));
            }
        }
        long started = System.nanoTime();
        Search.Choice c = Search.choose(position, rng);
        long ms = (System.nanoTime() - started) / 1_000_000;
        send.accept("info depth 1 score " + c.score + " nodes " + c.nodes + " time " + ms + " pv "
                + Position.moveText(c.move));
        if (limited) {
            send.accept("bestmove " + Position.moveText(c.move));
        } else {
            pending = c.move;
        }
    }

    private void listMoves(List<String> args) {
        try {
            for (Position.Child c : Position.parse(args).legalMoves()) {
                send.accept("move " + Position.moveText(c.move) + " " + c.position);
            }
        } catch (IllegalArgumentException e) {
            complain("ignored moves: " + e.getMessage());
        }
        send.accept("movesok");
    }
}
