// A tiny engine in Java for c4tui's engine protocol (c4tui/protocols/PROTOCOL.md): the first legal drop from the centre, else a legal pop.
// Build: javac -d classes CentreEngine.java; run: java -cp classes CentreEngine (tests/outside/test_engine_languages.py does).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public final class CentreEngine {
    private int columns = 7;
    private int rows = 6;
    private boolean popout = false;
    /** board.get(column): its discs from the bottom up, 1 red, 2 yellow. */
    private List<List<Integer>> board = new ArrayList<>();
    private int mover = 1;

    public static void main(String[] arguments) throws IOException {
        BufferedReader input =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        CentreEngine engine = new CentreEngine();
        engine.follow(new String[0]);
        for (String line = input.readLine(); line != null; line = input.readLine()) {
            if (!engine.answer(line.trim().split("\\s+"))) {
                break;
            }
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Answers one command; false once told to quit. */
    private boolean answer(String[] words) {
        switch (words[0]) {
            case "c4e":
                say("id name Centre in Java");
                say("id author the c4tui tests");
                say("c4eok");
                break;
            case "newgame":
                columns = words.length > 1 ? Integer.parseInt(words[1]) : 7;
                rows = words.length > 2 ? Integer.parseInt(words[2]) : 6;
                popout = words.length > 3 && words[3].equals("popout");
                break;
            case "position":
                follow(Arrays.copyOfRange(words, 1, words.length));
                break;
            case "go":
                bestMove();
                break;
            case "isready":
                say("readyok");
                break;
            case "quit":
                return false;
            default:
                break;
        }
        return true;
    }

    /** The game so far from the empty board: a drop stacks the mover's disc, a pop takes the bottom one. */
    private void follow(String[] moves) {
        board = new ArrayList<>();
        for (int column = 0; column < columns; column++) {
            board.add(new ArrayList<>());
        }
        mover = 1;
        for (String move : moves) {
            int column = Integer.parseInt(move.substring(1)) - 1;
            if (column >= 0 && column < columns && move.charAt(0) == 'd') {
                board.get(column).add(mover);
            } else if (column >= 0 && column < columns && move.charAt(0) == 'p'
                    && !board.get(column).isEmpty()) {
                board.get(column).remove(0);
            }
            mover = 3 - mover;
        }
    }

    /** The columns from the centre outwards, the left one first on a tie. */
    private List<Integer> centreOrder() {
        List<Integer> order = new ArrayList<>();
        for (int distance = 0; distance <= columns; distance++) {
            for (int column = 0; column < columns; column++) {
                if (Math.abs(2 * column - (columns - 1)) == distance) {
                    order.add(column);
                }
            }
        }
        return order;
    }

    private void bestMove() {
        List<Integer> order = centreOrder();
        for (int column : order) {
            if (board.get(column).size() < rows) {
                say("bestmove d" + (column + 1));
                return;
            }
        }
        for (int column : order) {
            List<Integer> discs = board.get(column);
            if (popout && !discs.isEmpty() && discs.get(0) == mover) {
                say("bestmove p" + (column + 1));
                return;
            }
        }
        say("info string no legal move");
    }
}
