"use strict";
// Shared helpers of the Tessera pages: the JSON API client and small DOM builders.

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : `HTTP ${resp.status}`;
    const err = new Error(msg);
    err.status = resp.status;
    throw err;
  }
  return data;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") Object.assign(e.style, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

function setStatus(text, kind) {
  const s = document.getElementById("status");
  if (!s) return;
  s.textContent = text;
  s.className = "status" + (kind ? " " + kind : "");
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function download(filename, obj) {
  const blob = new Blob([JSON.stringify(obj, null, 2)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: filename });
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// The seat editor shared by Azul and Qwirkle: one row per seat, human, a difficulty level
// (with its one-line summary) or another player; "ms per move" only for players that search
// until their time runs out. `info` is the catalog's entry for the game.
function seatEditor(container, count, info) {
  clear(container);
  const agents = info.agents || [];
  const levels = info.levels || [];
  const def = info.default_level ? `level:${info.default_level}` : (agents[0] && agents[0].name);
  const rows = [];
  for (let i = 0; i < count; i++) {
    const sel = el("select", { id: `seat${i}-type`, "aria-label": `seat ${i + 1}` },
      el("option", { value: "human", text: "Human" }),
      levels.length ? el("optgroup", { label: "Difficulty levels" },
        ...levels.map((l) => el("option", { value: "ai:" + l.agent, text: `Level ${l.number} · ${l.name}`, title: l.summary }))) : null,
      el("optgroup", { label: "Other players" },
        ...agents.map((a) => el("option", { value: "ai:" + a.name, text: "AI: " + a.name, title: a.description }))));
    sel.value = i === 0 ? "human" : "ai:" + def;
    const ms = el("input", { type: "number", id: `seat${i}-ms`, min: 1, max: 60000, value: 500, style: { width: "90px" } });
    const budget = el("span", { class: "budget" }, ms, " ms per move");
    const about = el("div", { class: "muted seat-about", id: `seat${i}-about` });
    const agentOf = () => sel.value.startsWith("ai:") ? sel.value.slice(3) : null;
    const timed = () => { const a = agents.find((x) => x.name === agentOf()); return !!(a && a.timed); };
    const sync = () => {
      budget.style.display = timed() ? "" : "none";
      const name = agentOf();
      const lv = levels.find((l) => l.agent === name);
      const ag = agents.find((x) => x.name === name);
      about.textContent = lv ? lv.summary : ag ? ag.description : "you play this seat";
    };
    sel.addEventListener("change", sync);
    sync();
    container.append(el("span", { text: `Seat ${i + 1}` }), el("div", {}, sel, " ", budget, about));
    rows.push({ sel, ms, agentOf, timed });
  }
  return () => rows.map((r, i) => {
    const agent = r.agentOf();
    if (agent === null) return { type: "human", name: `Player ${i + 1}` };
    const seat = { type: "ai", agent };
    if (r.timed()) seat.budget = { time_ms: Math.max(1, parseInt(r.ms.value || "500", 10)) };
    return seat;
  });
}

// The pace of a game on screen: a speed factor (the #speed select) and a pause (#pause),
// read by every animation wait.
const Pace = {
  factor: 1, paused: false, fast: new URLSearchParams(location.search).has("fast"),
  init() {
    const sp = document.getElementById("speed");
    if (sp) sp.addEventListener("change", () => { this.factor = parseFloat(sp.value) || 1; });
    const pb = document.getElementById("pause");
    if (pb) pb.addEventListener("click", () => { this.paused = !this.paused; pb.textContent = this.paused ? "Resume" : "Pause"; pb.setAttribute("aria-pressed", String(this.paused)); });
  },
  ms(base) { return this.fast ? Math.min(base, 60) / 4 : base / this.factor; },
  async wait(base) {
    await sleep(this.ms(base));
    while (this.paused) await sleep(100);
  },
};

// The move log: one line per action (seat, the action in words, points), newest last.
class MoveLog {
  constructor(container) { this.box = container; this.count = 0; }
  clear() { clear(this.box); this.count = 0; }
  add(seatLabel, seat, text, points, step) {
    this.count += 1;
    const pts = points === null || points === undefined ? "" : (points >= 0 ? `+${points}` : String(points));
    const row = el("li", { class: `log-entry seat-${seat}`, "data-seat": seat, "data-step": step },
      el("span", { class: "log-seat", text: seatLabel }), " ", el("span", { class: "log-text", text }),
      pts ? el("span", { class: "log-points", text: ` ${pts}` }) : null);
    this.box.appendChild(row);
    this.box.scrollTop = this.box.scrollHeight;
  }
  // Strikes out the moves from step `count` on (taken back by an undo).
  undoFrom(count) {
    for (const li of this.box.querySelectorAll("li.log-entry[data-step]")) {
      if (parseInt(li.getAttribute("data-step"), 10) >= count && !li.classList.contains("undone")) {
        li.classList.add("undone");
        li.setAttribute("title", "taken back");
      }
    }
  }
  note(text) {
    this.box.appendChild(el("li", { class: "log-note", text }));
    this.box.scrollTop = this.box.scrollHeight;
  }
}

// Keyboard play: Enter or Space activate a focused control; the arrow keys move the focus
// among the controls matching `selector` inside `root`, in page order.
function keyboardNav(root, selector) {
  root.addEventListener("keydown", (e) => {
    const t = e.target;
    if (!t.matches || !t.matches(selector)) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); t.click(); return; }
    const dir = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (!dir) return;
    e.preventDefault();
    const all = [...root.querySelectorAll(selector)];
    const i = all.indexOf(t);
    const next = all[(i + dir + all.length) % all.length];
    if (next) next.focus();
  });
}

function focusable(node, label) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (label) node.setAttribute("aria-label", label);
  return node;
}

// Follows a game: long-polls the server and hands every new step to `onStep` (awaited, so
// the page can animate one step at a time), then the snapshot to `onSnapshot`.
class GameFollower {
  constructor(id, seat, onStep, onSnapshot) {
    this.id = id; this.seat = seat; this.onStep = onStep; this.onSnapshot = onSnapshot;
    this.nextStep = 0; this.revision = -1; this.stopped = false;
  }
  stop() { this.stopped = true; }
  // One snapshot at a time (the long poll and a move's answer may arrive together), so no
  // step is shown twice.
  ingest(snap) {
    this.queue = (this.queue || Promise.resolve()).then(() => this.ingestNow(snap));
    return this.queue;
  }
  async ingestNow(snap) {
    if (snap.step_count < this.nextStep) this.nextStep = snap.step_count; // undo
    for (const st of snap.steps || []) {
      if (st.index < this.nextStep) continue;
      if (this.stopped) return;
      await this.onStep(st, snap);
      this.nextStep = st.index + 1;
    }
    this.revision = snap.revision;
    if (!this.stopped) this.onSnapshot(snap);
  }
  async run() {
    while (!this.stopped) {
      const q = new URLSearchParams({ since: this.nextStep });
      if (this.revision >= 0) { q.set("wait_ms", 20000); q.set("revision", this.revision); }
      if (this.seat !== null && this.seat !== undefined) q.set("seat", this.seat);
      let snap;
      try {
        snap = await api("GET", `/api/games/${this.id}?${q}`);
      } catch (e) {
        setStatus(e.message, "error");
        await sleep(1000);
        continue;
      }
      await this.ingest(snap);
      if (snap.status !== "playing") {
        if (snap.revision === this.revision && snap.step_count === this.nextStep) await sleep(400);
        if (snap.status === "finished" || snap.status === "failed") { this.doneOnce = true; }
      }
    }
  }
}
