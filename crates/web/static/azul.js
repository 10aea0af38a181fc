"use strict";
// Azul: drawing a view, and the play page (setup, clicking moves, AI animation, round
// reports, final result, undo, record download).

const AZUL_NAMES = { B: "blue", Y: "yellow", R: "red", K: "black", W: "white" };

function azulTile(letter, extra) {
  return el("span", { class: `tile ${letter} ${extra || ""}`, "data-colour": letter, title: AZUL_NAMES[letter] || "" });
}

const AzulView = {
  // opts: { legal: [{action, json}], selected: {source, colour}, onPick(source, colour),
  //         onDest(dest), highlight: action_json, names: [..], seatLabels: [..] }
  render(container, v, opts) {
    opts = opts || {};
    clear(container);
    const legal = opts.legal || [];
    const sel = opts.selected;
    const hl = opts.highlight;
    const canPick = (source, colour) => legal.some((a) => a.json.source === source && a.json.colour === colour);
    const destLegal = (dest) => sel && legal.some((a) => a.json.source === sel.source && a.json.colour === sel.colour && a.json.dest === dest);

    const table = el("div", { class: "azul-table", id: "azul-table" });
    v.factories.forEach((f, i) => {
      const fac = el("div", { class: "factory" + (f.length ? "" : " empty-f"), id: `factory-${i}` }, el("span", { class: "label", text: `${i + 1}` }));
      if (hl && hl.source === i) fac.classList.add("highlight");
      f.forEach((c) => {
        const pickable = canPick(i, c);
        const t = azulTile(c, (pickable ? "pick" : "") + (sel && sel.source === i && sel.colour === c ? " chosen" : ""));
        if (pickable && opts.onPick) t.addEventListener("click", () => opts.onPick(i, c));
        fac.appendChild(t);
      });
      table.appendChild(fac);
    });
    const centre = el("div", { class: "centre", id: "centre" }, el("span", { class: "label", text: "centre" }));
    if (hl && hl.source === "C") centre.classList.add("highlight");
    if (v.token_in_centre) centre.appendChild(el("span", { class: "tile token", title: "first-player token", text: "1" }));
    v.centre.forEach((c) => {
      const pickable = canPick("C", c);
      const t = azulTile(c, (pickable ? "pick" : "") + (sel && sel.source === "C" && sel.colour === c ? " chosen" : ""));
      if (pickable && opts.onPick) t.addEventListener("click", () => opts.onPick("C", c));
      centre.appendChild(t);
    });
    table.appendChild(centre);
    const bagTotal = Object.values(v.bag).reduce((a, b) => a + b, 0);
    const lidTotal = Object.values(v.lid).reduce((a, b) => a + b, 0);
    table.appendChild(el("div", { class: "muted" },
      el("div", { text: `Round ${v.round}` }), el("div", { text: `Bag: ${bagTotal} tiles` }), el("div", { text: `Lid: ${lidTotal} tiles` })));
    container.appendChild(table);

    const boards = el("div", { class: "boards" });
    v.boards.forEach((b, p) => {
      const active = v.mover === p;
      const isMine = active && legal.length > 0;
      const box = el("div", { class: "board" + (active ? " active" : ""), id: `board-${p}` });
      const label = (opts.seatLabels && opts.seatLabels[p]) || `Player ${p + 1}`;
      box.appendChild(el("h3", {}, el("span", {}, label, active ? el("span", { class: "muted", text: "  ◀ to move" }) : null),
        el("span", { class: "score", id: `score-${p}`, text: String(b.score) })));
      const grid = el("div", { class: "board-grid" });
      const lines = el("div", { class: "lines" });
      b.lines.forEach((ln, r) => {
        const row = el("div", { class: "pline", id: `line-${p}-${r}`, "data-line": r });
        for (let k = ln.capacity - 1; k >= 0; k--) {
          row.appendChild(k < ln.count ? azulTile(ln.colour) : el("span", { class: "tile empty" }));
        }
        if (isMine && sel) {
          if (destLegal(r)) {
            row.classList.add("target");
            row.addEventListener("click", () => opts.onDest(r));
          } else row.classList.add("disabled");
        }
        if (hl && hl.player === p && hl.dest === r) row.classList.add("highlight");
        lines.appendChild(row);
      });
      const wall = el("div", { class: "wall" });
      b.wall.forEach((cells, r) => {
        const row = el("div", { class: "wrow" });
        cells.forEach((filled, c) => row.appendChild(azulTile(v.wall_pattern[r][c], filled ? "" : "ghost")));
        wall.appendChild(row);
      });
      grid.append(lines, el("div", { style: { width: "6px", borderLeft: "2px solid #d9cfbf" } }), wall);
      box.appendChild(grid);
      const floor = el("div", { class: "floor", id: `floor-${p}` });
      const floorTiles = (b.token ? ["token"] : []).concat(b.floor);
      v.floor_penalties.forEach((pen, k) => {
        const t = floorTiles[k];
        const tile = t === undefined ? el("span", { class: "tile empty" })
          : t === "token" ? el("span", { class: "tile token", text: "1" }) : azulTile(t);
        floor.appendChild(el("span", { class: "slot" }, el("span", { text: `-${pen}` }), tile));
      });
      if (floorTiles.length > v.floor_penalties.length) floor.appendChild(el("span", { class: "muted", text: ` +${floorTiles.length - v.floor_penalties.length} to the lid` }));
      if (isMine && sel && destLegal("F")) {
        floor.classList.add("target");
        floor.title = "put the tiles on the floor";
        floor.addEventListener("click", () => opts.onDest("F"));
      }
      if (hl && hl.player === p && hl.dest === "F") floor.classList.add("highlight");
      box.appendChild(floor);
      boards.appendChild(box);
    });
    container.appendChild(boards);
  },

  describe(aj, label) {
    const src = aj.source === "C" ? "the centre" : `factory ${aj.source + 1}`;
    const dst = aj.dest === "F" ? "the floor" : `pattern line ${aj.dest + 1}`;
    return `${label} took ${aj.count} ${AZUL_NAMES[aj.colour]} from ${src} to ${dst}`;
  },

  reportTable(report, labels) {
    const t = el("table", { class: "data round-report" },
      el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Wall tiles" }), el("th", { text: "Points" }),
        el("th", { text: "Floor" }), el("th", { text: "Bonus" }), el("th", { text: "Score" })));
    report.boards.forEach((b, p) => {
      const pts = b.placements.reduce((a, x) => a + x.points, 0);
      t.appendChild(el("tr", {}, el("td", { text: labels[p] }),
        el("td", {}, ...b.placements.map((x) => azulTile(x.colour))),
        el("td", { text: `+${pts}` }), el("td", { text: b.floor_penalty ? `-${b.floor_penalty}` : "0" }),
        el("td", { text: b.bonus ? `+${b.bonus}` : "" }),
        el("td", { text: String(b.score_after_round + b.bonus) })));
    });
    return t;
  },
};

// ---- the play page -------------------------------------------------------------------
const AzulPage = {
  fast: new URLSearchParams(location.search).has("fast"),
  snap: null, selected: null, follower: null, labels: [], lastReport: null, busy: false,

  async init() {
    const cat = await api("GET", "/api/catalog");
    const info = cat.games.find((g) => g.name === "azul");
    this.agents = info ? info.agents : [];
    const count = document.getElementById("players");
    const seats = document.getElementById("seats");
    const rebuild = () => { this.readSeats = seatEditor(seats, parseInt(count.value, 10), this.agents); };
    count.addEventListener("change", rebuild);
    rebuild();
    document.getElementById("start").addEventListener("click", () => this.start());
    document.getElementById("undo").addEventListener("click", () => this.undo());
    document.getElementById("download").addEventListener("click", () => this.downloadRecord());
    document.getElementById("newgame").addEventListener("click", () => location.reload());
  },

  async start() {
    const seedText = document.getElementById("seed").value.trim();
    const body = { game: "azul", seats: this.readSeats() };
    if (seedText) body.seed = Number(seedText);
    let snap;
    try { snap = await api("POST", "/api/games", body); } catch (e) { setStatus(e.message, "error"); return; }
    document.getElementById("setup").style.display = "none";
    document.getElementById("game").style.display = "";
    this.labels = snap.seats.map((s, i) => s.type === "human" ? `${s.name}` : `${s.name} (AI, seat ${i + 1})`);
    this.humanSeats = snap.seats.map((s, i) => s.type === "human" ? i : -1).filter((i) => i >= 0);
    this.snap = snap;
    this.follower = new GameFollower(snap.id, this.humanSeats.length ? this.humanSeats[0] : null,
      (st, s) => this.onStep(st, s), (s) => this.onSnapshot(s));
    this.follower.run();
  },

  async onStep(st, snap) {
    if (st.type === "chance") {
      if (st.index > 0) setStatus(`Round ${st.view.round}: the factories are refilled`);
      AzulView.render(document.getElementById("board"), st.view, { seatLabels: this.labels });
      if (st.index > 0) await sleep(this.fast ? 30 : 600);
      return;
    }
    const who = this.labels[st.player];
    const hl = Object.assign({ player: st.player }, st.action_json);
    AzulView.render(document.getElementById("board"), st.view, { seatLabels: this.labels, highlight: hl });
    setStatus(AzulView.describe(st.action_json, who) + (st.think_ms !== null ? ` (${st.think_ms} ms)` : ""));
    const byAi = snap.seats[st.player].type === "ai";
    await sleep(byAi ? (this.fast ? 60 : 900) : (this.fast ? 20 : 250));
    if (st.report) {
      this.lastReport = st.report;
      if (!st.report.game_over) await this.showReport(st.report);
    }
  },

  showReport(report) {
    return new Promise((resolve) => {
      const ov = el("div", { class: "overlay", id: "round-report" });
      const done = () => { ov.remove(); resolve(); };
      ov.appendChild(el("div", { class: "panel" }, el("h2", { text: `End of round ${report.round}` }),
        AzulView.reportTable(report, this.labels),
        el("p", { class: "muted", text: `${this.labels[report.next_start]} starts the next round.` }),
        el("button", { id: "continue", onclick: done, text: "Continue" })));
      document.body.appendChild(ov);
      setTimeout(done, this.fast ? 150 : 4000);
    });
  },

  async onSnapshot(snap) {
    // Hot-seat games: show the legal moves of whichever human is to move.
    if (snap.waiting_for === "human" && snap.seat !== snap.to_move) {
      try { snap = await api("GET", `/api/games/${snap.id}?seat=${snap.to_move}`); } catch (e) { setStatus(e.message, "error"); return; }
    }
    this.snap = snap;
    this.selected = null;
    this.draw();
    document.getElementById("undo").style.display = snap.can_undo ? "" : "none";
    if (snap.status === "finished") { this.showFinal(snap); this.follower.stop(); }
    else if (snap.status === "failed") setStatus(snap.failure, "error");
    else if (snap.waiting_for === "human") setStatus(`${this.labels[snap.to_move]}: pick tiles from a factory or the centre`, "turn");
    else setStatus(`${this.labels[snap.to_move]} is thinking…`);
  },

  draw() {
    const snap = this.snap;
    AzulView.render(document.getElementById("board"), snap.view, {
      legal: snap.waiting_for === "human" ? snap.legal : [],
      selected: this.selected,
      seatLabels: this.labels,
      onPick: (source, colour) => {
        this.selected = { source, colour };
        setStatus(`${this.labels[snap.to_move]}: now click a pattern line or the floor (greyed lines cannot take ${AZUL_NAMES[colour]})`, "turn");
        this.draw();
      },
      onDest: (dest) => this.play(dest),
    });
  },

  async play(dest) {
    if (this.busy) return;
    const sel = this.selected;
    const a = this.snap.legal.find((x) => x.json.source === sel.source && x.json.colour === sel.colour && x.json.dest === dest);
    if (!a) return;
    this.busy = true;
    try {
      const snap = await api("POST", `/api/games/${this.snap.id}/move`, { seat: this.snap.to_move, action: a.action });
      this.selected = null;
      await this.follower.ingest(snap);
    } catch (e) {
      setStatus(e.message, "error");
    } finally { this.busy = false; }
  },

  async undo() {
    try {
      const snap = await api("POST", `/api/games/${this.snap.id}/undo`, { seat: this.snap.to_move ?? 0 });
      this.follower.nextStep = snap.step_count;
      await this.follower.ingest(snap);
      setStatus("Move taken back");
    } catch (e) { setStatus(e.message, "error"); }
  },

  async downloadRecord() {
    try { download(`azul-${this.snap.id}.json`, await api("GET", `/api/games/${this.snap.id}/record`)); }
    catch (e) { setStatus(e.message, "error"); }
  },

  showFinal(snap) {
    const out = snap.outcome;
    const winners = out.winners.map((w) => this.labels[w]).join(" and ");
    setStatus(`Game over: ${winners} ${out.winners.length > 1 ? "share the win" : "wins"}`, "turn");
    const box = document.getElementById("final");
    clear(box);
    box.style.display = "";
    const rep = this.lastReport && this.lastReport.game_over ? this.lastReport : null;
    const t = el("table", { class: "data", id: "final-scores" },
      el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Before bonuses" }), el("th", { text: "Bonuses" }), el("th", { text: "Final score" })));
    out.scores.forEach((s, p) => {
      const bonus = rep ? rep.boards[p].bonus : null;
      t.appendChild(el("tr", { class: out.winners.includes(p) ? "winner" : "" },
        el("td", { text: this.labels[p] + (out.winners.includes(p) ? " ★ winner" : "") }),
        el("td", { text: bonus === null ? "" : String(s - bonus) }),
        el("td", { text: bonus === null ? "" : `+${bonus}` }),
        el("td", { class: "final-score", text: String(s) })));
    });
    box.append(el("h2", { text: "Final result" }), t,
      el("p", { class: "muted", text: "Bonuses: +2 per complete row, +7 per complete column, +10 per colour with all five tiles." }));
  },
};

if (document.getElementById("azul-page")) AzulPage.init().catch((e) => setStatus(e.message, "error"));
