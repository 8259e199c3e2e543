// krosbalance replay viewer: a thin renderer of the frames that krosbalance.render.frames built.
// Everything it shows is in the JSON of <script id="replay-data">; it computes nothing of the game.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var board = data.board, frames = data.frames, figures = data.figures, seats = data.seats;
  var SEAT_COLOURS = ["#2b6cb0", "#c53030", "#2f855a", "#b7791f"];
  var ZONE_TINTS = ["#bee3f8", "#fed7d7", "#c6f6d5", "#fefcbf"];
  var CELL = 44, PAD = 22;
  var W = board.width, H = board.height;
  var SVG_NS = "http://www.w3.org/2000/svg";
  var current = 0, timer = null;

  function colName(x) { var s = ""; x += 1; while (x) { var r = (x - 1) % 26; s = String.fromCharCode(65 + r) + s; x = Math.floor((x - 1) / 26); } return s; }
  function xy(cell) { return [cell % W, Math.floor(cell / W)]; }
  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    for (var key in attrs) { node.setAttribute(key, attrs[key]); }
    if (parent) { parent.appendChild(node); }
    return node;
  }
  function text(parent, x, y, content, attrs) {
    var node = el("text", Object.assign({ x: x, y: y, "text-anchor": "middle", "dominant-baseline": "central" }, attrs || {}), parent);
    node.textContent = content;
    return node;
  }
  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }

  // ------------------------------------------------------------------ the board (drawn once)
  var svg = document.getElementById("board");
  svg.setAttribute("width", W * CELL + PAD + 4);
  svg.setAttribute("height", H * CELL + PAD + 4);
  document.getElementById("legend").style.maxWidth = (W * CELL + PAD + 4) + "px";
  var ground = el("g", { transform: "translate(" + PAD + "," + PAD + ")" }, svg);
  var zoneOf = {};
  board.deploy.forEach(function (cells, zone) { cells.forEach(function (c) { zoneOf[c] = zone; }); });
  for (var c = 0; c < W * H; c++) {
    var p = xy(c);
    el("rect", { x: p[0] * CELL, y: p[1] * CELL, width: CELL, height: CELL, fill: zoneOf[c] === undefined ? "#f7f3e8" : ZONE_TINTS[zoneOf[c] % 4], stroke: "#b8b0a0", "stroke-width": 0.6 }, ground);
  }
  for (var x = 0; x < W; x++) { text(svg, PAD + x * CELL + CELL / 2, PAD / 2, colName(x), { "font-size": 11, fill: "#6b5a43" }); }
  for (var y = 0; y < H; y++) { text(svg, PAD / 2, PAD + y * CELL + CELL / 2, String(y + 1), { "font-size": 11, fill: "#6b5a43" }); }
  function centre(cell) { var q = xy(cell); return [q[0] * CELL + CELL / 2, q[1] * CELL + CELL / 2]; }
  board.demon.forEach(function (cell) { var q = xy(cell); el("rect", { x: q[0] * CELL + 3, y: q[1] * CELL + 3, width: CELL - 6, height: CELL - 6, fill: "none", stroke: "#6b46c1", "stroke-width": 2, "stroke-dasharray": "4 2" }, ground); });
  Object.keys(board.features).forEach(function (name) {
    board.features[name].forEach(function (cell) { var q = xy(cell); el("rect", { x: q[0] * CELL + 5, y: q[1] * CELL + 5, width: CELL - 10, height: CELL - 10, fill: "none", stroke: "#805ad5", "stroke-width": 1.5, rx: 6, "class": "feature-" + name }, ground); });
  });
  board.trees.forEach(function (cell) { var m = centre(cell); el("polygon", { points: (m[0] - 15) + "," + (m[1] + 15) + " " + (m[0] + 15) + "," + (m[1] + 15) + " " + m[0] + "," + (m[1] - 17), fill: "#2f6b2f" }, ground); });
  board.bushes.forEach(function (cell) { var m = centre(cell); el("circle", { cx: m[0], cy: m[1], r: 14, fill: "#8bc34a", stroke: "#558b2f" }, ground); });
  board.crates.forEach(function (cell) { var q = xy(cell); el("rect", { x: q[0] * CELL + 9, y: q[1] * CELL + 9, width: CELL - 18, height: CELL - 18, fill: "#a0703c", stroke: "#5d4037" }, ground); });
  var marksLayer = el("g", {}, ground), highlightLayer = el("g", {}, ground), piecesLayer = el("g", {}, ground);

  // ------------------------------------------------------------------ one frame
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
  var MARK_STYLE = { ice: "#90cdf4", fire: "#f6ad55", fog: "#a0aec0" };

  function drawMarks(frame) {
    clear(marksLayer);
    var marks = frame.marks;
    Object.keys(marks).forEach(function (name) {
      Object.keys(marks[name]).forEach(function (key) {
        var cell = Number(key), value = marks[name][key], q = xy(cell), m = centre(cell);
        if (name === "kamas") {
          el("circle", { cx: q[0] * CELL + CELL - 11, cy: q[1] * CELL + 11, r: 8, fill: "#d4a017", stroke: "#8a6d0b", "class": "kama" }, marksLayer);
          text(marksLayer, q[0] * CELL + CELL - 11, q[1] * CELL + 11, String(value), { "font-size": 10 });
        } else if (name === "glyph") {
          el("rect", { x: q[0] * CELL + 4, y: q[1] * CELL + 4, width: CELL - 8, height: CELL - 8, fill: seatColour(value), opacity: 0.35, rx: 6 }, marksLayer);
        } else if (name === "token") {
          el("rect", { x: q[0] * CELL + CELL - 18, y: q[1] * CELL + 3, width: 15, height: 15, fill: "#e9d8a6", stroke: "#7a5c00" }, marksLayer);
          text(marksLayer, q[0] * CELL + CELL - 10.5, q[1] * CELL + 10.5, String(value), { "font-size": 10 });
        } else {
          el("rect", { x: q[0] * CELL + 1, y: q[1] * CELL + 1, width: CELL - 2, height: CELL - 2, fill: MARK_STYLE[name] || "#ccc", opacity: 0.6 }, marksLayer);
          text(marksLayer, m[0], q[1] * CELL + CELL - 7, name, { "font-size": 8 });
        }
      });
    });
  }

  function drawPieces(frame) {
    clear(piecesLayer); clear(highlightLayer);
    frame.cells.forEach(function (cell) { if (cell >= 0) { var q = xy(cell); el("rect", { x: q[0] * CELL + 1, y: q[1] * CELL + 1, width: CELL - 2, height: CELL - 2, fill: "none", stroke: "#ed8936", "stroke-width": 3 }, highlightLayer); } });
    frame.pieces.forEach(function (piece) {
      var uid = piece[0], cell = piece[1], hp = piece[2], maxHp = piece[3], fig = figures[String(uid)];
      var m = centre(cell), small = fig.kind !== "krosmaster";
      var g = el("g", { "class": "piece", "data-uid": uid }, piecesLayer);
      var r = small ? 13 : 17;
      if (fig.kind === "bomb") {
        el("rect", { x: m[0] - r, y: m[1] - r, width: 2 * r, height: 2 * r, fill: seatColour(fig.seat), stroke: "#fff", "stroke-width": 1.5, transform: "rotate(45 " + m[0] + " " + m[1] + ")" }, g);
      } else {
        el("circle", { cx: m[0], cy: m[1], r: r, fill: seatColour(fig.seat), stroke: uid === frame.actor ? "#ffd700" : "#fff", "stroke-width": uid === frame.actor ? 4 : 1.5, opacity: small ? 0.85 : 1 }, g);
      }
      text(g, m[0], m[1] - 3, fig.short, { "font-size": small ? 9 : 10, fill: "#fff", "font-weight": "bold" });
      text(g, m[0], m[1] + 8, String(hp), { "font-size": 9, fill: "#fff" });
      var title = el("title", {}, g); title.textContent = fig.name + ": " + hp + "/" + maxHp + " HP";
    });
  }

  function cellText(frame) { return frame.text; }

  function renderSide(frame) {
    document.getElementById("step-label").textContent = "step " + (frame.index + 1) + " / " + frames.length + " · turn " + frame.turn;
    var events = document.getElementById("events"); clear(events);
    cellText(frame).forEach(function (line) { var div = document.createElement("div"); div.textContent = line; events.appendChild(div); });
    var actor = document.getElementById("actor");
    if (frame.actor !== null && frame.actor !== undefined) {
      var fig = figures[String(frame.actor)];
      actor.innerHTML = "";
      var dot = document.createElement("span"); dot.className = "seat-dot"; dot.style.background = seatColour(fig.seat); actor.appendChild(dot);
      actor.appendChild(document.createTextNode(fig.name + " — " + frame.mp + " MP, " + frame.ap + " AP left"));
    } else {
      actor.textContent = frame.seat >= 0 ? "none: " + seats[frame.seat].name + " to play" : "none";
    }
    var dice = document.getElementById("dice"); clear(dice);
    if (!frame.dice.length) { dice.textContent = "no dice this step"; }
    frame.dice.forEach(function (roll) {
      var row = document.createElement("div"); row.className = "dice-row";
      row.appendChild(document.createTextNode(roll.who + " — " + roll.roll + ": "));
      roll.faces.forEach(function (face) { var d = document.createElement("span"); d.className = "die"; d.textContent = face; row.appendChild(d); });
      if (roll.result) { row.appendChild(document.createTextNode(" → " + roll.result)); }
      dice.appendChild(row);
    });
    var hold = document.getElementById("holdings"); clear(hold);
    frame.holdings.forEach(function (items, seat) {
      var tr = document.createElement("tr");
      var td = document.createElement("td");
      var dot = document.createElement("span"); dot.className = "seat-dot"; dot.style.background = seatColour(seat); td.appendChild(dot);
      td.appendChild(document.createTextNode(seats[seat].name + (seats.length > 2 && seats[seat].partnership !== seat ? " (team " + seats[seat].partnership + ")" : "")));
      tr.appendChild(td);
      var vals = document.createElement("td");
      vals.textContent = items.map(function (it) { return it[0] + " " + it[1]; }).join(" · ");
      vals.className = "holding-values";
      tr.appendChild(vals);
      hold.appendChild(tr);
    });
    var hp = {}; frame.pieces.forEach(function (p) { hp[p[0]] = p; });
    var ko = {}; frame.ko.forEach(function (uid) { ko[uid] = true; });
    var tbody = document.getElementById("figures"); clear(tbody);
    Object.keys(figures).map(Number).sort(function (a, b) { return figures[a].seat - figures[b].seat || a - b; }).forEach(function (uid) {
      var fig = figures[String(uid)], piece = hp[uid];
      if (!piece && !(ko[uid] && fig.kind === "krosmaster")) { return; }  // gone summons: not listed
      var tr = document.createElement("tr");
      tr.setAttribute("data-uid", uid);
      if (ko[uid]) { tr.className = "ko"; } else if (uid === frame.actor) { tr.className = "acting"; }
      var name = document.createElement("td");
      var dot = document.createElement("span"); dot.className = "seat-dot"; dot.style.background = seatColour(fig.seat); name.appendChild(dot);
      name.appendChild(document.createTextNode(fig.name)); tr.appendChild(name);
      var where = document.createElement("td"); where.textContent = piece ? colName(piece[1] % W) + (Math.floor(piece[1] / W) + 1) : "KO"; tr.appendChild(where);
      var hpCell = document.createElement("td"); hpCell.className = "hp";
      if (piece) {
        hpCell.textContent = piece[2] + "/" + piece[3] + " HP";
        var bar = document.createElement("span"); bar.className = "hpbar"; var fill = document.createElement("span"); fill.style.width = Math.round(100 * piece[2] / Math.max(1, piece[3])) + "%"; bar.appendChild(fill); hpCell.appendChild(bar);
      } else { hpCell.textContent = "—"; }
      tr.appendChild(hpCell);
      tbody.appendChild(tr);
    });
    document.getElementById("winner").textContent = frame.index === frames.length - 1 ? data.meta.winner : "";
  }

  function show(k) {
    current = Math.max(0, Math.min(frames.length - 1, k));
    var frame = frames[current];
    drawMarks(frame); drawPieces(frame); renderSide(frame);
    document.getElementById("slider").value = current;
    document.body.setAttribute("data-step", String(current));
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } document.getElementById("play").textContent = "▶ play"; }
  function play() {
    if (timer) { stop(); return; }
    if (current >= frames.length - 1) { show(0); }
    document.getElementById("play").textContent = "⏸ pause";
    timer = setInterval(function () { if (current >= frames.length - 1) { stop(); } else { show(current + 1); } }, Number(document.getElementById("speed").value));
  }

  var slider = document.getElementById("slider");
  slider.max = frames.length - 1;
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  document.getElementById("first").addEventListener("click", function () { stop(); show(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); show(frames.length - 1); });
  document.getElementById("play").addEventListener("click", play);
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowRight") { stop(); show(current + 1); }
    else if (ev.key === "ArrowLeft") { stop(); show(current - 1); }
    else if (ev.key === " ") { ev.preventDefault(); play(); }
  });
  var fromHash = /step=(\d+)/.exec(window.location.hash);
  window.krosbalanceReplay = { show: show, count: frames.length, current: function () { return current; } };
  show(fromHash ? Number(fromHash[1]) : 0);
})();
