"use strict";
// Shared helpers of the Tessera pages: the JSON API client, the seat tokens this browser
// holds, the game's address, and small DOM builders.

// The seat tokens this browser holds, per game: localStorage "tessera.seats.ID" is
// {"0": "token", ...}. Every API request about a game carries them (Authorization: Bearer
// T0,T1), so the server knows which seats this browser plays.
const Seats = {
  key(id) { return `tessera.seats.${id}`; },
  load(id) {
    try { return JSON.parse(localStorage.getItem(this.key(id)) || "{}") || {}; } catch (e) { return {}; }
  },
  add(id, seat, token) {
    const m = this.load(id);
    m[String(seat)] = token;
    try { localStorage.setItem(this.key(id), JSON.stringify(m)); } catch (e) { /* private mode: this tab only */ }
    this.memory[id] = m;
  },
  memory: {},
  tokens(id) {
    const m = Object.assign({}, this.load(id), this.memory[id] || {});
    return Object.values(m).filter((t) => /^[0-9a-f]+$/i.test(t));
  },
  // An invite link's token (`#token=...` in the address): kept for the game, then removed
  // from the address bar so it is not shared by accident.
  fromFragment(id) {
    const m = /(?:^#|&)token=([0-9a-fA-F]+)/.exec(location.hash);
    if (!m) return null;
    history.replaceState(null, "", location.pathname + location.search);
    return m[1];
  },
};

// A fresh id for a request that must take effect once (Start), however often it is sent.
function requestId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const m = /^\/api\/games\/([^/?]+)/.exec(path);
  if (m) {
    const tokens = Seats.tokens(m[1]);
    if (tokens.length) opts.headers["authorization"] = `Bearer ${tokens.join(",")}`;
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  // When a clock's figures arrived: the page ticks it from there (not from when it is shown).
  if (data && data.clock) data.clock.received = performance.now();
  if (!resp.ok) {
    const msg = data && data.error ? data.error : `HTTP ${resp.status}`;
    const err = new Error(msg);
    err.status = resp.status;
    err.data = data;
    throw err;
  }
  return data;
}

// The game's address (`/azul?game=ID`), put in the address bar once a game is open.
function gameIdFromUrl() {
  return new URLSearchParams(location.search).get("game");
}

// The invite links of the free seats (`free` in the snapshot), for the creator to send.
// Opens what the page's address names: a game (`/GAME?game=ID`, and an invite link's
// `#token=`), or with `?rematch` ("Play again" after a game) a new game with the seats and
// the clock the finished one saved. `page` is the game page's object (its `open`, `start`,
// `nextSeats`, `nextClock`).
async function openFromAddress(page, game) {
  const id = gameIdFromUrl();
  if (id) {
    const token = Seats.fromFragment(id);
    if (token) Seats.add(id, `invite-${token.slice(0, 8)}`, token);
    await page.open(id, null);
  } else if (new URLSearchParams(location.search).has("rematch")) {
    const key = `tessera-rematch-${game}`;
    const saved = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    if (saved) {
      let rematch = null;
      try { rematch = JSON.parse(saved); } catch (e) { rematch = null; }
      // (A page of before saved the seats alone.)
      if (Array.isArray(rematch)) rematch = { seats: rematch, clock: null };
      page.nextSeats = rematch && Array.isArray(rematch.seats) ? rematch.seats : null;
      page.nextClock = rematch && typeof rematch.clock === "string" ? rematch.clock : null;
      if (page.nextSeats) {
        document.getElementById("players").value = String(page.nextSeats.length);
        await page.start();
      }
    }
  }
}

// "Play again": `page`'s finished game as a new-game request saved for the page that opens
// afresh with `?rematch` (see openFromAddress), with the same clock (its control, as the
// server wrote it, e.g. `5m+3s`) if it had one. A seat this browser played keeps its name;
// another person's seat is open again (a new invite link), since their token belongs to the
// old game; levels by level, other players by their specification and budget.
function startRematch(page, game) {
  const snap = page.snap;
  const levels = page.info.levels || [];
  const mine = snap.my_seats || snap.seats.map((_, i) => i);
  const seats = snap.seats.map((s, i) => {
    if (s.type === "human") return mine.includes(i) ? { type: "human", name: s.name } : { type: "human", open: true };
    const lv = levels.find((l) => l.spec === s.agent);
    if (lv) return { type: "ai", agent: lv.agent };
    return { type: "ai", agent: s.agent, budget: s.budget };
  });
  const clock = snap.clock ? snap.clock.control : null;
  sessionStorage.setItem(`tessera-rematch-${game}`, JSON.stringify({ seats, clock }));
  location.href = `${game}?rematch` + (page.fast ? "&fast" : "");
}

function showInvites(snap, tokens) {
  let box = document.getElementById("invites");
  if (!box) {
    box = el("div", { id: "invites", class: "panel invites" });
    const game = document.getElementById("game");
    if (game) game.insertBefore(box, game.firstChild);
  }
  clear(box);
  const free = (tokens || []).filter((t) => snap.seats[t.seat] && snap.seats[t.seat].free);
  if (!free.length) { box.style.display = "none"; return; }
  box.style.display = "";
  box.appendChild(el("h3", { text: "Invite players" }));
  box.appendChild(el("p", { class: "muted", text: "Send each link to one person: it lets them play that seat. Anyone else can watch at this page's address." }));
  for (const t of free) {
    const url = location.origin + t.invite;
    box.appendChild(el("div", { class: "invite" }, el("span", { text: `Seat ${t.seat + 1}: ` }),
      el("input", { type: "text", readonly: true, value: url, class: "invite-link", id: `invite-${t.seat}`, size: 60, onfocus: (e) => e.target.select() })));
  }
}

// The lobby: games being played with free seats; "Join" takes one with a name.
async function showLobby(container) {
  let data;
  try { data = await api("GET", "/api/lobby"); } catch (e) { container.textContent = e.message; return; }
  clear(container);
  if (!data.games.length) { container.appendChild(el("p", { class: "muted", text: "No open tables right now: start a game with a free seat (seat type \"Person (invite)\") to open one." })); return; }
  for (const g of data.games) {
    const who = g.seats.map((s) => s.free ? "free seat" : s.name).join(", ");
    const name = el("input", { type: "text", maxlength: 40, placeholder: "your name", class: "join-name", "aria-label": "your name" });
    const btn = el("button", { class: "join", text: "Join" });
    btn.addEventListener("click", async () => {
      if (btn.disabled) return;
      btn.disabled = true;
      try {
        const r = await api("POST", `/api/games/${g.id}/join`, { name: name.value.trim() || "Guest" });
        Seats.add(g.id, r.seat, r.token);
        location.href = r.url;
      } catch (e) { btn.disabled = false; setStatus(e.message, "error"); }
    });
    container.appendChild(el("div", { class: "lobby-game", "data-game": g.id },
      el("strong", { text: `${g.title}` }), ` · ${who} `, name, " ", btn));
  }
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
      el("option", { value: "open", text: "Person (invite link)" }),
      levels.length ? el("optgroup", { label: "Difficulty levels" },
        ...levels.map((l) => el("option", { value: "ai:" + l.agent, text: `Level ${l.number} · ${l.name}`, title: l.summary }))) : null,
      el("optgroup", { label: "Other computer players" },
        ...agents.map((a) => el("option", { value: "ai:" + a.name, text: "AI: " + a.name, title: a.description }))));
    sel.value = i === 0 ? "human" : "ai:" + def;
    const ms = el("input", { type: "number", id: `seat${i}-ms`, min: 1, max: 60000, value: 500, style: { width: "90px" } });
    const budget = el("span", { class: "budget" }, ms, " ms per move");
    const about = el("div", { class: "muted seat-about", id: `seat${i}-about` });
    // A person's name, shown on the board and kept in the game's record.
    const nameInput = el("input", { type: "text", id: `seat${i}-name`, class: "seat-name", maxlength: 40,
      placeholder: `Player ${i + 1}`, "aria-label": `seat ${i + 1} player's name` });
    const agentOf = () => sel.value.startsWith("ai:") ? sel.value.slice(3) : null;
    const timed = () => { const a = agents.find((x) => x.name === agentOf()); return !!(a && a.timed); };
    const sync = () => {
      budget.style.display = timed() ? "" : "none";
      nameInput.style.display = sel.value === "human" ? "" : "none";
      const name = agentOf();
      const lv = levels.find((l) => l.agent === name);
      const ag = agents.find((x) => x.name === name);
      about.textContent = lv ? lv.summary : ag ? ag.description
        : sel.value === "open" ? "a free seat: send its invite link to a friend, or someone joins from the lobby" : "you play this seat";
    };
    sel.addEventListener("change", sync);
    sync();
    container.append(el("span", { text: `Seat ${i + 1}` }), el("div", {}, sel, " ", nameInput, budget, about));
    rows.push({ sel, ms, agentOf, timed, nameInput });
  }
  return () => rows.map((r, i) => {
    const agent = r.agentOf();
    if (agent === null && r.sel.value === "open") return { type: "human", open: true };
    if (agent === null) return { type: "human", name: r.nameInput.value.trim() || `Player ${i + 1}` };
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

// The latest move by someone else, in a small bar fixed to the bottom of a phone's screen
// (on a wide screen the move log beside the board shows it; the CSS hides the bar there).
function moveToast(text, points) {
  let box = document.getElementById("move-toast");
  if (!box) {
    box = el("div", { id: "move-toast", class: "move-toast", role: "status", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  const pts = points === null || points === undefined ? "" : ` (${points >= 0 ? "+" : ""}${points})`;
  box.textContent = text + pts;
  box.classList.add("shown");
}

// ---- game clocks ------------------------------------------------------------------------
// The setup's clock choice: none, a preset or a custom `BASE+INCREMENT` (the server checks
// it and says what it expects). Placed after `#seats`; returns a reader of the choice (the
// text to send as the new game's "clock", or null).
const CLOCK_PRESETS = [["3m+2s", "3 min + 2 s a move"], ["10m+5s", "10 min + 5 s a move"]];
function clockPicker() {
  const seats = document.getElementById("seats");
  const sel = el("select", { id: "clock", "aria-label": "game clock" },
    el("option", { value: "", text: "No clock" }),
    ...CLOCK_PRESETS.map(([v, t]) => el("option", { value: v, text: t })),
    el("option", { value: "custom", text: "Custom…" }));
  const custom = el("input", { type: "text", id: "clock-custom", size: 10, placeholder: "5m+3s", "aria-label": "custom clock", style: { display: "none" } });
  sel.addEventListener("change", () => { custom.style.display = sel.value === "custom" ? "" : "none"; });
  const row = el("p", { class: "clock-setup" }, el("label", {}, "Clock ", sel), " ", custom,
    el("span", { class: "muted", text: " each seat's time for the whole game plus a bonus per move; whoever runs out loses" }));
  if (seats && seats.parentNode) seats.parentNode.insertBefore(row, seats.nextSibling);
  return () => sel.value === "custom" ? (custom.value.trim() || null) : (sel.value || null);
}

// A clock per seat above the board, ticking in the browser from the server's figures (the
// snapshot's `clock`: each seat's time left when it was sent and whose clock runs); red
// under 10 s, and "lost on time" once a flag falls.
const GameClocks = {
  data: null, at: 0, timer: null, labels: [],
  update(snap, labels) {
    this.data = snap.clock || null;
    this.at = this.data && this.data.received ? this.data.received : performance.now();
    this.labels = labels || [];
    this.render();
    if (this.data && this.data.running !== null && !this.timer) this.timer = setInterval(() => this.render(), 100);
    if ((!this.data || this.data.running === null) && this.timer) { clearInterval(this.timer); this.timer = null; }
  },
  left(p) {
    const d = this.data;
    const ms = d.left_ms[p] - (d.running === p ? performance.now() - this.at : 0);
    return Math.max(0, ms);
  },
  format(ms) {
    if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
  },
  render() {
    let box = document.getElementById("clocks");
    if (!this.data) { if (box) box.style.display = "none"; return; }
    if (!box) {
      box = el("div", { id: "clocks", class: "clocks", "aria-label": "clocks" });
      const game = document.getElementById("game");
      const before = document.getElementById("hint-box");
      if (!game) return;
      game.insertBefore(box, before && before.parentNode === game ? before : game.firstChild);
    }
    box.style.display = "";
    const d = this.data;
    d.left_ms.forEach((_, p) => {
      let c = document.getElementById(`clock-${p}`);
      if (!c) {
        c = el("div", { class: "seat-clock", id: `clock-${p}`, "data-seat": p },
          el("span", { class: "clock-name" }), " ", el("span", { class: "clock-time" }));
        box.appendChild(c);
      }
      const ms = this.left(p);
      c.querySelector(".clock-name").textContent = this.labels[p] || `Seat ${p + 1}`;
      c.querySelector(".clock-time").textContent = d.flag === p ? "0.0 · lost on time" : this.format(ms);
      c.classList.toggle("running", d.running === p);
      c.classList.toggle("low", ms < 10000);
      c.classList.toggle("flagged", d.flag === p);
      c.setAttribute("data-ms", String(Math.round(ms)));
    });
  },
  // The final panel's line for a fallen flag (null without one).
  lostOnTime(snap, labels) {
    const f = snap.clock ? snap.clock.flag : null;
    if (f === null || f === undefined) return null;
    return el("p", { id: "lost-on-time", class: "lost-on-time", text: `${labels[f]} lost on time (${snap.clock.control} clock).` });
  },
};

// ---- the games' web views, for pages that show any game (the replay page) ------------
// Each game with a web view of its own registers it from its script (azul.js, qwirkle.js):
//   Tessera.views[GAME] = {
//     chance: what a chance step is, in words ("tiles drawn"),
//     words(actionJson, step): the move in words without the player ("took 3 blue ..."),
//     describe(actionJson, who, step): the move in a sentence naming the player,
//     draw(el, view, opts): the position (the step's spectator view) into el; opts:
//       { seatLabels, highlight (the step's action_json with its player), marks (each
//         seat's last action_json), step (the whole step) } }
// The server adds a script tag per registered game with such a file; every other game
// (the Nim test game, a game just added) is shown by Tessera.textView from its notation.
const Tessera = { views: {} };
Tessera.textView = {
  words(aj, step) { return `played ${step.action}`; },
  describe(aj, who, step) { return `${who} played ${step.action}`; },
  draw(container, view) {
    const text = view && typeof view.state === "string" ? view.state
      : view && view.state === null ? "(the position is hidden from spectators until the game ends)"
        : JSON.stringify(view, null, 1);
    clear(container).appendChild(el("pre", { class: "panel text-view", text }));
  },
};
// The view of `game`: its own, or the text view.
Tessera.view = (game) => Tessera.views[game] || Tessera.textView;
