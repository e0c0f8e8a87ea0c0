/* The practice table's page: it shows what the server sends for your seat and sends your moves. */
"use strict";

const $ = (id) => document.getElementById(id);
let tables = null;      // the rulebooks, bots and lessons this server offers
let view = null;        // the newest view of the game
let settings = null;    // the settings of the game in play, for "same seed again"
let selected = [];      // positions of the selected cards in the hand

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

let statusHome = null;  // where the message line sits when no control caused it

function say(text, error, near) {
  // A message goes next to the control that caused it (the buttons or panel it sits in), so a refused
  // move is seen where the player is looking; an error is announced at once to screen readers.
  const status = $("status");
  if (!statusHome) statusHome = { parent: status.parentNode, next: status.nextSibling };
  const anchor = near && near.closest ? near.closest(".buttons, fieldset, .turn, section") : null;
  if (anchor && text) anchor.after(status);
  else if (!anchor && status.parentNode !== statusHome.parent) statusHome.parent.insertBefore(status, statusHome.next);
  status.textContent = text || "";
  status.classList.toggle("error", Boolean(error));
  status.setAttribute("role", error ? "alert" : "status");
  if (text && anchor) status.scrollIntoView({ block: "nearest" });
}

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: "the server sent no answer" }; }
  if (!response.ok) throw new Error(data.error || "error " + response.status);
  return data;
}

/* -- choosing a table --------------------------------------------------------------------- */

function entry() { return tables.rulebooks[Number($("rulebook").value)]; }

function chosenVariations() {
  return Array.from(document.querySelectorAll("#variations input:checked")).map((x) => x.value);
}

function fillSetup() {
  const select = $("rulebook");
  select.replaceChildren();
  const refused = $("refused");
  refused.replaceChildren();
  for (const rb of tables.rulebooks) {
    if (rb.usable) {
      const option = el("option", rb.label);
      option.value = String(rb.index);
      select.append(option);
    } else {
      refused.append(el("h4", rb.label), el("pre", rb.diagnostics));
    }
  }
  $("refused-box").hidden = refused.childElementCount === 0;
  onRulebook();
}

function showLessons(rb) {
  // A lesson is offered only under the rulebook it is written for.
  const lessons = $("lessons");
  lessons.replaceChildren();
  const own = tables.lessons.filter((lesson) => lesson.entry === rb.index);
  for (const lesson of own) {
    const item = el("li");
    const button = el("button", lesson.title);
    button.type = "button";
    button.dataset.lesson = lesson.name;
    button.addEventListener("click", () => startLesson(lesson.name));
    item.append(button, el("span", " " + lesson.summary));
    lessons.append(item);
  }
  $("lessons-box").hidden = own.length === 0;
}

function markClashes(rb) {
  // A variation that cannot be combined with a chosen one is switched off, and says why.
  const chosen = chosenVariations();
  for (const input of document.querySelectorAll("#variations input")) {
    const v = rb.variations.find((x) => x.name === input.value);
    const against = chosen.filter((name) => name !== input.value &&
      ((v.conflicts || []).includes(name) || (rb.variations.find((x) => x.name === name).conflicts || []).includes(v.name)));
    input.disabled = against.length > 0 && !input.checked;
    input.parentNode.title = against.length ? "cannot be played together with " + against.join(", ") : "";
  }
}

function points(x) { return (x >= 0 ? "+" : "\u2212") + Math.abs(Math.round(x * 1000) / 10) + " points"; }

function showCard(rb) {
  // What a shipped profile rewards, as measured once by `cheatdsl rate` (the server sends it only where the
  // profile's files are the ones measured): the skill edge, the luck share and the lie value.
  const card = rb.card;
  const box = $("profile-card");
  box.hidden = !card;
  if (!card) return;
  const list = $("profile-figures");
  list.replaceChildren();
  if (card.not_rated) {
    $("profile-note").textContent = "Not rated: " + card.not_rated + ".";
    return;
  }
  const rows = [
    ["Skill edge", card.skill_edge, points,
     "how much more often a strong player wins than a fair share, against steady players"],
    ["Luck share", card.luck_share, (x) => x.toFixed(2),
     "the part of a result the deal and the seat decide (0: none, 1: all)"],
    ["Lie value", card.lie_value, points,
     "what bluffing is worth: a strong player against copies that never lie when they can tell the truth"],
  ];
  for (const [name, f, text, meaning] of rows) {
    const dd = el("dd");
    if (f && f.value !== null) {
      dd.append(el("strong", text(f.value)), " \u2014 " + meaning);
      dd.append(el("div", "95% between " + text(f.low) + " and " + text(f.high), "range"));
    } else if (f) {
      dd.textContent = "undefined: too few of the measured games ended";
    } else {
      dd.textContent = "not measured yet";
    }
    list.append(el("dt", name), dd);
  }
  $("profile-note").textContent = "Measured at " + card.players + " players over duplicate deals "
    + "(cheatdsl rate " + card.profile + " --players " + card.players + ").";
}

function onRulebook() {
  const rb = entry();
  if (!rb) return;
  showLessons(rb);
  showCard(rb);
  const box = $("variations");
  box.replaceChildren();
  for (const v of rb.variations) {
    const label = el("label");
    const input = el("input");
    input.type = "checkbox";
    input.value = v.name;
    input.addEventListener("change", () => { markClashes(rb); loadRules(); });
    label.append(input, " " + v.name + ": " + v.summary);
    box.append(el("div").appendChild(label).parentNode);
  }
  $("variations-box").hidden = rb.variations.length === 0;
  const players = $("players");
  players.replaceChildren();
  for (const n of rb.players) {
    const option = el("option", String(n));
    option.value = String(n);
    players.append(option);
  }
  // A table of four (or the nearest size the rulebook allows) unless the rulebook says otherwise.
  const preferred = [4, 3, 5, 6].find((n) => rb.players.includes(n));
  if (preferred !== undefined) players.value = String(preferred);
  onPlayers();
  loadRules();
}

function onPlayers() {
  const n = Number($("players").value);
  const box = $("bots");
  const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren();
  const names = ["Robin", "Alex", "Sam", "Jo", "Kim", "Lee", "Max", "Pat", "Ray", "Ash", "Kit"];
  for (let i = 0; i < n - 1; i++) {
    const id = "bot-" + i;
    const label = el("label", names[i % names.length] + " plays");
    label.htmlFor = id;
    const select = el("select");
    select.id = id;
    for (const bot of tables.bots) {
      // The search bot is the strong opponent: it plays ahead over tables that fit what it has seen.
      const option = el("option", bot === "search" ? "search (strong)" : bot);
      option.value = bot;
      select.append(option);
    }
    select.value = before[i] || tables.default_bot;
    box.append(el("div", null, "bot").appendChild(label).parentNode);
    box.lastChild.append(select);
  }
}

async function loadRules() {
  const rb = entry();
  const query = "entry=" + rb.index + "&variations=" + encodeURIComponent(chosenVariations().join(","));
  try {
    showRules(await api("GET", "/api/rules?" + query));
    $("start").disabled = false;
  } catch (e) {
    $("start").disabled = true;  // these rules cannot be dealt: the message says why
    say(e.message, true);
  }
}

function showRules(rules) {
  $("rules-caption").textContent = rules.title;
  const body = document.querySelector("#rules tbody");
  body.replaceChildren();
  const dl = $("quickref-rows");
  dl.replaceChildren();
  for (const row of rules.rows) {
    const tr = el("tr");
    const th = el("th", row.label);
    th.scope = "row";
    tr.append(th, el("td", row.text));
    body.append(tr);
    dl.append(el("dt", row.label), el("dd", row.text));
  }
  $("quickref-title").textContent = rules.title + ": quick reference";
  $("quickref-source").textContent = rules.source;
  const vs = rules.variations.map((v) => v.name + " (" + v.summary + ")");
  $("rules-variations").textContent = vs.length ? "Variations this rulebook offers: " + vs.join("; ") + "." : "";
}

/* -- starting ------------------------------------------------------------------------------- */

function currentSettings() {
  const rb = entry();
  const seedText = $("seed").value.trim();
  const bots = Array.from(document.querySelectorAll("#bots select")).map((s) => s.value);
  const body = { entry: rb.index, variations: chosenVariations(), players: Number($("players").value),
                 bots: bots.length ? bots : [tables.default_bot] };
  if (seedText !== "") body.seed = seedText;  // sent as digits: a page's numbers lose digits past 2**53
  return body;
}

async function start(body) {
  say("Dealing…");
  try {
    const v = await api("POST", "/api/games", body);
    // The server tells the seed only when you typed it, or once the game is over.
    settings = Object.assign({}, body);
    if (v.seed !== null) settings.seed = v.seed; else delete settings.seed;
    $("again").disabled = settings.seed === undefined;
    say("");
    show(v, true);
  } catch (e) {
    say(e.message, true);
  }
}

async function startLesson(name) {
  say("Setting out the lesson…");
  try {
    const v = await api("POST", "/api/games", { lesson: name });
    say("");
    show(v, true);
  } catch (e) {
    say(e.message, true);
  }
}

async function act(action) {
  if (!view) return;
  const control = document.activeElement;  // the button that asked for this move
  try {
    const v = await api("POST", "/api/games/" + encodeURIComponent(view.id) + "/act",
                        { step: view.step, action });
    say("");
    show(v, true);
  } catch (e) {
    say(e.message, true, control);
  }
}

/* -- the table -------------------------------------------------------------------------------- */

function show(v, focus) {
  const first = view === null || view.id !== v.id;
  view = v;
  selected = [];
  document.body.dataset.phase = v.phase;
  document.body.dataset.step = String(v.step);
  $("table").hidden = false;
  $("game-title").textContent = v.title + (v.lesson ? " · lesson" : (v.seed !== null ? " · seed " + v.seed : "")) +
    (v.variations.length ? " · " + v.variations.join(", ") : "");
  showLesson(v);
  showSeats(v);
  const pile = ["Pile: " + cardCount(v.pile) + " face down"];
  if (v.stock !== null) pile.push("stock: " + v.stock);
  if (v.aside) pile.push("set aside: " + v.aside);
  $("pile").textContent = pile.join(" · ");
  $("newest").textContent = v.claim ? "Newest claim: " + v.claim.name + ", “" + v.claim.said + "”" +
    (v.claim.last ? " (last cards)" : "") : (v.pile ? "" : "The pile is empty.");
  $("sets").textContent = v.sets.length ? "Sets out: " + v.sets.map((s) => s.rank + " (" + s.name + ")").join(", ") : "";
  for (const id of ["play-panel", "respond-panel", "discard-panel", "reveal-panel", "end-panel"]) $(id).hidden = true;
  if (v.phase === "play") showPlay(v.turn);
  else if (v.phase === "respond") showRespond(v.turn);
  else if (v.phase === "discard") showDiscard(v.turn);
  else if (v.phase === "reveal") showReveal(v.reveal);
  else if (v.phase === "end") showEnd(v);
  showHand(v);
  showLog(v.log);
  if (first) loadRulesFor(v);
  if (focus) focusNext(v, first);
}

function loadRulesFor(v) {
  const query = "entry=" + v.entry + "&variations=" + encodeURIComponent(v.variations.join(","));
  api("GET", "/api/rules?" + query).then(showRules).catch((e) => say(e.message, true));
}

function focusNext(v, first) {
  let target = null;
  if (v.phase === "play") target = document.querySelector("#hand button:not([disabled])");
  else if (v.phase === "respond") target = document.querySelector("#responses button");
  else if (v.phase === "discard") target = document.querySelector("#discards button");
  else if (v.phase === "reveal") target = $("continue");
  else if (v.phase === "end") target = $("new-game");
  else if (v.lesson && !$("lesson-next").hidden) target = $("lesson-next");
  else if (v.lesson && !$("lesson-again").hidden) target = $("lesson-again");
  if (target) target.focus({ preventScroll: !first });
  if (first) $("table").scrollIntoView({ block: "start" });
}

function showLesson(v) {
  const box = $("lesson");
  box.hidden = !v.lesson;
  if (!v.lesson) return;
  const l = v.lesson;
  $("lesson-title").textContent = "Lesson: " + l.title + (l.done ? " · complete" : " · step " + l.step + " of " + l.steps);
  $("lesson-say").textContent = l.say;
  $("lesson-next").hidden = v.phase !== "lesson-next";
  const names = tables.lessons.map((x) => x.name);
  const next = names[names.indexOf(l.name) + 1];
  const again = $("lesson-again");
  again.hidden = !l.done;
  again.textContent = next ? "Next lesson" : "Deal a shuffled game";
  again.onclick = () => (next ? startLesson(next) : start(currentSettings()));
}

function showSeats(v) {
  const list = $("seats");
  list.replaceChildren();
  for (const s of v.seats) {
    const item = el("li", null, "seat" + (s.you ? " you" : "") + (s.to_act ? " to-act" : "") + (s.out ? " out" : ""));
    item.append(el("strong", s.name), el("span", cardCount(s.cards), "count"));
    if (s.bot) item.append(el("span", s.bot, "bot"));
    if (s.out) item.append(el("span", "out", "tag"));
    if (s.to_act && v.phase !== "end") item.append(el("span", "to act", "tag"));
    item.setAttribute("aria-label", s.name + ": " + s.cards + " cards" + (s.out ? ", out" : "") +
      (s.to_act ? ", to act" : "") + (s.bot ? ", computer player " + s.bot : ""));
    list.append(item);
  }
}

function showHand(v) {
  const hand = $("hand");
  hand.replaceChildren();
  const playing = v.phase === "play";
  v.hand.forEach((card, i) => {
    const button = el("button", card.text, "card");
    button.type = "button";
    button.dataset.index = String(i);
    button.dataset.value = String(card.value);
    button.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-label", card.name);
    button.disabled = !playing;
    button.addEventListener("click", () => toggle(i));
    hand.append(button);
  });
  $("hand-title").textContent = "Your hand · " + cardCount(v.hand.length) +
    (playing ? " · select " + rangeText(v.turn.min, v.turn.max) : "");
  if (!v.hand.length) hand.append(el("p", "No cards in hand."));
}

/* Words: every count of cards goes through `cards`, every owner through `whose`. */
function cardCount(n) {
  return n + (n === 1 ? " card" : " cards");
}

function whose(name) {
  return name === "You" ? "your" : name + "’s";
}

function rangeText(low, high) {
  return low === high ? String(low) : low + " to " + high;
}

function toggle(i) {
  const at = selected.indexOf(i);
  if (at >= 0) selected.splice(at, 1);
  else if (selected.length < view.turn.max) selected.push(i);
  else say("You may select at most " + cardCount(view.turn.max) + ".", true, $("hand"));
  for (const b of document.querySelectorAll("#hand button")) {
    b.setAttribute("aria-pressed", String(selected.includes(Number(b.dataset.index))));
  }
  updatePlay();
}

function showPlay(turn) {
  $("play-panel").hidden = false;
  $("required").textContent = turn.head;
  $("play-rule").textContent = turn.rule;
  const select = $("claim");
  select.replaceChildren();
  for (const c of turn.claims) {
    const option = el("option", c.text);
    option.value = String(c.value);
    select.append(option);
  }
  $("claim-choice").hidden = turn.claims.length <= 1;
  $("count-choice").hidden = turn.counting === "exact";
  $("count").min = String(turn.min);
  $("pass").hidden = !turn.pass;
  updatePlay();
}

function claimNow() {
  const value = Number($("claim").value);
  return view.turn.claims.find((c) => c.value === value) || view.turn.claims[0];
}

function countNow() {
  const n = selected.length;
  if (view.turn.counting === "exact") return n;
  const top = view.turn.counting === "any" ? view.turn.count_cap : n;
  $("count").max = String(Math.max(top, view.turn.min));
  const typed = Number($("count").value);
  return Number.isInteger(typed) && typed >= view.turn.min && typed <= top ? typed : n;
}

function updatePlay() {
  if (!view || view.phase !== "play") return;
  const turn = view.turn;
  const n = selected.length;
  const claim = claimNow();
  const play = $("play");
  const bluff = $("bluff");
  if (!claim) {
    play.disabled = true;
    $("selection-note").textContent = "Nothing can be claimed now.";
    bluff.hidden = true;
    return;
  }
  if ($("count-choice").hidden === false && $("count").value === "") $("count").placeholder = String(n);
  const count = countNow();
  const ok = n >= turn.min && n <= turn.max;
  play.disabled = !ok;
  const said = claim.said[count] || count + " × " + claim.text;
  play.textContent = ok ? "Play " + n + " face down as “" + said + "”" : "Play";
  $("selection-note").textContent = n ? n + " selected." : "Select " + rangeText(turn.min, turn.max) + (turn.max === 1 ? " card." : " cards.");
  const cards = selected.map((i) => view.hand[i]);
  const wrong = [...new Set(cards.filter((c) => !claim.matches.includes(c.value)).map((c) => c.text))];
  const reasons = wrong.map((t) => t + " is not " + claim.one);
  if (turn.judged && n && count !== n) reasons.push(n + " cards put down for a call of " + count);
  bluff.hidden = !(n && reasons.length);
  bluff.textContent = reasons.length ? "Careful: this would be a bluff. " + reasons.join("; ") + "." : "";
}

function doPlay() {
  const claim = claimNow();
  if (!claim) return;
  const cards = selected.map((i) => view.hand[i].value);
  act({ type: "play", cards, claim: claim.value, count: countNow() });
}

function showRespond(turn) {
  $("respond-panel").hidden = false;
  $("respond-title").textContent = turn.claimant + " put down " + cardCount(turn.played) +
    ": “" + turn.said + "”" + (turn.last ? ". Last cards!" : "");
  $("evidence").textContent = turn.evidence;
  const box = $("responses");
  box.replaceChildren();
  for (const option of turn.options) {
    const button = el("button", option.label, option.type === "accept" ? "" : "call");
    button.type = "button";
    if (option.type === "accept") button.id = "accept";
    else {
      button.dataset.kind = option.kind;
      if (option.note) button.title = option.note;
      button.setAttribute("aria-label", "Challenge: " + option.label + (option.note ? " (" + option.note + ")" : ""));
    }
    button.addEventListener("click", () => act(option.type === "accept" ? { type: "accept" } : { type: "challenge", kind: option.kind }));
    box.append(button);
  }
  $("response-notes").textContent = turn.options.filter((o) => o.note).map((o) => o.label + ": " + o.note + ".").join(" ");
}

function showDiscard(turn) {
  $("discard-panel").hidden = false;
  const box = $("discards");
  box.replaceChildren();
  for (const s of turn.sets) {
    const button = el("button", "Discard the " + s.text);
    button.type = "button";
    button.dataset.rank = String(s.rank);
    button.addEventListener("click", () => act({ type: "discard", rank: s.rank }));
    box.append(button);
  }
  const keep = el("button", "Keep my cards");
  keep.type = "button";
  keep.id = "keep";
  keep.addEventListener("click", () => act({ type: "keep" }));
  box.append(keep);
}

function showReveal(r) {
  $("reveal-panel").hidden = false;
  $("reveal-title").textContent = r.challenger + " challenged " + whose(r.claimant) + " “" + r.claim + "”: " +
    (r.caught ? "a bluff" : "the truth");
  const cards = $("reveal-cards");
  cards.replaceChildren(...r.cards.map((t) => el("span", t, "card shown")));
  $("reveal-lines").replaceChildren(...r.lines.map((line) => el("p", line)));
}

function showEnd(v) {
  $("end-panel").hidden = false;
  $("end-title").textContent = v.result.you_won ? "You win!" : (v.result.winner ? v.result.winner + " wins" : "The game is over");
  $("end-lines").replaceChildren(...v.result.lines.map((line) => el("p", line)));
  $("end-cap").hidden = !v.result.capped;
  $("end-cap").textContent = v.result.capped
    ? "This game stopped at the table's limit of " + v.result.turn_cap + " turns with no winner: under these " +
      "rules play can go on for ever. Whether every game ends is the verifier's termination property: " +
      "cheatdsl verify " + v.result.rulebook + " --property termination" : "";
  $("end-counts").replaceChildren(...v.seats.map((s) => el("li", s.name + ": " + cardCount(s.cards))));
  if (settings && v.seed !== null) {
    settings.seed = v.seed;
    $("again").disabled = false;
  }
  $("same-again").hidden = Boolean(v.lesson) || !settings || v.seed === null;
  $("end-seed").textContent = v.seed !== null && v.replay
    ? "Deal number " + v.seed + ". Replay this deal here with “Same deal again”, or in a terminal: " + v.replay : "";
}

function showLog(lines) {
  const log = $("log");
  log.replaceChildren(...lines.map((line) => {
    const item = el("li", line.text, "log-" + line.kind);
    item.value = line.n;  // the line's own number, the same however many earlier lines are left out
    return item;
  }));
  log.scrollTop = log.scrollHeight;
}

/* -- wiring ----------------------------------------------------------------------------------- */

async function boot() {
  try {
    tables = await api("GET", "/api/tables");
  } catch (e) {
    say(e.message, true);
    return;
  }
  fillSetup();
  $("rulebook").addEventListener("change", onRulebook);
  $("players").addEventListener("change", onPlayers);
  $("start").addEventListener("click", () => start(currentSettings()));
  $("again").addEventListener("click", () => settings && start(settings));
  $("new-game").addEventListener("click", () => {
    const body = settings ? Object.assign({}, settings) : currentSettings();
    delete body.seed;
    start(body);
  });
  $("same-again").addEventListener("click", () => settings && start(settings));
  $("change").addEventListener("click", () => { $("setup").scrollIntoView(); $("rulebook").focus(); });
  $("play").addEventListener("click", doPlay);
  $("pass").addEventListener("click", () => act({ type: "pass" }));
  $("continue").addEventListener("click", () => act({ type: "continue" }));
  $("lesson-next").addEventListener("click", () => act({ type: "next" }));
  $("claim").addEventListener("change", updatePlay);
  $("count").addEventListener("input", updatePlay);
  $("print").addEventListener("click", () => window.print());
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", boot);
