// Protean's page. The server owns the game: it sends the board, the legal
// moves taken apart (from, to, promotion, middle-cell capture, tile shift)
// and everything else shown here; the page lets the player pick one of
// those moves a part at a time and sends back its text. Nothing here
// decides what is legal.
"use strict";

const CELL = 60;
const GLYPHS = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let socket = null;
let state = null;       // the last state from the server
let flipped = false;
let selected = null;    // the cell whose piece is being moved
let pending = null;     // moves still to choose between (after from and to)
let shiftTile = null;   // Beyond Chess: the tile chosen to shift
let dragFrom = null;
let clockTimer = null;
let clockBase = null;   // [white ms, black ms, time received]

function connect() {
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => {
    $("connection").textContent = "disconnected: reload the page";
    socket = null;
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") showState(message);
    else if (message.type === "info") showInfo(message);
    else if (message.type === "error") showError(message.message);
  };
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { showError("not connected"); return; }
  $("error").textContent = "";
  socket.send(JSON.stringify(message));
}

function showError(text) { $("error").textContent = text; }

// --- New game and joining -------------------------------------------------

async function loadVariants() {
  const names = await (await fetch("/api/variants")).json();
  const select = $("variant");
  for (const name of names) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    select.appendChild(option);
  }
}

function startGame() {
  const spec = { type: "new", variant: $("variant").value, players: [$("white").value, $("black").value] };
  const fen = $("fen").value.trim();
  if (fen) spec.fen = fen;
  const clock = $("clock").value;
  if (clock) {
    const [base, increment] = clock.split("+").map(Number);
    spec.clock = { base_ms: base * 1000, increment_ms: increment * 1000 };
  }
  const amount = Math.max(1, parseInt($("strength").value, 10) || 1);
  spec.strength = { [$("strength-kind").value]: amount };
  flipped = spec.players[0] === "engine" && spec.players[1] === "human";
  $("engine-line").textContent = "";
  send(spec);
}

// --- State ----------------------------------------------------------------

function showState(s) {
  const newGame = !state || state.game !== s.game;
  state = s;
  selected = null;
  pending = null;
  shiftTile = null;
  if (newGame) $("engine-line").textContent = "";
  $("game-number").textContent = "Game " + s.game;
  $("game-variant").textContent = s.variant;
  $("fen-out").value = s.fen;
  $("pgn-out").value = s.pgn;
  $("pgn-download").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(s.pgn);
  showStatus();
  showMoves();
  showRules();
  showClocks();
  closeChooser();
  drawBoard();
  $("analyse").textContent = s.analysing ? "Stop analysis" : "Analyse";
}

function humanToMove() {
  return state && !state.result && state.players[state.side_to_move] === "human";
}

function showStatus() {
  let text;
  if (state.result) text = state.result.result + " (" + state.result.reason + ")";
  else {
    text = (state.side_to_move === "white" ? "White" : "Black") + " to move";
    if (state.check) text += ", in check";
    if (state.thinking) text += "; the engine is thinking";
  }
  $("status").textContent = text;
}

function showMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const blackFirst = state.pgn.includes("... ");
  const moves = blackFirst ? ["…"].concat(state.moves) : state.moves;
  for (let i = 0; i < moves.length; i += 2) {
    const item = document.createElement("li");
    for (const san of moves.slice(i, i + 2)) {
      const span = document.createElement("span");
      span.textContent = san;
      item.appendChild(span);
    }
    list.appendChild(item);
  }
  list.scrollTop = list.scrollHeight;
}

function showRules() {
  const panel = $("rules");
  const changes = state.rule_changes;
  const rulesChange = changes.length > 0 || state.piece_rules.some((r) => r.changed) || state.variant === "flexichess";
  panel.hidden = !rulesChange;
  if (!rulesChange) return;
  const body = $("rules-table").tBodies[0];
  body.innerHTML = "";
  for (const r of state.piece_rules) {
    const row = body.insertRow();
    row.dataset.piece = r.piece;
    if (r.changed) row.className = "changed";
    row.insertCell().textContent = r.piece;
    row.insertCell().textContent = r.name;
    row.insertCell().textContent = r.betza;
  }
  const pieceSelect = $("change-piece");
  const kept = pieceSelect.value;
  pieceSelect.innerHTML = "";
  const pieces = [...new Set(changes.map((c) => c.piece))];
  for (const p of pieces) pieceSelect.add(new Option(p, p));
  if (pieces.includes(kept)) pieceSelect.value = kept;
  fillMovements();
  $("change").disabled = !humanToMove() || changes.length === 0;
}

function fillMovements() {
  const select = $("change-movement");
  select.innerHTML = "";
  for (const c of state.rule_changes.filter((c) => c.piece === $("change-piece").value)) {
    select.add(new Option(c.name + " (" + c.betza + ")", c.text));
  }
}

function showInfo(info) {
  if (!state || info.game !== state.game) return;
  $("engine-line").textContent = "depth " + info.depth + "  " + info.score + "  " + info.nodes + " nodes\n" + info.pv.join(" ");
}

function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function showClocks() {
  clearInterval(clockTimer);
  const c = state.clocks;
  $("clocks").hidden = !c;
  if (!c) return;
  clockBase = [c.white_ms, c.black_ms, performance.now()];
  const tick = () => {
    const spent = performance.now() - clockBase[2];
    for (const [side, i] of [["white", 0], ["black", 1]]) {
      const el = $("clock-" + side);
      const left = clockBase[i] - (c.running === side ? spent : 0);
      el.textContent = side + " " + formatClock(left);
      el.classList.toggle("running", c.running === side);
    }
  };
  tick();
  if (c.running) clockTimer = setInterval(tick, 200);
}

// --- Board ----------------------------------------------------------------

function cellXY(cell) {
  const b = state.board;
  const col = flipped ? b.width - 1 - cell.file : cell.file;
  const row = flipped ? cell.rank : b.height - 1 - cell.rank;
  return [col * CELL, row * CELL];
}

function rect(parent, x, y, cls, cell) {
  const r = document.createElementNS(SVG, "rect");
  r.setAttribute("x", x); r.setAttribute("y", y);
  r.setAttribute("width", CELL); r.setAttribute("height", CELL);
  r.setAttribute("class", cls);
  if (cell) r.dataset.cell = cell;
  parent.appendChild(r);
  return r;
}

function movesFrom(cell) {
  return humanToMove() ? state.legal.filter((m) => m.from === cell) : [];
}

function drawBoard() {
  const svg = $("board");
  const b = state.board;
  svg.setAttribute("viewBox", "0 0 " + b.width * CELL + " " + b.height * CELL);
  svg.innerHTML = '<defs><radialGradient id="check-glow"><stop offset="0%" stop-color="#f00" stop-opacity="0.9"/><stop offset="100%" stop-color="#f00" stop-opacity="0"/></radialGradient></defs>';
  const targets = new Map();
  if (selected) for (const m of movesFrom(selected)) targets.set(m.to, m);
  const movableTiles = new Set(), riftTargets = new Set();
  for (const m of pending ? pending.filter((m) => m.shift) : []) {
    if (!shiftTile) movableTiles.add(m.shift[0]);
    else if (m.shift[0] === shiftTile) riftTargets.add(m.shift[1]);
  }
  for (const cell of b.cells) {
    const [x, y] = cellXY(cell);
    rect(svg, x, y, cell.rift ? "cell-rift" : cell.dark ? "cell-dark" : "cell-light", cell.name);
    if (state.last_move.includes(cell.name)) rect(svg, x, y, "last");
    if (state.check === cell.name) rect(svg, x, y, "check");
    if (selected === cell.name || shiftTile === cell.name) rect(svg, x, y, "selected");
    if (cell.piece) drawPiece(svg, x, y, cell.piece);
    const target = targets.get(cell.name);
    if (target && !pending) {
      const t = rect(svg, x + (cell.piece ? 0 : CELL * 0.3), y + (cell.piece ? 0 : CELL * 0.3), cell.piece ? "target-capture" : "target");
      if (!cell.piece) { t.setAttribute("width", CELL * 0.4); t.setAttribute("height", CELL * 0.4); t.setAttribute("rx", CELL * 0.2); }
    }
    if (movableTiles.has(cell.name)) {
      const t = rect(svg, x + 3, y + 3, "tile-movable");
      t.setAttribute("width", CELL - 6); t.setAttribute("height", CELL - 6);
    }
    if (riftTargets.has(cell.name)) rect(svg, x, y, "rift-target");
    if (b.width <= 16 && (cell.rank === (flipped ? b.height - 1 : 0) || b.height === 1)) {
      label(svg, x + CELL - 10, y + CELL - 4, cell.name.replace(/-?\d+$/, ""));
    }
    if (cell.file === (flipped ? b.width - 1 : 0) && b.height > 1) label(svg, x + 2, y + 12, cell.name.replace(/^[a-z]+/, ""));
  }
  // Cells on top of everything catch the clicks.
  for (const cell of b.cells) {
    const [x, y] = cellXY(cell);
    const hit = rect(svg, x, y, "hit", cell.name);
    hit.setAttribute("fill", "transparent");
  }
}

function label(svg, x, y, text) {
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("x", x); t.setAttribute("y", y);
  t.setAttribute("class", "coord");
  t.textContent = text;
  svg.appendChild(t);
}

function drawPiece(svg, x, y, letter) {
  const white = letter === letter.toUpperCase();
  const upper = letter.toUpperCase();
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("x", x + CELL / 2); t.setAttribute("y", y + CELL / 2 + 2);
  if (GLYPHS[upper]) {
    t.setAttribute("class", "piece " + (white ? "white" : "black"));
    t.textContent = GLYPHS[upper];
  } else {
    t.setAttribute("class", "piece-letter " + (white ? "white" : "black"));
    t.textContent = upper;
  }
  svg.appendChild(t);
}

// --- Choosing a move, a part at a time ------------------------------------

function clickCell(name) {
  if (!humanToMove()) return;
  if (pending) { chooseShiftCell(name); return; }
  if (selected && selected !== name) {
    const candidates = state.legal.filter((m) => m.from === selected && m.to === name);
    if (candidates.length) { narrow(candidates); return; }
  }
  selected = movesFrom(name).length && selected !== name ? name : null;
  drawBoard();
}

// Narrows the moves that share from and to: promotion first, then where a
// two-leg jump captures, then the tile shift; one move left is played.
function narrow(candidates) {
  pending = candidates;
  const promotions = distinct(candidates, (m) => m.promotion);
  if (promotions.length > 1) {
    ask("Promote to:", promotions.map((p) => [p === null ? "No promotion" : p, "promotion-" + (p || "none"), () => narrow(candidates.filter((m) => m.promotion === p))]));
    return;
  }
  const legs = distinct(candidates, (m) => m.captures_on);
  if (legs.length > 1) {
    ask("The knight passes a piece:", legs.map((c) => [c === null ? "Jump over it" : "Take on " + c, "leg-" + (c || "over"), () => narrow(candidates.filter((m) => m.captures_on === c))]));
    return;
  }
  if (candidates.length === 1 && !candidates[0].shift) { play(candidates[0]); return; }
  // Beyond Chess: the turn goes on with a tile shift.
  closeChooser();
  shiftTile = null;
  const options = candidates.some((m) => !m.shift) ? [["No shift", "shift-none", () => play(candidates.find((m) => !m.shift))]] : [];
  ask("Now shift a tile: click a highlighted tile, then the rift it moves to.", options.concat([["Cancel", "cancel", cancel]]));
  drawBoard();
}

function chooseShiftCell(name) {
  const shifting = pending.filter((m) => m.shift);
  if (shiftTile) {
    const m = shifting.find((m) => m.shift[0] === shiftTile && m.shift[1] === name);
    if (m) { play(m); return; }
  }
  shiftTile = shifting.some((m) => m.shift[0] === name) ? name : null;
  drawBoard();
}

function distinct(moves, part) {
  return [...new Set(moves.map(part))];
}

function ask(question, choices) {
  const box = $("chooser");
  box.innerHTML = "";
  const q = document.createElement("div");
  q.textContent = question;
  box.appendChild(q);
  for (const [text, id, act] of choices) {
    const button = document.createElement("button");
    button.textContent = text;
    button.dataset.choice = id;
    button.onclick = act;
    box.appendChild(button);
  }
  box.hidden = false;
}

function closeChooser() { $("chooser").hidden = true; }

function cancel() {
  selected = null; pending = null; shiftTile = null;
  closeChooser();
  drawBoard();
}

function play(m) {
  closeChooser();
  send({ type: "move", game: state.game, move: m.text });
}

function cellAt(event) {
  const el = document.elementFromPoint(event.clientX, event.clientY);
  return el && el.dataset ? el.dataset.cell : undefined;
}

function setUpBoardInput() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (event) => {
    const name = cellAt(event);
    if (!name || !state) return;
    dragFrom = name;
    clickCell(name);
  });
  svg.addEventListener("pointerup", (event) => {
    const name = cellAt(event);
    const from = dragFrom;
    dragFrom = null;
    // A drag ends on another cell: the same as clicking it.
    if (name && from && name !== from) clickCell(name);
  });
}

// --- Controls -------------------------------------------------------------

function setUp() {
  connect();
  loadVariants();
  setUpBoardInput();
  $("start").onclick = startGame;
  $("join").onclick = () => send({ type: "join", game: parseInt($("join-number").value, 10) || 0 });
  $("flip").onclick = () => { flipped = !flipped; if (state) drawBoard(); };
  $("undo").onclick = () => state && send({ type: "undo", game: state.game });
  $("analyse").onclick = () => state && send({ type: "analyse", game: state.game, on: !state.analysing });
  $("change-piece").onchange = fillMovements;
  $("change").onclick = () => {
    const text = $("change-movement").value;
    if (state && text) send({ type: "move", game: state.game, move: text });
  };
  $("strength-kind").onchange = () => {
    $("strength").value = { movetime: 1000, depth: 8, nodes: 100000 }[$("strength-kind").value];
  };
}

setUp();
