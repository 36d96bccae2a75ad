/* A tiny engine in C for c4tui's engine protocol (c4tui/protocols/PROTOCOL.md): the first legal drop from the centre, else a legal pop. */
/* Build: gcc -O2 -o centre_engine centre_engine.c (tests/outside/test_engine_languages.py does). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZE 20

static int columns = 7, rows = 6, popout = 0, moves = 0;
static int heights[MAX_SIZE];
static int cells[MAX_SIZE][MAX_SIZE]; /* [column][row from the bottom]: 0 empty, 1 red, 2 yellow */

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

/* Column c (0-based) of a move word such as d4 or p12, or -1 if there is none. */
static int column_of(const char *word) {
    int column = atoi(word + 1) - 1;
    return column >= 0 && column < columns ? column : -1;
}

/* Play one move of "position": a drop stacks the mover's disc, a pop lets the column fall by one. */
static void play(const char *word) {
    int column = column_of(word), mover = moves % 2 + 1, *height;
    moves++;
    if (column < 0)
        return;
    height = &heights[column];
    if (word[0] == 'd' && *height < rows) {
        cells[column][(*height)++] = mover;
    } else if (word[0] == 'p' && *height > 0) {
        memmove(cells[column], cells[column] + 1, (size_t)(rows - 1) * sizeof(int));
        cells[column][--(*height)] = 0;
    }
}

/* The columns from the centre outwards, the left one first on a tie. */
static void centre_order(int order[]) {
    int n = 0;
    for (int distance = 0; distance <= columns; distance++)
        for (int c = 0; c < columns; c++)
            if (abs(2 * c - (columns - 1)) == distance)
                order[n++] = c;
}

static void best_move(void) {
    int order[MAX_SIZE], mover = moves % 2 + 1;
    char answer[32] = "info string no legal move";
    centre_order(order);
    for (int i = 0; i < columns && answer[0] == 'i'; i++)
        if (heights[order[i]] < rows)
            snprintf(answer, sizeof answer, "bestmove d%d", order[i] + 1);
    for (int i = 0; i < columns && popout && answer[0] == 'i'; i++)
        if (cells[order[i]][0] == mover)
            snprintf(answer, sizeof answer, "bestmove p%d", order[i] + 1);
    say(answer);
}

int main(void) {
    char *line = NULL, *word;
    size_t size = 0;
    while (getline(&line, &size, stdin) >= 0) {
        word = strtok(line, " \t\r\n");
        if (word == NULL)
            continue;
        if (strcmp(word, "c4e") == 0) {
            say("id name Centre in C");
            say("id author the c4tui tests");
            say("c4eok");
        } else if (strcmp(word, "newgame") == 0) {
            char *width = strtok(NULL, " \t\r\n"), *height = strtok(NULL, " \t\r\n");
            char *rules = strtok(NULL, " \t\r\n");
            columns = width ? atoi(width) : 7;
            rows = height ? atoi(height) : 6;
            columns = columns < 1 || columns > MAX_SIZE ? 7 : columns;
            rows = rows < 1 || rows > MAX_SIZE ? 6 : rows;
            popout = rules != NULL && strcmp(rules, "popout") == 0;
        } else if (strcmp(word, "position") == 0) {
            memset(heights, 0, sizeof heights);
            memset(cells, 0, sizeof cells);
            moves = 0;
            while ((word = strtok(NULL, " \t\r\n")) != NULL)
                play(word);
        } else if (strcmp(word, "go") == 0) {
            best_move();
        } else if (strcmp(word, "isready") == 0) {
            say("readyok");
        } else if (strcmp(word, "quit") == 0) {
            break;
        }
    }
    free(line);
    return 0;
}
