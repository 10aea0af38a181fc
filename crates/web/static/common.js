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

// The seat editor shared by Azul and Qwirkle: one row per seat, human or an agent with its
// time budget. `agents` is the catalog's list for the game.
function seatEditor(container, count, agents, defaults) {
  clear(container);
  const rows = [];
  for (let i = 0; i < count; i++) {
    const d = (defaults && defaults[i]) || (i === 0 ? { type: "human" } : { type: "ai", agent: agents[0] && agents[0].name });
    const sel = el("select", { id: `seat${i}-type` },
      el("option", { value: "human", text: "Human" }),
      ...agents.map((a) => el("option", { value: "ai:" + a.name, text: "AI: " + a.name, title: a.description })));
    sel.value = d.type === "human" ? "human" : "ai:" + d.agent;
    const ms = el("input", { type: "number", id: `seat${i}-ms`, min: 1, max: 60000, value: d.time_ms || 500, style: { width: "90px" } });
    const budget = el("span", {}, ms, " ms per move");
    const sync = () => { budget.style.visibility = sel.value === "human" ? "hidden" : "visible"; };
    sel.addEventListener("change", sync);
    sync();
    container.append(el("span", { text: `Seat ${i + 1}` }), sel, budget);
    rows.push({ sel, ms });
  }
  return () => rows.map((r, i) => r.sel.value === "human"
    ? { type: "human", name: `Player ${i + 1}` }
    : { type: "ai", agent: r.sel.value.slice(3), budget: { time_ms: Math.max(1, parseInt(r.ms.value || "500", 10)) } });
}

// Follows a game: long-polls the server and hands every new step to `onStep` (awaited, so
// the page can animate one step at a time), then the snapshot to `onSnapshot`.
class GameFollower {
  constructor(id, seat, onStep, onSnapshot) {
    this.id = id; this.seat = seat; this.onStep = onStep; this.onSnapshot = onSnapshot;
    this.nextStep = 0; this.revision = -1; this.stopped = false;
  }
  stop() { this.stopped = true; }
  async ingest(snap) {
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
