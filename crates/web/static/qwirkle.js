"use strict";
// Qwirkle: the board (with coordinates, growing with the tiles), your hand, placing several
// tiles then confirming, trading; the bots' hands are never sent to the browser.

const Q_COLOURS = { R: "#e63946", O: "#f4a261", Y: "#ffd166", G: "#06d6a0", B: "#4dabf7", P: "#b47cff" };
const Q_SHAPES = { 1: "●", 2: "✚", 3: "◆", 4: "■", 5: "★", 6: "✸" };

function qTile(t, extra) {
  return el("span", { class: `qtile ${extra || ""}`, "data-tile": t, title: t, style: { color: Q_COLOURS[t[0]] || "#fff" }, text: Q_SHAPES[t.slice(1)] || t });
}

const QwirkleView = {
  // opts: { pending: [{x,y,tile}], open: bool (cells clickable), onCell(x,y), highlight: action_json }
  render(container, v, opts) {
    opts = opts || {};
    clear(container);
    const pending = opts.pending || [];
    const hl = opts.highlight && opts.highlight.type === "place" ? opts.highlight.cells : [];
    let [x0, y0, x1, y1] = v.bounds || [0, 0, 0, 0];
    for (const p of pending) { x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y); }
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
        if (at.has(key)) cell.appendChild(qTile(at.get(key), hl.some((c) => c.x === x && c.y === y) ? "last" : ""));
        else if (pend.has(key)) cell.appendChild(qTile(pend.get(key), "pending"));
        else if (opts.open) {
          cell.classList.add("open");
          cell.addEventListener("click", () => opts.onCell(x, y));
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

  async init() {
    const cat = await api("GET", "/api/catalog");
    const info = cat.games.find((g) => g.name === "qwirkle");
    this.agents = info ? info.agents : [];
    const count = document.getElementById("players");
    const seats = document.getElementById("seats");
    const rebuild = () => { this.readSeats = seatEditor(seats, parseInt(count.value, 10), this.agents); };
    count.addEventListener("change", rebuild);
    rebuild();
    document.getElementById("start").addEventListener("click", () => this.start());
    document.getElementById("confirm").addEventListener("click", () => this.confirm());
    document.getElementById("clear").addEventListener("click", () => { this.pending = []; this.selected = null; this.draw(); });
    document.getElementById("trade").addEventListener("click", () => this.trade());
    document.getElementById("pass").addEventListener("click", () => this.send("pass"));
  },

  async start() {
    const body = { game: "qwirkle", seats: this.readSeats() };
    const seed = document.getElementById("seed").value.trim();
    if (seed) body.seed = Number(seed);
    let snap;
    try { snap = await api("POST", "/api/games", body); } catch (e) { setStatus(e.message, "error"); return; }
    document.getElementById("setup").style.display = "none";
    document.getElementById("game").style.display = "";
    this.labels = snap.seats.map((s, i) => s.type === "human" ? s.name : `${s.name} (AI, seat ${i + 1})`);
    const me = snap.seats.findIndex((s) => s.type === "human");
    this.me = me >= 0 ? me : null;
    this.follower = new GameFollower(snap.id, this.me, (st, s) => this.onStep(st, s), (s) => this.onSnapshot(s));
    this.follower.run();
  },

  async onStep(st, snap) {
    if (st.type !== "action") return;
    QwirkleView.render(document.getElementById("board"), st.view, { highlight: st.action_json });
    const aj = st.action_json;
    const what = aj.type === "place" ? `placed ${aj.cells.length} tile(s) for ${aj.points} points` : aj.type === "trade" ? `traded ${aj.count} tiles` : "passed";
    setStatus(`${this.labels[st.player]} ${what}`);
    if (snap.seats[st.player].type === "ai") await sleep(this.fast ? 40 : 900);
  },

  onSnapshot(snap) {
    this.snap = snap;
    this.pending = []; this.selected = null; this.tradeSel.clear();
    this.draw();
    if (snap.status === "finished") {
      const w = snap.outcome.winners.map((p) => this.labels[p]).join(" and ");
      setStatus(`Game over: ${w} ${snap.outcome.winners.length > 1 ? "share the win" : "wins"} (${snap.outcome.scores.join(" : ")})`, "turn");
      this.follower.stop();
    } else if (snap.status === "failed") setStatus(snap.failure, "error");
    else if (snap.waiting_for === "human" && snap.to_move === this.me) {
      const fm = snap.view.first_move_size;
      setStatus(`Your turn: click a tile in your hand, then a cell; repeat, then Confirm` + (fm ? ` (the first move must place ${fm} tiles)` : ""), "turn");
    } else setStatus(`${this.labels[snap.to_move]} is thinking…`);
  },

  myTurn() { return this.snap && this.snap.waiting_for === "human" && this.snap.to_move === this.me; },

  draw() {
    const v = this.snap.view;
    QwirkleView.render(document.getElementById("board"), v, {
      pending: this.pending, open: this.myTurn() && this.selected !== null,
      onCell: (x, y) => {
        this.pending.push({ x, y, tile: v.hand[this.selected], slot: this.selected });
        this.selected = null;
        this.draw();
      },
    });
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

  async send(action) {
    try {
      const snap = await api("POST", `/api/games/${this.snap.id}/move`, { seat: this.me, action });
      await this.follower.ingest(snap);
    } catch (e) {
      setStatus(e.message, "error");
    }
  },
};

if (document.getElementById("qwirkle-page")) QwirklePage.init().catch((e) => setStatus(e.message, "error"));
