// The Rulebook viewer: draws /api/view's table data for any ruleset (no per-game code).
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
};

const ui = { game: null, at: 0, seat: null, event: -1, view: null, busy: false };

// the game's token, from the address the server printed (?token=...): every API call sends it
const TOKEN = new URLSearchParams(window.location.search).get("token") || "";

async function api(path, body) {
  const headers = { "X-Rulebook-Token": TOKEN };
  const init = body === undefined ? { headers } : { method: "POST", body: JSON.stringify(body),
                                                    headers: { ...headers, "Content-Type": "application/json" } };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { status: response.status, data });
  return data;
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "the table";
  return seat === ui.seat ? `you (seat ${seat})` : `seat ${seat}`;
}

// ------------------------------------------------------------------ pieces of the table
function card(c, hot) {
  const node = el("span", { class: "card" + (hot.has(c.label) ? " hot" : ""), "data-card": c.label, text: c.label });
  if (c.color) { node.style.borderColor = c.color; node.style.color = c.color; }
  if (c.count > 1) node.append(el("span", { class: "times", text: ` ×${c.count}` }));
  return node;
}

function cards(item, hot) {
  if (item.hidden) return el("span", { class: "hidden", text: `${item.count} hidden card${item.count === 1 ? "" : "s"}` });
  const list = item.groups || item.cards || [];
  if (!list.length) return el("span", { class: "hidden", text: "empty" });
  return el("span", { class: "cards" }, ...list.map((c) => card(c, hot)));
}

function track(item) {
  const spaces = el("span", { class: "track" });
  for (let i = 0; i <= item.track; i++) spaces.append(el("span", { class: i === item.value ? "at" : "", text: String(i) }));
  return spaces;
}

function itemRow(item, hot) {
  const row = el("div", { class: "item", "data-kind": item.kind, "data-name": item.name },
                 el("span", { class: "name", text: item.title || item.name, title: item.doc || "" }));
  if (item.kind === "zone") {
    row.append(cards(item, hot));
    if (!item.hidden && item.count > 0) row.append(el("span", { class: "hidden", text: `(${item.count})` }));
  } else if (item.kind === "counter") {
    if (item.hidden) row.append(el("span", { class: "hidden", text: "hidden" }));
    else {
      row.append(el("span", { class: "value", "data-value": String(item.value), text: item.text ?? String(item.value) }));
      if (Number.isInteger(item.track) && Number.isInteger(item.value)) row.append(track(item));
    }
  } else if (item.kind === "grid") {
    row.append(grid(item, hot));
  } else if (item.kind === "board") {
    row.append(board(item, hot));
  } else if (item.kind === "on_cards") {
    const list = el("span", { class: "cards" });
    for (const [on, held] of Object.entries(item.on)) list.append(el("span", { text: `${on}: ` }), cards(held, hot));
    row.append(list);
  } else if (item.kind === "card_counter") {
    row.append(el("span", { text: item.text ?? Object.entries(item.values).map(([k, v]) => `${k} ${v}`).join(", ") }));
  } else if (item.kind === "trick") {
    const plays = el("span", { class: "cards" });
    for (const p of item.plays) plays.append(el("span", { text: `${seatName(p.seat)}: ` }), card({ label: p.card, color: colorOf(p.card) }, hot));
    if (!item.plays.length) plays.append(el("span", { class: "hidden", text: "no card yet" }));
    row.append(plays, el("span", { class: "hidden", text: `led by ${seatName(item.leader)}; ${item.played} trick${item.played === 1 ? "" : "s"} played before` }));
  } else {
    row.append(el("span", { text: item.text ?? JSON.stringify(item.value) }));
  }
  return row;
}

function grid(item, hot) {
  const table = el("table", { class: "grid", "data-grid": item.name });
  item.cells.forEach((cells) => {
    const tr = el("tr");
    for (const c of cells) {
      const td = el("td", { "data-at": c ? c.at : "" });
      if (c) {
        if (hot.has(c.label)) td.className = "hot";
        td.append(card(c, new Set()));
        if (c.price !== null && c.price !== undefined) td.append(el("span", { class: "price", text: `${c.price} ${item.pay_title || item.pay || ""}` }));
        for (const o of c.on) td.append(el("span", { class: "on", text: `${o.counter} ${o.value}` }));
      }
      tr.append(td);
    }
    table.append(tr);
  });
  return table;
}

const ZONE_FILL = ["#d6eaf8", "#fadbd8", "#d5f5e3", "#fcf3cf", "#e8daef", "#fae5d3", "#d1f2eb", "#eaecee"];

function board(item, hot) {
  // a board as its graph: positions where the ruleset's view: board hint puts them, coloured by
  // the zone the seat sees each in (white: only hidden zones hold it)
  const ns = "http://www.w3.org/2000/svg";
  const W = 520, H = 340, pad = 22;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "board");
  svg.setAttribute("data-board", item.name);
  const at = (n) => [pad + n.x * (W - 2 * pad), pad + n.y * (H - 2 * pad)];
  for (const [a, b] of item.edges) {
    const [x1, y1] = at(item.nodes[a]), [x2, y2] = at(item.nodes[b]);
    const line = document.createElementNS(ns, "line");
    Object.entries({ x1, y1, x2, y2, class: "edge" }).forEach(([k, v]) => line.setAttribute(k, v));
    svg.append(line);
  }
  const zones = [...new Set(item.nodes.map((n) => n.zone).filter(Boolean))].sort();
  for (const n of item.nodes) {
    const [x, y] = at(n);
    const g = document.createElementNS(ns, "g");
    g.setAttribute("data-card", n.label);
    g.setAttribute("data-zone", n.zone);
    const c = document.createElementNS(ns, "circle");
    Object.entries({ cx: x, cy: y, r: 13, fill: n.zone ? ZONE_FILL[zones.indexOf(n.zone) % ZONE_FILL.length] : "white",
                     class: hot.has(n.label) ? "node hot" : "node" }).forEach(([k, v]) => c.setAttribute(k, v));
    const t = document.createElementNS(ns, "text");
    Object.entries({ x, y: y + 4, "text-anchor": "middle", class: "node-label" }).forEach(([k, v]) => t.setAttribute(k, v));
    t.textContent = n.label;
    const tip = document.createElementNS(ns, "title");
    tip.textContent = `${n.label}: ${n.zone || "hidden"}`;
    g.append(c, t, tip);
    svg.append(g);
  }
  const legend = el("div", { class: "legend" }, ...zones.map((z, i) => el("span", {},
    el("span", { class: "swatch", style: `background:${ZONE_FILL[i % ZONE_FILL.length]}` }), ` ${z} `)),
    el("span", {}, el("span", { class: "swatch", style: "background:white" }), " hidden"));
  return el("div", {}, svg, legend);
}

function colorOf(label) {
  const found = document.querySelector(`.card[data-card="${CSS.escape(label)}"]`);
  return found ? found.style.color : null;
}

// ------------------------------------------------------------------ the whole page
function renderResult(v) {
  // the scores by category (the breakdown), the total, the winners, and what decided the ranking
  const result = $("result");
  result.replaceChildren();
  if (!v.result) return;
  const winners = new Set(v.result.winners);
  const rows = v.result.breakdown || [];
  const cats = [...new Set(rows.flatMap((r) => Object.keys(r || {})))];
  const head = el("tr", {}, el("th", { text: "seat" }), ...cats.map((c) => el("th", { class: "category", text: c })),
                  el("th", { text: "total" }));
  const table = el("table", { id: "scores" }, head);
  (v.result.scores || []).forEach((s, i) => table.append(el("tr", { class: winners.has(i) ? "winner" : "", "data-seat": String(i) },
    el("td", { text: seatName(i) }),
    ...cats.map((c) => el("td", { class: "category", "data-category": c, text: String((rows[i] || {})[c] ?? "") })),
    el("td", { class: "score", text: JSON.stringify(s) }))));
  const panel = el("div", { class: "panel" }, el("h3", { text: "Game over" }), el("div", { class: "wide" }, table),
    el("p", { text: `won by ${v.result.winners.map(seatName).join(", ")}` }));
  if (v.result.decided) panel.append(el("p", { id: "decided", text: v.result.decided }));
  result.append(panel);
}

function renderTimeline(v) {
  // a log redacted for one seat: no table (the others' hidden cards are not in it), the game
  // told as that seat saw it, one line a position, the current one marked
  const events = v.events || [];
  $("title").textContent = v.title + (v.variant ? ` (${v.variant})` : "");
  $("mode").textContent = `a log as seat ${v.seat} saw it`;
  $("position").textContent = `${v.at} / ${v.length - 1}`;
  $("slider").max = String(v.length - 1);
  $("slider").value = String(v.at);
  $("status").textContent = `This log holds what seat ${v.seat} saw happen, not the table: a full log shows the table.`;
  renderResult(v);
  const story = el("ol", { id: "story", start: 0 }, ...v.story.map((text, i) => {
    const li = el("li", { class: i === v.at ? "current" : "", "data-at": String(i), text });
    li.addEventListener("click", () => show(i));
    return li;
  }));
  $("shared").replaceChildren(el("div", { class: "panel", "data-owner": "story" },
                                     el("h3", { text: `The game as seat ${v.seat} saw it` }), story));
  for (const id of ["running", "teams", "seats", "since"]) $(id).replaceChildren();
  $("said").textContent = v.said;
  renderSummary(v.summary);
  $("events").replaceChildren(...events.map((e, i) => el("li", { class: i === ui.event ? "current" : "", text: e.text })));
  const decision = v.line.type === "decision";
  $("prompt").textContent = decision ? `${seatName(v.line.seat)}: ${v.line.prompt}` : v.over ? "The game is over." : "";
  $("options").replaceChildren(...(decision ? [el("span", { class: "waiting", text: `chosen: ${v.line.action}` })] : []));
  const current = story.children[v.at];
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

// the counters several seats changed at once (a round's end): a row a counter, a column a seat
function renderSummary(summary) {
  if (!summary) return $("summary").replaceChildren();
  const head = el("tr", {}, el("th"), ...summary.seats.map((s) => el("th", { text: s })));
  const rows = summary.rows.map((r) => el("tr", {}, el("th", { text: r[0] }), ...r.slice(1).map((c) => el("td", { text: c }))));
  $("summary").replaceChildren(el("table", {}, head, ...rows));
}

function render() {
  const v = ui.view;
  if (v.mode === "timeline") return renderTimeline(v);
  const events = v.events || [];
  const hot = new Set(ui.event >= 0 && events[ui.event] ? events[ui.event].cards : []);
  $("title").textContent = v.title + (v.variant ? ` (${v.variant})` : "");
  $("mode").textContent = v.mode === "play" ? "playing" : "reading a log";
  $("position").textContent = `${v.at} / ${v.length - 1}`;
  $("slider").max = String(v.length - 1);
  $("slider").value = String(v.at);
  const vars = (v.header || []).map((h) => `${h.title}: ${h.text}`).join(" · ");
  $("status").textContent = [v.phase ? `phase ${v.phase}` : "", vars].filter(Boolean).join(" · ");
  renderResult(v);
  $("shared").replaceChildren(el("div", { class: "panel", "data-owner": "shared" }, el("h3", { text: "Table" }),
                                     ...v.shared.map((it) => itemRow(it, hot))));
  $("running").replaceChildren(...(v.running.length ? [el("div", { class: "panel" }, ...v.running.map((it) => itemRow(it, hot)))] : []));
  $("teams").replaceChildren(...v.teams.map((t) => el("div", { class: "panel", "data-team": String(t.team) },
    el("h3", { text: `team ${t.team} (seats ${t.seats.join(", ")})` }), ...t.items.map((it) => itemRow(it, hot)))));
  const toMove = v.prompt ? v.prompt.seat : null;
  $("seats").replaceChildren(...v.seats.map((s) => el("div", { class: "panel" + (s.seat === toMove ? " turn" : ""), "data-seat": String(s.seat) },
    el("h3", { text: seatName(s.seat) + (s.seat === toMove ? ` — to ${v.prompt.asks || v.prompt.prompt}` : "") }), ...s.items.map((it) => itemRow(it, hot)))));
  // what happened
  $("said").textContent = v.said || (v.at === 0 ? "The game is set up." : "");
  renderSummary(v.summary);
  const since = (v.since || []).slice(0, -1);   // the last is the decision shown above
  $("since").replaceChildren(...(since.length ? [el("p", { class: "hidden", text: "Before it:" }),
    el("ol", {}, ...since.map((t) => el("li", { text: t })))] : []));
  $("events").replaceChildren(...events.map((e, i) => el("li", { class: i === ui.event ? "current" : "", text: e.text })));
  renderPrompt(v);
}

function renderPrompt(v) {
  const box = $("options");
  box.replaceChildren();
  if (!v.prompt) { $("prompt").textContent = v.over ? "The game is over." : ""; return; }
  $("prompt").textContent = `${seatName(v.prompt.seat)}: ${v.prompt.asks || v.prompt.prompt}`;
  const latest = v.at === v.length - 1;
  const mine = v.mode === "play" && latest && v.humans.includes(v.prompt.seat) && v.prompt.seat === ui.seat;
  if (!v.prompt.options) {
    if (!latest && v.chosen) box.append(el("span", { class: "waiting", text: `chosen: ${v.chosen}` }));
    if (v.mode === "play" && latest && yours(ui.game).includes(v.prompt.seat))
      box.append(el("span", { class: "waiting", text: `seat ${v.prompt.seat} decides: choose that seat above` }));
    else if (v.mode === "play" && latest && v.humans.includes(v.prompt.seat))
      box.append(el("span", { class: "waiting", text: `waiting for seat ${v.prompt.seat} (played by another person)` }));
    return;
  }
  for (const o of v.prompt.options) {
    const b = el("button", { "data-index": String(o.index), "data-label": o.label, disabled: !mine || ui.busy,
                             className: o.label === v.chosen ? "chosen" : "" },
                 o.label, o.note ? el("span", { class: "note", text: o.note }) : null);
    b.addEventListener("click", () => act(o.index));
    box.append(b);
  }
  if (!latest && v.chosen) box.append(el("span", { class: "waiting", text: `chosen: ${v.chosen}` }));
}

// ------------------------------------------------------------------ moving about
async function show(at, event = -1) {
  const seat = ui.seat === null ? "spectator" : ui.seat;
  try {
    ui.view = await api(`/api/view?at=${at}&seat=${seat}`);
    ui.at = ui.view.at;
    ui.event = event === "last" ? ui.view.events.length - 1 : event;
    $("error").textContent = "";
    render();
  } catch (e) { $("error").textContent = e.message; }
}

async function act(index) {
  // the move names the position it answers: sent twice, or after the game moved on, it is
  // refused (409) and the page shows the position the game is at
  ui.busy = true;
  if (ui.view) render();
  try {
    await api("/api/act", { seat: ui.seat, index, at: ui.view.at });
    ui.game = await api("/api/game");
    $("error").textContent = ui.game.error || "";
    await show(-1);
  } catch (e) {
    if (e.status === 409) await show(-1);
    $("error").textContent = e.message;
  }
  ui.busy = false;
  if (ui.view) render();
}

function stepEvent(delta) {
  const n = ui.view.events.length;
  const next = ui.event + delta;
  if (next >= 0 && next < n) { ui.event = next; render(); }
  else if (delta > 0 && ui.at < ui.view.length - 1) show(ui.at + 1, 0);
  else if (delta < 0 && next < 0 && ui.event === 0) { ui.event = -1; render(); }
  else if (delta < 0 && ui.at > 0) show(ui.at - 1, "last");
}

// the seats this page plays: its token's (each person has their own when several seats are human)
function yours(game) { return game.yours || game.humans; }

function seats(game) {
  const select = $("seat");
  if (game.mode === "timeline") {   // a redacted log: its own seat's view, and no other
    select.replaceChildren(el("option", { value: String(game.seat), text: `seat ${game.seat} (the log's)` }));
    ui.seat = game.seat;
    return;
  }
  const choices = [["spectator", "a spectator"]];
  if (game.mode === "log") choices.push(["all", "everyone (the full log)"]);
  for (let i = 0; i < game.players; i++)
    if (game.mode === "log" || yours(game).includes(i)) choices.push([String(i), yours(game).includes(i) ? `you: seat ${i}` : `seat ${i}`]);
  select.replaceChildren(...choices.map(([value, text]) => el("option", { value, text })));
  const start = game.mode === "play" && yours(game).length ? String(yours(game)[0]) : game.mode === "log" ? "all" : "spectator";
  select.value = start;
  ui.seat = start === "spectator" ? null : start === "all" ? "all" : Number(start);
  select.addEventListener("change", () => {
    ui.seat = select.value === "spectator" ? null : select.value === "all" ? "all" : Number(select.value);
    show(ui.at);
  });
}

async function start() {
  ui.game = await api("/api/game");
  document.title = `${ui.game.title} — Rulebook`;
  seats(ui.game);
  $("first").onclick = () => show(0);
  $("back").onclick = () => show(Math.max(0, ui.at - 1));
  $("next").onclick = () => show(ui.at + 1);
  $("last").onclick = () => show(-1);
  $("event-next").onclick = () => stepEvent(1);
  $("event-back").onclick = () => stepEvent(-1);
  $("slider").oninput = () => show(Number($("slider").value));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    const keys = { ArrowLeft: () => show(Math.max(0, ui.at - 1)), ArrowRight: () => show(ui.at + 1),
                   Home: () => show(0), End: () => show(-1), ArrowDown: () => stepEvent(1), ArrowUp: () => stepEvent(-1) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  await show(ui.game.mode === "play" ? -1 : 0);
}

start().catch((e) => { $("error").textContent = e.message; });   // (no token: what to open instead)
