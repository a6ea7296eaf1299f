// Protean's page. The server owns the game: it sends each board, its legal
// moves taken apart (from, to, promotion, middle-cell capture, tile shift)
// and everything else shown here; the page lets the player pick one of
// those moves a part at a time and sends back its text. Nothing here
// decides what is legal. A Perplexichess game has several boards; a
// person may play one of them or be a team's grand strategist.
"use strict";

const CELL = 60;
const GLYPHS = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let socket = null;
let state = null;       // the last state from the server
let focus = 0;          // the board the side panel shows
let flipped = false;
let selected = null;    // {board, cell, fen}: the piece being moved
let pending = null;     // moves still to choose between (after from and to)
let shiftTile = null;   // Beyond Chess: the tile chosen to shift
let transferFrom = null; // {board, cell}: the strategist's piece to transfer
let dragFrom = null;
let pressedSelected = false; // the press began on the piece already selected
let clockTimer = null;
let stateReceived = 0;  // when the last state came (the clocks count from it)

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
  for (const name of names) $("variant").add(new Option(name, name));
  fillSeats();
}

function fillSeats() {
  const seat = $("seat");
  seat.innerHTML = "";
  seat.add(new Option("nothing: watch the engines", "watch"));
  for (const color of ["white", "black"]) seat.add(new Option(color + "'s grand strategist", "strategist-" + color));
  for (let b = 1; b <= Number($("board-count").value); b++) {
    for (const color of ["white", "black"]) seat.add(new Option("board " + b + ", " + color, "board-" + (b - 1) + "-" + color));
  }
}

function variantChosen() {
  const team = $("variant").value === "perplexichess";
  $("team-setup").hidden = !team;
  $("players-setup").hidden = team;
  // Every Perplexichess board starts from the start position.
  $("fen").closest("label").hidden = team;
}

function startGame() {
  const spec = { type: "new", variant: $("variant").value };
  if (spec.variant === "perplexichess") {
    spec.boards = Number($("board-count").value);
    const seat = $("seat").value.split("-");
    if (seat[0] === "watch") spec.seat = "watch";
    else if (seat[0] === "strategist") spec.seat = { strategist: { color: seat[1] } };
    else spec.seat = { board: { board: Number(seat[1]), color: seat[2] } };
    flipped = seat[seat.length - 1] === "black";
  } else {
    spec.players = [$("white").value, $("black").value];
    flipped = spec.players[0] === "engine" && spec.players[1] === "human";
  }
  const fen = $("fen").value.trim();
  if (fen && spec.variant !== "perplexichess") spec.fen = fen;
  const clock = $("clock").value;
  if (clock) {
    const [base, increment] = clock.split("+").map(Number);
    spec.clock = { base_ms: base * 1000, increment_ms: increment * 1000 };
  }
  const amount = Math.max(1, parseInt($("strength").value, 10) || 1);
  spec.strength = { [$("strength-kind").value]: amount };
  $("engine-line").textContent = "";
  send(spec);
}

// --- State ----------------------------------------------------------------

function board(i) { return state.boards[i]; }

function humanStrategist() {
  if (!state || !state.team) return null;
  const i = state.team.strategists.indexOf("human");
  return i < 0 ? null : ["white", "black"][i];
}

function showState(s) {
  const newGame = !state || state.game !== s.game;
  state = s;
  stateReceived = performance.now();
  if (newGame) {
    $("engine-line").textContent = "";
    const mine = s.boards.findIndex((b) => b.players.white === "human" || b.players.black === "human");
    focus = mine < 0 ? 0 : mine;
    transferFrom = null;
    clearChoice();
  }
  // A choice half made stays only while its board stays as it was (other
  // boards of a Perplexichess game move meanwhile).
  if (selected && (!humanToMove(selected.board) || board(selected.board).fen !== selected.fen)) clearChoice();
  if (transferFrom && !board(transferFrom.board).board.cells.some((c) => c.name === transferFrom.cell && c.piece)) transferFrom = null;
  $("game-number").textContent = "Game " + s.game;
  $("game-variant").textContent = s.variant + (s.boards.length > 1 ? ", board " + (focus + 1) : "");
  $("team-status").textContent = s.team ? teamText() : "";
  showFocus();
  drawBoards();
}

function teamText() {
  const done = state.boards.filter((b) => b.result).length;
  const strategist = humanStrategist();
  let text = state.team.result ? "Result: " + state.team.result : done + " of " + state.boards.length + " boards finished";
  if (strategist) text += ". You are " + strategist + "'s grand strategist: click one of your pieces, then another board.";
  return text;
}

// The side panel and status line: the focused board.
function showFocus() {
  const b = board(focus);
  $("fen-out").value = b.fen;
  $("pgn-out").value = b.pgn;
  $("pgn-download").href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(b.pgn);
  $("status").textContent = statusText(b);
  showMoves(b);
  showRules(b);
  $("analyse").textContent = b.analysing ? "Stop analysis" : "Analyse";
}

function humanToMove(i) {
  const b = state && state.boards[i];
  return b && !b.result && b.players[b.side_to_move] === "human";
}

function statusText(b) {
  if (b.result) return b.result.result + " (" + b.result.reason + ")";
  let text = (b.side_to_move === "white" ? "White" : "Black") + " to move";
  if (b.check) text += ", in check";
  if (b.thinking) text += "; the engine is thinking";
  return text;
}

function showMoves(b) {
  const list = $("moves");
  list.innerHTML = "";
  const moves = b.pgn.includes("... ") ? ["…"].concat(b.moves) : b.moves;
  let item = null;
  let count = 0;
  for (const san of moves) {
    const comment = san.startsWith("{");
    if (!item || (!comment && count === 2)) { item = document.createElement("li"); list.appendChild(item); count = 0; }
    const span = document.createElement("span");
    span.textContent = san;
    if (comment) span.className = "comment"; else count++;
    item.appendChild(span);
  }
  list.scrollTop = list.scrollHeight;
}

function showRules(b) {
  const panel = $("rules");
  const changes = b.rule_changes;
  const rulesChange = changes.length > 0 || b.piece_rules.some((r) => r.changed) || b.rule_changes_closed;
  panel.hidden = !rulesChange;
  if (!rulesChange) return;
  $("rules-closed").hidden = !b.rule_changes_closed;
  $("rules-closed").textContent = b.rule_changes_closed || "";
  const body = $("rules-table").tBodies[0];
  body.innerHTML = "";
  for (const r of b.piece_rules) {
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
  $("change").disabled = $("change-typed").disabled = !humanToMove(focus) || changes.length === 0;
}

function fillMovements() {
  const select = $("change-movement");
  const kept = select.value;
  select.innerHTML = "";
  for (const c of board(focus).rule_changes.filter((c) => c.piece === $("change-piece").value)) {
    select.add(new Option(c.name + " (" + c.betza + ")", c.text));
  }
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
}

function showInfo(info) {
  if (!state || info.game !== state.game || info.board !== focus) return;
  $("engine-line").textContent = "depth " + info.depth + "  " + info.score + "  " + info.nodes + " nodes\n" + info.pv.join(" ");
}

function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// Every board's clocks tick between two states from the server.
function showClocks() {
  clearInterval(clockTimer);
  const tick = () => {
    const spent = performance.now() - stateReceived;
    for (const b of state.boards) {
      const c = b.clocks;
      if (!c) continue;
      for (const side of ["white", "black"]) {
        const el = document.getElementById("clock-" + side + (state.boards.length > 1 ? "-" + b.board_number : ""));
        if (!el) continue;
        el.textContent = side + " " + formatClock(c[side + "_ms"] - (c.running === side ? spent : 0));
        el.classList.toggle("running", c.running === side);
      }
    }
  };
  $("clocks").hidden = state.boards.length > 1 || !state.boards[0].clocks;
  setTimeout(tick);
  if (state.boards.some((b) => b.clocks && b.clocks.running)) clockTimer = setInterval(tick, 200);
}

// --- Boards ---------------------------------------------------------------

function cellXY(b, cell) {
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

function movesFrom(i, cell) {
  return humanToMove(i) ? board(i).legal[cell] || [] : [];
}

function drawBoards() {
  const container = $("boards");
  container.innerHTML = "";
  container.className = state.boards.length > 1 ? "several" : "one";
  state.boards.forEach((b, i) => {
    const frame = document.createElement("div");
    frame.className = "board-frame" + (i === focus && state.boards.length > 1 ? " focused" : "");
    frame.dataset.board = i;
    if (state.boards.length > 1) {
      const caption = document.createElement("div");
      caption.className = "caption";
      const who = (p) => (p === "human" ? "you" : "engine");
      caption.innerHTML = "<b>Board " + (i + 1) + "</b> white: " + who(b.players.white) + ", black: " + who(b.players.black) +
        '<br><span id="clock-white-' + i + '" class="clock"></span> <span id="clock-black-' + i + '" class="clock"></span> <span class="board-status"></span>';
      caption.querySelector(".board-status").textContent = statusText(b);
      caption.onclick = () => { focus = i; showFocus(); drawBoards(); };
      frame.appendChild(caption);
    }
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "board");
    svg.dataset.board = i;
    frame.appendChild(svg);
    container.appendChild(frame);
    drawBoard(svg, i);
  });
  showClocks();
}

function drawBoard(svg, i) {
  const b = board(i);
  const geometry = b.board;
  svg.setAttribute("viewBox", "0 0 " + geometry.width * CELL + " " + geometry.height * CELL);
  svg.innerHTML = '<defs><radialGradient id="check-glow"><stop offset="0%" stop-color="#f00" stop-opacity="0.9"/><stop offset="100%" stop-color="#f00" stop-opacity="0"/></radialGradient></defs>';
  const here = (choice) => choice && choice.board === i;
  const targets = new Map();
  if (here(selected) && !pending) for (const m of movesFrom(i, selected.cell)) targets.set(m.to, m);
  const movableTiles = new Set(), riftTargets = new Set();
  for (const m of here(selected) && pending ? pending.filter((m) => m.shift) : []) {
    if (!shiftTile) movableTiles.add(m.shift[0]);
    else if (m.shift[0] === shiftTile) riftTargets.add(m.shift[1]);
  }
  for (const cell of geometry.cells) {
    const [x, y] = cellXY(geometry, cell);
    rect(svg, x, y, cell.rift ? "cell-rift" : cell.dark ? "cell-dark" : "cell-light");
    if (b.last_move.includes(cell.name)) rect(svg, x, y, "last");
    if (b.check === cell.name) rect(svg, x, y, "check");
    if ((here(selected) && selected.cell === cell.name) || (here(selected) && shiftTile === cell.name) || (here(transferFrom) && transferFrom.cell === cell.name)) rect(svg, x, y, "selected");
    if (cell.piece) drawPiece(svg, x, y, cell.piece);
    if (targets.has(cell.name)) {
      const t = rect(svg, x + (cell.piece ? 0 : CELL * 0.3), y + (cell.piece ? 0 : CELL * 0.3), cell.piece ? "target-capture" : "target");
      if (!cell.piece) { t.setAttribute("width", CELL * 0.4); t.setAttribute("height", CELL * 0.4); t.setAttribute("rx", CELL * 0.2); }
    }
    if (movableTiles.has(cell.name)) {
      const t = rect(svg, x + 3, y + 3, "tile-movable");
      t.setAttribute("width", CELL - 6); t.setAttribute("height", CELL - 6);
    }
    if (riftTargets.has(cell.name)) rect(svg, x, y, "rift-target");
    if (cell.rank === (flipped ? geometry.height - 1 : 0) || geometry.height === 1) {
      label(svg, x + CELL - 10, y + CELL - 4, cell.name.replace(/-?\d+$/, ""));
    }
    if (cell.file === (flipped ? geometry.width - 1 : 0) && geometry.height > 1) label(svg, x + 2, y + 12, cell.name.replace(/^[a-z]+/, ""));
  }
  // Cells on top of everything catch the clicks.
  for (const cell of geometry.cells) {
    const [x, y] = cellXY(geometry, cell);
    const hit = rect(svg, x, y, "hit", cell.name);
    hit.dataset.board = i;
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
  t.setAttribute("class", (GLYPHS[upper] ? "piece " : "piece-letter ") + (white ? "white" : "black"));
  t.textContent = GLYPHS[upper] || upper;
  svg.appendChild(t);
}

function redraw() { drawBoards(); }

// --- Choosing a move, a part at a time ------------------------------------

function clickCell(i, name) {
  if (!state) return;
  if (humanStrategist()) { clickTransfer(i, name); return; }
  if (!humanToMove(i)) return;
  if (i !== focus) { focus = i; showFocus(); }
  if (pending && selected.board === i) { chooseShiftCell(name); return; }
  if (selected && selected.board === i && selected.cell !== name) {
    const candidates = (board(i).legal[selected.cell] || []).filter((m) => m.to === name);
    if (candidates.length) { narrow(candidates); return; }
  }
  const again = selected && selected.board === i && selected.cell === name;
  selected = movesFrom(i, name).length && !again ? { board: i, cell: name, fen: board(i).fen } : null;
  redraw();
}

// The grand strategist: one of the team's pieces, then any cell of
// another board (the piece goes to the same cell there).
function clickTransfer(i, name) {
  const color = humanStrategist();
  const cell = board(i).board.cells.find((c) => c.name === name);
  const ours = cell && cell.piece && (cell.piece === cell.piece.toUpperCase()) === (color === "white");
  if (transferFrom && transferFrom.board !== i) {
    send({ type: "transfer", game: state.game, from: transferFrom.board, cell: transferFrom.cell, to: i });
    transferFrom = null;
  } else {
    transferFrom = ours && !(transferFrom && transferFrom.cell === name) ? { board: i, cell: name } : null;
  }
  redraw();
}

// Narrows the moves that share from and to: promotion first, then where a
// two-leg jump captures, then the tile shift; one move left is played.
function narrow(candidates) {
  pending = candidates;
  redraw();
  const promotions = distinct(candidates, (m) => m.promotion);
  if (promotions.length > 1) {
    ask("Promote to:", promotions.map((p) => [p === null ? "No promotion" : p, "promotion-" + (p || "none"), () => narrow(candidates.filter((m) => m.promotion === p))]).concat([CANCEL]));
    return;
  }
  const legs = distinct(candidates, (m) => m.captures_on);
  if (legs.length > 1) {
    ask("The knight passes a piece:", legs.map((c) => [c === null ? "Jump over it" : "Take on " + c, "leg-" + (c || "over"), () => narrow(candidates.filter((m) => m.captures_on === c))]).concat([CANCEL]));
    return;
  }
  if (candidates.length === 1 && !candidates[0].shift) { play(candidates[0]); return; }
  // Beyond Chess: the turn goes on with a tile shift.
  shiftTile = null;
  const options = candidates.some((m) => !m.shift) ? [["No shift", "shift-none", () => play(candidates.find((m) => !m.shift))]] : [];
  ask("Now shift a tile: click a highlighted tile, then the rift it moves to.", options.concat([CANCEL]));
  redraw();
}

function chooseShiftCell(name) {
  const shifting = pending.filter((m) => m.shift);
  if (shiftTile) {
    const m = shifting.find((m) => m.shift[0] === shiftTile && m.shift[1] === name);
    if (m) { play(m); return; }
  }
  shiftTile = shifting.some((m) => m.shift[0] === name) ? name : null;
  redraw();
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

// Drops a move half chosen.
function clearChoice() {
  selected = null; pending = null; shiftTile = null;
  closeChooser();
}

const CANCEL = ["Cancel", "cancel", () => { clearChoice(); redraw(); }];

function play(m) {
  const i = selected.board;
  clearChoice();
  send({ type: "move", game: state.game, board: i, move: m.text });
}

function cellAt(event) {
  const el = document.elementFromPoint(event.clientX, event.clientY);
  return el && el.dataset && el.dataset.cell ? [Number(el.dataset.board), el.dataset.cell] : null;
}

function setUpBoardInput() {
  const container = $("boards");
  const isChosen = ([i, cell]) =>
    (selected && !pending && selected.board === i && selected.cell === cell) || (transferFrom && transferFrom.board === i && transferFrom.cell === cell);
  container.addEventListener("pointerdown", (event) => {
    const at = cellAt(event);
    if (!at) return;
    dragFrom = at;
    // Pressing the piece already chosen keeps it, so that it can be
    // dragged; releasing it where it was lets it go.
    pressedSelected = isChosen(at);
    if (!pressedSelected) clickCell(...at);
  });
  container.addEventListener("pointerup", (event) => {
    const at = cellAt(event);
    const from = dragFrom;
    dragFrom = null;
    if (!at || !from) return;
    const moved = at[0] !== from[0] || at[1] !== from[1];
    // A drag ends on another cell: the same as clicking it.
    if (moved || pressedSelected) clickCell(...at);
  });
}

// --- Controls -------------------------------------------------------------

function setUp() {
  connect();
  loadVariants();
  setUpBoardInput();
  $("variant").onchange = variantChosen;
  $("board-count").onchange = fillSeats;
  $("start").onclick = startGame;
  $("join").onclick = () => {
    flipped = false;
    send({ type: "join", game: parseInt($("join-number").value, 10) || 0 });
  };
  $("flip").onclick = () => { flipped = !flipped; if (state) redraw(); };
  $("undo").onclick = () => state && send({ type: "undo", game: state.game, board: focus });
  $("analyse").onclick = () => state && send({ type: "analyse", game: state.game, board: focus, on: !board(focus).analysing });
  $("change-piece").onchange = fillMovements;
  // A written change may be any text: the server plays it if it is a
  // legal change, or says why not.
  const change = (text) => { if (state && text) send({ type: "move", game: state.game, board: focus, move: text }); };
  $("change").onclick = () => change($("change-movement").value);
  $("change-typed").onclick = () => change($("change-text").value.trim());
  $("strength-kind").onchange = () => {
    $("strength").value = { movetime: 1000, depth: 8, nodes: 100000 }[$("strength-kind").value];
  };
}

setUp();
