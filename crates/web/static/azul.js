"use strict";
// Azul: drawing a view, and the play page (setup, clicking moves, AI animation, round
// reports, final result, undo, record download).

const AZUL_NAMES = { B: "blue", Y: "yellow", R: "red", K: "black", W: "white" };

// A tile shows its colour and its letter (B Y R K W), so colour-blind players can tell them
// apart; an empty wall cell shows the letter of the colour that goes there, faintly.
function azulTile(letter, extra) {
  return el("span", { class: `tile ${letter} ${extra || ""}`, "data-colour": letter, title: AZUL_NAMES[letter] || "", text: letter });
}

const AzulView = {
  // opts: { legal: [{action, json}], selected: {source, colour}, onPick(source, colour),
  //         onDest(dest), highlight: action_json, names: [..], seatLabels: [..],
  //         marks: {seat: action_json} (each seat's last move, kept until it moves again),
  //         hint: action_json (a suggested move, outlined) }
  render(container, v, opts) {
    opts = opts || {};
    clear(container);
    const legal = opts.legal || [];
    const sel = opts.selected;
    const hl = opts.highlight;
    const marks = opts.marks || {};
    const hint = opts.hint;
    const canPick = (source, colour) => legal.some((a) => a.json.source === source && a.json.colour === colour);
    const destLegal = (dest) => sel && legal.some((a) => a.json.source === sel.source && a.json.colour === sel.colour && a.json.dest === dest);

    const table = el("div", { class: "azul-table", id: "azul-table" });
    v.factories.forEach((f, i) => {
      const fac = el("div", { class: "factory" + (f.length ? "" : " empty-f"), id: `factory-${i}` }, el("span", { class: "label", text: `${i + 1}` }));
      if (hl && hl.source === i) fac.classList.add("highlight");
      f.forEach((c) => {
        const pickable = canPick(i, c);
        const t = azulTile(c, (pickable ? "pick" : "") + (sel && sel.source === i && sel.colour === c ? " chosen" : "")
          + (hint && hint.source === i && hint.colour === c ? " hinted" : ""));
        if (pickable && opts.onPick) {
          t.addEventListener("click", () => opts.onPick(i, c));
          focusable(t, `take ${AZUL_NAMES[c]} from factory ${i + 1}`);
        }
        fac.appendChild(t);
      });
      table.appendChild(fac);
    });
    const centre = el("div", { class: "centre", id: "centre" }, el("span", { class: "label", text: "centre" }));
    if (hl && hl.source === "C") centre.classList.add("highlight");
    if (v.token_in_centre) centre.appendChild(el("span", { class: "tile token", title: "first-player token", text: "1" }));
    v.centre.forEach((c) => {
      const pickable = canPick("C", c);
      const t = azulTile(c, (pickable ? "pick" : "") + (sel && sel.source === "C" && sel.colour === c ? " chosen" : "")
        + (hint && hint.source === "C" && hint.colour === c ? " hinted" : ""));
      if (pickable && opts.onPick) {
        t.addEventListener("click", () => opts.onPick("C", c));
        focusable(t, `take ${AZUL_NAMES[c]} from the centre`);
      }
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
      box.appendChild(el("h3", {}, el("span", { class: "seat-label", title: label }, label, active ? el("span", { class: "muted", text: "  ◀ to move" }) : null),
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
            AzulView.previewBadge(row, AzulView.previewOf(legal, sel, r));
            row.addEventListener("click", () => opts.onDest(r));
            focusable(row, `put them on pattern line ${r + 1}`);
          } else row.classList.add("disabled");
        }
        if (hl && hl.player === p && hl.dest === r) row.classList.add("highlight");
        if (marks[p] && marks[p].dest === r) row.classList.add("last-move");
        if (hint && isMine && hint.dest === r) row.classList.add("hinted");
        lines.appendChild(row);
      });
      const wall = el("div", { class: "wall" });
      b.wall.forEach((cells, r) => {
        const row = el("div", { class: "wrow" });
        cells.forEach((filled, c) => row.appendChild(azulTile(v.wall_pattern[r][c], filled ? "placed" : "ghost")));
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
        AzulView.previewBadge(floor, AzulView.previewOf(legal, sel, "F"));
        floor.title = "put the tiles on the floor";
        floor.addEventListener("click", () => opts.onDest("F"));
        focusable(floor, "put them on the floor");
      }
      if (hl && hl.player === p && hl.dest === "F") floor.classList.add("highlight");
      if (marks[p] && marks[p].dest === "F") floor.classList.add("last-move");
      if (hint && isMine && hint.dest === "F") floor.classList.add("hinted");
      if (marks[p]) box.appendChild(el("div", { class: "last-note muted", id: `last-${p}`, text: "last move: " + AzulView.words(marks[p]) }));
      box.appendChild(floor);
      boards.appendChild(box);
    });
    container.appendChild(boards);
  },

  // The preview of the legal move taking `sel` to `dest`: {points, floor} at the round's end.
  previewOf(legal, sel, dest) {
    const a = legal.find((x) => x.json.source === sel.source && x.json.colour === sel.colour && x.json.dest === dest);
    return a && a.json.preview ? a.json.preview : null;
  },

  // A badge on a target line or the floor: what the move changes in the score at the round's
  // end ("+3", "-1 (floor -2)": the floor's part in brackets), before the player commits it.
  previewBadge(node, pv) {
    if (!pv) return;
    const sign = (n) => (n > 0 ? `+${n}` : String(n));
    const text = sign(pv.points) + (pv.floor ? ` (floor ${pv.floor})` : "");
    node.setAttribute("data-preview", pv.points);
    node.title = `at the round's end: ${sign(pv.points)} points` + (pv.floor ? ` (the floor costs ${-pv.floor})` : "");
    node.appendChild(el("span", { class: "preview" + (pv.points < 0 || pv.floor < 0 ? " loss" : ""), text }));
  },

  // Tiles fly from where they were taken (`from`: rects of the source's tiles, measured before
  // the redraw) to the destination line or floor of seat `p`.
  async fly(from, colour, p, dest, ms) {
    const target = document.getElementById(dest === "F" ? `floor-${p}` : `line-${p}-${dest}`);
    if (!target || !from.length || ms <= 0) return;
    const to = target.getBoundingClientRect();
    const flying = from.map((r, k) => {
      const t = azulTile(colour, "flying");
      Object.assign(t.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, zIndex: 20, transition: `transform ${ms}ms ease-in-out` });
      document.body.appendChild(t);
      const dx = to.right - 30 * (k + 1) - r.left, dy = to.top + 2 - r.top;
      requestAnimationFrame(() => requestAnimationFrame(() => { t.style.transform = `translate(${dx}px, ${dy}px)`; }));
      return t;
    });
    await sleep(ms + 40);
    flying.forEach((t) => t.remove());
  },

  // The rects of the tiles of `colour` in the source of `aj` (before the move is drawn).
  sourceRects(aj) {
    const src = document.getElementById(aj.source === "C" ? "centre" : `factory-${aj.source}`);
    if (!src) return [];
    return [...src.querySelectorAll(`.tile[data-colour="${aj.colour}"]`)].map((t) => t.getBoundingClientRect());
  },

  // The move in words without the player: "took 3 blue from factory 2 to pattern line 3".
  words(aj, verb) {
    const src = aj.source === "C" ? "the centre" : `factory ${aj.source + 1}`;
    const dst = aj.dest === "F" ? "the floor" : `pattern line ${aj.dest + 1}`;
    return `${verb || "took"} ${aj.count} ${AZUL_NAMES[aj.colour]} from ${src} to ${dst}`;
  },

  describe(aj, label) {
    return `${label} ${AzulView.words(aj)}`;
  },

  // Complete rows, columns and colours of a wall (booleans by row) with its pattern.
  bonuses(wall, pattern) {
    const rows = wall.filter((r) => r.every(Boolean)).length;
    const columns = wall[0].filter((_, c) => wall.every((r) => r[c])).length;
    const colours = Object.keys(AZUL_NAMES).filter((k) =>
      wall.reduce((n, r, i) => n + r.filter((f, c) => f && pattern[i][c] === k).length, 0) === 5).length;
    return { rows, columns, colours };
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
  marks: {}, hint: null,

  async init() {
    const cat = await api("GET", "/api/catalog");
    const info = cat.games.find((g) => g.name === "azul") || { agents: [] };
    this.info = info;
    const count = document.getElementById("players");
    const seats = document.getElementById("seats");
    const rebuild = () => { this.readSeats = seatEditor(seats, parseInt(count.value, 10), info); };
    count.addEventListener("change", rebuild);
    rebuild();
    this.readClock = clockPicker();
    Pace.init();
    this.log = new MoveLog(document.getElementById("log"));
    keyboardNav(document.getElementById("board"), ".tile.pick, .pline.target, .floor.target");
    document.getElementById("start").addEventListener("click", () => this.start());
    document.getElementById("undo").addEventListener("click", () => this.undo());
    document.getElementById("hint").addEventListener("click", () => this.askHint());
    document.getElementById("download").addEventListener("click", () => this.downloadRecord());
    document.getElementById("newgame").addEventListener("click", () => this.leave());
    await openFromAddress(this, "azul");
  },

  // "New game": leaving a game being played asks first (the game stays at its address).
  leave() {
    const running = this.snap && this.snap.status === "playing" && (this.mine || []).length;
    if (running && !confirm("Leave this game? It stays at its address, so you can come back to it, but nobody plays your seat meanwhile.")) return;
    location.href = location.pathname;
  },

  // Shows game `id` (`first`: its snapshot if already at hand) as the seats this browser
  // holds the tokens of see it, or as a spectator.
  async open(id, first) {
    let snap = first;
    if (!snap) {
      try { snap = await api("GET", `/api/games/${id}`); } catch (e) { setStatus(e.message, "error"); return; }
    }
    document.getElementById("setup").style.display = "none";
    document.getElementById("game").style.display = "";
    this.mine = snap.my_seats || [];
    this.setLabels(snap);
    this.humanSeats = this.mine;
    document.getElementById("pause").style.display = snap.seats.some((s) => s.type === "human") ? "none" : "";
    this.snap = snap;
    this.follower = new GameFollower(id, this.mine.length ? this.mine[0] : null,
      (st, s) => this.onStep(st, s), (s) => this.onSnapshot(s));
    this.follower.run();
  },

  setLabels(snap) {
    this.labels = snap.seats.map((s, i) => s.type === "human" ? (s.free ? `free seat ${i + 1}` : `${s.name}`) : `${s.name} (AI, seat ${i + 1})`);
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
    const seedText = document.getElementById("seed").value.trim();
    const body = { game: "azul", seats: this.nextSeats || this.readSeats() };
    this.nextSeats = null;
    if (seedText) body.seed = Number(seedText);
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
    // This browser plays the human seats it made; the free seats' tokens go out as invites.
    for (const t of snap.tokens || []) if (!snap.seats[t.seat].free) Seats.add(snap.id, t.seat, t.token);
    history.pushState(null, "", snap.url);
    showInvites(snap, snap.tokens);
    await this.open(snap.id, snap);
  },

  async onStep(st, snap) {
    const board = document.getElementById("board");
    if (st.type === "chance") {
      if (st.index > 0) {
        setStatus(`Round ${st.view.round}: the factories are refilled`);
        this.log.note(`Round ${st.view.round}: the factories are refilled`);
      }
      AzulView.render(board, st.view, { seatLabels: this.labels, marks: this.marks });
      this.drawStrip(st.view);
      if (st.index > 0) await Pace.wait(600);
      return;
    }
    const who = this.labels[st.player];
    const aj = st.action_json;
    const byAi = snap.seats[st.player].type === "ai";
    const from = AzulView.sourceRects(aj);
    this.marks[st.player] = aj;
    this.markSteps = (this.markSteps || []).concat([{ index: st.index, player: st.player, aj }]);
    if (this.hint) document.getElementById("hint-box").style.display = "none";
    this.hint = null;
    const hl = Object.assign({ player: st.player }, aj);
    AzulView.render(board, st.view, { seatLabels: this.labels, highlight: hl, marks: this.marks });
    this.lastMover = st.player;
    this.drawStrip(st.view);
    const text = AzulView.describe(aj, who);
    setStatus(text + (st.think_ms !== null ? ` (${st.think_ms} ms)` : ""));
    if (byAi) moveToast(text, st.explain ? st.explain.points : null);
    this.log.add(who, st.player, AzulView.words(aj),
      st.explain ? st.explain.points : null, st.index);
    await AzulView.fly(from, aj.colour, st.player, aj.dest, Pace.ms(byAi ? 500 : 250));
    await Pace.wait(byAi ? 700 : 150);
    if (st.report) {
      this.lastReport = st.report;
      st.report.boards.forEach((b, p) => {
        const pts = b.placements.reduce((a, x) => a + x.points, 0) - b.floor_penalty + b.bonus;
        this.log.add(this.labels[p], p, `round ${st.report.round} scoring: ${b.placements.length} wall tile(s), floor -${b.floor_penalty}` + (b.bonus ? `, bonuses +${b.bonus}` : ""), pts, st.index);
      });
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
      setTimeout(done, Pace.ms(4000));
    });
  },

  async onSnapshot(snap) {
    // Hot-seat games: show the legal moves of whichever of this browser's seats is to move.
    if (snap.waiting_for === "human" && snap.seat !== snap.to_move && (this.mine || []).includes(snap.to_move)) {
      try { snap = await api("GET", `/api/games/${snap.id}?seat=${snap.to_move}`); } catch (e) { setStatus(e.message, "error"); return; }
    }
    this.snap = snap;
    this.selected = null;
    this.setLabels(snap);
    GameClocks.update(snap, this.labels);
    this.draw();
    document.getElementById("undo").style.display = snap.can_undo ? "" : "none";
    document.getElementById("hint").style.display = this.info.hints && snap.can_hint ? "" : "none";
    if (snap.status === "finished") { this.showFinal(snap); this.follower.stop(); }
    else if (snap.status === "failed") setStatus(snap.failure, "error");
    else if (snap.waiting_for === "human" && !(this.mine || []).includes(snap.to_move)) {
      setStatus(snap.seats[snap.to_move].free ? `Waiting for someone to take ${this.labels[snap.to_move]}` : `Waiting for ${this.labels[snap.to_move]} to move`);
    }
    else if (snap.waiting_for === "human") {
      setStatus(`${this.labels[snap.to_move]}: pick tiles from a factory or the centre (or Tab to them, Enter to choose)`, "turn");
      const first = document.querySelector("#board .tile.pick");
      if (first && !document.activeElement.closest?.("#setup")) first.focus({ preventScroll: true });
    }
    else setStatus(`${this.labels[snap.to_move]} is thinking…`);
  },

  // The opponents at a glance (score, pattern lines filled, floor), in a strip that stays at
  // the top of a phone's screen while the player's own board is below it (the CSS shows it on
  // narrow screens only); the seat that moved last is outlined.
  drawStrip(v) {
    let strip = document.getElementById("opp-strip");
    if (!strip) {
      strip = el("div", { id: "opp-strip", class: "opp-strip", role: "region", "aria-label": "opponents" });
      document.body.insertBefore(strip, document.body.firstChild);
    }
    clear(strip);
    const mine = this.mine || [];
    v.boards.forEach((b, p) => {
      if (mine.includes(p)) return;
      const floorTiles = (b.token ? 1 : 0) + b.floor.length;
      const penalty = v.floor_penalties.slice(0, floorTiles).reduce((a, x) => a + x, 0);
      const lines = el("span", { class: "opp-lines", title: "pattern lines: tiles on each / its length" },
        ...b.lines.map((ln) => el("span", { class: "opp-line" + (ln.count && ln.count === ln.capacity ? " full" : ""),
          "data-colour": ln.count ? ln.colour : null, text: `${ln.count}/${ln.capacity}` })));
      strip.appendChild(el("div", { class: "opp" + (p === this.lastMover ? " moved" : "") + (v.mover === p ? " to-move" : ""), "data-seat": p },
        el("span", { class: "opp-name", text: this.labels[p] || `Player ${p + 1}` }),
        el("span", { class: "opp-score", title: "score", text: String(b.score) }),
        lines,
        el("span", { class: "opp-floor", title: "tiles on the floor (points they cost)", text: `floor ${floorTiles}` + (penalty ? ` −${penalty}` : "") })));
    });
  },

  draw() {
    const snap = this.snap;
    // Who is to move is the table's word (`to_move`): nobody once a flag has fallen, though
    // the position's own mover is still the seat that ran out of time.
    const view = Object.assign({}, snap.view, { mover: snap.to_move ?? null });
    this.drawStrip(view);
    AzulView.render(document.getElementById("board"), view, {
      legal: snap.waiting_for === "human" ? snap.legal : [],
      selected: this.selected,
      seatLabels: this.labels,
      marks: this.marks,
      hint: this.hint,
      onPick: (source, colour) => {
        this.selected = { source, colour };
        setStatus(`${this.labels[snap.to_move]}: now click a pattern line or the floor (greyed lines cannot take ${AZUL_NAMES[colour]})`, "turn");
        this.draw();
        const t = document.querySelector("#board .pline.target, #board .floor.target");
        if (t) t.focus({ preventScroll: true });
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
      // The revision makes a retried request play once (the server answers its repeat alike).
      const snap = await api("POST", `/api/games/${this.snap.id}/move`, { seat: this.snap.to_move, action: a.action, expected_revision: this.snap.revision });
      this.selected = null;
      await this.follower.ingest(snap);
    } catch (e) {
      setStatus(e.message, "error");
    } finally { this.busy = false; }
  },

  // One undo per click, however fast the clicks come.
  async undo() {
    if (this.undoing) return;
    this.undoing = true;
    try { await this.undoOnce(); } finally { this.undoing = false; }
  },

  async undoOnce() {
    try {
      const seat = this.snap.to_move ?? this.humanSeats[0] ?? 0;
      const snap = await api("POST", `/api/games/${this.snap.id}/undo`, { seat, expected_revision: this.snap.revision });
      this.follower.nextStep = snap.step_count;
      this.hint = null;
      // The taken-back moves: struck out in the log, and no longer anyone's last move.
      this.log.undoFrom(snap.step_count);
      this.markSteps = (this.markSteps || []).filter((m) => m.index < snap.step_count);
      this.marks = {};
      for (const m of this.markSteps) this.marks[m.player] = m.aj;
      this.log.note(`${this.labels[seat]} took a move back`);
      await this.follower.ingest(snap);
      setStatus("Move taken back: your turn again", "turn");
    } catch (e) { setStatus(e.message, "error"); }
  },

  async askHint() {
    const box = document.getElementById("hint-box");
    box.style.display = "";
    box.textContent = "Thinking about a hint…";
    try {
      const h = await api("POST", `/api/games/${this.snap.id}/hint`, { seat: this.snap.to_move });
      this.hint = h.action_json;
      if (h.revision !== undefined && this.snap) this.snap.revision = Math.max(this.snap.revision, h.revision);
      const why = h.explain ? ` — ${h.explain.why} (${h.explain.points >= 0 ? "+" : ""}${h.explain.points})` : "";
      box.textContent = `Hint from the strongest player: ${AzulView.words(h.action_json, "take")}${why}`;
      this.log.note(`${this.labels[h.seat]} asked for a hint`);
      this.draw();
      // The keyboard continues from the suggested tiles.
      const t = document.querySelector("#board .tile.pick.hinted");
      if (t) t.focus({ preventScroll: true });
    } catch (e) { box.textContent = e.message; }
  },

  async downloadRecord() {
    try { download(`azul-${this.snap.id}.json`, await api("GET", `/api/games/${this.snap.id}/record`)); }
    catch (e) { setStatus(e.message, "error"); }
  },

  showFinal(snap) {
    const out = snap.outcome;
    const winners = out.winners.map((w) => this.labels[w]).join(" and ");
    const flag = snap.clock ? snap.clock.flag : null;
    const onTime = flag !== null && flag !== undefined ? ` (${this.labels[flag]} lost on time)` : "";
    setStatus(`Game over: ${winners} ${out.winners.length > 1 ? "share the win" : "wins"}${onTime}`, "turn");
    const box = document.getElementById("final");
    clear(box);
    box.style.display = "";
    const rep = this.lastReport && this.lastReport.game_over ? this.lastReport : null;
    const v = snap.view;
    const t = el("table", { class: "data", id: "final-scores" },
      el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Before bonuses" }),
        el("th", { text: "Rows (+2)" }), el("th", { text: "Columns (+7)" }), el("th", { text: "Colours (+10)" }),
        el("th", { text: "Floor, last round" }), el("th", { text: "Final score" })));
    out.scores.forEach((s, p) => {
      const b = AzulView.bonuses(v.boards[p].wall, v.wall_pattern);
      const bonus = 2 * b.rows + 7 * b.columns + 10 * b.colours;
      const cell = (n, each) => el("td", { text: n ? `${n} × ${each} = +${n * each}` : "0" });
      t.appendChild(el("tr", { class: out.winners.includes(p) ? "winner" : "", "data-seat": p },
        el("td", { class: "seat-label", text: this.labels[p] + (out.winners.includes(p) ? " ★ winner" : "") }),
        el("td", { text: String(s - bonus) }),
        cell(b.rows, 2), cell(b.columns, 7), cell(b.colours, 10),
        el("td", { text: rep && rep.boards[p].floor_penalty ? `-${rep.boards[p].floor_penalty}` : "0" }),
        el("td", { class: "final-score", text: String(s) })));
    });
    box.append(el("h2", { text: `Final result: ${winners} ${out.winners.length > 1 ? "share the win" : "wins"}` }),
      GameClocks.lostOnTime(snap, this.labels) || "",
      el("div", { class: "table-scroll" }, t),
      el("p", { class: "row final-actions" },
        el("button", { id: "rematch", onclick: () => this.rematch(), text: "Play again" }),
        el("button", { class: "secondary", onclick: () => this.downloadRecord(), text: "Download record" }),
        el("a", { href: "azul", class: "button secondary", text: "New game" })),
      el("p", { class: "muted", text: "Play again: a new deal with the same seats, names and levels." }));
    if (rep) {
      box.append(el("h3", { text: `Last round (round ${rep.round})` }),
        el("div", { class: "table-scroll", id: "last-round" }, AzulView.reportTable(rep, this.labels)));
    }
    box.scrollIntoView({ block: "start" });
  },

  // "Play again": the page opens afresh and starts a game with the same seats.
  rematch() { startRematch(this, "azul"); },
};

if (document.getElementById("azul-page")) AzulPage.init().catch((e) => setStatus(e.message, "error"));

// Azul's view for pages that show any game (replay.html): see Tessera.views in common.js.
Tessera.views.azul = {
  chance: "tiles drawn",
  words: (aj) => AzulView.words(aj),
  describe: (aj, who) => AzulView.describe(aj, who),
  draw(board, view, opts) {
    AzulView.render(board, view, { seatLabels: opts.seatLabels, highlight: opts.highlight, marks: opts.marks });
    const rep = opts.step && opts.step.report;
    if (rep) board.appendChild(el("div", { class: "panel", style: { marginTop: "10px" } },
      el("h3", { text: `End of round ${rep.round}` }), AzulView.reportTable(rep, opts.seatLabels)));
  },
};
