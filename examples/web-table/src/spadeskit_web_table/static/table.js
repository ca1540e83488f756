// The web table's page: a lobby that creates a table, then the table itself, drawn from
// the view and events the server sends (spadeskit.Connection's protocol). The page never
// decides a rule: it shows what the view says is legal and sends what the player picks.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_ORDER = ["S", "H", "C", "D"];
const params = new URLSearchParams(location.search);
const tableId = params.get("table");
const tokenKey = "spadeskit-token:" + tableId;

// Every message the server sent this page, as received (tests read it).
window.spadeskitMessages = [];

let info = null; // who sits where
let socket = null;
let mySeat = null;
let catchingUp = false; // the first update after joining replays the hand's history
let matchOver = null;
let inbox = Promise.resolve();

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

function cardNode(code, tag) {
  const suit = code.slice(-1);
  const jokers = { BJ: "Big \u2605", LJ: "Little \u2605" };
  const text = jokers[code] || code.slice(0, -1) + (SUITS[suit] || suit);
  const red = suit === "H" || suit === "D" || code === "BJ";
  return el(tag || "span", { class: "card" + (red ? " red" : ""), "data-card": code, title: code }, text);
}

function suitOf(code) {
  return code.endsWith("J") && code.length === 2 ? "S" : code.slice(-1);
}

function actionLabel(action) {
  if (!action) return "";
  if (action.type === "bid") return String(action.tricks);
  return action.type.replace("-", " ");
}

// ---------------------------------------------------------------- the lobby

async function showLobby() {
  $("lobby").hidden = false;
  const choices = await (await fetch("/api/variants")).json();
  const variant = $("variant");
  for (const v of choices.variants) variant.append(el("option", { value: v.name }, v.name));
  if (choices.variants.some((v) => v.name === "standard")) variant.value = "standard";
  for (const b of choices.bots) $("bot").append(el("option", { value: b }, b));
  const refresh = () => {
    const chosen = choices.variants.find((v) => v.name === variant.value);
    $("variant-summary").textContent = chosen.summary;
    const rules = $("house-rules");
    rules.replaceChildren(el("legend", {}, "House rules"));
    for (const rule of choices.house_rules) {
      if (rule.fits.length && !rule.fits.includes(chosen.name)) continue;
      const box = el("input", { type: "checkbox", value: rule.name, name: "house-rule" });
      rules.append(el("label", { title: rule.summary }, box, " " + rule.name + ": " + rule.summary));
    }
    const seats = $("bot-seats");
    seats.replaceChildren(el("legend", {}, "Bots sit at"));
    chosen.players.forEach((name, seat) => {
      const box = el("input", { type: "checkbox", value: seat, name: "bot-seat", checked: seat !== 0 });
      seats.append(el("label", {}, box, " " + name));
    });
  };
  variant.addEventListener("change", refresh);
  refresh();
  $("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    const checked = (name) => [...document.querySelectorAll(`input[name=${name}]:checked`)];
    const body = {
      variant: variant.value,
      house_rules: checked("house-rule").map((b) => b.value),
      bots: checked("bot-seat").map((b) => Number(b.value)),
      bot: $("bot").value,
    };
    // "/?seed=7" deals every hand from seed 7 (for tests and demonstrations).
    if (params.get("seed")) body.seed = Number(params.get("seed"));
    const reply = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body) });
    const data = await reply.json();
    if (data.error) $("lobby-error").textContent = data.error.text;
    else location.href = "/?table=" + encodeURIComponent(data.table);
  });
}

// ---------------------------------------------------------------- joining

async function loadInfo() {
  const reply = await fetch("/api/tables/" + encodeURIComponent(tableId));
  if (!reply.ok) return null;
  return reply.json();
}

async function showJoin() {
  info = await loadInfo();
  $("join").hidden = false;
  $("share-link").textContent = location.href;
  $("share-link").href = location.href;
  if (!info) {
    $("join-error").textContent = "There is no such table (the server may have restarted).";
    return;
  }
  $("join-title").textContent = "Join a table of " + info.rules +
    (info.seeded ? " (seeded: anyone who knows the seed can work out every hand)" : "");
  const free = $("free-seats");
  free.replaceChildren();
  info.seats.forEach((taken, seat) => {
    const name = info.seat_names[seat];
    const button = el("button", { type: "button", "data-seat": seat, disabled: !!taken },
      taken ? `${name}: ${taken.name}` : `Sit at ${name}`);
    button.addEventListener("click", () => connect({ join: $("name").value, seat }));
    free.append(button);
  });
  $("watch").onclick = () => connect({ watch: true });
}

function connect(first) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/api/tables/" + encodeURIComponent(tableId) + "/ws");
  socket.onopen = () => socket.send(JSON.stringify(first));
  socket.onmessage = (event) => {
    window.spadeskitMessages.push(event.data);
    // One message at a time, in order (receiving a seat waits for the seat list).
    inbox = inbox.then(() => receive(JSON.parse(event.data)));
  };
  socket.onclose = () => {
    if (mySeat !== undefined) $("message").textContent = "Disconnected: reload the page to rejoin.";
  };
}

function send(action) {
  $("message").textContent = "";
  socket.send(JSON.stringify({ act: action }));
}

// ---------------------------------------------------------------- what the server says

async function receive(data) {
  if (data.error) {
    if (data.error.code === "bad-token") {
      localStorage.removeItem(tokenKey);
      showJoin();
      return;
    }
    ($("table").hidden ? $("join-error") : $("message")).textContent = data.error.text;
    return;
  }
  if ("seated" in data || "watching" in data) {
    if (data.token) localStorage.setItem(tokenKey, data.token);
    mySeat = "seated" in data ? data.seated : null;
    info = await loadInfo();
    $("join").hidden = true;
    $("table").hidden = false;
    catchingUp = true;
    return;
  }
  if (data.view) {
    for (const event of data.events) tell(event);
    catchingUp = false;
    render(data.view);
  }
}

function tell(event) {
  $("events").append(el("li", { "data-type": event.type }, event.text));
  $("events").scrollTop = $("events").scrollHeight;
  if (event.type === "hand-ended" && !catchingUp) showHandEnd(event);
  if (event.type === "match-over") {
    matchOver = event;
    if ($("hand-end").hidden) showMatchEnd();
  }
}

function showHandEnd(event) {
  $("hand-end-title").textContent = event.text;
  const trick = $("hand-end-trick");
  trick.replaceChildren(el("span", {}, "Last trick: "));
  for (const [seat, code] of event.last_trick.plays) {
    const card = cardNode(code);
    if (seat === event.last_trick.winner) card.classList.add("winner");
    trick.append(el("span", { class: "play" }, seatName(seat) + " ", card));
  }
  const lines = $("hand-end-lines");
  lines.replaceChildren();
  const books = event.books.map((b, s) => `${seatName(s)} ${b}`).join(", ");
  lines.append(el("li", {}, "Books: " + books));
  for (const line of event.lines) lines.append(el("li", { class: "score-line" }, line.text));
  $("hand-end-note").textContent = event.note || "";
  $("hand-end").hidden = false;
  showReview(event.hand);
}

// The double-dummy review of a finished hand: what each seat's cards cost in tricks
// against the best card, with every card that cost one (asked of the server, which
// works it out once every card of the hand has been played).
async function showReview(hand) {
  const summary = $("hand-review-summary");
  const cards = $("hand-review-cards");
  summary.textContent = "Analysing the hand…";
  cards.replaceChildren();
  $("hand-review").dataset.hand = String(hand);
  let data;
  try {
    const reply = await fetch(`/api/tables/${tableId}/review?hand=${hand}`);
    data = await reply.json();
  } catch (error) {
    summary.textContent = "The review could not be fetched.";
    return;
  }
  if ($("hand-review").dataset.hand !== String(hand)) return; // a later hand's panel
  if (data.error) {
    summary.textContent = "No review: " + data.error.text;
    return;
  }
  const lost = data.costs.map((c, s) => `${seatName(s)} ${c}`).join(", ");
  summary.textContent = "Tricks lost against best play, each side seeing every card: " + lost;
  for (const play of data.plays) {
    if (!play.cost) continue;
    const best = el("span", { class: "best" });
    play.best_cards.forEach((code) => best.append(cardNode(code)));
    cards.append(
      el(
        "li",
        { class: "costly", "data-seat": String(play.seat) },
        `trick ${play.trick}: ${seatName(play.seat)} `,
        cardNode(play.card),
        ` cost ${play.cost} (best: `,
        best,
        ")",
      ),
    );
  }
  if (!cards.children.length) cards.append(el("li", {}, "Every card was a best card."));
  $("hand-review").dataset.ready = "1";
}

$("continue").addEventListener("click", () => {
  $("hand-end").hidden = true;
  if (matchOver) showMatchEnd();
});

function showMatchEnd() {
  const view = lastView;
  $("match-end-title").textContent = matchOver.text;
  const sheet = $("score-sheet");
  sheet.replaceChildren(el("tr", {}, el("th", {}, "hand"), ...view.side_names.map((n) => el("th", {}, n))));
  view.score_history.forEach((totals, hand) => {
    sheet.append(el("tr", {}, el("td", {}, String(hand + 1)), ...totals.map((t) => el("td", {}, String(t)))));
  });
  $("match-end").hidden = false;
}

function seatName(seat) {
  const base = info ? info.seat_names[seat] : String(seat);
  const taken = info && info.seats[seat];
  return taken ? `${base} (${taken.name})` : base;
}

// ---------------------------------------------------------------- drawing the table

let lastView = null;
let selected = new Set(); // cards chosen to discard or pass

function positions(n, me) {
  const around = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
  const places = around[n] || around[4];
  const at = {};
  for (let step = 0; step < n; step++) at[(me + step) % n] = places[step];
  return at;
}

function render(view) {
  lastView = view;
  const n = view.seat_names.length;
  const me = mySeat === null ? 0 : mySeat;
  const at = positions(n, me);
  document.body.dataset.phase = view.phase;
  document.body.dataset.toAct = view.to_act === null ? "" : String(view.to_act);
  document.body.dataset.hand = String(view.hand_number);
  document.body.dataset.over = String(view.is_over);
  $("rules-name").textContent = `${view.variant}${view.house_rules.length ? " + " + view.house_rules.join(" + ") : ""}`;

  for (const place of ["top", "left", "right", "bottom"]) $("pos-" + place).replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    const box = $("pos-" + at[seat]);
    box.classList.toggle("to-act", view.to_act === seat);
    box.dataset.seat = seat;
    const name = el("div", { class: "name" }, seatName(seat));
    if (view.dealer === seat) name.append(el("span", { class: "dealer", title: "dealer" }, "D"));
    box.append(name);
    const bid = view.bids[seat];
    box.append(el("div", { class: "bid" }, "bid " + (bid ? actionLabel(bid) : "\u2013")));
    box.append(el("div", { class: "books" }, `books ${view.books[seat]} \u00b7 cards ${view.card_counts[seat]}`));
  }

  // The trick: the cards played so far, or the finished trick until the next card.
  const trick = $("trick");
  trick.replaceChildren();
  let plays = view.trick;
  let winner = null;
  trick.classList.remove("done");
  if (!plays.length && view.phase === "play" && view.tricks.length) {
    const done = view.tricks[view.tricks.length - 1];
    plays = done.plays;
    winner = done.winner;
    trick.classList.add("done");
  }
  for (const [seat, code] of plays) {
    const card = cardNode(code);
    card.style.gridArea = at[seat];
    if (seat === winner) card.classList.add("winner");
    card.dataset.seat = seat;
    trick.append(card);
  }

  // Cards to lay aside or pass (a discard, the blind-nil exchange): chosen on the hand,
  // then sent with one button; the server checks the choice like any other action.
  const choosing = view.legal_actions.filter((a) => a.type === "discard" || a.type === "exchange");
  const needed = choosing.length ? choosing[0].cards.length : 0;
  const choosable = new Set(choosing.flatMap((a) => a.cards));
  selected = new Set([...selected].filter((c) => choosable.has(c)));

  // My cards, by suit; the legal ones marked when it is my turn.
  const legalCards = new Set(view.legal_actions.filter((a) => a.type === "play").map((a) => a.card));
  const hand = $("hand");
  hand.replaceChildren();
  for (const suit of SUIT_ORDER) {
    const group = el("span", { class: "suit-group" });
    for (const code of view.cards.filter((c) => suitOf(c) === suit)) {
      const button = cardNode(code, "button");
      if (legalCards.size) button.classList.add(legalCards.has(code) ? "legal" : "dimmed");
      if (needed) {
        button.classList.add(choosable.has(code) ? "legal" : "dimmed");
        button.classList.toggle("selected", selected.has(code));
        button.addEventListener("click", () => {
          if (selected.has(code)) selected.delete(code);
          else selected.add(code);
          render(lastView);
        });
      } else {
        button.addEventListener("click", () => send({ type: "play", card: code }));
      }
      group.append(button);
    }
    if (group.children.length) hand.append(group);
  }

  // Everything else the seat may do now: bids, passes, claims, penalties.
  const actions = $("actions");
  actions.replaceChildren();
  if (needed) {
    const verb = choosing[0].type === "discard" ? "Discard" : "Pass";
    const button = el("button", { type: "button", id: "send-cards", disabled: selected.size !== needed },
      `${verb} ${selected.size}/${needed} chosen cards`);
    button.addEventListener("click", () => {
      send({ type: choosing[0].type, cards: [...selected] });
      selected = new Set();
    });
    actions.append(button);
  }
  view.legal_actions.forEach((action, i) => {
    if (action.type === "play" || action.type === "discard" || action.type === "exchange") return;
    const button = el("button", { type: "button", "data-action": JSON.stringify(action) }, view.legal_labels[i]);
    button.addEventListener("click", () => send(action));
    actions.append(button);
  });

  // Scores with bags.
  const scores = $("scores");
  scores.replaceChildren(el("tr", {}, el("th", {}, `hand ${view.hand_number + 1}`), el("th", {}, "score"), el("th", {}, "bags")));
  view.side_names.forEach((name, side) => {
    scores.append(el("tr", { "data-side": side }, el("td", {}, name), el("td", { class: "score" }, view.scores_shown[side]), el("td", { class: "bags" }, String(view.bags[side]))));
  });
}

// ---------------------------------------------------------------- start

if (!tableId) {
  showLobby();
} else if (localStorage.getItem(tokenKey)) {
  loadInfo().then((found) => {
    info = found;
    if (found) connect({ rejoin: localStorage.getItem(tokenKey), since: 0 });
    else showJoin();
  });
} else {
  showJoin();
}
