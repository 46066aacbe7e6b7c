// The rules of Djenon-aboure (RULES.md), on their own: positions, sowing with
// relays, captures, endless sowings, legal moves and forced passes. Nothing
// here reads or writes anything, so the search and the tests can trust it.

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The seeds in each pit, the side to move (0 South, 1 North) and each side's captures. */
final class Position {
    static final int PITS = 12; // 0..5 South's row, 6..11 North's, in sowing order
    static final int ROW = 6;
    static final int TOTAL = 48;
    /** The move of a side with no sowing. */
    static final int PASS = -1;

    final int[] pits;
    final int side;
    final int[] captured;

    Position(int[] pits, int side, int[] captured) {
        this.pits = pits;
        this.side = side;
        this.captured = captured;
    }

    /** A legal move (a pit, or PASS), the position after it and the seeds it captured. */
    static final class Child {
        final int move;
        final Position position;
        final int taken;

        Child(int move, Position position, int taken) {
            this.move = move;
            this.position = position;
            this.taken = taken;
        }
    }

    static Position start() {
        int[] pits = new int[PITS];
        Arrays.fill(pits, 4);
        return new Position(pits, 0, new int[2]);
    }

    /** Reads the four fields `S0,..,S5/N6,..,N11 SIDE CAPS CAPN`. */
    static Position parse(List<String> fields) {
        if (fields.size() != 4) {
            throw new IllegalArgumentException("a position has 4 fields, found " + fields.size());
        }
        String[] rows = fields.get(0).split("/", -1);
        if (rows.length != 2 || rows[0].split(",", -1).length != ROW || rows[1].split(",", -1).length != ROW) {
            throw new IllegalArgumentException("board " + fields.get(0) + " is not two rows of six pits");
        }
        String side = fields.get(1);
        if (!side.equals("s") && !side.equals("n")) {
            throw new IllegalArgumentException("side " + side + " is neither s nor n");
        }
        List<String> cells = new ArrayList<>(Arrays.asList((rows[0] + "," + rows[1]).split(",", -1)));
        cells.add(fields.get(2));
        cells.add(fields.get(3));
        int[] counts = new int[PITS + 2];
        int sum = 0;
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            if (!c.matches("0|[1-9][0-9]?") || Integer.parseInt(c) > TOTAL) {
                throw new IllegalArgumentException("seed count " + c + " is not a number from 0 to 48");
            }
            counts[i] = Integer.parseInt(c);
            sum += counts[i];
        }
        if (sum != TOTAL) {
            throw new IllegalArgumentException("the seeds do not add up to 48");
        }
        return new Position(Arrays.copyOf(counts, PITS), side.equals("s") ? 0 : 1,
                new int[] {counts[PITS], counts[PITS + 1]});
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < PITS; i++) {
            s.append(pits[i]).append(i == ROW - 1 ? "/" : i == PITS - 1 ? " " : ",");
        }
        return s.append(side == 0 ? "s " : "n ").append(captured[0]).append(' ').append(captured[1]).toString();
    }

    /** The position after the mover sows `pit`, or null when that is not a legal sowing. */
    Child child(int pit) {
        if (pit < 0 || pit >= PITS || pit / ROW != side || pits[pit] < 2) {
            return null;
        }
        int[] board = pits.clone();
        int taken = sow(board, pit);
        if (taken < 0) {
            return null;
        }
        int[] caps = captured.clone();
        caps[side] += taken;
        return new Child(pit, new Position(board, 1 - side, caps), taken);
    }

    /** The legal sowings, in pit order. */
    List<Child> children() {
        List<Child> result = new ArrayList<>();
        for (int pit = side * ROW; pit < side * ROW + ROW; pit++) {
            Child c = child(pit);
            if (c != null) {
                result.add(c);
            }
        }
        return result;
    }

    Position passed() {
        return new Position(pits.clone(), 1 - side, captured.clone());
    }

    /** The sowings, or a single pass when the mover has none but the opponent has, or none at the end. */
    List<Child> legalMoves() {
        List<Child> sowings = children();
        if (!sowings.isEmpty()) {
            return sowings;
        }
        Position p = passed();
        return p.children().isEmpty() ? sowings : List.of(new Child(PASS, p, 0));
    }

    /** Each side's captures plus the seeds in its own row. */
    int[] score() {
        int[] s = captured.clone();
        for (int i = 0; i < PITS; i++) {
            s[i / ROW] += pits[i];
        }
        return s;
    }

    static String moveText(int move) {
        return move == PASS ? "pass" : Integer.toString(move);
    }

    /**
     * Sows from `pit` with relays; the seeds captured, or -1 when the sowing never ends. Within one
     * move no seed leaves the board, so a sowing that does not end comes back to a state it has been
     * in (same board, same pit to sow): the set of states seen finds it.
     */
    private static int sow(int[] board, int pit) {
        Set<String> seen = new HashSet<>();
        while (true) {
            if (!seen.add(Arrays.toString(board) + pit)) {
                return -1;
            }
            int seeds = board[pit];
            board[pit] = 0;
            for (int i = 0; i < PITS; i++) {
                board[i] += seeds / PITS;
            }
            for (int i = 0; i < seeds % PITS; i++) {
                board[(pit + i) % PITS]++;
            }
            int last = (pit + seeds - 1) % PITS;
            if (board[last] == 1) {
                return 0;
            }
            if (board[last] == 2 || board[last] == 4) {
                return capture(board, last);
            }
            pit = last; // it held 2, or 4 or more: relay from there
        }
    }

    /** Takes the seeds of `last` and of every pit before it holding exactly 2 or 4. */
    private static int capture(int[] board, int last) {
        int taken = board[last];
        board[last] = 0;
        int pit = last;
        for (int i = 1; i < PITS; i++) {
            pit = (pit + PITS - 1) % PITS;
            if (board[pit] != 2 && board[pit] != 4) {
                break;
            }
            taken += board[pit];
            board[pit] = 0;
        }
        return taken;
    }
}
