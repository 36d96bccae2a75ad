// A tiny engine in JavaScript (Node) for c4tui's engine protocol (c4tui/protocols/PROTOCOL.md): the first legal drop from the centre, else a legal pop.
// Run: node centre_engine.js
"use strict";
const readline = require("readline");

let columns = 7;
let rows = 6;
let popout = false;
let board = [];  // board[column]: its discs from the bottom up, 1 red, 2 yellow
let mover = 1;

function say(line) {
  process.stdout.write(line + "\n");  // a pipe's writes are synchronous on Linux: no flush needed
}

// The game so far from the empty board: a drop stacks the mover's disc, a pop takes the bottom one.
function follow(moves) {
  board = Array.from({ length: columns }, () => []);
  mover = 1;
  for (const move of moves) {
    const column = board[Number(move.slice(1)) - 1];
    if (column !== undefined && move[0] === "d") column.push(mover);
    if (column !== undefined && move[0] === "p") column.shift();
    mover = 3 - mover;
  }
}

// The columns from the centre outwards, the left one first on a tie.
function centreOrder() {
  const order = Array.from({ length: columns }, (_, column) => column);
  const distance = (column) => Math.abs(2 * column - (columns - 1));
  return order.sort((a, b) => distance(a) - distance(b) || a - b);
}

function bestMove() {
  const order = centreOrder();
  const drop = order.find((column) => board[column].length < rows);
  if (drop !== undefined) return say(`bestmove d${drop + 1}`);
  const pop = popout ? order.find((column) => board[column][0] === mover) : undefined;
  say(pop !== undefined ? `bestmove p${pop + 1}` : "info string no legal move");
}

follow([]);
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const words = line.trim().split(/\s+/);
  if (words[0] === "c4e") {
    say("id name Centre in Node");
    say("id author the c4tui tests");
    say("c4eok");
  } else if (words[0] === "newgame") {
    columns = Number(words[1]) || 7;
    rows = Number(words[2]) || 6;
    popout = words[3] === "popout";
  } else if (words[0] === "position") {
    follow(words.slice(1));
  } else if (words[0] === "go") {
    bestMove();
  } else if (words[0] === "isready") {
    say("readyok");
  } else if (words[0] === "quit") {
    process.exit(0);
  }
});
