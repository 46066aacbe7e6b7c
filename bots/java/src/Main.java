// A Djenon-aboure bot in Java (11 or later, no library): the entry point. It
// wires standard input and output to the protocol in Bot.java; the rules are
// in Position.java and the move choice in Search.java.
//
// Build it: make (in this folder). Check it:
// aboure check-bot -- java -Xss512k -XX:+UseSerialGC -jar build/bot.jar

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public final class Main {
    private Main() {}

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Bot bot = new Bot(line -> {
            out.print(line + "\n");
            out.flush();
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!bot.handle(line)) {
                break;
            }
        }
    }
}
