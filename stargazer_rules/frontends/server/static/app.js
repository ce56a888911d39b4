// The Stargazer page: draws a state from the JSON API and plays it, human and bot seats.
//
// Stateless like the server: this page keeps the history of positions (each a response of
// /api/new, /api/apply or /api/bot: state, legal actions with their texts in ja and en, score
// sheet, events), so undo is going back in that list and save sends the setup and the actions
// to /api/record. Every text comes from the server, rendered: event and action texts and the
// score sheet's table in both languages, names and skills from /api/ruleset. The page fills
// only its own words (the `page` section of /api/messages), with plain {name} fields alone.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const XHTML_NS = "http://www.w3.org/1999/xhtml";
const SEAT_COLOURS = ["#ff8c42", "#3ec1d3", "#e056fd", "#badc58", "#f6e58d", "#ff7979"];
const FREE_CUBE = -1;
const PLANET_FILLS = {
  red: "#d64545", blue: "#3f7fd9", yellow: "#e8c547",
  green: "#4caf50", black: "#2b2b2b", white: "#e8e8e8",
};
const DEFAULT_BOT = "greedy";
// The SVGs' smallest text is 11 units (style.css): drawn at one CSS pixel a unit or more, it is
// never smaller than 11 px. A board narrower than RING_NARROWEST px would shrink the ring's
// numbers below that, so there the Planets are drawn in rows, in ring order, a unit a pixel.
const RING_NARROWEST = 560;
const CREW_CARD = { width: 190, height: 205, gap: 10, columns: 3 };

const app = {
  lang: "en",
  ruleset: null,
  words: null,      // the page's own words: key -> {ja, en}
  seats: [],        // per seat: "human" or a bot spec
  setup: null,      // the setup JSON of the game
  seed: null,
  history: [],      // {position, action, actor, human, events}
  generation: 0,    // bumped by undo and new games: stale bot loops stop
  phase: "loading",
  busy: false,
  filter: null,     // a planet id whose actions alone are shown
  delay: 350,       // ms between bot moves
  error: null,
};

// -- text ---------------------------------------------------------------------------------

// The page's words have plain {name} fields only (tests/test_server.py holds them to it); any
// other field, such as the catalogue's {n:cube|cubes}, is refused rather than shown wrong.
function fill(template, values) {
  return template.replace(/\{([^{}]*)\}/g, (field, name) => {
    if (!/^\w+$/.test(name) || !(name in values)) throw new Error(`the page cannot fill ${field} in ${template}`);
    return String(values[name]);
  });
}

const words = (key, values = {}) => fill(app.words[key][app.lang], values);
const playerName = (seat) => app.ruleset.names.players[seat][app.lang];

const cardName = (kind, id) => (app.ruleset.names[kind][id] || {})[app.lang] || id;
const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
const planetCard = (id) => app.ruleset.data.planets.planets.find((card) => card.id === id);
const crewCard = (id) => app.ruleset.data.crew.crew.find((card) => card.id === id);

// -- the API ------------------------------------------------------------------------------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || `${response.status} ${response.statusText}`);
  return data;
}

const current = () => app.history[app.history.length - 1].position;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// -- playing ------------------------------------------------------------------------------

async function startGame(players, seats, seed) {
  app.generation += 1;
  app.error = null;
  const body = seed === "" ? { players } : { players, seed: Number(seed) };
  const position = await api("/api/new", body);
  app.setup = position.setup;
  app.seed = position.seed;
  app.seats = seats.slice(0, players);
  app.history = [{ position, action: null, actor: null, human: false, events: [] }];
  app.filter = null;
  await continueGame();
}

function botSeed() {
  return ((app.seed ?? 0) * 7919 + app.history.length) % 2147483647;
}

async function continueGame() {
  const generation = app.generation;
  try {
    while (generation === app.generation) {
      const position = current();
      if (position.over) { app.phase = "over"; break; }
      const seat = position.current_player;
      const spec = app.seats[seat];
      if (spec === "human") { app.phase = "human"; break; }
      app.phase = "bots";
      render();
      await sleep(app.delay);
      if (generation !== app.generation) return;
      const result = await api("/api/bot", { state: position.state, signature: position.signature, bot: spec, seed: botSeed() });
      if (generation !== app.generation) return;
      app.history.push({ position: result, action: result.action, actor: seat, human: false, events: result.events });
    }
  } catch (error) {
    if (generation !== app.generation) return;
    app.phase = "error";
    app.error = error.message;
  }
  if (generation === app.generation) render();
}

async function play(index) {
  if (app.phase !== "human" || app.busy) return;
  const position = current();
  const choice = position.legal[index];
  app.busy = true;
  app.filter = null;
  app.phase = "busy";
  document.body.dataset.phase = app.phase;
  try {
    const result = await api("/api/apply", { state: position.state, signature: position.signature, action: choice.action });
    app.history.push({
      position: result, action: choice.action, actor: position.current_player, human: true, events: result.events,
    });
  } catch (error) {
    app.phase = "error";
    app.error = error.message;
    render();
    return;
  } finally {
    app.busy = false;
  }
  render();
  await continueGame();
}

function undoTarget() {
  for (let index = app.history.length - 1; index > 0; index -= 1) {
    if (app.history[index].human) return index;
  }
  return 0;
}

async function undo() {
  if (app.busy) return;
  const target = undoTarget();
  if (target === 0) return;
  app.generation += 1;
  app.history.length = target;
  app.filter = null;
  app.error = null;
  await continueGame();
}

async function save() {
  const record = await api("/api/record", {
    setup: app.setup,
    seed: app.seed,
    actions: app.history.slice(1).map((entry) => entry.action),
    metadata: { generator: "stargazer serve", seats: app.seats },
  });
  const blob = new Blob([JSON.stringify(record, null, 2) + "\n"], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `stargazer-${app.ruleset.name}-${app.seed ?? "setup"}-${app.history.length - 1}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function clickPlanet(id) {
  const matches = matching("planet", id);
  if (matches.length === 1) return play(matches[0]);
  app.filter = app.filter === id ? null : id;
  renderChoices();
}

function clickCrew(id) {
  const matches = matching("crew", id);
  if (matches.length >= 1) play(matches[0]);
}

function matching(key, id) {
  if (app.phase !== "human") return [];
  return current().legal.flatMap((choice, index) => (choice.action[key] === id ? [index] : []));
}

// -- drawing ------------------------------------------------------------------------------

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.append(node);
  return node;
}

function svgText(parent, x, y, text, className) {
  const node = svg("text", { x, y, class: className }, parent);
  node.textContent = text;
  return node;
}

function cube(parent, x, y, size, owner) {
  const attributes = { x, y, width: size, height: size, rx: 2, class: owner === FREE_CUBE ? "cube free" : "cube" };
  if (owner !== FREE_CUBE) attributes.fill = seatColour(owner);
  const node = svg("rect", attributes, parent);
  svg("title", {}, node).textContent = playerName(owner);
  return node;
}

function render() {
  document.body.dataset.phase = app.phase;
  document.body.dataset.actions = Math.max(app.history.length - 1, 0);
  renderHeader();
  if (!app.history.length) return;
  const position = current();
  renderRing(position.state);
  renderCrew(position.state);
  renderSeats(position.state);
  renderChoices();
  renderScore(position);
  renderLog();
}

function renderHeader() {
  document.documentElement.lang = app.lang;
  document.title = words("title");
  document.getElementById("title").textContent = app.ruleset ? app.ruleset.title[app.lang] : words("title");
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = words(node.dataset.text);
  document.getElementById("lang-toggle").textContent = words("language_toggle");
  document.getElementById("undo").textContent = words("undo");
  document.getElementById("save").textContent = words("save");
  document.getElementById("new-game").textContent = words("new_game");
  const playing = app.history.length > 0;
  document.getElementById("undo").disabled = !playing || undoTarget() === 0;
  document.getElementById("save").disabled = !playing;
  const state = playing ? current().state : null;
  document.getElementById("round").textContent = state ? words("round", { round: state.round }) : "";
  document.getElementById("stock").textContent = state ? words("stock", { count: state.stock }) : "";
  renderSetupSeats();
}

// The width an SVG is drawn at, in CSS pixels (its box's, whatever its viewBox).
function drawnWidth(root) {
  return root.getBoundingClientRect().width;
}

function renderRing(state) {
  const root = document.getElementById("ring");
  root.replaceChildren();
  const shown = drawnWidth(root);
  if (shown > 0 && shown < RING_NARROWEST) {
    renderPlanetRows(root, state, shown);
    return;
  }
  root.classList.remove("rows");
  root.setAttribute("viewBox", "0 0 800 800");
  const centre = 400;
  const radius = 285;
  const count = state.planets.length;
  svg("circle", { cx: centre, cy: centre, r: radius, class: "ring-line" }, root);
  for (let index = 0; index < count; index += 1) {
    // an arrowhead between two Planets, pointing clockwise
    const angle = ((index + 0.5) / count) * 2 * Math.PI - Math.PI / 2;
    const x = centre + radius * Math.cos(angle);
    const y = centre + radius * Math.sin(angle);
    const degrees = (angle * 180) / Math.PI + 90;
    svg("path", { d: "M -7 -6 L 7 0 L -7 6 Z", class: "ring-arrow", transform: `translate(${x} ${y}) rotate(${degrees - 90})` }, root);
  }
  svgText(root, centre, centre - 10, words("round", { round: state.round }), "planet-name");
  svgText(root, centre, centre + 14, words("stock", { count: state.stock }), "crew-meta");
  state.planets.forEach((planet, index) => {
    const angle = (index / count) * 2 * Math.PI - Math.PI / 2;
    drawPlanet(root, planet, centre + radius * Math.cos(angle), centre + radius * Math.sin(angle));
  });
}

// A narrow board: the Planets in rows, in ring order (left to right, then the next row; the
// last is followed by the first), as many to a row as fit at a unit a pixel.
function renderPlanetRows(root, state, shown) {
  root.classList.add("rows");
  const spans = state.planets.map((planet) => planetSpan(planetCard(planet.id)));
  const cell = Math.max(...spans.map((span) => span.right - span.left)) + 8;
  const height = 136;
  const columns = Math.max(1, Math.floor(shown / cell));
  const rows = Math.ceil(state.planets.length / columns);
  const width = Math.max(shown, cell);
  root.setAttribute("viewBox", `0 0 ${width} ${rows * height}`);
  const pitch = width / columns;
  state.planets.forEach((planet, index) => {
    const span = spans[index];
    const x = (index % columns) * pitch + pitch / 2 - (span.left + span.right) / 2;
    drawPlanet(root, planet, x, Math.floor(index / columns) * height + 72);
  });
}

// How far a Planet's drawing reaches left and right of its centre (drawPlanet).
function planetSpan(card) {
  const reach = Math.max(card.track.length * 12, 72);
  return { left: Math.min(-reach - 4, -40 - specialWidth(card)), right: reach + 4 };
}

function specialWidth(card) {
  return Math.max(26, 6 + card.special_capacity * 15);
}

function drawPlanet(root, planet, x, y) {
  const card = planetCard(planet.id);
  const group = svg("g", { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, class: "planet", "data-id": planet.id }, root);
  if (matching("planet", planet.id).length) {
    group.classList.add("clickable");
    group.addEventListener("click", () => clickPlanet(planet.id));
  }
  svg("title", {}, group).textContent = words("planet_title", { planet: cardName("planets", planet.id), colour: cardName("colours", card.colour) });
  // the whole card takes the click, not only the drawn parts
  const reach = Math.max(card.track.length * 12, 72);
  svg("rect", { x: -reach - 4, y: -68, width: 2 * reach + 8, height: 128, class: "hit" }, group);
  svg("circle", { cx: 0, cy: -36, r: 28, fill: PLANET_FILLS[card.colour] || "#888", class: "planet-body" }, group);
  // the special square, left of the Planet
  const width = specialWidth(card);
  svg("rect", { x: -40 - width, y: -52, width, height: 26, rx: 3, class: "special" }, group);
  svgText(group, -40 - width / 2, -16, words("special"), "special-label");
  planet.special.forEach((owner, k) => cube(group, -40 - width + 5 + k * 15, -46, 14, owner));
  svgText(group, 0, 10, cardName("planets", planet.id), "planet-name");
  const size = 24;
  const left = (-card.track.length * size) / 2;
  card.track.forEach((vp, k) => {
    const sx = left + k * size;
    svg("rect", { x: sx + 1, y: 20, width: size - 2, height: 36, rx: 2, class: vp === 0 ? "square accident" : "square" }, group);
    svgText(group, sx + size / 2, 31, vp === 0 ? `✗${vp}` : String(vp), "square-vp");
    if (k < planet.track.length) cube(group, sx + 5, 37, 14, planet.track[k]);
  });
}

function renderCrew(state) {
  const root = document.getElementById("crew");
  root.replaceChildren();
  // As many cards to a row as fit at a unit a pixel, up to three; fewer cards are widened to
  // fill the row.
  const { height, gap } = CREW_CARD;
  const shown = drawnWidth(root) || CREW_CARD.columns * (CREW_CARD.width + gap);
  const columns = Math.max(1, Math.min(CREW_CARD.columns, Math.floor(shown / (CREW_CARD.width + gap))));
  const width = columns === CREW_CARD.columns ? CREW_CARD.width : Math.max(CREW_CARD.width, Math.floor(shown / columns) - gap);
  const rows = Math.ceil(state.crew.length / columns);
  root.setAttribute("viewBox", `0 0 ${columns * (width + gap)} ${rows * (height + gap)}`);
  state.crew.forEach((member, index) => {
    const card = crewCard(member.id);
    const x = (index % columns) * (width + gap) + gap / 2;
    const y = Math.floor(index / columns) * (height + gap) + gap / 2;
    const group = svg("g", { transform: `translate(${x} ${y})`, class: "crew", "data-id": member.id }, root);
    if (matching("crew", member.id).length) {
      group.classList.add("clickable");
      group.addEventListener("click", () => clickCrew(member.id));
    }
    svg("rect", { width, height, rx: 8, class: member.worker === null ? "card" : "card chosen" }, group);
    svgText(group, width / 2, 20, cardName("crew", member.id), "crew-name");
    const meta = [words("survey_count", { count: card.survey_count })];
    if (card.always_in_play) meta.push(words("always"));
    svgText(group, width / 2, 36, meta.join(" · "), "crew-meta");
    if (member.worker !== null) {
      const worker = svg("g", { class: "worker-pawn" }, group);
      svg("circle", { cx: width - 20, cy: 54, r: 12, fill: seatColour(member.worker), class: "worker" }, worker);
      svgText(worker, width - 20, 58, `P${member.worker + 1}`, "worker-label");
      svg("title", {}, worker).textContent = playerName(member.worker);
    }
    const cubes = [...Array(member.free_cubes).fill(FREE_CUBE), ...member.cubes];
    cubes.forEach((owner, k) => cube(group, 10 + (k % 8) * 17, 44 + Math.floor(k / 8) * 17, 14, owner));
    const box = svg("foreignObject", { x: 8, y: 64, width: width - 16, height: height - 70 }, group);
    const skill = document.createElementNS(XHTML_NS, "p");
    skill.className = "skill";
    skill.textContent = app.ruleset.skill_text[member.id][app.lang];
    box.append(skill);
  });
}

function renderSeats(state) {
  const table = document.getElementById("seats");
  table.replaceChildren();
  const head = table.insertRow();
  for (const text of ["", words("hand"), words("vp"), words("removed")]) {
    const cell = document.createElement("th");
    cell.textContent = text;
    head.append(cell);
  }
  const position = current();
  state.seats.forEach((seat, index) => {
    const row = table.insertRow();
    row.dataset.seat = index;
    if (position.current_player === index) row.classList.add("current");
    const who = row.insertCell();
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = seatColour(index);
    const spec = app.seats[index];
    who.append(swatch, `${playerName(index)} (${spec === "human" ? words("you") : words("bot", { spec })})`);
    for (const value of [seat.hand, seat.vp, seat.removed]) row.insertCell().textContent = value;
  });
}

function renderChoices() {
  const status = document.getElementById("status");
  const box = document.getElementById("choices");
  box.replaceChildren();
  const position = current();
  const seat = position.current_player;
  if (app.phase === "error") {
    status.textContent = words("error", { message: app.error });
  } else if (position.over) {
    status.textContent = words("game_over");
  } else if (app.phase === "bots" || app.phase === "busy") {
    status.textContent = words("bot_thinking", { player: playerName(seat), spec: app.seats[seat] });
  } else {
    status.textContent = `${words("decides", { player: playerName(seat) })}: ${words(`stage_${position.state.stage}`)}`;
  }
  document.getElementById("hint").hidden = app.phase !== "human";
  if (app.phase !== "human") return;
  position.legal.forEach((choice, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.index = index;
    button.textContent = choice.text[app.lang];
    if (app.filter !== null && choice.action.planet !== app.filter) button.classList.add("dimmed");
    button.addEventListener("click", () => play(index));
    box.append(button);
  });
}

function renderScore(position) {
  // The score sheet as the terminal prints it (text.tables.score_table), rendered by the server.
  const table = position.score.table[app.lang];
  document.getElementById("score-title").textContent = position.score.title[app.lang];
  const element = document.createElement("table");
  if (table.headers) {
    const head = element.createTHead().insertRow();
    for (const text of table.headers) {
      const cell = document.createElement("th");
      cell.textContent = text;
      head.append(cell);
    }
  }
  const body = element.createTBody();
  table.rows.forEach((cells, index) => {
    const row = body.insertRow();
    if (table.totals.includes(index)) row.className = "total";
    for (const text of cells) row.insertCell().textContent = text;
  });
  document.getElementById("score").replaceChildren(element);
  document.getElementById("winner").textContent = position.score.sheet.final ? position.score.winner[app.lang] : "";
}

function renderLog() {
  const list = document.getElementById("log");
  list.replaceChildren();
  for (const entry of app.history.slice(1)) {
    for (const item of entry.events) {
      const line = document.createElement("li");
      line.textContent = item.text[app.lang];
      line.dataset.key = item.event.key;
      if (item.event.key === "round_started" || item.event.key === "game_over") line.className = "round";
      else if (!entry.human) line.className = "bot-move";
      list.append(line);
    }
  }
  // The list numbers every line: its left padding must hold the widest number, or "100." shows as "00.".
  list.style.setProperty("--log-digits", String(String(list.children.length).length));
  list.scrollTop = list.scrollHeight;
}

// -- the setup form -----------------------------------------------------------------------

function buildSetupForm() {
  const players = document.getElementById("setup-players");
  for (const count of app.ruleset.player_counts) players.add(new Option(String(count), String(count)));
  players.value = String(app.ruleset.player_counts[app.ruleset.player_counts.length - 1]);
  players.addEventListener("change", renderSetupSeats);
  const seats = document.getElementById("setup-seats");
  const most = Math.max(...app.ruleset.player_counts);
  const fallback = app.ruleset.bots.includes(DEFAULT_BOT) ? DEFAULT_BOT : app.ruleset.bots[0];
  for (let seat = 0; seat < most; seat += 1) {
    const row = document.createElement("label");
    row.className = "seat-row";
    const name = document.createElement("span");
    const select = document.createElement("select");
    select.id = `setup-seat-${seat}`;
    select.add(new Option("human", "human"));
    for (const bot of app.ruleset.bots) select.add(new Option(bot, bot));
    select.value = seat === 0 ? "human" : fallback;
    row.append(name, select);
    seats.append(row);
  }
  renderSetupSeats();
  document.getElementById("setup-lang").value = app.lang;
  document.getElementById("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const count = Number(players.value);
    const specs = [...Array(count).keys()].map((seat) => document.getElementById(`setup-seat-${seat}`).value);
    app.lang = document.getElementById("setup-lang").value;
    document.getElementById("setup-dialog").close();
    startGame(count, specs, document.getElementById("setup-seed").value.trim()).catch((error) => {
      app.phase = "error";
      app.error = error.message;
      render();
    });
  });
}

function renderSetupSeats() {
  const players = document.getElementById("setup-players");
  if (!players || !app.words) return;
  const count = Number(players.value);
  document.querySelectorAll("#setup-seats .seat-row").forEach((row, seat) => {
    row.hidden = seat >= count;
    row.firstChild.textContent = playerName(seat);
    const select = row.querySelector("select");
    select.options[0].textContent = words("human");
  });
}

function openSetup() {
  if (!app.history.length) app.phase = "setup";
  document.getElementById("setup-dialog").showModal();
}

// -- start --------------------------------------------------------------------------------

async function init() {
  const params = new URLSearchParams(window.location.search);
  if (params.has("delay")) app.delay = Number(params.get("delay"));
  [app.ruleset, app.words] = await Promise.all([api("/api/ruleset"), api("/api/messages").then((all) => all.page)]);
  app.lang = params.get("lang") || (navigator.language.startsWith("ja") ? "ja" : "en");
  buildSetupForm();
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("save").addEventListener("click", () => save().catch((error) => {
    app.error = error.message;
    app.phase = "error";
    render();
  }));
  document.getElementById("new-game").addEventListener("click", openSetup);
  // the ring and the crew area are laid out for the width they are drawn at
  window.addEventListener("resize", () => {
    if (!app.history.length) return;
    renderRing(current().state);
    renderCrew(current().state);
  });
  document.getElementById("lang-toggle").addEventListener("click", () => {
    app.lang = app.lang === "ja" ? "en" : "ja";
    document.getElementById("setup-lang").value = app.lang;
    render();
  });
  app.phase = "setup";
  render();
  document.getElementById("status").textContent = words("waiting");
  openSetup();
}

init().catch((error) => {
  document.body.dataset.phase = "error";
  document.getElementById("status").textContent = `Error: ${error.message}`;
});
