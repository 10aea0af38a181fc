"use strict";
// Match the Tiles: the level picker, the grid, arrow keys and buttons, hint, undo, and a
// solver's solution played back move by move (through the server, which holds the rules).

const TILE_COLOURS = { P: "#8e44ad", O: "#e67e22", R: "#d63031", B: "#2f6fb5", G: "#27ae60", Y: "#f1c40f", C: "#16a2b8", M: "#e84393" };
const tileColour = (l) => TILE_COLOURS[l] || "#555";
const DIR_NAMES = { L: "left", R: "right", U: "up", D: "down" };
const SOLVER_NAMES = { bfs: "breadth-first (BFS)", dfs: "depth-first (DFS)", iddfs: "iterative deepening (IDDFS)",
  greedy: "greedy best-first", astar: "A*", idastar: "IDA*" };

// A level's grid: obstacles, targets (rings with the small letter) and the pieces (`pieces`:
// the piece letter on each cell, or null). The play page and the rules page draw with it.
function tilesGrid(L, pieces, id) {
  const grid = el("div", { class: "tgrid", id, style: { gridTemplateColumns: `repeat(${L.width}, 46px)` } });
  L.cells.forEach((c, i) => {
    const cell = el("div", { class: "tcell" + (c.obstacle ? " obstacle" : ""), "data-cell": i });
    if (c.target) cell.appendChild(el("div", { class: "target", style: { borderColor: tileColour(c.target) } }, el("span", { class: "target-letter", text: c.target.toLowerCase() })));
    const piece = pieces[i];
    if (piece) cell.appendChild(el("div", { class: "piece" + (c.target === piece ? " home" : ""), style: { background: tileColour(piece) }, text: piece }));
    grid.appendChild(cell);
  });
  return grid;
}

const TilesPage = {
  p: null, busy: false, animating: false,

  async init() {
    const data = await api("GET", "/api/tiles/levels");
    const sel = document.getElementById("level");
    // The shipped levels are named by their number: the menu says "Level 3 · 4×4, best 5
    // moves", with a level's own name only when it has one.
    data.levels.forEach((l) => sel.appendChild(el("option", { value: l.number,
      text: `Level ${l.number}${l.name && l.name !== String(l.number) ? " · " + l.name : ""} · ${l.width}×${l.height}` +
        (l.optimal !== null && l.optimal !== undefined ? `, best ${l.optimal} moves` : "") })));
    const want = new URLSearchParams(location.search).get("level");
    if (want) sel.value = want;
    sel.addEventListener("change", () => this.load(parseInt(sel.value, 10)));
    const solver = document.getElementById("solver");
    data.solvers.forEach((s) => solver.appendChild(el("option", { value: s, text: SOLVER_NAMES[s] || s })));
    solver.value = "astar";
    const heur = document.getElementById("heuristic");
    // One entry per heuristic, saying what it promises (never "admissible (admissible)").
    data.heuristics.forEach((h) => heur.appendChild(el("option", { value: h.name,
      text: `${h.name} · ${h.admissible ? "finds a shortest solution" : "faster, maybe not shortest"}` })));
    heur.value = "admissible";
    for (const d of ["L", "R", "U", "D"]) document.getElementById(`btn-${d}`).addEventListener("click", () => this.move(d));
    document.getElementById("undo").addEventListener("click", () => this.post("undo"));
    document.getElementById("reset").addEventListener("click", () => this.post("reset"));
    document.getElementById("hint").addEventListener("click", () => this.hint());
    document.getElementById("watch").addEventListener("click", () => this.watch());
    document.getElementById("own-load").addEventListener("click", () => this.loadOwn(document.getElementById("own-text").value));
    document.getElementById("own-file").addEventListener("change", async (ev) => {
      const f = ev.target.files[0];
      if (f) { const text = await f.text(); document.getElementById("own-text").value = text; this.loadOwn(text); }
    });
    document.addEventListener("keydown", (e) => {
      if (["TEXTAREA", "INPUT"].includes(e.target.tagName)) return;
      const k = { ArrowLeft: "L", ArrowRight: "R", ArrowUp: "U", ArrowDown: "D" }[e.key];
      if (k && e.target.tagName !== "SELECT") { e.preventDefault(); this.move(k); }
      else if ((e.key === "z" && (e.ctrlKey || e.metaKey)) || e.key === "Backspace") { e.preventDefault(); this.post("undo"); }
    });
    await this.load(parseInt(sel.value, 10));
  },

  // Your own level, in the level file's format; the server parses it and says what is wrong.
  async loadOwn(text) {
    const err = document.getElementById("own-error");
    err.textContent = "";
    try {
      this.show(await api("POST", "/api/tiles", { level_text: text }));
      setStatus("Your level: slide the pieces onto the targets of their colour.");
    } catch (e) { err.textContent = e.message; setStatus(e.message, "error"); }
  },

  async load(n) {
    try { this.show(await api("POST", "/api/tiles", { level: n })); setStatus("Slide the pieces onto the targets of their colour."); }
    catch (e) { setStatus(e.message, "error"); }
  },

  show(p, hintDir) {
    this.p = p;
    const L = p.level;
    clear(document.getElementById("grid")).appendChild(tilesGrid(L, p.pieces, "tgrid"));
    document.getElementById("moves").textContent = p.move_count;
    document.getElementById("optimal").textContent = L.optimal ?? "?";
    document.getElementById("history").textContent = p.moves ? `Moves so far: ${p.moves}` : "";
    document.getElementById("undo").disabled = !p.can_undo;
    for (const d of ["L", "R", "U", "D"]) document.getElementById(`btn-${d}`).classList.toggle("highlight", d === hintDir);
    const solved = document.getElementById("solved");
    if (p.solved) {
      const opt = L.optimal;
      solved.textContent = `Solved in ${p.move_count} moves` + (opt !== null && opt !== undefined ? (p.move_count === opt ? " — optimal!" : ` (the optimum is ${opt})`) : "");
      setStatus("Solved! Pick another level, or restart to try for fewer moves.", "turn");
    } else solved.textContent = "";
  },

  async move(d) {
    if (!this.p || this.busy || this.animating) return;
    this.busy = true;
    try { this.show(await api("POST", `/api/tiles/${this.p.id}/move`, { dir: d })); if (!this.p.solved) setStatus(`Moved ${DIR_NAMES[d]}`); }
    catch (e) { setStatus(e.message, "error"); }
    finally { this.busy = false; }
  },

  async post(what) {
    if (!this.p || this.animating) return;
    try { this.show(await api("POST", `/api/tiles/${this.p.id}/${what}`)); setStatus(what === "undo" ? "Move taken back" : "Back to the start"); }
    catch (e) { setStatus(e.message, "error"); }
  },

  async hint() {
    if (!this.p) return;
    setStatus("Searching for the best move…");
    try {
      const h = await api("POST", `/api/tiles/${this.p.id}/hint`);
      if (!h.solvable) setStatus("No solution from here: undo or restart.", "error");
      else { setStatus(`Hint: move ${DIR_NAMES[h.dir]} (${h.moves_left} moves left with best play)`, "turn"); this.show(this.p, h.dir); }
    } catch (e) { setStatus(e.message, "error"); }
  },

  async watch() {
    if (!this.p || this.animating) return;
    const solver = document.getElementById("solver").value;
    const heuristic = document.getElementById("heuristic").value;
    setStatus(`Running ${solver}…`);
    let r;
    try { r = await api("POST", `/api/tiles/${this.p.id}/solve`, { solver, heuristic }); }
    catch (e) { setStatus(e.message, "error"); return; }
    const st = r.stats;
    document.getElementById("solveinfo").textContent =
      `${r.solver}${r.heuristic ? " + " + r.heuristic : ""}: ${r.status}, ${r.length ?? "-"} moves, ` +
      `${st.expanded} expanded, ${st.generated} generated, ${(st.peak_bytes / 1024).toFixed(0)} KiB, ${(st.elapsed / 1000).toFixed(1)} ms`;
    if (!r.moves) { setStatus(`${r.solver} found no solution (${r.status})`, "error"); return; }
    this.animating = true;
    try {
      this.show(await api("POST", `/api/tiles/${this.p.id}/reset`));
      for (const d of r.moves) {
        await sleep(450);
        this.show(await api("POST", `/api/tiles/${this.p.id}/move`, { dir: d }));
        setStatus(`${r.solver}: move ${this.p.move_count} of ${r.length}: ${DIR_NAMES[d]}`);
      }
    } catch (e) { setStatus(e.message, "error"); }
    finally { this.animating = false; }
  },
};

if (document.getElementById("tiles-page")) TilesPage.init().catch((e) => setStatus(e.message, "error"));
