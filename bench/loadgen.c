/* Load generator for `c4tui serve`: many clients in one epoll loop, on one core.
 *
 * Why C and not Python: at 2,000 playing clients the Python asyncio generator took
 * most of a core for itself and its own scheduling delays showed up as round trips
 * (p99 743 ms). This client spends about a microsecond per message, so what it
 * measures is the server. bench/loadgen.py compiles it with the system's gcc at run
 * time (nothing binary is kept in the repository) and pins it to the other core.
 *
 *   loadgen PORT PROTOCOL PLAYERS HOLDERS SECONDS WARMUP SEED RATE
 *
 * PROTOCOL is i32cfsp, cfsp, c4n or mixed (client k speaks protocol k % 3).
 * PLAYERS clients play random legal games back to back (a new connection per game,
 * as the server hangs up at the end of each). HOLDERS clients connect, start a game
 * (their greeting up to READY / START / the first BOARD) and then stay silent; they
 * are opened before the players start, and "held N" is printed once all are in
 * (or what failed), so the caller can read the server's memory. Everything stops
 * SECONDS after the players start; round trips are recorded after WARMUP seconds.
 * Each client mirrors the game with the rules of spec/rules.md (four in a row,
 * Pop Out pops, full board, threefold repetition), so every move it sends is
 * legal and every answer is checked; an unexpected answer counts as an error.
 *
 * RATE is moves per second per player (0: the next move as soon as the answer is in).
 * A closed loop of 1,000 clients can only show the server's throughput: every client
 * always waits, so a round trip is clients / (moves per second), 200 ms at 5,000/s.
 * Paced players (a real person's pace) measure the round trip at a given load: each
 * plays one move every 1/RATE s, starting at a random phase, and never catches up
 * in bursts after a slow answer. Round trips are timed from the send.
 *
 * Output (stdout), one `key value...` per line: see print_report(). With
 * LOADGEN_VERBOSE set, a line per second on stderr (moves, mean and max round trip).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { I32CFSP, CFSP, C4N };
static const char *PROTOCOL_NAMES[] = {"i32cfsp", "cfsp", "c4n"};

enum phase {
    CONNECTING,
    GREETING_1,  /* I32CFSP: WELCOME; CFSP: START; C4N: the first BOARD */
    GREETING_2,  /* I32CFSP: READY */
    IDLE,        /* a holder, in its game, silent */
    WAIT_TURN,   /* a paced player, waiting for its next move's time */
    WAIT_ANSWER, /* I32CFSP: OKAY or result; CFSP: RECEIVED; C4N: BOARD or RESULT */
    WAIT_AI,     /* I32CFSP: the AI's move; CFSP: MOVE's answer */
    WAIT_READY,  /* I32CFSP: READY or result; CFSP: COLUMN's answer */
    WAIT_FINAL,  /* C4N: the final BOARD after RESULT */
    WAIT_EOF,    /* the game is over: the server hangs up first (its side keeps TIME_WAIT) */
    CLOSED,
};

#define MAX_CELLS 64
#define MAX_HISTORY 1024
#define BUFFER 4096
#define BUCKET_US 10
#define BUCKETS 500000 /* 5 s in 10 us steps; slower ones go in the last */

struct game {
    int columns, rows, popout, turn; /* turn: 0 red (the client), 1 yellow (the AI) */
    uint64_t bits[2];
    int winner; /* -1 none, 0 red, 1 yellow */
    int draw;
    int too_long; /* more positions than MAX_HISTORY: the repetition rule cannot be judged */
    int history_length;
    uint64_t history[MAX_HISTORY][2]; /* red, yellow | turn in bit 63 of yellow */
};

struct client {
    int fd, number, protocol, holder, phase;
    uint64_t rng;
    struct game game;
    int last_kind, last_column; /* the client's own last move (kind 0 drop, 1 pop) */
    int ai_kind, outcome;
    int64_t sent_ns, reopen_ns, due_ns;
    int in_wheel;
    struct client *wheel_next;
    size_t length;
    char buffer[BUFFER];
};

struct totals {
    long moves, games, errors, samples;
    long open_now, peak_open, held;
    uint32_t *histogram;
    int64_t max_ns;
};

static int epoll_fd, port;
static int64_t started_ns, warmup_ns, stop_ns;
/* Paced players move once every interval_ns (0: as soon as the answer is in). */
static int64_t interval_ns;
#define WHEEL 4096 /* 1 ms slots */
static struct client *wheel[WHEEL];
static int64_t wheel_done_ms;
static int stopping;
static struct totals all, by_protocol[3];
static long protocol_errors[3];
static char last_error[200] = "";
/* Players to connect again: at once after a game, 100 ms after an error. */
static struct client **again;
static long again_count;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static uint64_t next_random(uint64_t *state) { /* xorshift64* */
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* ----- the rules (spec/rules.md), on two bit masks; cell (c, r) is bit c * rows + r ----- */

static int cell(const struct game *g, int c, int r) {
    uint64_t bit = 1ULL << (c * g->rows + r);
    return g->bits[0] & bit ? 0 : g->bits[1] & bit ? 1 : -1;
}

static int height(const struct game *g, int c) {
    uint64_t column = ((g->bits[0] | g->bits[1]) >> (c * g->rows)) & ((1ULL << g->rows) - 1);
    return __builtin_popcountll(column);
}

static int has_four(const struct game *g, int player) {
    static const int steps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int c = 0; c < g->columns; c++)
        for (int r = 0; r < g->rows; r++) {
            if (cell(g, c, r) != player) continue;
            for (int d = 0; d < 4; d++) {
                int k = 1;
                while (k < 4) {
                    int cc = c + steps[d][0] * k, rr = r + steps[d][1] * k;
                    if (cc < 0 || cc >= g->columns || rr < 0 || rr >= g->rows) break;
                    if (cell(g, cc, rr) != player) break;
                    k++;
                }
                if (k == 4) return 1;
            }
        }
    return 0;
}

static void remember(struct game *g) {
    if (g->history_length < MAX_HISTORY) {
        g->history[g->history_length][0] = g->bits[0];
        g->history[g->history_length][1] = g->bits[1] | ((uint64_t)g->turn << 63);
        g->history_length++;
    } else {
        g->too_long = 1;
    }
}

static void new_game(struct game *g, int columns, int rows, int popout) {
    g->columns = columns;
    g->rows = rows;
    g->popout = popout;
    g->turn = 0;
    g->bits[0] = g->bits[1] = 0;
    g->winner = -1;
    g->draw = 0;
    g->too_long = 0;
    g->history_length = 0;
    if (popout) remember(g);
}

static int over(const struct game *g) { return g->winner >= 0 || g->draw; }

static int legal(const struct game *g, int kind, int c) {
    if (over(g) || c < 0 || c >= g->columns) return 0;
    if (kind == 0) return height(g, c) < g->rows;
    return g->popout && cell(g, c, 0) == g->turn;
}

/* Play a legal move (kind 0 drop, 1 pop) and judge the end of the game. */
static void play(struct game *g, int kind, int c) {
    int mover = g->turn, base = c * g->rows;
    if (kind == 0) {
        g->bits[mover] |= 1ULL << (base + height(g, c));
    } else {
        uint64_t mask = ((1ULL << g->rows) - 1) << base;
        for (int p = 0; p < 2; p++) {
            uint64_t column = (g->bits[p] & mask) >> 1 & mask;
            g->bits[p] = (g->bits[p] & ~mask) | column;
        }
    }
    g->turn = 1 - mover;
    if (has_four(g, mover))
        g->winner = mover;
    else if (kind == 1 && has_four(g, 1 - mover))
        g->winner = 1 - mover;
    if (g->winner >= 0) return;
    int full = __builtin_popcountll(g->bits[0] | g->bits[1]) == g->columns * g->rows;
    if (!g->popout) {
        g->draw = full;
        return;
    }
    remember(g);
    const uint64_t *now = g->history[g->history_length - 1];
    int seen = 0;
    for (int i = 0; i < g->history_length; i++)
        seen += g->history[i][0] == now[0] && g->history[i][1] == now[1];
    if (seen >= 3) g->draw = 1;
    int bottom_own = 0;
    for (int k = 0; k < g->columns; k++) bottom_own |= cell(g, k, 0) == g->turn;
    if (full && !bottom_own) g->draw = 1;
}

static void random_move(struct client *cl, int *kind, int *column) {
    struct game *g = &cl->game;
    int kinds[2 * 20], columns[2 * 20], n = 0;
    for (int c = 0; c < g->columns; c++)
        if (legal(g, 0, c)) kinds[n] = 0, columns[n++] = c;
    for (int c = 0; c < g->columns; c++)
        if (legal(g, 1, c)) kinds[n] = 1, columns[n++] = c;
    if (n == 0) { /* cannot happen: such a position is a draw */
        *kind = 0;
        *column = 0;
        return;
    }
    int pick = (int)(next_random(&cl->rng) % (uint64_t)n);
    *kind = kinds[pick];
    *column = columns[pick];
}

/* ----- bookkeeping ----------------------------------------------------------------------- */

static void record(struct totals *t, int64_t ns) {
    long bucket = (long)(ns / 1000 / BUCKET_US);
    if (bucket >= BUCKETS) bucket = BUCKETS - 1;
    t->histogram[bucket]++;
    t->samples++;
    if (ns > t->max_ns) t->max_ns = ns;
}

static long second_moves, second_sum_us, second_max_us;
static int64_t second_start;
static int verbose;

static void count_move(struct client *cl) {
    int64_t now = now_ns();
    if (verbose) {
        if (now - second_start > 1000000000) {
            fprintf(stderr, "t %.1f moves %ld mean_ms %.1f max_ms %.1f open %ld\n", (double)(now - started_ns) / 1e9,
                    second_moves, second_moves ? second_sum_us / 1000.0 / second_moves : 0.0, second_max_us / 1000.0, all.open_now);
            second_start = now;
            second_moves = second_sum_us = second_max_us = 0;
        }
        long us = (long)((now - cl->sent_ns) / 1000);
        second_moves++;
        second_sum_us += us;
        if (us > second_max_us) second_max_us = us;
    }
    if (now - started_ns < warmup_ns || now > stop_ns) return;
    all.moves++;
    by_protocol[cl->protocol].moves++;
    record(&all, now - cl->sent_ns);
    record(&by_protocol[cl->protocol], now - cl->sent_ns);
}

static void close_client(struct client *cl) {
    if (cl->fd >= 0) {
        epoll_ctl(epoll_fd, EPOLL_CTL_DEL, cl->fd, NULL);
        close(cl->fd);
        cl->fd = -1;
        all.open_now--;
    }
    if (cl->phase == IDLE) all.held--;
    if (cl->phase != CLOSED && !cl->holder && !stopping) again[again_count++] = cl;
    cl->phase = CLOSED;
}

static void fail(struct client *cl, const char *what, const char *got) {
    if (!stopping) {
        all.errors++;
        protocol_errors[cl->protocol]++;
        snprintf(last_error, sizeof last_error, "%s client %d: %s (got %.60s)",
                 PROTOCOL_NAMES[cl->protocol], cl->number, what, got ? got : "");
        for (char *p = last_error; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
    }
    close_client(cl);
}

static void game_done(struct client *cl) {
    int64_t now = now_ns();
    if (now - started_ns >= warmup_ns && now <= stop_ns) {
        all.games++;
        by_protocol[cl->protocol].games++;
    }
    cl->phase = WAIT_EOF;
}

static int send_text(struct client *cl, const char *text, size_t length) {
    ssize_t sent = send(cl->fd, text, length, MSG_NOSIGNAL);
    if (sent != (ssize_t)length) {
        fail(cl, sent < 0 ? strerror(errno) : "a short write", "");
        return 0;
    }
    return 1;
}

static void open_client(struct client *cl) {
    cl->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (cl->fd < 0) {
        cl->phase = CLOSED;
        all.errors++;
        snprintf(last_error, sizeof last_error, "socket: %s", strerror(errno));
        return;
    }
    int one = 1;
    setsockopt(cl->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    all.open_now++;
    if (all.open_now > all.peak_open) all.peak_open = all.open_now;
    cl->length = 0;
    cl->phase = CONNECTING;
    struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.ptr = cl};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, cl->fd, &event);
    if (connect(cl->fd, (struct sockaddr *)&to, sizeof to) < 0 && errno != EINPROGRESS)
        fail(cl, "connect", strerror(errno));
}

static const int SIZES[4][2] = {{7, 6}, {7, 6}, {9, 7}, {5, 4}};

/* The connection is up: greet, starting a game. */
static void greet(struct client *cl) {
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = cl};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, cl->fd, &event);
    char text[128];
    int n;
    const int *size = SIZES[next_random(&cl->rng) % 4];
    if (cl->protocol == I32CFSP) {
        int popout = (int)(next_random(&cl->rng) & 1);
        new_game(&cl->game, size[0], size[1], popout);
        char request[40];
        if (!popout)
            snprintf(request, sizeof request, "AI_GAME %d %d CLASSIC", size[0], size[1]);
        else if (size[0] == 7 && size[1] == 6)
            snprintf(request, sizeof request, "AI_GAME");
        else
            snprintf(request, sizeof request, "AI_GAME %d %d", size[0], size[1]);
        n = snprintf(text, sizeof text, "I32CFSP_HELLO load%d\r\n%s\r\n", cl->number, request);
    } else if (cl->protocol == CFSP) {
        new_game(&cl->game, size[0], size[1], 1);
        n = snprintf(text, sizeof text, "GAME %d %d\r\n", size[1], size[0]);
    } else {
        new_game(&cl->game, 7, 6, 0);
        n = snprintf(text, sizeof text, "C4N 1.0 START");
    }
    cl->phase = GREETING_1;
    send_text(cl, text, (size_t)n);
}

static void send_move(struct client *cl) {
    if (stopping) {
        close_client(cl);
        return;
    }
    int kind, column;
    random_move(cl, &kind, &column);
    cl->last_kind = kind;
    cl->last_column = column;
    char text[40];
    int n;
    if (cl->protocol == I32CFSP)
        n = snprintf(text, sizeof text, "%s %d\r\n", kind ? "POP" : "DROP", column + 1);
    else if (cl->protocol == CFSP)
        n = snprintf(text, sizeof text, "USER %d %d\r\n", kind, column + 1);
    else
        n = snprintf(text, sizeof text, "C4N 1.0 MOVE\n%d", column);
    play(&cl->game, kind, column);
    if (cl->game.too_long) return fail(cl, "a game longer than the history kept", "");
    cl->phase = WAIT_ANSWER;
    cl->sent_ns = now_ns();
    if (interval_ns) /* the next one is due an interval later (no bursts to catch up) */
        cl->due_ns = cl->due_ns + interval_ns > cl->sent_ns ? cl->due_ns + interval_ns : cl->sent_ns;
    send_text(cl, text, (size_t)n);
}

static void wheel_insert(struct client *cl) {
    if (cl->in_wheel) return; /* it will be looked at again anyway */
    int64_t slot = cl->due_ns / 1000000;
    if (slot <= wheel_done_ms) slot = wheel_done_ms + 1;
    cl->in_wheel = 1;
    cl->wheel_next = wheel[slot % WHEEL];
    wheel[slot % WHEEL] = cl;
}

/* The answer is in: the next move now, or (paced) when it is due. */
static void next_move(struct client *cl) {
    if (interval_ns == 0 || stopping) return send_move(cl);
    if (cl->due_ns <= now_ns()) return send_move(cl);
    cl->phase = WAIT_TURN;
    wheel_insert(cl);
}

/* Send the moves that are due. */
static void wheel_turn(void) {
    int64_t now = now_ns(), now_ms = now / 1000000;
    if (now_ms - wheel_done_ms > WHEEL) wheel_done_ms = now_ms - WHEEL;
    while (wheel_done_ms < now_ms) {
        wheel_done_ms++;
        struct client *cl = wheel[wheel_done_ms % WHEEL];
        wheel[wheel_done_ms % WHEEL] = NULL;
        while (cl != NULL) {
            struct client *following = cl->wheel_next;
            cl->in_wheel = 0;
            if (cl->phase == WAIT_TURN) {
                if (cl->due_ns <= now)
                    send_move(cl);
                else
                    wheel_insert(cl);
            }
            cl = following;
        }
    }
}

static void ready(struct client *cl) {
    if (cl->holder) {
        cl->phase = IDLE;
        all.held++;
        return;
    }
    next_move(cl);
}

static const char *result_line(const struct game *g) {
    return g->winner == 0 ? "WINNER_RED" : g->winner == 1 ? "WINNER_YELLOW" : g->draw ? "DRAW" : NULL;
}

/* ----- the three protocols' answers ------------------------------------------------------ */

static void i32cfsp_line(struct client *cl, const char *line) {
    char expected[64];
    const char *result;
    switch (cl->phase) {
    case GREETING_1:
        snprintf(expected, sizeof expected, "WELCOME load%d", cl->number);
        if (strcmp(line, expected) != 0) return fail(cl, "expected WELCOME", line);
        cl->phase = GREETING_2;
        return;
    case GREETING_2:
        if (strcmp(line, "READY") != 0) return fail(cl, "expected READY", line);
        return ready(cl);
    case WAIT_ANSWER:
        result = result_line(&cl->game);
        if (result != NULL) {
            if (strcmp(line, result) != 0) return fail(cl, "expected our result", line);
            count_move(cl);
            return game_done(cl);
        }
        if (strcmp(line, "OKAY") != 0) return fail(cl, "expected OKAY", line);
        cl->phase = WAIT_AI;
        return;
    case WAIT_AI: {
        int column, kind;
        if (sscanf(line, "DROP %d", &column) == 1)
            kind = 0;
        else if (sscanf(line, "POP %d", &column) == 1)
            kind = 1;
        else
            return fail(cl, "expected the AI's move", line);
        if (!legal(&cl->game, kind, column - 1)) return fail(cl, "an illegal AI move", line);
        play(&cl->game, kind, column - 1);
        cl->phase = WAIT_READY;
        return;
    }
    case WAIT_READY:
        result = result_line(&cl->game);
        if (strcmp(line, result ? result : "READY") != 0) return fail(cl, "expected READY", line);
        count_move(cl);
        if (result) return game_done(cl);
        return next_move(cl);
    default:
        return fail(cl, "a line out of turn", line);
    }
}

static void cfsp_line(struct client *cl, const char *line) {
    switch (cl->phase) {
    case GREETING_1:
        if (strcmp(line, "START") != 0) return fail(cl, "expected START", line);
        return ready(cl);
    case WAIT_ANSWER:
        if (strcmp(line, "RECEIVED") != 0) return fail(cl, "expected RECEIVED", line);
        if (over(&cl->game)) { /* the server hangs up now */
            count_move(cl);
            return game_done(cl);
        }
        cl->phase = WAIT_AI;
        send_text(cl, "MOVE\r\n", 6);
        return;
    case WAIT_AI:
        if (strcmp(line, "0") != 0 && strcmp(line, "1") != 0) return fail(cl, "expected 0 or 1", line);
        cl->ai_kind = line[0] - '0';
        cl->phase = WAIT_READY;
        send_text(cl, "COLUMN\r\n", 8);
        return;
    case WAIT_READY: {
        int column = atoi(line);
        if (!legal(&cl->game, cl->ai_kind, column - 1)) return fail(cl, "an illegal AI move", line);
        play(&cl->game, cl->ai_kind, column - 1);
        count_move(cl);
        if (over(&cl->game)) return game_done(cl);
        return next_move(cl);
    }
    default:
        return fail(cl, "a line out of turn", line);
    }
}

/* The AI's disc in a C4N BOARD payload ("6 7" then 42 cells from the top row down). */
static void c4n_board(struct client *cl, const char *payload, int first) {
    int rows, columns, offset;
    if (sscanf(payload, "%d %d%n", &rows, &columns, &offset) != 2 || rows != 6 || columns != 7)
        return fail(cl, "a BOARD that is not 6 x 7", payload);
    const char *p = payload + offset;
    int theirs = -1, count = 0;
    for (int r = rows - 1; r >= 0; r--)
        for (int c = 0; c < columns; c++) {
            while (*p == ' ' || *p == '\n') p++;
            int value = *p++ - '0';
            int mine = cell(&cl->game, c, r);
            int expected = mine < 0 ? 0 : mine == 0 ? 1 : 2;
            if (value == expected) continue;
            if (value == 2 && expected == 0 && theirs < 0 && r == height(&cl->game, c)) {
                theirs = c;
                continue;
            }
            count = -100;
        }
    if (count < 0) return fail(cl, "a BOARD that is not ours plus one AI disc", payload);
    if (first) {
        if (theirs >= 0) return fail(cl, "a first BOARD with a disc (serve without --ai-first)", payload);
        return ready(cl);
    }
    if (cl->phase == WAIT_FINAL) { /* after RESULT: the AI's last disc, if it had one */
        if (theirs >= 0) play(&cl->game, 0, theirs);
        int expected = cl->game.winner == 0 ? 1 : cl->game.winner == 1 ? 2 : cl->game.draw ? -1 : 0;
        if (cl->outcome != expected) return fail(cl, "a false RESULT", payload);
        return game_done(cl);
    }
    if (theirs < 0) return fail(cl, "a BOARD without the AI's disc", payload);
    play(&cl->game, 0, theirs);
    count_move(cl);
    if (over(&cl->game)) return fail(cl, "a BOARD after the game ended, without RESULT", payload);
    next_move(cl);
}

static void c4n_message(struct client *cl, const char *kind, const char *payload) {
    if (strcmp(kind, "BOARD") == 0) {
        if (cl->phase == GREETING_1) return c4n_board(cl, payload, 1);
        if (cl->phase == WAIT_ANSWER || cl->phase == WAIT_FINAL) return c4n_board(cl, payload, 0);
    }
    if (strcmp(kind, "RESULT") == 0 && cl->phase == WAIT_ANSWER) {
        cl->outcome = atoi(payload); /* checked against the final BOARD */
        count_move(cl);
        cl->phase = WAIT_FINAL;
        return;
    }
    fail(cl, "an unexpected C4N message", kind);
}

/* How long the whole C4N message at the start of text is; 0 while it is unfinished. */
static size_t c4n_length(const char *text, size_t length, char *kind, const char **payload) {
    if (length < 8) return 0;
    if (memcmp(text, "C4N 1.0 ", 8) != 0) return length; /* garbage: judged whole */
    size_t i = 8, k = 0;
    while (i < length && text[i] != '\n' && k < 15) kind[k++] = text[i++];
    kind[k] = 0;
    if (strcmp(kind, "BOARD") != 0 && strcmp(kind, "RESULT") != 0) return i;
    if (i >= length) return 0;
    *payload = text + i + 1;
    int needed = strcmp(kind, "BOARD") == 0 ? 44 : 1, tokens = 0;
    for (i++; i < length && tokens < needed; i++) {
        if (text[i] >= '0' && text[i] <= '9' && (i + 1 >= length || text[i + 1] < '0' || text[i + 1] > '9'))
            tokens++;
    }
    return tokens < needed ? 0 : i;
}

static void readable(struct client *cl) {
    ssize_t got = recv(cl->fd, cl->buffer + cl->length, BUFFER - 1 - cl->length, 0);
    if (got <= 0) {
        if (got < 0 && errno == EAGAIN) return;
        if (got == 0 && cl->phase == WAIT_EOF) {
            cl->reopen_ns = 0;
            return close_client(cl);
        }
        return fail(cl, got == 0 ? "the server hung up" : strerror(errno), "");
    }
    if (cl->phase == WAIT_EOF) return fail(cl, "more after the end of the game", cl->buffer);
    cl->length += (size_t)got;
    cl->buffer[cl->length] = 0;
    size_t used = 0;
    while (cl->phase != CLOSED && used < cl->length) {
        char *start = cl->buffer + used;
        if (cl->protocol == C4N) {
            char kind[16];
            const char *payload = "";
            size_t size = c4n_length(start, cl->length - used, kind, &payload);
            if (size == 0) break;
            char saved = start[size];
            start[size] = 0;
            c4n_message(cl, kind, payload);
            if (cl->phase != CLOSED) start[size] = saved;
            used += size;
        } else {
            char *end = memchr(start, '\n', cl->length - used);
            if (end == NULL) break;
            used = (size_t)(end - cl->buffer) + 1;
            if (end > start && end[-1] == '\r') end--;
            *end = 0;
            (cl->protocol == I32CFSP ? i32cfsp_line : cfsp_line)(cl, start);
        }
    }
    if (cl->phase == CLOSED) return;
    memmove(cl->buffer, cl->buffer + used, cl->length - used);
    cl->length -= used;
    if (cl->length >= BUFFER - 1) fail(cl, "an answer too long", cl->buffer);
}

static void connected(struct client *cl) {
    int problem = 0;
    socklen_t size = sizeof problem;
    getsockopt(cl->fd, SOL_SOCKET, SO_ERROR, &problem, &size);
    if (problem) return fail(cl, "connect", strerror(problem));
    greet(cl);
}

/* ----- the report ------------------------------------------------------------------------ */

static double quantile_ms(const struct totals *t, double fraction) {
    if (t->samples == 0) return -1;
    long wanted = (long)(fraction * (double)t->samples), seen = 0;
    if (wanted >= t->samples) wanted = t->samples - 1;
    for (long b = 0; b < BUCKETS; b++) {
        seen += t->histogram[b];
        if (seen > wanted) return (double)((b + 1) * BUCKET_US) / 1000.0;
    }
    return (double)t->max_ns / 1e6;
}

static void print_totals(const char *name, const struct totals *t, double window) {
    printf("%s moves %ld games %ld moves_per_s %.1f p50_ms %.2f p99_ms %.2f max_ms %.2f\n", name,
           t->moves, t->games, (double)t->moves / window, quantile_ms(t, 0.5), quantile_ms(t, 0.99),
           (double)t->max_ns / 1e6);
}

static void print_report(int used[3], long holders) {
    double window = (double)(stop_ns - started_ns - warmup_ns) / 1e9;
    print_totals("all", &all, window);
    for (int p = 0; p < 3; p++)
        if (used[p]) print_totals(PROTOCOL_NAMES[p], &by_protocol[p], window);
    printf("errors %ld peak_open %ld held_at_end %ld of %ld\n", all.errors, all.peak_open, all.held,
           holders);
    if (last_error[0]) printf("last_error %s\n", last_error);
    fflush(stdout);
}

/* ----- the loop -------------------------------------------------------------------------- */

static void handle(struct epoll_event *event) {
    struct client *cl = event->data.ptr;
    if (cl->phase == CLOSED) return;
    if (cl->phase == CONNECTING) {
        if (event->events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) connected(cl);
        return;
    }
    if (event->events & (EPOLLIN | EPOLLERR | EPOLLHUP)) readable(cl);
}

static void reopen(void) {
    int64_t now = now_ns();
    long kept = 0, waiting = again_count;
    again_count = 0;
    struct client *later[waiting > 0 ? waiting : 1];
    for (long k = 0; k < waiting; k++) {
        struct client *cl = again[k];
        if (cl->reopen_ns > now)
            later[kept++] = cl;
        else
            open_client(cl);
    }
    for (long k = 0; k < kept; k++) again[again_count++] = later[k];
}

static void run_loop(long count, int64_t until, int players, int connecting) {
    struct epoll_event events[512];
    while (now_ns() < until) {
        int timeout = (int)((until - now_ns()) / 1000000) + 1;
        int most = interval_ns && players ? 1 : 100;
        int n = epoll_wait(epoll_fd, events, 512, timeout > most ? most : timeout);
        for (int i = 0; i < n; i++) handle(&events[i]);
        if (interval_ns && players) wheel_turn();
        if (players && !stopping) reopen();
        if (connecting && all.held + all.errors >= count) break;
    }
}

int main(int argc, char **argv) {
    if (argc != 9) {
        fprintf(stderr, "usage: loadgen PORT PROTOCOL PLAYERS HOLDERS SECONDS WARMUP SEED RATE\n");
        return 2;
    }
    port = atoi(argv[1]);
    int mixed = strcmp(argv[2], "mixed") == 0, only = -1, used[3] = {0, 0, 0};
    for (int p = 0; p < 3; p++)
        if (strcmp(argv[2], PROTOCOL_NAMES[p]) == 0) only = p;
    if (!mixed && only < 0) {
        fprintf(stderr, "unknown protocol %s\n", argv[2]);
        return 2;
    }
    long players = atol(argv[3]), holders = atol(argv[4]), count = players + holders;
    double seconds = atof(argv[5]), warmup = atof(argv[6]);
    uint64_t seed = (uint64_t)atoll(argv[7]) * 0x9E3779B97F4A7C15ULL + 1;
    double rate = atof(argv[8]); /* moves per second per player; 0: no pacing */
    interval_ns = rate > 0 ? (int64_t)(1e9 / rate) : 0;
    verbose = getenv("LOADGEN_VERBOSE") != NULL;
    all.histogram = calloc(BUCKETS, sizeof(uint32_t));
    for (int p = 0; p < 3; p++) by_protocol[p].histogram = calloc(BUCKETS, sizeof(uint32_t));
    struct client *clients = calloc((size_t)count, sizeof *clients);
    again = calloc((size_t)count + 1, sizeof *again);
    epoll_fd = epoll_create1(0);
    for (long k = 0; k < count; k++) {
        struct client *cl = &clients[k];
        cl->fd = -1;
        cl->number = (int)k;
        cl->protocol = mixed ? (int)(k % 3) : only;
        cl->holder = k < holders;
        cl->rng = seed + (uint64_t)k * 0x632BE59BD9B4E019ULL;
        cl->phase = CLOSED;
        used[cl->protocol] = 1;
    }
    /* The holders first, a few hundred connecting at a time (the backlog is finite). */
    int64_t deadline = now_ns() + (int64_t)(seconds * 1e9) + 60000000000LL;
    for (long k = 0; k < holders; k += 200) {
        long end = k + 200 < holders ? k + 200 : holders;
        for (long j = k; j < end; j++) open_client(&clients[j]);
        while (all.held + all.errors < end && now_ns() < deadline) run_loop(end, now_ns() + 100000000, 0, 1);
    }
    if (holders) {
        printf("held %ld errors %ld\n", all.held, all.errors);
        fflush(stdout);
    }
    started_ns = now_ns();
    warmup_ns = (int64_t)(warmup * 1e9);
    stop_ns = started_ns + (int64_t)(seconds * 1e9);
    wheel_done_ms = started_ns / 1000000;
    for (long k = holders; k < count; k++) { /* paced players start spread over one interval */
        if (interval_ns) clients[k].due_ns = started_ns + (int64_t)(next_random(&clients[k].rng) % (uint64_t)interval_ns);
        open_client(&clients[k]);
    }
    run_loop(count, stop_ns, players > 0, 0);
    stopping = 1;
    /* Let the moves in flight finish (their answers are not counted), then hang up. */
    run_loop(count, now_ns() + 200000000, 0, 0);
    print_report(used, holders);
    for (long k = 0; k < count; k++) close_client(&clients[k]);
    return 0;
}
