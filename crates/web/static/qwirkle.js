"use strict";
// Qwirkle: the board (with coordinates, growing with the tiles), your hand, placing several
// tiles then confirming, trading; the bots' hands are never sent to the browser.

const Q_COLOURS = { R: "#e63946", O: "#f4a261", Y: "#ffd166", G: "#06d6a0", B: "#4dabf7", P: "#b47cff" };
const Q_SHAPES = { 1: "●", 2: "✚", 3: "◆", 4: "■", 5: "★", 6: "✸" };

const Q_NAMES = { R: "red", O: "orange", Y: "yellow", G: "green", B: "blue", P: "purple" };
const Q_SHAPE_NAMES = { 1: "circle", 2: "cross", 3: "diamond", 4: "square", 5: "star", 6: "clover" };

// A tile: its shape in its colour, with the colour's letter in the corner for colour-blind
// players (the shape is already a symbol).
function qTile(t, extra) {
  return el("span", { class: `qtile ${extra || ""}`, "data-tile": t, title: `${Q_NAMES[t[0]] || ""} ${Q_SHAPE_NAMES[t.slice(1)] || ""} (${t})`,
    style: { color: Q_COLOURS[t[0]] || "#fff" } }, Q_SHAPES[t.slice(1)] || t, el("span", { class: "qletter", text: t[0] }));
}

function qDescribe(aj) {
  return aj.type === "place" ? `placed ${aj.cells.map((c) => c.tile).join(" ")} at ${aj.cells.map((c) => `(${c.x},${c.y})`).join(" ")}`
    : aj.type === "trade" ? `traded ${aj.count} tiles` : "passed";
}

const QwirkleView = {
  // opts: { pending: [{x,y,tile}], open: bool (cells clickable), onCell(x,y), highlight: action_json,
  //         marks: {seat: action_json} (each seat's last placement), legal: Set("x,y") cells
  //         where the selected tile can go, hint: action_json, appear: action_json (new tiles) }
  render(container, v, opts) {
    opts = opts || {};
    clear(container);
    const pending = opts.pending || [];
    const hl = opts.highlight && opts.highlight.type === "place" ? opts.highlight.cells : [];
    const cellsOf = (aj) => (aj && aj.type === "place" ? aj.cells : []);
    const marked = Object.values(opts.marks || {}).flatMap(cellsOf);
    const appear = cellsOf(opts.appear);
    const hinted = cellsOf(opts.hint);
    const legal = opts.legal || new Set();
    const has = (list, x, y) => list.some((c) => c.x === x && c.y === y);
    // The window holds the board, the pending tiles and a hinted placement.
    let [x0, y0, x1, y1] = v.bounds || [0, 0, 0, 0];
    for (const p of [...pending, ...hinted]) { x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y); }
    x0 -= 1; y0 -= 1; x1 += 1; y1 += 1;
    const at = new Map(v.tiles.map((t) => [`${t.x},${t.y}`, t.tile]));
    const pend = new Map(pending.map((t) => [`${t.x},${t.y}`, t.tile]));
    const board = el("div", { class: "qboard", id: "qboard", style: { gridTemplateColumns: `24px repeat(${x1 - x0 + 1}, 38px)` } });
    board.appendChild(el("div", { class: "qcell coord" }));
    for (let x = x0; x <= x1; x++) board.appendChild(el("div", { class: "qcell coord", text: String(x) }));
    for (let y = y0; y <= y1; y++) {
      board.appendChild(el("div", { class: "qcell coord", text: String(y) }));
      for (let x = x0; x <= x1; x++) {
        const key = `${x},${y}`;
        const cell = el("div", { class: "qcell", "data-x": x, "data-y": y, title: `(${x}, ${y})` });
        if (at.has(key)) {
          const cls = [has(hl, x, y) ? "last" : "", has(marked, x, y) ? "mark" : "", has(appear, x, y) ? "appear" : ""].join(" ");
          cell.appendChild(qTile(at.get(key), cls));
        } else if (pend.has(key)) cell.appendChild(qTile(pend.get(key), "pending"));
        else {
          if (has(hinted, x, y)) cell.appendChild(qTile(hinted.find((c) => c.x === x && c.y === y).tile, "pending hinted"));
          if (opts.open) {
            cell.classList.add("open");
            if (legal.has(key)) cell.classList.add("legal");
            cell.addEventListener("click", () => opts.onCell(x, y));
          }
        }
        board.appendChild(cell);
      }
    }
    container.appendChild(el("div", { style: { overflow: "auto", maxWidth: "100%" } }, board));
  },
};

const QwirklePage = {
  fast: new URLSearchParams(location.search).has("fast"),
  snap: null, pending: [], selected: null, tradeMode: false, tradeSel: new Set(), labels: [],
  marks: {}, hint: null,

  async init() {
    const cat = await api("GET", "/api/catalog");
    const info = cat.games.find((g) => g.name === "qwirkle") || { agents: [] };
    this.info = info;
    const count = document.getElementById("players");
    const seats = document.getElementById("seats");
    const rebuild = () => { this.readSeats = seatEditor(seats, parseInt(count.value, 10), info); };
    count.addEventListener("change", rebuild);
    rebuild();
    this.readClock = clockPicker();
    Pace.init();
    this.log = new MoveLog(document.getElementById("log"));
    document.getElementById("hint").addEventListener("click", () => this.askHint());
    document.getElementById("undo").addEventListener("click", () => this.undo());
    document.getElementById("start").addEventListener("click", () => this.start());
    document.getElementById("confirm").addEventListener("click", () => this.confirm());
    document.getElementById("clear").addEventListener("click", () => { this.pending = []; this.selected = null; this.draw(); });
    document.getElementById("trade").addEventListener("click", () => this.trade());
    document.getElementById("pass").addEventListener("click", () => this.send("pass"));
    const ng = document.getElementById("newgame");
    if (ng) ng.addEventListener("click", (e) => { e.preventDefault(); this.leave(); });
    await openFromAddress(this, "qwirkle");
  },

  // Leaving a game being played asks first (the game stays at its address).
  leave() {
    const running = this.snap && this.snap.status === "playing" && this.me !== null;
    if (running && !confirm("Leave this game? It stays at its address, so you can come back to it, but nobody plays your seat meanwhile.")) return;
    location.href = location.pathname;
  },

  async open(id, first) {
    let snap = first;
    if (!snap) {
      try { snap = await api("GET", `/api/games/${id}`); } catch (e) { setStatus(e.message, "error"); return; }
    }
    document.getElementById("setup").style.display = "none";
    document.getElementById("game").style.display = "";
    this.setLabels(snap);
    const mine = snap.my_seats || [];
    this.me = mine.length ? mine[0] : null;
    document.getElementById("pause").style.display = snap.seats.some((s) => s.type === "human") ? "none" : "";
    this.snap = snap;
    this.follower = new GameFollower(id, this.me, (st, s) => this.onStep(st, s), (s) => this.onSnapshot(s));
    this.follower.run();
  },

  setLabels(snap) {
    this.labels = snap.seats.map((s, i) => s.type === "human" ? (s.free ? `free seat ${i + 1}` : s.name) : `${s.name} (AI, seat ${i + 1})`);
  },

  // A double click (or a second click while the first request is out) starts one game.
  async start() {
    if (this.starting) return;
    this.starting = true;
    document.getElementById("start").disabled = true;
    try { await this.startGame(); } finally {
      this.starting = false;
      document.getElementById("start").disabled = false;
    }
  },

  async startGame() {
    const body = { game: "qwirkle", seats: this.nextSeats || this.readSeats() };
    this.nextSeats = null;
    const seed = document.getElementById("seed").value.trim();
    if (seed) body.seed = Number(seed);
    // "Play again" keeps the finished game's clock; otherwise the setup's choice.
    const clock = this.nextClock || this.readClock();
    this.nextClock = null;
    if (clock) body.clock = clock;
    // One id per game asked for: a retry of the same Start gets the same game.
    this.startId = this.startId || requestId();
    body.request_id = this.startId;
    let snap;
    try { snap = await api("POST", "/api/games", body); } catch (e) { setStatus(e.message, "error"); return; }
    this.startId = null;
    for (const t of snap.tokens || []) if (!snap.seats[t.seat].free) Seats.add(snap.id, t.seat, t.token);
    history.pushState(null, "", snap.url);
    showInvites(snap, snap.tokens);
    await this.open(snap.id, snap);
  },

  async onStep(st, snap) {
    if (st.type !== "action") return;
    const aj = st.action_json;
    this.marks[st.player] = aj;
    this.markSteps = (this.markSteps || []).concat([{ index: st.index, player: st.player, aj }]);
    if (this.hint) document.getElementById("hint-box").style.display = "none";
    this.hint = null;
    QwirkleView.render(document.getElementById("board"), st.view, { highlight: aj, marks: this.marks, appear: aj });
    const what = aj.type === "place" ? `placed ${aj.cells.length} tile(s) for ${aj.points} points` : aj.type === "trade" ? `traded ${aj.count} tiles` : "passed";
    setStatus(`${this.labels[st.player]} ${what}`);
    if (snap.seats[st.player].type === "ai") moveToast(`${this.labels[st.player]} ${what}`);
    this.log.add(this.labels[st.player], st.player, qDescribe(aj), aj.type === "place" ? aj.points : null, st.index);
    if (snap.seats[st.player].type === "ai") await Pace.wait(900);
  },

  onSnapshot(snap) {
    this.snap = snap;
    this.setLabels(snap);
    GameClocks.update(snap, this.labels);
    this.pending = []; this.selected = null; this.tradeSel.clear();
    this.draw();
    document.getElementById("undo").style.display = snap.can_undo ? "" : "none";
    document.getElementById("hint").style.display = this.info.hints && snap.can_hint ? "" : "none";
    if (snap.status === "finished") {
      const w = snap.outcome.winners.map((p) => this.labels[p]).join(" and ");
      const flag = snap.clock ? snap.clock.flag : null;
      const onTime = flag !== null && flag !== undefined ? `, ${this.labels[flag]} lost on time` : "";
      setStatus(`Game over: ${w} ${snap.outcome.winners.length > 1 ? "share the win" : "wins"} (${snap.outcome.scores.join(" : ")}${onTime})`, "turn");
      this.follower.stop();
      this.showFinal(snap);
    } else if (snap.status === "failed") setStatus(snap.failure, "error");
    else if (snap.waiting_for === "human" && snap.to_move === this.me) {
      const fm = snap.view.first_move_size;
      setStatus(`Your turn: click a tile in your hand, then a cell; repeat, then Confirm` + (fm ? ` (the first move must place ${fm} tiles)` : ""), "turn");
    } else if (snap.waiting_for === "human") {
      setStatus(snap.seats[snap.to_move].free ? `Waiting for someone to take ${this.labels[snap.to_move]}` : `Waiting for ${this.labels[snap.to_move]} to move`);
    } else setStatus(`${this.labels[snap.to_move]} is thinking…`);
  },

  // The final table: every player's score, the winner, who went out first; Play again,
  // New game and the record. The hand and its buttons go (nothing is left to play).
  showFinal(snap) {
    for (const id of ["hand-title", "hand-row", "pending-score", "hint", "undo"]) {
      const n = document.getElementById(id);
      if (n) n.style.display = "none";
    }
    const out = snap.outcome;
    const v = snap.view;
    const winners = out.winners.map((p) => this.labels[p]).join(" and ");
    const box = clear(document.getElementById("final"));
    box.style.display = "";
    const t = el("table", { class: "data", id: "final-scores" },
      el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Tiles left in hand" }), el("th", { text: "Final score" })));
    const order = out.scores.map((s, p) => p).sort((a, b) => out.scores[b] - out.scores[a]);
    for (const p of order) {
      t.appendChild(el("tr", { class: out.winners.includes(p) ? "winner" : "", "data-seat": p },
        el("td", { class: "seat-label", text: this.labels[p] + (out.winners.includes(p) ? " ★ winner" : "") }),
        el("td", { text: String(v.hand_sizes[p]) }),
        el("td", { class: "final-score", text: String(out.scores[p]) })));
    }
    box.append(el("h2", { text: `Final result: ${winners} ${out.winners.length > 1 ? "share the win" : "wins"}` }),
      GameClocks.lostOnTime(snap, this.labels) || "",
      el("div", { class: "table-scroll" }, t),
      el("p", { class: "muted", text: "The player who empties their hand first, with the bag empty, ends the game and scores 6 more points." }),
      el("p", { class: "row final-actions" },
        el("button", { id: "rematch", onclick: () => this.rematch(), text: "Play again" }),
        el("button", { id: "download", class: "secondary", onclick: () => this.downloadRecord(), text: "Download record" }),
        el("a", { href: "qwirkle", id: "final-new", class: "button secondary", text: "New game" })));
    box.scrollIntoView({ block: "start" });
  },

  async downloadRecord() {
    try { download(`qwirkle-${this.snap.id}.json`, await api("GET", `/api/games/${this.snap.id}/record`)); }
    catch (e) { setStatus(e.message, "error"); }
  },

  // "Play again": the page opens afresh and starts a game with the same seats.
  rematch() { startRematch(this, "qwirkle"); },

  myTurn() { return this.snap && this.snap.waiting_for === "human" && this.snap.to_move === this.me; },

  // The legal placements that extend the pending tiles.
  extending() {
    const same = (c, p) => c.x === p.x && c.y === p.y && c.tile === p.tile;
    return (this.snap.legal || []).filter((a) => a.json.type === "place"
      && this.pending.every((p) => a.json.cells.some((c) => same(c, p))));
  },

  // Cells where `tile` can go next, given the pending tiles.
  legalCells(tile) {
    const out = new Set();
    for (const a of this.extending()) {
      for (const c of a.json.cells) {
        if (c.tile === tile && !this.pending.some((p) => p.x === c.x && p.y === c.y)) out.add(`${c.x},${c.y}`);
      }
    }
    return out;
  },

  // The pending placement's points if it is complete and legal as it stands, else null.
  pendingScore() {
    if (!this.pending.length) return null;
    const exact = this.extending().find((a) => a.json.cells.length === this.pending.length);
    return exact ? exact.json.points : null;
  },

  async place(x, y) {
    const v = this.snap.view;
    const tile = v.hand[this.selected];
    if (!this.legalCells(tile).has(`${x},${y}`)) {
      // Refused at once; the server's rules say why.
      const cells = this.pending.concat([{ x, y, tile }]);
      let reason = `${tile} cannot go at (${x}, ${y})`;
      try {
        const r = await api("POST", `/api/games/${this.snap.id}/check`, { seat: this.me, action: cells.map((p) => `${p.tile}@${p.x},${p.y}`).join(" ") });
        if (r.reason) reason += `: ${r.reason}`;
      } catch (e) { reason += `: ${e.message}`; }
      setStatus(reason, "error");
      return;
    }
    this.pending.push({ x, y, tile, slot: this.selected });
    this.selected = null;
    this.draw();
    setStatus(`${tile} placed at (${x}, ${y}): add more tiles of the same line, or Confirm`, "turn");
  },

  draw() {
    const v = this.snap.view;
    const legal = this.myTurn() && this.selected !== null ? this.legalCells(v.hand[this.selected]) : new Set();
    QwirkleView.render(document.getElementById("board"), v, {
      pending: this.pending, open: this.myTurn() && this.selected !== null, legal,
      marks: this.marks, hint: this.hint,
      onCell: (x, y) => this.place(x, y),
    });
    const ps = document.getElementById("pending-score");
    if (ps) {
      const pts = this.pendingScore();
      ps.textContent = !this.pending.length ? "" : pts === null ? "not yet a legal placement: add tiles or take back" : `this placement scores ${pts} points`;
      ps.className = pts === null ? "muted" : "pending-score";
    }
    const hand = clear(document.getElementById("hand"));
    v.hand.forEach((t, i) => {
      const used = this.pending.some((p) => p.slot === i);
      const cls = used ? "used" : (this.selected === i || this.tradeSel.has(i)) ? "sel" : "";
      const tile = qTile(t, cls);
      tile.setAttribute("data-slot", i);
      if (!used && this.myTurn()) tile.addEventListener("click", () => {
        if (this.tradeMode) { this.tradeSel.has(i) ? this.tradeSel.delete(i) : this.tradeSel.add(i); }
        else this.selected = this.selected === i ? null : i;
        this.draw();
      });
      hand.appendChild(tile);
    });
    const scores = clear(document.getElementById("scores"));
    this.snap.seats.forEach((s, p) => scores.appendChild(el("tr", {}, el("td", { text: this.labels[p] + (this.snap.to_move === p ? " ◀" : "") }),
      el("td", { text: String(this.snap.scores[p]) }), el("td", { class: "muted", text: `${v.hand_sizes[p]} tiles` }))));
    document.getElementById("bag").textContent = `Bag: ${v.bag_size} tiles`;
    document.getElementById("confirm").disabled = !this.myTurn() || this.pending.length === 0;
    document.getElementById("trade").textContent = this.tradeMode ? (this.tradeSel.size ? `Trade ${this.tradeSel.size} tile(s)` : "Cancel trade") : "Trade tiles…";
  },

  async confirm() {
    await this.send(this.pending.map((p) => `${p.tile}@${p.x},${p.y}`).join(" "));
  },

  async trade() {
    if (!this.tradeMode) { this.tradeMode = true; this.pending = []; this.selected = null; setStatus("Click the tiles to put back, then click Trade again", "turn"); this.draw(); return; }
    const tiles = [...this.tradeSel].map((i) => this.snap.view.hand[i]);
    this.tradeMode = false;
    if (!tiles.length) { this.draw(); return; }
    await this.send(`trade ${tiles.join(" ")}`);
  },

  async askHint() {
    const box = document.getElementById("hint-box");
    box.style.display = "";
    box.textContent = "Thinking about a hint…";
    try {
      const h = await api("POST", `/api/games/${this.snap.id}/hint`, { seat: this.me });
      this.hint = h.action_json;
      if (h.revision !== undefined) this.snap.revision = Math.max(this.snap.revision, h.revision);
      const why = h.explain ? ` — ${h.explain.why}` : "";
      box.textContent = `Hint from the strongest player: ${qDescribe(h.action_json).replace(/^placed/, "place").replace(/^traded/, "trade").replace(/^passed/, "pass")}${why}`;
      this.log.note(`${this.labels[this.me]} asked for a hint`);
      this.draw();
    } catch (e) { box.textContent = e.message; }
  },

  // One undo per click, however fast the clicks come.
  async undo() {
    if (this.undoing) return;
    this.undoing = true;
    try { await this.undoOnce(); } finally { this.undoing = false; }
  },

  async undoOnce() {
    try {
      const snap = await api("POST", `/api/games/${this.snap.id}/undo`, { seat: this.me, expected_revision: this.snap.revision });
      this.follower.nextStep = snap.step_count;
      this.hint = null;
      // The taken-back moves: struck out in the log, and no longer anyone's last move.
      this.log.undoFrom(snap.step_count);
      this.markSteps = (this.markSteps || []).filter((m) => m.index < snap.step_count);
      this.marks = {};
      for (const m of this.markSteps) this.marks[m.player] = m.aj;
      this.log.note(`${this.labels[this.me]} took a move back`);
      await this.follower.ingest(snap);
      setStatus("Move taken back: your turn again", "turn");
    } catch (e) { setStatus(e.message, "error"); }
  },

  async send(action) {
    try {
      const snap = await api("POST", `/api/games/${this.snap.id}/move`, { seat: this.me, action, expected_revision: this.snap.revision });
      await this.follower.ingest(snap);
    } catch (e) {
      setStatus(e.message, "error");
    }
  },
};

if (document.getElementById("qwirkle-page")) QwirklePage.init().catch((e) => setStatus(e.message, "error"));

// Qwirkle's view for pages that show any game (replay.html): see Tessera.views in common.js.
Tessera.views.qwirkle = {
  chance: "tiles drawn",
  words: (aj) => qDescribe(aj),
  describe: (aj, who) => `${who} ${qDescribe(aj)}`,
  draw(board, view, opts) {
    const aj = opts.step && opts.step.type === "action" ? opts.step.action_json : null;
    QwirkleView.render(board, view, { seatLabels: opts.seatLabels, highlight: aj, marks: opts.marks, appear: aj });
  },
};
